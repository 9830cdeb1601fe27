// The bundled Action (action.yml → action/dist/index.mjs) run as a workflow step would run it, against the
// GitHub emulator: the runner's INPUT_*/GITHUB_* variables, an event payload file, a workspace holding the
// config. Each case seeds its own repository and reads back what the Action wrote.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PERSONAL_TOKEN, startEmulator } from "../../emulator/index.js";
import { seedBoard } from "../../scripts/lib/seed-emulator.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONFIG = join(ROOT, "examples/prflow.json");
const NEEDS_HUMAN = "state:needs-human";
const ADDRESSING = "state:addressing";
/** The pull_request_target types the example workflow (examples/workflows/prflow.yml) listens to. */
const PR_TYPES = [
  "opened",
  "reopened",
  "synchronize",
  "ready_for_review",
  "converted_to_draft",
  "labeled",
  "unlabeled",
];

/** A workspace as actions/checkout leaves it: `.github/prflow.json` from `configText`, or the example config. */
function workspace(configText) {
  const dir = mkdtempSync(join(tmpdir(), "prflow-ws-"));
  mkdirSync(join(dir, ".github"));
  if (configText === undefined) copyFileSync(CONFIG, join(dir, ".github/prflow.json"));
  else writeFileSync(join(dir, ".github/prflow.json"), configText);
  return dir;
}

