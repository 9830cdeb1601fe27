// The emulator's clock timers and CI simulator: jobs that take clock time, `skip-ci` as the
// unblock-prs specification describes it, concurrency groups, runs only from tokens that start runs,
// seeded flaky jobs, the CI minutes a head cost, and auto-merge landing when CI goes green.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeClock, MERGEABILITY_DELAY_MS } from "../../emulator/index.js";
import { setup } from "./lib/setup.js";

const run = promisify(execFile);
const MATRIX = [
  { name: "test (linux)", minutes: 10 },
  { name: "test (windows)", minutes: 25 },
];

/** The head's check runs as the rollup shows them: "name=STATUS/CONCLUSION". */
const checks = (gh, sha) =>
  gh.state
    .checkRunsFor(sha)
    .map((c) => `${c.name}=${c.status === "COMPLETED" ? c.conclusion : c.status}`)
    .sort();
const guard = (gh, sha) => gh.state.statusesFor(sha).find((s) => s.context === "no-skip-ci-label")?.state;

describe("the clock's timers", () => {
  test("advancing fires what falls due in time order, each at its own time, and timers may set timers", () => {
    const clock = makeClock("2026-01-05T09:00:00Z");
    const seen = [];
    clock.after({ minutes: 10 }, () => seen.push(["b", clock.iso()]));
    clock.after({ minutes: 5 }, () => {
      seen.push(["a", clock.iso()]);
      clock.after({ minutes: 1 }, () => seen.push(["a+1", clock.iso()]));
    });
    const late = clock.after({ hours: 2 }, () => seen.push(["late", clock.iso()]));
    clock.at("2026-01-05T09:10:00Z", () => seen.push(["b2", clock.iso()]));
    assert.equal(clock.advance({ minutes: 4 }), "2026-01-05T09:04:00Z");
    assert.deepEqual(seen, [], "nothing is due yet");
    clock.advance({ minutes: 30 });
    assert.deepEqual(seen, [
      ["a", "2026-01-05T09:05:00Z"],
      ["a+1", "2026-01-05T09:06:00Z"],
      ["b", "2026-01-05T09:10:00Z"],
      ["b2", "2026-01-05T09:10:00Z"],
    ]);
    assert.equal(clock.iso(), "2026-01-05T09:34:00Z", "then stands where it was moved to");
    late.cancel();
    clock.advance({ hours: 3 });
    assert.equal(seen.length, 4, "a cancelled timer never fires");
    assert.deepEqual(clock.pending(), []);
  });

  test("a base move leaves pull requests UNKNOWN; the recompute is a timer that fires at 60 s", async (t) => {
    const { gh } = await setup(t);
    const pr = gh.createPull({ title: "p" });
    assert.equal(gh.state.mergeable(pr), "UNKNOWN");
    assert.deepEqual(
      gh.clock.pending().map((p) => p.label),
      ["mergeability computed"],
    );
    gh.advance(MERGEABILITY_DELAY_MS);
    assert.equal(gh.state.mergeable(pr), "MERGEABLE");
    assert.deepEqual(gh.clock.pending(), []);
  });
});

