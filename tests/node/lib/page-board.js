// The dashboard tests' repository: a reader's token, the config in the repository, the seeded pull
// requests, and the Action's passes over them so state labels exist and time in state starts. The
// jsdom and the chromium suites seed the same way; each brings its own seeds. A seed's `after(gh, pr)`
// adds what needs the pull request's number or head (comments carrying markers, trailers); its
// `later(gh, pr)` what happens once the Action has labelled the board (then the Action runs again).
import assert from "node:assert/strict";
import { createEngine } from "../../../js/node.js";
import { startEmulator } from "../../../emulator/index.js";
import { makeOctokit, readFacts } from "../../../lib/github/index.js";
import { githubPort } from "../../../lib/stations/github-port.js";

export async function seedPageBoard({ owner, repo, token, config, seeds }) {
  const gh = await startEmulator({ owner, repo });
  // The emulator's clock starts near the browser's, so minutes in state stay plausible; the
  // equality checks do not depend on it.
  gh.clock.set(Date.now() - 3 * 3600_000);
  gh.registerToken(token, "alice");
  gh.user("alice", { association: "MEMBER" });
  for (const l of createEngine(config).labelCatalog().labels) gh.createLabel(l);
  gh.setFile(".github/prflow.json", `${JSON.stringify(config, null, 2)}\n`);
  for (const seed of seeds) {
    const pr = gh.createPull(seed.pull);
    gh.clock.advance({ minutes: 7 });
    if (seed.check) gh.checkRun({ number: pr.number, name: "test", status: "COMPLETED", conclusion: seed.check });
    if (seed.review) gh.review(pr.number, seed.review);
    seed.after?.(gh, pr);
    gh.clock.advance({ minutes: 3 });
  }
  const app = makeOctokit({ token: gh.appToken, baseUrl: gh.url, timeScale: 0.001 });
  const converge = async () => {
    for (let i = 0; i < 3; i++) {
      const facts = await readFacts(app, { owner, repo });
      const plan = createEngine(config).reconcile({ facts });
      assert.deepEqual(plan.configErrors, []);
      if (!plan.ops.length) break;
      await githubPort(app, { owner, repo }).apply(plan.ops, facts);
      gh.clock.advance({ minutes: 20 });
    }
  };
  await converge();
  // What happens once the Action has labelled the board (a later review): a second state, so a timeline.
  const later = seeds.map((seed, i) => [seed, i + 1]).filter(([seed]) => seed.later);
  for (const [seed, number] of later) seed.later(gh, gh.state.pull(number));
  if (later.length) await converge();
  gh.reset();
  return gh;
}
