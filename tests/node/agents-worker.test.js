// The agents' side and the worker together on the emulator with real git: the worker sets a real
// conflict aside, a fixer station with a scripted AI claims it and pushes the fix under skip-ci, and
// the worker lands it with exactly one CI run for the fixed head.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit } from "../../lib/github/index.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue } from "../../lib/queue/worker.js";
import { createEngine } from "../../js/node.js";
import { runCli, PRESET_CONFIG } from "./lib/cli.js";

const OPTIONS = {
  dryRun: false,
  autoFix: true,
  activeInterval: 30,
  idleAfter: 10,
  idleInterval: 300,
  pollInterval: 30,
};
const RESOLVER = `#!/bin/sh
cat > /dev/null
printf 'resolved by the fixer\\n' > src/c.rs
git add src/c.rs
git rebase --continue >/dev/null
`;

test("a conflict set aside by the worker is fixed by a fixer station and landed by the worker with exactly one CI run for the fixed head", async (t) => {
  const gh = await startEmulator({ git: true });
  const work = mkdtempSync(join(tmpdir(), "prflow-agents-worker-"));
  t.after(async () => {
    await gh.close();
    rmSync(work, { recursive: true, force: true });
  });
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(["ci", "no-skip-ci-label"], { strict: true });
  gh.ci.register({ name: "CI", jobs: [{ name: "test", minutes: 10 }], aggregate: "ci", guard: "no-skip-ci-label" });
  const octokit = makeOctokit({ token: gh.personalToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl });
  const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(work, "worker") });
  const lines = [];
  const go = (until) => {
    let steps = 0;
    return runQueue({
      gh: { octokit, owner: gh.owner, repo: gh.repo },
      g,
      engine: createEngine(),
      options: OPTIONS,
      log: (l) => lines.push(l),
      sleep: async (ms) => gh.clock.advance(ms),
      stopWhen: (out) => until(out) || ++steps >= 60,
    });
  };
  const pr = gh.createPull({
    title: "clash",
    head: "agent/clash",
    files: ["src/c.rs"],
    labels: ["merge-queued", "skip-ci"],
    conflicting: true,
  });
  const n = pr.number;
  const conflicted = pr.headSha;
  const comments = () => gh.state.pull(n).comments.map((id) => gh.state.comments.get(id).body);

  await go(() => comments().some((b) => b.startsWith("<!-- prflow:set-aside reason=rebase-failed")));
  assert.ok(
    comments().some((b) => b.startsWith("<!-- prflow:set-aside reason=rebase-failed")),
    lines.join("\n"),
  );

  writeFileSync(join(work, "ai.sh"), RESOLVER);
  const env = { ...gh.env(gh.personalToken), PRFLOW_STATE_DIR: join(work, "fixer") };
  const fixed = await runCli(
    [
      "fixer",
      "fixer-1",
      "--ai",
      `sh ${join(work, "ai.sh")}`,
      "--once",
      "--repo",
      `${gh.owner}/${gh.repo}`,
      "--config",
      PRESET_CONFIG,
    ],
    { env },
  );
  assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
  const fixedHead = gh.state.pull(n).headSha;
  assert.notEqual(fixedHead, conflicted);
  assert.match(fixed.stdout, /pushed under skip-ci/);

  await go(() => gh.state.pull(n).merged);
  assert.ok(gh.state.pull(n).merged, lines.join("\n"));
  const usage = gh.ci.usage({ number: n }).heads;
  const landed = gh.state.pull(n).headSha;
  assert.equal(
    usage[landed]?.runs,
    1,
    `exactly one CI run for the head that landed: ${JSON.stringify(usage)}\n${lines.join("\n")}`,
  );
  assert.deepEqual(gh.validationFailures, []);
});
