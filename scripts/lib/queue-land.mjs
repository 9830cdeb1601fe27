// Landing a board of queued pull requests on the emulator (real git, the CI simulator, auto-merge), by the
// worker (`prflow queue`'s runQueue with the emulator's clock for its sleeps) or by the "update every
// branch whenever main moves" policy; what each cost is read from the CI simulator. Shared by the
// queue-land, sim-worker and queue-day suites and by scripts/bench-queue-ci.mjs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit } from "../../lib/github/index.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue } from "../../lib/queue/worker.js";
import { createEngine } from "../../js/node.js";

// The worker's defaults but for the poll: every two minutes of a 15-minute run rather than every 30 s,
// which changes no decision and costs a quarter of the steps (the suites run on a shared machine).
export const WORKER_OPTIONS = {
  dryRun: false,
  autoFix: true,
  activeInterval: 30,
  idleAfter: 10,
  idleInterval: 300,
  pollInterval: 120,
};

/**
 * An emulator as a team's repository is set up for the queue: auto-merge allowed, a strict ruleset
 * requiring the CI aggregate and the `skip-ci` guard, one CI workflow of `ciMinutes`; mergeability
 * UNKNOWN for `mergeabilitySeconds` after a move (the emulator's 60 s by default). `close()` removes
 * it and the worker's state folder.
 */
export async function landingRepo({
  ciMinutes = 15,
  seed = "land",
  at = "2026-12-01T09:00:00Z",
  mergeabilitySeconds,
} = {}) {
  const gh = await startEmulator({ git: true, seed });
  gh.clock.set(at);
  if (mergeabilitySeconds != null) gh.state.mergeabilityDelayMs = mergeabilitySeconds * 1000;
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(["ci", "no-skip-ci-label"], { strict: true });
  gh.ci.register({
    name: "CI",
    jobs: [{ name: "test", minutes: ciMinutes }],
    aggregate: "ci",
    guard: "no-skip-ci-label",
  });
  const stateDir = mkdtempSync(join(tmpdir(), "prflow-queue-land-"));
  const close = async () => {
    await gh.close();
    rmSync(stateDir, { recursive: true, force: true });
  };
  return { gh, stateDir, close };
}

/**
 * Opens a board: `board` is `[{ key, after: [key...], outcome, conflicting, file }]`, opened in the order
 * given, each editing its own file; once every number is known, each body gets its `Merge-After:` line
 * (so a pull request may wait for one opened after it). `labels` go on every one. Returns key -> number.
 *
 * By default they are opened as `prflow open-pr` opens them in an agent's workflow: with its
 * GITHUB_TOKEN, whose writes start no runs (GitHub opens the pull request, then labels it, so a
 * personal token's opening would start a run that `skip-ci` cancels at once). `asPerson` opens them
 * with a person's token, each opening starting CI (the other policy's board).
 */
