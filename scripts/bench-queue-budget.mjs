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
import { Git, runQueue } from "../cli/commands/queue.js";
import { createEngine } from "../js/node.js";

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
    gh.createPull({ title: `pull request ${i}`, head: `agent/p${i}`, files: [`src/p${i}.rs`], labels: queued ? ["merge-queued", "skip-ci"] : [], body: queued ? `Merge-After: #${first}` : "" });
  }
  gh.clock.advance({ minutes: 5 });
}

/** What the emulator received since `since`: requests by kind and the GraphQL points charged. */
function tally(gh, since) {
  const list = gh.requests.slice(since);
  const graphql = list.filter((r) => r.path === "/graphql");
  const git = list.filter((r) => r.operation?.startsWith("git "));
  const byOperation = {};
  for (const r of list) if (!r.operation?.startsWith("git ")) byOperation[r.path === "/graphql" ? `graphql ${r.operation}` : `${r.method} ${r.operation ?? r.path}`] = (byOperation[r.path === "/graphql" ? `graphql ${r.operation}` : `${r.method} ${r.operation ?? r.path}`] ?? 0) + 1;
  return { requests: list.length - git.length, graphql: graphql.length, rest: list.length - graphql.length - git.length, git: git.length, points: graphql.reduce((s, r) => s + (r.cost ?? 0), 0), byOperation };
}

async function measure(n) {
  const gh = await startEmulator({ git: true });
  // At the real time: the shell stamps a watch's polls with the machine's clock (cli/commands/queue.js readPoll).
  gh.clock.set(new Date().toISOString());
  const stateDir = mkdtempSync(join(tmpdir(), "prflow-bench-budget-"));
  try {
    seed(gh, n);
    // The client's waits (write spacing, back-off) scaled down as on every emulator run: they cost no request.
    const octokit = makeOctokit({ token: gh.personalToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
    const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir });
    let surveys = 0;
    let polls = 0;
    const cycle = async () => {
      surveys = polls = 0;
      const since = gh.requests.length;
      const steps = [];
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
      });
      for (const k of steps) if (k === "poll") polls++;
      surveys = steps.filter((k) => k === "survey").length + 1;
      return { ...tally(gh, since), surveys, polls };
    };
    const quiet = await cycle();
    // One candidate: queued, behind main, nothing before it.
    const pr = gh.createPull({ title: "the one to land", head: "agent/land", files: ["src/land.rs"], labels: ["merge-queued", "skip-ci"] });
    gh.moveBranch("main");
    gh.clock.advance({ minutes: 5 });
    const landing = await cycle();
    if (!gh.state.pull(pr.number).merged) throw new Error(`n=${n}: the landing cycle did not merge #${pr.number}`);
    if (gh.validationFailures.length) throw new Error(`n=${n}: ${gh.validationFailures.length} requests did not match GitHub's descriptions`);
    return { n, quiet, landing };
  } finally {
    await gh.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const rows = [];
for (const n of SIZES) {
  const t = Date.now();
  rows.push(await measure(n));
  console.error(`measured ${n} open pull requests in ${Math.round((Date.now() - t) / 1000)} s`);
}

const perHour = (reads, seconds) => Math.round((reads * 3600) / seconds);
const pct = (x, of) => `${Math.round((100 * x) / of)}%`;
const pad = (s, w) => String(s).padStart(w);
console.log("One worker cycle on the emulator (real git, the CI simulator), requests and GraphQL points as GitHub counts them.");
console.log("quiet: a survey with nothing to act on; landing: rebase, push, arm, release, watch to the merge (polls every 30 s re-read the board).");
console.log("per hour: surveys every 30 s (active) or 300 s (idle) at the quiet survey's cost; budget: 5,000 points and 5,000 requests an hour for a personal or App token.\n");
console.log(`${"open PRs".padEnd(9)}| ${"quiet cycle".padEnd(22)}| ${"landing cycle".padEnd(34)}| ${"per hour, active".padEnd(26)}| ${"per hour, idle".padEnd(24)}`);
console.log(`${"".padEnd(9)}| ${"requests  points".padEnd(22)}| ${"requests  points  polls  pushes".padEnd(34)}| ${"requests  points  budget".padEnd(26)}| ${"requests  points  budget".padEnd(24)}`);
for (const { n, quiet, landing } of rows) {
  const activeReq = perHour(quiet.requests, DEFAULTS.activeInterval);
  const activePts = perHour(quiet.points, DEFAULTS.activeInterval);
  const idleReq = perHour(quiet.requests, DEFAULTS.idleInterval);
  const idlePts = perHour(quiet.points, DEFAULTS.idleInterval);
  console.log(
    `${pad(n, 8)} | ${pad(quiet.requests, 8)}  ${pad(quiet.points, 6)}      | ${pad(landing.requests, 8)}  ${pad(landing.points, 6)}  ${pad(landing.polls, 5)}  ${pad(landing.git, 6)}  | ${pad(activeReq, 8)}  ${pad(activePts, 6)}  ${pad(pct(Math.max(activeReq, activePts), BUDGET.pat), 6)}  | ${pad(idleReq, 8)}  ${pad(idlePts, 6)}  ${pad(pct(Math.max(idleReq, idlePts), BUDGET.pat), 6)}`,
  );
}
const big = rows.at(-1);
console.log(`\nWhat one quiet survey of ${big.n} sends: ${Object.entries(big.quiet.byOperation).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} × ${k}`).join(", ")}.`);
console.log(`(pushes: git requests of the cycle, fetches and the push; not counted against the API budget.) GITHUB_TOKEN's budget is ${BUDGET.githubToken} an hour per repository.`);