async function repository(count, { labels = true } = {}) {
  const em = await startEmulator();
  const board = seedBoard(em, count);
  const ws = workspace();
  const run = (inputs, { event = "schedule", payload = { schedule: "17,47 * * * *" }, dir = ws } = {}) =>
    em.runAction({
      actionPath: ROOT,
      event,
      payload,
      inputs: { mode: "reconcile", live: "true", ...inputs },
      workspace: dir,
    });
  if (labels) {
    const r = await run({ mode: "labels" });
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  em.reset();
  return { em, board, ws, run };
}

async function shutdown(em) {
  await em.settle();
  // em.close() is shadowed by the emulator's close(pull request number); stop the server directly.
  em.server.closeAllConnections?.();
  await new Promise((resolve) => em.server.close(resolve));
}

const labelsOf = (em, number) => [...em.state.pull(number).labels].sort();
const allLabels = (em, board) => Object.fromEntries(board.map(({ number }) => [number, labelsOf(em, number)]));
const noValidationFailures = (em) =>
  assert.deepEqual(em.validationFailures, [], "every request and response matched GitHub's schemas");

test("converges: 40 pull requests in mixed states converge in one live run; a second run writes nothing", async () => {
  const { em, board, run } = await repository(40);
  try {
    const first = await run({});
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.ok(Number(first.outputs.writes) > 0, "the first run wrote the labels");
    assert.equal(first.outputs.writes, first.outputs.ops, "every planned op was applied");
    const writes = em.requests.filter((q) => q.method !== "GET" && q.path !== "/graphql");
    assert.ok(writes.length >= Number(first.outputs.writes), "every applied op made its own requests");
    assert.deepEqual(
      [...new Set(writes.map((q) => `${q.method} ${q.operation}`))].filter(
        (w) => !/^(POST \S+\/labels|DELETE \S+\/labels\/\{name\}|POST \S+\/requested_reviewers)$/.test(w),
      ),
      [],
      "label edits only add and remove named labels; nothing replaces a set",
    );
    em.reset();

    const second = await run({});
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(second.outputs.ops, "0", "the second reconcile plan is empty");
    assert.equal(em.counts().writes, 0, "the second run made no write request");
    const plan = JSON.parse(second.outputs.plan);
    assert.equal(plan.pulls.length, board.length);
    for (const pull of plan.pulls) {
      assert.equal(
        labelsOf(em, pull.number).filter((l) => l.startsWith("state:")).length,
        1,
        `#${pull.number} carries exactly one state label`,
      );
    }
    noValidationFailures(em);
  } finally {
    await shutdown(em);
  }
});

test("dry run: live false writes nothing, and the job summary lists what it would do", async () => {
  const { em, board, run } = await repository(15);
  try {
    const before = allLabels(em, board);
    const r = await run({ live: "false" });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(em.counts().writes, 0, "no write request in a dry run");
    assert.deepEqual(allLabels(em, board), before, "no label changed");
    assert.ok(Number(r.outputs.ops) > 0, "there was something to do");
    assert.equal(r.outputs.writes, "0");
    assert.match(r.summary, /dry run: nothing was written/);
    const plan = JSON.parse(r.outputs.plan);
    for (const op of plan.ops)
      assert.match(
        r.summary,
        new RegExp(`^\\| #${op.number} \\|[^\\n]*would `, "m"),
        `#${op.number}'s row says what it would do`,
      );
    noValidationFailures(em);
  } finally {
    await shutdown(em);
  }
});

test("optimistic write: an agent's state:needs-human on a pull request that cannot merge fires a run that corrects it", async () => {
  const { em, board, ws, run } = await repository(15);
  try {
    assert.equal((await run({})).code, 0);
    const conflicting = board.find((b) => b.situation.startsWith("approved but conflicting")).number;
    assert.deepEqual(
      labelsOf(em, conflicting).filter((l) => l.startsWith("state:")),
      [ADDRESSING],
    );
    // The workflow of examples/workflows/prflow.yml, registered on the emulator's repository.
    em.workflows.on("pull_request_target", (event, payload) =>
      PR_TYPES.includes(payload.action)
        ? em.runAction({ actionPath: ROOT, event, payload, inputs: { mode: "reconcile", live: "true" }, workspace: ws })
        : null,
    );
    em.reset();
    // The agent hands off with its personal token: a write that starts workflow runs.
    const res = await fetch(`${em.url}/repos/acme/widgets/issues/${conflicting}/labels`, {
      method: "POST",
      headers: {
        authorization: `token ${PERSONAL_TOKEN}`,
        "content-type": "application/json",
        accept: "application/vnd.github+json",
      },
      body: JSON.stringify({ labels: [NEEDS_HUMAN] }),
    });
    assert.equal(res.status, 200);
    await em.settle();
    const started = em.runs.filter((r) => r.result);
    assert.equal(
      started.length,
      1,
      "the personal token's label write started exactly one run; the Action's own GITHUB_TOKEN writes started none",
    );
    assert.equal(started[0].result.code, 0, started[0].result.stdout + started[0].result.stderr);
    assert.match(
      started[0].result.stdout,
      new RegExp(`#${conflicting}: [^\\n]*−${NEEDS_HUMAN}`),
      "the log says what it removed",
    );
    const plan = JSON.parse(started[0].result.outputs.plan);
    assert.deepEqual(
      plan.pulls.map((p) => p.number),
      [conflicting],
      "the event names one pull request, and only that one was read and decided",
    );
    const states = labelsOf(em, conflicting).filter((l) => l.startsWith("state:"));
    assert.deepEqual(states, [ADDRESSING], "corrected back to the agent's court");
    assert.ok(labelsOf(em, conflicting).includes("blocker:conflict"));
    noValidationFailures(em);
  } finally {
    await shutdown(em);
  }
});

test("unknown is not empty: a failed read of the repository's label set strips no label", async () => {
  const { em, board, run } = await repository(15);
  try {
    assert.equal((await run({})).code, 0);
    const before = allLabels(em, board);
    em.reset();
    em.inject({ kind: "labels-read-fails" });
    const r = await run({});
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(allLabels(em, board), before, "every pull request kept every label");
    assert.equal(em.counts().writes, 0, "no write at all");
    assert.ok(Number(r.outputs.warnings) >= 1, "the run warns that the label set could not be read");
    assert.match(r.summary, /labels could not be read/);
  } finally {
    await shutdown(em);
  }
});

test("faults: 5xx, a secondary rate limit with retry-after and a 429 are retried, and the run still converges", async () => {
  const { em, run } = await repository(20);
  try {
    const faults = [
      em.inject({ kind: "5xx", status: 502, match: { path: "/graphql" }, times: 1 }),
      em.inject({ kind: "secondary-rate-limit", retryAfter: 2, match: { method: "POST", path: "/labels" }, times: 2 }),
      em.inject({ kind: "429", retryAfter: 1, match: { method: "POST", path: "/requested_reviewers" }, times: 1 }),
      em.inject({ kind: "5xx", status: 503, match: { path: "/rules/branches/" }, times: 1 }),
    ];
    const r = await run({});
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const f of faults) assert.equal(f.hits, f.times, `fault ${f.kind} on ${JSON.stringify(f.match)} was hit`);
    assert.match(r.stdout, /retry/i, "the log says it retried");
    assert.equal(r.outputs.writes, r.outputs.ops, "every op was applied in the end");
    em.reset();
    const again = await run({});
    assert.equal(again.outputs.ops, "0", "converged despite the faults");
    assert.equal(em.counts().writes, 0);
  } finally {
    await shutdown(em);
  }
});