export function openBoard(gh, board, { labels = ["merge-queued", "skip-ci"], asPerson = false } = {}) {
  const numbers = {};
  const open = () => {
    for (const p of board) numbers[p.key] = openPull(gh, p, { labels, asPerson });
    for (const p of board) {
      if (p.after?.length)
        gh.state.editIssue(
          numbers[p.key],
          { body: `Merge-After: ${p.after.map((k) => `#${numbers[k]}`).join(", ")}` },
          "agent-1",
        );
    }
  };
  if (asPerson) open();
  else gh.state.withTokenKind("app", open);
  return numbers;
}

/** One pull request of a board (see openBoard), opened now; its number. */
export function openPull(gh, p, { labels = ["merge-queued", "skip-ci"], asPerson = false } = {}) {
  const open = () =>
    gh.createPull({
      title: `change ${p.key}`,
      head: `agent/${p.key}`,
      files: [p.file ?? `src/${p.key}.rs`],
      labels,
      conflicting: !!p.conflicting,
    });
  const pr = asPerson ? open() : gh.state.withTokenKind("app", open);
  if (p.outcome) gh.ci.setOutcome({ number: pr.number }, p.outcome);
  return pr.number;
}

/** Five pull requests whose Merge-After chain lands c, a, e, b, d: an order the numbers do not give. */
export const FIVE = [
  { key: "a", after: ["c"] },
  { key: "b", after: ["e"] },
  { key: "c", after: [] },
  { key: "d", after: ["b", "e"] },
  { key: "e", after: ["a"] },
];
export const FIVE_ORDER = ["c", "a", "e", "b", "d"];

/**
 * The worker on the emulator: runQueue with sleeps that advance the emulator's clock, until `until()`
 * holds at the end of a step or `maxSteps` steps ran (a loop that never gets there stops rather than hangs).
 * `due` is `[{ at (epoch ms), run() }]`: what happens while the worker sleeps (pull requests arriving, a
 * person's push), each run when the clock reaches it. `afterStep(out, facts)` sees every step's answer
 * and the facts it was given.
 * Returns the number of steps and the log lines.
 */
export async function runWorker(
  gh,
  stateDir,
  {
    until,
    maxSteps = 400,
    engine = createEngine(),
    g,
    options = {},
    log = () => {},
    due = [],
    afterStep = () => {},
  } = {},
) {
  // Waits (GitHub's one-second spacing of writes and GraphQL calls, retry back-off) in milliseconds.
  const octokit = makeOctokit({
    token: gh.personalToken,
    baseUrl: gh.url,
    graphqlUrl: gh.graphqlUrl,
    timeScale: 0.001,
  });
  g ??= new Git({ cloneUrl: gh.cloneUrl(), stateDir });
  const lines = [];
  let steps = 0;
  // `due` stays the caller's: what it adds while the worker runs is run in time too.
  const sleep = async (ms) => {
    const end = gh.clock.now() + ms;
    for (;;) {
      due.sort((a, b) => a.at - b.at);
      if (!due.length || due[0].at > end) break;
      const next = due.shift();
      if (next.at > gh.clock.now()) gh.clock.advanceTo(next.at);
      await next.run();
    }
    if (end > gh.clock.now()) gh.clock.advanceTo(end);
  };
  const out = await runQueue({
    gh: { octokit, owner: gh.owner, repo: gh.repo },
    g,
    engine,
    options: { ...WORKER_OPTIONS, ...options },
    sleep,
    log: (l) => (lines.push(l), log(l)),
    stopWhen: (out, facts) => (afterStep(out, facts), until() || ++steps >= maxSteps),
  });
  return { steps, lines, out };
}

/** The pull request numbers in the order their squash commits sit on main, oldest first. */
export function landedOrder(gh) {
  const subjects = gh.git.git(["log", "--first-parent", "--reverse", "--format=%s", "main"]).split("\n");
  return subjects
    .map((s) => /\(#(\d+)\)$/.exec(s)?.[1])
    .filter(Boolean)
    .map(Number);
}

/**
 * What CI cost per pull request: runs that ran jobs (a skipped run under `skip-ci` is no run), minutes,
 * and the runs on the head that landed. `total` sums them; `perLanded` divides by the pull requests merged.
 */
export function ciCost(gh, numbers) {
  const per = {};
  let runs = 0;
  let minutes = 0;
  let landed = 0;
  for (const n of numbers) {
    const pr = gh.state.pull(n);
    const u = gh.ci.usage({ number: n });
    per[n] = {
      runs: u.total.runs,
      minutes: u.total.minutes,
      landedHeadRuns: pr.merged ? (u.heads[pr.headSha]?.runs ?? 0) : null,
      merged: pr.merged,
    };
    runs += u.total.runs;
    minutes += u.total.minutes;
    if (pr.merged) landed++;
  }
  const ratio = (x) => (landed ? x / landed : 0);
  return { per, runs, minutes, landed, perLanded: { runs: ratio(runs), minutes: ratio(minutes) } };
}

/**
 * The "update every branch whenever main moves" policy, on the same repository: every pull request runs
 * CI as it is (no `skip-ci`), auto-merge is armed on each once every pull request its Merge-After names
 * has left (the order kept by a gate, not by holding CI back), and each time main moves every open
 * branch is brought up to date (a push of a head on main's tip, as "Update branch" makes), which starts
 * CI again. The clock moves a minute at a time. Returns the minutes it took.
 */
export function updateEveryBranch(gh, numbers, { maxMinutes = 24 * 60 } = {}) {
  const open = () => numbers.filter((n) => gh.state.pull(n).state === "open");
  const waitsFor = (n) => [...(gh.state.pull(n).body ?? "").matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
  let tip = gh.git.tip("main");
  let minutes = 0;
  while (open().length && minutes < maxMinutes) {
    for (const n of open()) {
      const pr = gh.state.pull(n);
      if (pr.autoMerge || pr.state !== "open" || waitsFor(n).some((w) => gh.state.pull(w).state === "open")) continue;
      // GitHub refuses to arm one that could merge now: a person merges it instead.
      if (gh.state.canMergeNow(pr)) gh.merge(n, { method: "squash", by: "agent-1" });
      else gh.state.enableAutoMerge(n, { method: "squash", by: "agent-1" });
    }
    gh.clock.advance({ minutes: 1 });
    minutes++;
    const now = gh.git.tip("main");
    if (now !== tip) {
      tip = now;
      for (const n of open()) gh.push(n, { rebase: true, by: "agent-1" });
    }
  }
  return minutes;
}
