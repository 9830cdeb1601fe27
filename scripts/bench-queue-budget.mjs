// The merge-queue worker's read budget (issue 13): one worker cycle (runQueue, as `prflow queue --once`
// runs it) on the emulator against boards of 10, 100 and 1,000 open pull requests, and what GitHub would
// charge for it: the requests the emulator received and the GraphQL points it charged (emulator/graphql.js
// costs each query by GitHub's published rule: the connections' nested `first` sizes, summed and divided
// by 100, at least 1). Two cycles per board: a quiet survey (nothing to act on), and one that lands a
// pull request (rebase, push, arm, release, watch to the merge on real git and the CI simulator). Then
// per hour at the defaults (a survey every 30 s while active, every 300 s once idle; a watch polls every
// 30 s and each poll re-reads the board) beside GitHub's hourly budgets.
//   node scripts/bench-queue-budget.mjs [SIZES]       (default "10,100,1000")
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../emulator/index.js";
import { makeOctokit } from "../lib/github/index.js";
import { Git } from "../lib/queue/git.js";
import { runQueue } from "../lib/queue/worker.js";
import { createEngine } from "../js/node.js";

const LIMIT = process.env.BENCH_REST_LIMIT ? Number(process.env.BENCH_REST_LIMIT) : undefined; // a smaller hourly budget, to see the cut-off on a small board
const SIZES = (process.argv[2] ?? "10,100,1000").split(",").map(Number);
// The CLI's defaults (cli/commands/queue.js; the engine's Options::default).
const DEFAULTS = { activeInterval: 30, idleAfter: 10, idleInterval: 300, pollInterval: 30 };
// GitHub's primary limits per hour (docs.github.com: "Rate limits for the REST API", "Rate limits and query
// limits for the GraphQL API"): a personal token or an App installation gets 5,000 requests and 5,000
// points (an installation up to 12,500 on large organizations); a workflow's GITHUB_TOKEN 1,000 of each
// per repository (and the queue cannot use it: its writes start no CI).
const BUDGET = { pat: 5000, githubToken: 1000 };

/** A board of `n` open pull requests; a fifth of them queued, all waiting on #1 (open, not queued): nothing to act on. */
function seed(gh, n) {
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(["ci", "no-skip-ci-label"], { strict: true });
  gh.ci.register({ name: "CI", jobs: [{ name: "test", minutes: 10 }], aggregate: "ci", guard: "no-skip-ci-label" });
  const first = gh.createPull({ title: "not queued", head: "agent/p1", files: ["src/p1.rs"] }).number;
  for (let i = 2; i <= n; i++) {
    const queued = i % 5 === 0;
    gh.createPull({
      title: `pull request ${i}`,
      head: `agent/p${i}`,
      files: [`src/p${i}.rs`],
      labels: queued ? ["merge-queued", "skip-ci"] : [],
      body: queued ? `Merge-After: #${first}` : "",
    });
  }
  gh.clock.advance({ minutes: 5 });
}

/** What the emulator received since `since`: requests by kind and the GraphQL points charged. */
function tally(gh, since) {
  const list = gh.requests.slice(since);
  const graphql = list.filter((r) => r.path === "/graphql");
  const git = list.filter((r) => r.operation?.startsWith("git "));
  const byOperation = {};
  for (const r of list)
    if (!r.operation?.startsWith("git "))
      byOperation[r.path === "/graphql" ? `graphql ${r.operation}` : `${r.method} ${r.operation ?? r.path}`] =
        (byOperation[r.path === "/graphql" ? `graphql ${r.operation}` : `${r.method} ${r.operation ?? r.path}`] ?? 0) +
        1;
  return {
    requests: list.length - git.length,
    graphql: graphql.length,
    rest: list.length - graphql.length - git.length,
    git: git.length,
    points: graphql.reduce((s, r) => s + (r.cost ?? 0), 0),
    byOperation,
  };
}

