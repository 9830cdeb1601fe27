// The demo's board (`npm run demo -- --dashboard`) is truthful and full: its repository holds the config
// the Action runs with, and once reconciled the dashboard has something in every group and every
// picture: a merge queue with a Merge-After edge and a stack, a set-aside conflict with its Retry box,
// a claimed pull request, a failed check, and a stop-the-line. Read as the page reads it (the owner's
// token), decided by the engine; nothing here is expected by hand but which situations exist.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createEngine } from "../../js/node.js";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit, readFacts } from "../../lib/github/index.js";
import { readBoardFacts } from "../../lib/github/read-queue.js";
import { githubPort } from "../../lib/stations/github-port.js";
import { demoConfig, seedDemo } from "../../scripts/lib/demo-emulator.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

test("the demo board fills every group of the dashboard, the graph, a set-aside, a claim and a stop-the-line", async (t) => {
  const em = await startEmulator();
  try {
    const config = demoConfig(root);
    const engine = createEngine(config);
    assert.deepEqual(engine.configErrors(), [], "the demo's config is valid");
    const board = seedDemo(em, 20);
    em.setFile(".github/prflow.json", JSON.stringify(config));
    for (const l of engine.labelCatalog().labels) if (!em.state.label(l.name)) em.createLabel(l);
    // The Action's reconcile, as the demo runs it, until the board is converged.
    const app = makeOctokit({ token: em.appToken, baseUrl: em.url, timeScale: 0.001 });
    for (let i = 0; i < 3; i++) {
      const facts = await readFacts(app, { owner: em.state.owner, repo: em.state.repo });
      const plan = engine.reconcile({ facts });
      if (!plan.ops.length) break;
      await githubPort(app, { owner: em.state.owner, repo: em.state.repo }).apply(plan.ops, facts);
    }
    const facts = await readBoardFacts(makeOctokit({ token: em.personalToken, baseUrl: em.url }), { owner: em.state.owner, repo: em.state.repo, engine });
    const view = engine.dashboard({ facts });
    t.diagnostic(view.groups.map((g) => `${g.actor}: ${g.numbers.join(", ")}`).join("; "));
    for (const r of view.rows.filter((r) => r.queue)) t.diagnostic(`#${r.number} ${r.title}: ${r.queue.triage} ${r.queue.reason}: ${r.queue.detail}`);
    assert.equal(view.rows.length, board.length);

    const actors = view.groups.map((g) => g.actor);
    for (const a of ["reviewers", "agents", "queue", "person"]) assert.ok(actors.includes(a), `someone waits on ${a}: ${actors}`);
    assert.ok(!actors.includes("nobody"), `no pull request without an actor (a bug): ${JSON.stringify(view.rows.filter((r) => r.actor === "nobody").map((r) => [r.number, r.nextAction]))}`);
    const vias = new Set(view.graph.edges.map((e) => e.via));
    assert.ok(vias.has("mergeAfter") && vias.has("stack"), `a Merge-After edge and a stack: ${[...vias]}`);
    const setAside = view.rows.find((r) => r.setAside);
    assert.equal(setAside?.setAside.reason, "rebase-failed", "a set-aside conflict");
    assert.ok(setAside.setAside.commentId, "with the comment holding its Retry box");
    assert.ok(view.rows.some((r) => r.claim?.by === "fixer-box"), "a claimed pull request");
    assert.ok(view.rows.some((r) => r.checkRuns.failed.length), "a failed check to link");
    assert.ok(view.queue.order.length > 0 || view.queue.inFlight.length > 0, `the queue has work: ${JSON.stringify(view.queue)}`);
    assert.equal(view.stopTheLine, true, "the pull request left for weeks stops the line");
    assert.deepEqual(em.validationFailures, []);
  } finally {
    await em.close();
  }
});
