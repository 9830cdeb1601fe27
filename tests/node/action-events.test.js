// Every event the example workflow listens to, with GitHub's own payloads (@octokit/webhooks-examples), run
// through the bundled Action as the runner would: it must start, decide the scope the event names, read
// only those pull requests, and finish cleanly. Dry runs: the point is the event handling, not the writes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../../emulator/index.js";
import { parseEvent } from "../../lib/github/index.js";
import { seedBoard } from "../../scripts/lib/seed-emulator.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const require = createRequire(import.meta.url);
const EXAMPLES = JSON.parse(
  readFileSync(require.resolve("@octokit/webhooks-examples/api.github.com/index.json"), "utf8"),
);

/** The first example of `name` whose action is `action` (and that passes `when`). */
function example(name, action, when = () => true) {
  const found = EXAMPLES.find((e) => e.name === name)?.examples.find(
    (x) => (action === undefined || x.action === action) && when(x),
  );
  assert.ok(found, `@octokit/webhooks-examples has a ${name}${action ? `.${action}` : ""} example`);
  return found;
}

// [workflow event name, payload, what the case pins]
const cases = [
  ["pull_request_target", () => example("pull_request", "opened"), "a pull request event names its pull request"],
  ["pull_request_target", () => example("pull_request", "labeled"), "an agent's label write is reconciled at once"],
  ["pull_request_target", () => example("pull_request", "converted_to_draft"), "a draft change names its pull request"],
  ["pull_request_review", () => example("pull_request_review", "submitted"), "a review names its pull request"],
  ["issue_comment", () => example("issue_comment", "created"), "a comment names its issue or pull request"],
  [
    "check_suite",
    () => example("check_suite", "completed", (x) => x.check_suite.pull_requests.length > 0),
    "a check suite names its pull requests",
  ],
  [
    "check_suite",
    () => example("check_suite", "completed", (x) => x.check_suite.pull_requests.length === 0),
    "a fork's check suite names none: sweep all",
  ],
  ["check_run", () => example("check_run", "completed"), "a check run names its pull requests"],
  ["status", () => example("status"), "a status names only a commit: sweep all"],
  ["workflow_dispatch", () => example("workflow_dispatch"), "started by hand: sweep all"],
  ["schedule", () => ({ schedule: "17,47 * * * *" }), "the schedule sweeps all"],
];

test("events: GitHub's example payloads of every handled event run the bundled Action to the scope they name", async () => {
  const em = await startEmulator();
  try {
    const board = seedBoard(em, 3);
    const open = board.map((b) => b.number);
    const ws = mkdtempSync(join(tmpdir(), "prflow-ws-"));
    mkdirSync(join(ws, ".github"));
    copyFileSync(join(ROOT, "examples/prflow.json"), join(ws, ".github/prflow.json"));
    for (const [event, payload, rule] of cases) {
      em.reset();
      const body = payload();
      const r = await em.runAction({
        actionPath: ROOT,
        event,
        payload: body,
        inputs: { mode: "reconcile", live: "false" },
        workspace: ws,
      });
      assert.equal(r.code, 0, `${rule}: ${r.stdout}${r.stderr}`);
      const scope = parseEvent(event, body);
      const decided = JSON.parse(r.outputs.plan).pulls.map((p) => p.number);
      const expected =
        scope.scope === "all" ? open : scope.scope === "pulls" ? scope.numbers.filter((n) => open.includes(n)) : [];
      assert.deepEqual(decided, expected, `${rule}: decided exactly the pull requests the event names`);
      if (scope.scope === "none") assert.equal(em.counts().total, 0, `${rule}: nothing to do, nothing read`);
      assert.equal(em.counts().writes, 0, `${rule}: a dry run writes nothing`);
    }
    assert.deepEqual(em.validationFailures, []);
  } finally {
    await em.settle();
    em.server.closeAllConnections?.();
    await new Promise((resolve) => em.server.close(resolve));
  }
});