async function measure(n, report) {
  const gh = await startEmulator({ git: true });
  const stateDir = mkdtempSync(join(tmpdir(), "prflow-bench-budget-"));
  try {
    seed(gh, n);
    if (LIMIT) gh.setRateLimit({ rest: LIMIT });
    // The client's waits (write spacing, back-off) scaled down as on every emulator run: they cost no request.
    const octokit = makeOctokit({
      token: gh.personalToken,
      baseUrl: gh.url,
      graphqlUrl: gh.graphqlUrl,
      timeScale: 0.001,
    });
    const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir });
    let surveys = 0;
    let polls = 0;
    const cycle = async () => {
      surveys = polls = 0;
      const since = gh.requests.length;
      const steps = [];
      let limited = false;
      // The emulator enforces GitHub's hourly 5,000 (REST_PER_HOUR): a cycle past it is cut off by a 403,
      // which is the figure to print, not a crash.
      await runQueue({
        gh: { octokit, owner: gh.owner, repo: gh.repo },
        g,
        engine: createEngine(),
        options: { dryRun: false, autoFix: true, ...DEFAULTS },
        once: true,
        log: process.env.DEBUG ? (l) => console.log(l) : () => {},
        // The emulator's clock stands in for the wait, so CI and mergeability move as they would.
        sleep: async (ms) => gh.clock.advance(ms),
        stopWhen: (out) => {
          steps.push(out.wait.kind);
          return steps.length > 400;
        },
      }).catch((e) => {
        if (e.status === 403 && /rate limit/i.test(e.message)) limited = true;
        else throw e;
      });
      for (const k of steps) if (k === "poll") polls++;
      surveys = steps.filter((k) => k === "survey").length + 1;
      return { ...tally(gh, since), surveys, polls, limited };
    };
    const quiet = await cycle();
    report("quiet", quiet);
    // One candidate: queued, behind main, nothing before it.
    const pr = gh.createPull({
      title: "the one to land",
      head: "agent/land",
      files: ["src/land.rs"],
      labels: ["merge-queued", "skip-ci"],
    });
    gh.moveBranch("main");
    gh.clock.advance({ minutes: 5 });
    const landing = await cycle();
    report("landing", landing);
    if (!landing.limited && !gh.state.pull(pr.number).merged)
      throw new Error(`n=${n}: the landing cycle did not merge #${pr.number}`);
    if (gh.validationFailures.length)
      throw new Error(`n=${n}: ${gh.validationFailures.length} requests did not match GitHub's descriptions`);
    return { n, quiet, landing };
  } finally {
    await gh.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const perHour = (x, seconds) => Math.round((x * 3600) / seconds);
const pct = (x, of) => `${Math.round((100 * x) / of)}%`;
const pad = (v, w) => String(v).padStart(w);
console.log(
  "One worker cycle on the emulator (real git, the CI simulator); requests and GraphQL points as GitHub counts them.",
);
console.log(
  "quiet: one survey with nothing to act on. landing: rebase, push, arm, release, watch to the merge (each 30 s poll re-reads the board).",
);
console.log(
  `per hour: a survey every ${DEFAULTS.activeInterval} s while active, every ${DEFAULTS.idleInterval} s once idle, at the quiet survey's cost; % of the 5,000 an hour of a personal or App token (the larger of requests and points).\n`,
);
console.log(
  "open PRs  cycle     requests  points  polls  git | active/h: requests  points  budget | idle/h: requests  points  budget",
);
let last;
for (const n of SIZES) {
  // Each row as it is measured: the 1,000 board takes minutes.
  last = await measure(n, (kind, c) => {
    const hour = (s) =>
      `${pad(perHour(c.requests, s), 8)}  ${pad(perHour(c.points, s), 6)}  ${pad(pct(Math.max(perHour(c.requests, s), perHour(c.points, s)), BUDGET.pat), 6)}`;
    const rates = c.limited
      ? " | cut off: the token's hourly requests ran out (GitHub's 403 rate limit) before it landed"
      : kind === "quiet"
        ? ` | ${pad("", 9)}${hour(DEFAULTS.activeInterval)} | ${pad("", 7)}${hour(DEFAULTS.idleInterval)}`
        : " |";
    console.log(
      `${pad(n, 8)}  ${kind.padEnd(8)}  ${pad(c.requests, 8)}  ${pad(c.points, 6)}  ${pad(c.polls, 5)}  ${pad(c.git, 3)}${rates}`,
    );
  });
}
console.log(
  `\nWhat one quiet survey of ${last.n} sends: ${Object.entries(last.quiet.byOperation)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${v} × ${k}`)
    .join(", ")}.`,
);
console.log(
  `(git: the cycle's fetches and push, outside the API budget.) A workflow's GITHUB_TOKEN gets ${BUDGET.githubToken} of each an hour per repository.`,
);
