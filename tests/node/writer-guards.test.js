// The writer table's promises, kept by the bundled Action run as a workflow step against the emulator:
// a label a person adds while prflow edits the same pull request is still there afterwards (label edits
// add and remove named labels, never replace the set), and an op whose head moved between prflow's read
// and its write is not applied and comes back as guard-failed. The person acts through the emulator's
// `meanwhile` fault, just before the matched request is served.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../../emulator/index.js";
import { seedBoard } from "../../scripts/lib/seed-emulator.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PERSON_LABEL = "needs-discussion";

async function repository(count) {
  const em = await startEmulator();
  const board = seedBoard(em, count);
  em.createLabel({ name: PERSON_LABEL });
  const ws = mkdtempSync(join(tmpdir(), "prflow-ws-"));
  mkdirSync(join(ws, ".github"));
  copyFileSync(join(ROOT, "examples/prflow.json"), join(ws, ".github/prflow.json"));
  const run = (inputs = {}) =>
    em.runAction({
      actionPath: ROOT,
      event: "schedule",
      payload: { schedule: "17,47 * * * *" },
      inputs: { mode: "reconcile", live: "true", ...inputs },
      workspace: ws,
    });
  const labels = await run({ mode: "labels" });
  assert.equal(labels.code, 0, labels.stdout + labels.stderr);
  em.reset();
  return { em, board, run };
}

async function shutdown(em) {
  await em.settle();
  em.server.closeAllConnections?.();
  await new Promise((resolve) => em.server.close(resolve));
}

const numberIn = (path) => Number(/\/(?:issues|pulls)\/(\d+)/.exec(path)[1]);

test("a label a person adds while the Action edits the same pull request is still there afterwards", async () => {
  const { em, run } = await repository(12);
  try {
    let touched = null;
    // The person adds a label just before prflow's first label write on that pull request reaches GitHub.
    const f = em.inject({
      kind: "meanwhile",
      match: { path: /\/issues\/\d+(\/labels.*)?$/ },
      run: (emulator, { path }) => {
        touched = numberIn(path);
        emulator.addLabels(touched, [PERSON_LABEL], { by: "alice" });
      },
    });
    const r = await run();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(f.hits, 1, "the person acted in between");
    const labels = em.state.pull(touched).labels;
    assert.ok(labels.includes(PERSON_LABEL), `#${touched} kept the person's label: ${labels}`);
    assert.equal(labels.filter((l) => l.startsWith("state:")).length, 1, "and got prflow's state label");
    const replacing = em.requests.filter(
      (q) => q.method === "PUT" || (q.method === "PATCH" && /\/issues\/\d+$/.test(q.path)),
    );
    assert.deepEqual(replacing, [], "no request replaced a label set");
    assert.deepEqual(em.validationFailures, []);
  } finally {
    await shutdown(em);
  }
});

test("a push between the Action's read and its write: the op is not applied and the result says guard-failed", async () => {
  const { em, run } = await repository(12);
  try {
    let moved = null;
    let before = null;
    // The guard's fresh read of the first pull request prflow writes to; the author pushes just before it.
    em.inject({
      kind: "meanwhile",
      match: { method: "GET", path: /\/pulls\/\d+$/ },
      run: (emulator, { path }) => {
        moved = numberIn(path);
        before = [...emulator.state.pull(moved).labels];
        emulator.push(moved, { by: emulator.state.pull(moved).author });
      },
    });
    const r = await run();
    assert.equal(r.code, 0, "a failed guard is no failure of the run: " + r.stdout + r.stderr);
    assert.ok(moved, "prflow read the pull request before writing");
    assert.deepEqual(em.state.pull(moved).labels, before, `#${moved}: nothing was written after its head moved`);
    assert.match(
      r.stdout,
      new RegExp(`#${moved}: [^\\n]*\\[guard-failed: the head moved from `),
      "the log line says guard-failed and why",
    );
    assert.match(r.summary, new RegExp(`\\| #${moved} \\|[^\\n]*guard-failed`), "so does the job summary");
    assert.ok(Number(r.outputs.writes) > 0, "other pull requests were still written");
    assert.deepEqual(em.validationFailures, []);
  } finally {
    await shutdown(em);
  }
});
