// The Action's gate modes (stations flow) on the emulator, run as a workflow step would run them:
// gate-classify settles a docs-only pull request by itself and says `need=false`; for code it writes a
// pending status and says `need=true`; gate-report after a push records the result on the tested
// commit only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setup } from "./lib/setup.js";

const config = { flow: "stations", stations: { machines: { m1: { role: "dev", logins: ["agent-m1"] } } } };

/** The stations repository, a workspace holding its config, and `gate`: one run of the Action in a gate mode. */
async function gateRepo(t) {
  const { gh, dir: workspace } = await setup(t, {
    owner: "acme",
    repo: "widgets",
    seed: "stations-action",
    config,
    users: { alice: "MEMBER" },
    dir: "gate",
  });
  mkdirSync(join(workspace, ".github"));
  writeFileSync(join(workspace, ".github/prflow.json"), JSON.stringify(config));
  const gate = (mode, inputs) =>
    gh.runAction({
      actionPath: ".",
      event: "pull_request_review",
      payload: {},
      workspace,
      inputs: { mode, live: "true", ...inputs },
    });
  const gateState = (sha) => gh.state.statusesFor(sha).find((s) => s.context === "win-verify")?.state ?? "none";
  return { gh, gate, gateState };
}

test("action gate-classify: docs-only passes without the machine; code needs it", async (t) => {
  const { gh, gate, gateState } = await gateRepo(t);
  const docs = gh.createPull({ author: "agent-m1", labels: ["from:m1"], files: ["docs/a.md"] });
  const code = gh.createPull({ author: "agent-m1", labels: ["from:m1"], files: ["src/a.rs"] });
  gh.clock.advance({ minutes: 1 });
  gh.review(docs.number, { author: "alice" });
  gh.review(code.number, { author: "alice" });
  gh.clock.advance({ minutes: 1 });
  let r = await gate("gate-classify", { numbers: String(docs.number) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.outputs.need, "false");
  assert.equal(gateState(docs.headSha), "success");
  assert.ok(gh.state.pull(docs.number).labels.includes("state:ready-to-merge"));
  r = await gate("gate-classify", { numbers: String(code.number) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.outputs.need, "true");
  assert.equal(r.outputs.sha, code.headSha);
  assert.equal(gateState(code.headSha), "pending");
  assert.ok(gh.state.pull(code.number).labels.includes("state:win-verify"));
  assert.deepEqual(gh.validationFailures, []);
});

test("action gate-report: a push during validation leaves labels alone and the new head pending", async (t) => {
  const { gh, gate, gateState } = await gateRepo(t);
  const pr = gh.createPull({ author: "agent-m1", labels: ["from:m1"], files: ["src/a.rs"] });
  gh.clock.advance({ minutes: 1 });
  gh.review(pr.number, { author: "alice" });
  gh.clock.advance({ minutes: 1 });
  const c = await gate("gate-classify", { numbers: String(pr.number) });
  const tested = c.outputs.sha;
  const labelsBefore = [...gh.state.pull(pr.number).labels].sort();
  gh.clock.advance({ minutes: 1 });
  gh.push(pr.number, { by: "agent-m1" });
  gh.clock.advance({ minutes: 1 });
  const r = await gate("gate-report", { numbers: String(pr.number), sha: tested, result: "success" });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(gateState(tested), "success");
  assert.equal(
    gateState(gh.state.pull(pr.number).headSha),
    "none",
    "no status on the new head: the required check stays pending",
  );
  assert.deepEqual([...gh.state.pull(pr.number).labels].sort(), labelsBefore, "labels untouched by the report");
  assert.deepEqual(gh.validationFailures, []);
});
