// The central promises, each caught on the emulator through the bundled Action (not only by cargo):
// an unknown fact never removes a label, and only the tool's own markers count. (A failed label-set
// read: action-e2e.test.js; one claimer per race: stations-race-emulator.test.js; no code path
// approves: stations-e2e.test.js.) Each test first shows the situation that would change something,
// so it cannot pass by the Action doing nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeClock, startEmulator } from "../../emulator/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NEEDS_HUMAN = "state:needs-human";

function workspace(config) {
  const dir = mkdtempSync(join(tmpdir(), "prflow-ws-"));
  mkdirSync(join(dir, ".github"));
  if (config === undefined) copyFileSync(join(ROOT, "examples/prflow.json"), join(dir, ".github/prflow.json"));
  else writeFileSync(join(dir, ".github/prflow.json"), JSON.stringify(config));
  return dir;
}

async function shutdown(gh) {
  await gh.settle();
  gh.server.closeAllConnections?.();
  await new Promise((resolve) => gh.server.close(resolve));
}

const BOTS = ["claude-bot", "codex-bot", "gemini-bot"];

test("an unknown fact never removes a label: a push stales the approvals, but while reviews cannot be read needs-human stays", async () => {
  const gh = await startEmulator();
  try {
    const ws = workspace();
    const run = (inputs = {}) =>
      gh.runAction({
        actionPath: ROOT,
        event: "schedule",
        payload: { schedule: "17,47 * * * *" },
        inputs: { mode: "reconcile", live: "true", ...inputs },
        workspace: ws,
      });
    assert.equal((await run({ mode: "labels" })).code, 0);
    const pr = gh.createPull({ title: "ready to merge", author: "agent-box", files: ["src/a.rs"] });
    for (const bot of BOTS) gh.review(pr.number, { author: bot, state: "APPROVED" });
    gh.checkRun({ number: pr.number, name: "test", conclusion: "SUCCESS" });
    gh.clock.advance({ minutes: 5 }); // past the minute GitHub reports mergeability UNKNOWN
    const first = await run();
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.ok([...gh.state.pull(pr.number).labels].includes(NEEDS_HUMAN), "the round is complete: needs-human");

    gh.push(pr.number, { by: "agent-box" });
    gh.checkRun({ number: pr.number, name: "test", conclusion: "SUCCESS" });
    gh.clock.advance({ minutes: 5 });
    gh.inject({ kind: "field-fails", field: "reviews", times: Infinity });
    const blind = await run();
    assert.equal(blind.code, 0, blind.stdout + blind.stderr);
    assert.ok([...gh.state.pull(pr.number).labels].includes(NEEDS_HUMAN), "reviews unreadable: the state label stays");

    gh.faultList.length = 0;
    const seeing = await run();
    assert.equal(seeing.code, 0, seeing.stdout + seeing.stderr);
    assert.ok(
      ![...gh.state.pull(pr.number).labels].includes(NEEDS_HUMAN),
      "reviews read again: the staled approvals demote it",
    );
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await shutdown(gh);
  }
});

// The follow-up marker the sweep itself writes for the 240-minute level of a stay that began at 08:00.
const MARK = "<!-- prflow:followup state=state:ready-for-review since=2026-11-30T08:00:00Z level=240 -->";

async function sweepWithMark(author) {
  const gh = await startEmulator({ clock: makeClock("2026-11-30T08:00:00Z") });
  try {
    const ws = workspace({ followup: { people: { humans: ["alice", "bob"], onDuty: "alice", reviewers: ["bob"] } } });
    gh.createLabel({ name: "state:ready-for-review" });
    const pr = gh.createPull({ title: "Waiting too long", author: "agent-m1" });
    gh.addLabels(pr.number, ["state:ready-for-review"], { by: "agent-m1" });
    gh.clock.advance({ minutes: 245 });
    gh.comment(pr.number, { author, body: `${MARK}\nalready pinged, nothing to see` });
    const r = await gh.runAction({
      actionPath: ROOT,
      event: "schedule",
      payload: { schedule: "7,37 * * * 1-5" },
      inputs: { mode: "sweep", live: "true" },
      workspace: ws,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(gh.validationFailures, []);
    const comments = gh.state.pull(pr.number).comments.map((id) => gh.state.comments.get(id));
    return comments.slice(1).filter((c) => c.author === "github-actions[bot]" && c.body.startsWith(MARK)).length;
  } finally {
    await shutdown(gh);
  }
}

test("only the tool's own markers count: the app's own mark silences the level, a User named like the app does not", async () => {
  assert.equal(
    await sweepWithMark("github-actions[bot]"),
    0,
    "the app's mark is its own: the level counts as pinged, no new comment",
  );
  assert.equal(
    await sweepWithMark("github-actions"),
    1,
    "a User's copy is not trusted: the stop-the-line ping is written",
  );
});