test("bad config: an invalid .github/prflow.json fails the run naming the file and JSON path, and writes nothing", async () => {
  const cases = [
    {
      rule: "an unknown key",
      text: '{"stale": {"dayz": 3}}',
      expect: /\.github\/prflow\.json: \$\.stale\.dayz: expected a known key/,
    },
    {
      rule: "a wrong type",
      text: '{"botPanel": {"bots": ["claude-bot", 7]}}',
      expect: /\.github\/prflow\.json: \$\.botPanel\.bots\[1\]: expected a string, found integer `7`/,
    },
    { rule: "not JSON", text: "{ flow: bot-panel", expect: /\.github\/prflow\.json: \$: expected JSON/ },
  ];
  const { em, run } = await repository(5, { labels: false });
  try {
    for (const c of cases) {
      em.reset();
      const r = await run({}, { dir: workspace(c.text) });
      assert.equal(r.code, 1, `${c.rule}: the run fails`);
      assert.match(r.stdout, c.expect, `${c.rule}: the log names file and path`);
      assert.match(r.summary, c.expect, `${c.rule}: so does the job summary`);
      assert.equal(em.counts().writes, 0, `${c.rule}: nothing written`);
      assert.equal(em.counts().total, 0, `${c.rule}: not even read: the config is checked first`);
    }
  } finally {
    await shutdown(em);
  }
});

test("labels mode: an upsert; the second run changes nothing and an unused prflow label is reported, never deleted", async () => {
  const { em, ws } = await repository(3, { labels: false });
  try {
    em.createLabel({ name: "state:needs-rebase", color: "ededed", description: "Set by prflow: retired" });
    em.createLabel({ name: "stale", color: "ffffff", description: "old hand-made description" });
    const labels = (live = "true") =>
      em.runAction({
        actionPath: ROOT,
        event: "workflow_dispatch",
        payload: {},
        inputs: { mode: "labels", live },
        workspace: ws,
      });
    const first = await labels();
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const results = JSON.parse(first.outputs.plan);
    assert.equal(
      results.find((r) => r.name === "stale").status,
      "updated",
      "an existing label's colour and description are brought in line",
    );
    assert.ok(results.filter((r) => r.status === "created").length >= 10);
    for (const r of results)
      assert.ok([...r.description].length <= 100, `${r.name}: description within GitHub's 100 characters`);
    assert.match(first.summary, /state:needs-rebase/, "the retired label is reported");
    em.reset();
    const second = await labels();
    assert.equal(second.code, 0);
    assert.equal(second.outputs.writes, "0", "the second run changes nothing");
    assert.equal(em.counts().writes, 0);
    assert.ok(em.state.label("state:needs-rebase"), "the unused label still exists");
    assert.equal(em.counts().byOperation["DELETE /repos/{owner}/{repo}/labels/{name}"] ?? 0, 0);
    noValidationFailures(em);
  } finally {
    await shutdown(em);
  }
});

test("a write that still fails after its retries fails the run, names the pull request, and the other writes are made", async () => {
  const { em, board, run } = await repository(10);
  try {
    const victim = board.find((b) => b.situation.startsWith("approved but a check failed")).number;
    const fault = em.inject({
      kind: "5xx",
      status: 500,
      match: { method: "POST", path: `/issues/${victim}/labels` },
      times: 100,
    });
    const r = await run({});
    assert.equal(r.code, 1, "the run fails so that someone looks");
    assert.ok(fault.hits > 1, "the write was retried before giving up");
    assert.match(r.stdout, new RegExp(`::error::writing: #${victim}: editLabels failed`));
    assert.equal(Number(r.outputs.writes), Number(r.outputs.ops) - 1, "every other op was applied");
    assert.match(r.summary, new RegExp(`^\\| #${victim} \\|[^\\n]*failed`, "m"), "the summary row says it failed");
  } finally {
    await shutdown(em);
  }
});