describe("the CI simulator", () => {
  const ci = (gh, extra = {}) =>
    gh.ci.register({ name: "CI", jobs: MATRIX, aggregate: "ci-ok", guard: "no-skip-ci-label", ...extra });

  test("jobs run on the clock: in progress, then done at their minutes; the aggregate only when all are done", async (t) => {
    const { gh } = await setup(t);
    ci(gh);
    const pr = gh.createPull({ title: "p" });
    assert.deepEqual(
      checks(gh, pr.headSha),
      ["test (linux)=IN_PROGRESS", "test (windows)=IN_PROGRESS"],
      "no aggregate check run while its jobs run",
    );
    gh.advance({ minutes: 10 });
    assert.deepEqual(checks(gh, pr.headSha), ["test (linux)=SUCCESS", "test (windows)=IN_PROGRESS"]);
    assert.equal(gh.state.rollupState(pr.headSha), "PENDING");
    gh.advance({ minutes: 15 });
    assert.deepEqual(checks(gh, pr.headSha), ["ci-ok=SUCCESS", "test (linux)=SUCCESS", "test (windows)=SUCCESS"]);
    assert.equal(guard(gh, pr.headSha), "success");
    const done = gh.state.checkRunsFor(pr.headSha).find((c) => c.name === "test (windows)");
    assert.equal(done.completedAt, "2026-01-05T09:25:00Z", "completed at the clock's time");
    assert.deepEqual(gh.ci.usage().heads[pr.headSha], { runs: 1, skipped: 0, cancelled: 0, minutes: 35 });
    assert.deepEqual(gh.validationFailures, []);
  });

  test("skip-ci on: every check skips at once and the guard stays pending (BLOCKED); off: one matrix on that head", async (t) => {
    const { gh } = await setup(t);
    ci(gh);
    gh.setRequiredChecks(["ci-ok", "no-skip-ci-label"]);
    const pr = gh.createPull({ title: "p", labels: ["skip-ci"] });
    const head = pr.headSha;
    // opened started a round; skip-ci going on at once cancelled it, and the labelled round skipped everything.
    assert.deepEqual(checks(gh, head), ["ci-ok=SKIPPED", "test (linux)=SKIPPED", "test (windows)=SKIPPED"]);
    assert.equal(guard(gh, head), "pending");
    gh.advance(MERGEABILITY_DELAY_MS);
    assert.equal(gh.state.mergeStateStatus(pr), "BLOCKED", "a skipped round is not a green one");
    gh.push(pr.number);
    assert.deepEqual(
      checks(gh, pr.headSha),
      ["ci-ok=SKIPPED", "test (linux)=SKIPPED", "test (windows)=SKIPPED"],
      "a push under the label is free",
    );
    const pushed = pr.headSha;
    gh.removeLabels(pr.number, ["skip-ci"], { by: gh.owner });
    assert.deepEqual(
      checks(gh, pushed),
      ["ci-ok=SKIPPED", "test (linux)=IN_PROGRESS", "test (windows)=IN_PROGRESS"],
      "unlabeled runs the matrix; the old aggregate stands until the new one reports",
    );
    assert.equal(guard(gh, pushed), "pending");
    gh.advance({ minutes: 25 });
    assert.deepEqual(checks(gh, pushed), ["ci-ok=SUCCESS", "test (linux)=SUCCESS", "test (windows)=SUCCESS"]);
    const usage = gh.ci.usage({ number: pr.number });
    assert.deepEqual(
      usage.heads[pushed],
      { runs: 1, skipped: 1, cancelled: 0, minutes: 35 },
      "one matrix on the head that will merge",
    );
    assert.equal(usage.total.runs, 2, "the round opened started and the label cancelled, and the one matrix");
    assert.equal(usage.total.minutes, 35, "the cancelled round cost nothing: it was cancelled at once");
    const labelled = gh.events
      .filter((e) => e.name === "pull_request" && ["labeled", "unlabeled"].includes(e.action))
      .map((e) => e.action);
    assert.deepEqual(labelled, ["labeled", "unlabeled"]);
    assert.deepEqual(gh.validationFailures, []);
  });

  test("a newer run cancels the older one in its group: its running jobs and aggregate end CANCELLED (red)", async (t) => {
    const { gh } = await setup(t);
    ci(gh);
    const pr = gh.createPull({ title: "p" });
    const first = pr.headSha;
    gh.advance({ minutes: 12 });
    gh.push(pr.number);
    assert.deepEqual(checks(gh, first), ["ci-ok=CANCELLED", "test (linux)=SUCCESS", "test (windows)=CANCELLED"]);
    assert.equal(gh.state.rollupState(first), "FAILURE");
    assert.deepEqual(
      gh.ci.runs.map((r) => r.conclusion),
      ["cancelled", null],
    );
    assert.deepEqual(
      gh.ci.usage().heads[first],
      { runs: 1, skipped: 0, cancelled: 1, minutes: 22 },
      "10 min of linux, 12 of windows until cancelled",
    );
    gh.advance({ minutes: 30 });
    assert.deepEqual(
      checks(gh, first),
      ["ci-ok=CANCELLED", "test (linux)=SUCCESS", "test (windows)=CANCELLED"],
      "a cancelled job's timer never fires",
    );
    assert.deepEqual(checks(gh, pr.headSha), ["ci-ok=SUCCESS", "test (linux)=SUCCESS", "test (windows)=SUCCESS"]);
    const other = gh.createPull({ title: "q" });
    assert.equal(gh.ci.runs.at(-1).number, other.number);
    assert.equal(
      gh.ci.runs.filter((r) => r.conclusion === "cancelled").length,
      1,
      "another pull request's run is another group",
    );
    assert.deepEqual(gh.validationFailures, []);
  });

  test("an outcome per head: fail makes the job and the aggregate red; a flaky job with a seed is reproducible", async (t) => {
    const { gh: failing } = await setup(t);
    ci(failing);
    const pr = failing.createPull({ title: "p" });
    failing.ci.setOutcome(pr.headSha, { jobs: { "test (windows)": "fail" } });
    failing.push(pr.number); // the outcome was set for the first head; the new head passes
    failing.ci.setOutcome(pr.headSha, { jobs: { "test (windows)": "fail" } });
    failing.push(pr.number, { force: true });
    failing.ci.setOutcome({ number: pr.number }, "fail");
    failing.push(pr.number);
    failing.runUntilIdle();
    assert.deepEqual(checks(failing, pr.headSha), ["ci-ok=FAILURE", "test (linux)=FAILURE", "test (windows)=FAILURE"]);
    assert.equal(guard(failing, pr.headSha), "failure");

    const flakyRounds = async (seed) => {
      const { gh } = await setup(t, { seed: "same-repo" });
      gh.ci.register({ name: "CI", jobs: [{ name: "e2e", minutes: 3 }], outcome: { flaky: 0.5 }, seed });
      const p = gh.createPull({ title: "flaky" });
      for (let i = 0; i < 11; i++) gh.push(p.number, { rebase: false }), gh.advance({ minutes: 3 });
      return gh.ci.runs.map((r) => r.jobs[0].conclusion).join(" ");
    };
    const a = await flakyRounds("seed-1");
    assert.equal(await flakyRounds("seed-1"), a, "the same seed draws the same failures");
    assert.notEqual(await flakyRounds("seed-2"), a, "another seed draws others");
    assert.match(a, /FAILURE/);
    assert.match(a, /SUCCESS/);
  });

  test("runs start only from events whose token starts runs: a GITHUB_TOKEN label removal starts none, a personal token's does", async (t) => {
    const { gh } = await setup(t);
    ci(gh);
    const pr = gh.createPull({ title: "p", labels: ["skip-ci"] });
    const before = gh.ci.runs.length;
    const del = (token) =>
      fetch(`${gh.url}/repos/acme/widgets/issues/${pr.number}/labels/skip-ci`, {
        method: "DELETE",
        headers: { authorization: `token ${token}` },
      });
    assert.equal((await del(gh.appToken)).status, 200);
    assert.equal(gh.ci.runs.length, before, "the workflow's GITHUB_TOKEN: no run");
    gh.addLabels(pr.number, ["skip-ci"]);
    const skippedAgain = gh.ci.runs.length;
    assert.equal((await del(gh.personalToken)).status, 200);
    assert.equal(gh.ci.runs.length, skippedAgain + 1, "a personal token: the matrix runs");
    assert.equal(gh.ci.runs.at(-1).skipped, false);
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("CI on real git", () => {
  test("a GITHUB_TOKEN push starts no run; a personal token's starts one", async (t) => {
    const { gh, dir: work } = await setup(t, { git: true, dir: "emu-ci" });
    gh.ci.register({ name: "CI", jobs: MATRIX });
    const pr = gh.createPull({ title: "p", head: "agent/p", files: ["src/p.rs"] });
    const env = {
      ...process.env,
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: work,
      GIT_AUTHOR_NAME: "a",
      GIT_AUTHOR_EMAIL: "a@example.com",
      GIT_COMMITTER_NAME: "a",
      GIT_COMMITTER_EMAIL: "a@example.com",
    };
    const git = (args) => run("git", args, { cwd: join(work, "c"), env });
    await run("git", ["clone", "--quiet", gh.cloneUrl(gh.appToken), "c"], { cwd: work, env });
    await git(["checkout", "--quiet", "agent/p"]);
    const runs = gh.ci.runs.length;
    writeFileSync(join(work, "c", "one.txt"), "1\n");
    await git(["add", "."]);
    await git(["commit", "--quiet", "-m", "one"]);
    await git(["push", "--quiet", "origin", "agent/p"]);
    assert.equal(gh.state.pull(pr.number).headSha, (await git(["rev-parse", "HEAD"])).stdout.trim());
    assert.equal(gh.ci.runs.length, runs, "GITHUB_TOKEN's push: synchronize fired, no run");
    assert.equal(gh.events.filter((e) => e.action === "synchronize").at(-1).startsRuns, false);
    writeFileSync(join(work, "c", "two.txt"), "2\n");
    await git(["add", "."]);
    await git(["commit", "--quiet", "-m", "two"]);
    await git(["push", "--quiet", gh.cloneUrl(gh.personalToken), "agent/p"]);
    assert.equal(gh.ci.runs.length, runs + 1, "a personal token's push runs the workflow");
    assert.equal(gh.ci.runs.at(-1).sha, gh.state.pull(pr.number).headSha);
    assert.deepEqual(gh.validationFailures, []);
  });

  test("auto-merge lands when the last required check goes green on an up-to-date head, and not before; merged_at from the clock", async (t) => {
    const { gh } = await setup(t, { git: true });
    gh.ci.register({ name: "CI", jobs: MATRIX, aggregate: "ci-ok", guard: "no-skip-ci-label" });
    gh.setRequiredChecks(["ci-ok", "no-skip-ci-label"], { strict: true });
    gh.setRepoSettings({ allowAutoMerge: true, deleteBranchOnMerge: true });
    const pr = gh.createPull({ title: "armed", head: "agent/armed", files: ["src/armed.rs"], labels: ["skip-ci"] });
    gh.state.enableAutoMerge(pr.number, { method: "squash" });
    gh.advance({ hours: 1 });
    assert.equal(pr.merged, false, "under skip-ci every check skipped, and the guard holds it");
    gh.moveBranch("main");
    gh.push(pr.number, { rebase: true }); // under the label: free
    gh.removeLabels(pr.number, ["skip-ci"], { by: gh.owner });
    const started = gh.clock.iso();
    gh.advance({ minutes: 24 });
    assert.equal(pr.merged, false, "windows still running");
    gh.advance({ minutes: 1 });
    assert.equal(pr.merged, true, "merged the moment the aggregate went green");
    assert.equal(pr.mergedAt, "2026-01-05T10:25:00Z");
    assert.equal(Date.parse(pr.mergedAt) - Date.parse(started), 25 * 60_000);
    assert.equal(gh.state.branches.has("agent/armed"), false, "head branch deleted");
    const usage = gh.ci.usage({ number: pr.number });
    assert.equal(usage.heads[pr.headSha].runs, 1, "one matrix, on the head that merged");
    assert.deepEqual(gh.validationFailures, []);
  });
});

test("a flaky check made deterministic ({ failFirst: 1 }) fails its pull request's first run, and Re-run all jobs passes", async (t) => {
  const { gh } = await setup(t, { git: false });
  gh.ci.register({ name: "CI", jobs: [{ name: "test", minutes: 10 }], aggregate: "ci" });
  // Opened by a workflow's token, so nothing runs before the outcome is set.
  const pr = gh.state.withTokenKind("app", () => gh.createPull({ title: "flaky", head: "agent/flaky" }));
  assert.deepEqual(gh.ci.runs, []);
  gh.ci.setOutcome({ number: pr.number }, { failFirst: 1 });
  gh.ci.rerun({ number: pr.number });
  gh.advance({ minutes: 10 });
  assert.deepEqual(
    gh.ci.runs.map((r) => r.conclusion),
    ["failure"],
  );
  const [again] = gh.ci.rerun({ number: pr.number });
  assert.equal(again.sha, pr.headSha, "on the same head");
  gh.advance({ minutes: 10 });
  assert.deepEqual(
    gh.ci.runs.map((r) => r.conclusion),
    ["failure", "success"],
  );
  assert.deepEqual(checks(gh, pr.headSha), ["ci=SUCCESS", "test=SUCCESS"], "the head's checks read green again");
  assert.equal(gh.ci.usage({ number: pr.number }).total.runs, 2);
});
