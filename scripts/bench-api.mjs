// API requests per scheduled sweep, the currency that matters (GITHUB_TOKEN: about 1,000 requests an hour
// per repository). For 10, 100 and 1,000 open pull requests on the GitHub emulator: the bundled Action
// converges the board once, then a scheduled sweep is counted (reads, writes, GraphQL cost), beside what a
// one-call-per-pull-request script like the seed's labels-reconcile.sh would spend on the same sweep.
// Then the reads alone (readFacts on the emulator) for 10 to 10,000 open pull requests: GraphQL requests
// and points per sweep, and the points an hour at the example workflow's schedule, beside GitHub's budget.
//   npm run bench:api [-- 10 100 1000] [-- --reads]   (--reads: only the reads table)
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator/index.js";
import { seedBoard } from "./lib/seed-emulator.mjs";
import { makeOctokit, readFacts, PULL_PAGE } from "../lib/github/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [10, 100, 1000];
const READS_ONLY = process.argv.includes("--reads");
const READ_SIZES = [10, 100, 1000, 10000];
/** GitHub's primary GraphQL budget for a workflow's GITHUB_TOKEN: 1,000 points an hour per repository. */
const GITHUB_TOKEN_POINTS_PER_HOUR = 1000;
/** GitHub's node limit for one GraphQL call. */
const NODE_LIMIT = 500_000;
/** Scheduled sweeps an hour in examples/workflows/prflow.yml (cron "17,47 * * * *"). */
const SWEEPS_PER_HOUR = 2;

/**
 * The seed's script, modelled from its commit messages (it recomputed every open pull request from scratch
 * with `gh`, one pull request at a time): a paged list of open pull requests (100 a page) and the label set
 * once, then per pull request one `gh pr view` (labels, draft, review requests, mergeability, check
 * rollup), one reviews read (the commit each review is bound to) and one timeline read (stale from real
 * activity). Writes on a converged board: 0, like ours. This is a model, not a measurement: it is the
 * fewest calls such a script makes, so the ratio below flatters it.
 */
export function seedModel(n) {
  const list = Math.max(1, Math.ceil(n / 100));
  const labels = 1;
  const perPull = 3;
  return { reads: list + labels + perPull * n, writes: 0 };
}

/** The goal for a sweep when no nested list overflows: reads at most ceil(N/100) + 3 (GitHub's floor of pages). */
const goal = (n) => Math.ceil(n / 100) + 3;

async function measure(n) {
  const em = await startEmulator();
  const ws = mkdtempSync(join(tmpdir(), "prflow-bench-"));
  try {
    seedBoard(em, n);
    mkdirSync(join(ws, ".github"));
    copyFileSync(join(ROOT, "examples/prflow.json"), join(ws, ".github/prflow.json"));
    const run = (mode) =>
      em.runAction({
        actionPath: ROOT,
        event: "schedule",
        payload: { schedule: "17,47 * * * *" },
        inputs: { mode, live: "true" },
        workspace: ws,
      });
    for (const mode of ["labels", "reconcile"]) {
      const r = await run(mode);
      if (r.code) throw new Error(`${mode} on ${n} pull requests failed:\n${r.stdout}${r.stderr}`);
    }
    const convergeWrites = em.counts().writes;
    em.reset();
    const sweep = await run("reconcile");
    if (sweep.code) throw new Error(`sweep failed:\n${sweep.stdout}${sweep.stderr}`);
    const c = em.counts();
    const graphql = em.requests.filter((r) => r.path === "/graphql");
    return {
      n,
      reads: c.reads,
      graphql: c.graphql,
      rest: c.rest,
      writes: c.writes,
      ops: Number(sweep.outputs.ops),
      maxCost: Math.max(0, ...graphql.map((r) => r.cost ?? 0)),
      maxNodes: Math.max(0, ...graphql.map((r) => r.nodes ?? 0)),
      convergeWrites,
      invalid: em.validationFailures.length,
    };
  } finally {
    await em.settle();
    em.server.closeAllConnections?.();
    await new Promise((resolve) => em.server.close(resolve));
    rmSync(ws, { recursive: true, force: true });
  }
}

/** One sweep's reads (readFacts over every open pull request), and one event run's (one pull request). */
async function measureReads(n) {
  const em = await startEmulator();
  try {
    for (let i = 0; i < n; i++) {
      const pr = em.createPull({ title: `pr ${i}` });
      em.checkRun({ number: pr.number, name: "test" });
    }
    const octokit = makeOctokit({ token: em.appToken, baseUrl: em.url, graphqlUrl: em.graphqlUrl, timeScale: 0.001 });
    const spent = () => {
      const g = em.requests.filter((r) => r.path === "/graphql");
      return {
        graphql: g.length,
        rest: em.requests.length - g.length,
        points: g.reduce((a, r) => a + (r.cost ?? 0), 0),
        nodes: Math.max(0, ...g.map((r) => r.nodes ?? 0)),
      };
    };
    em.reset();
    const facts = await readFacts(octokit, { owner: "acme", repo: "widgets" });
    if (facts.pullRequests.length !== n) throw new Error(`read ${facts.pullRequests.length} of ${n}`);
    const sweep = spent();
    em.reset();
    await readFacts(octokit, { owner: "acme", repo: "widgets", numbers: [1] });
    return { n, sweep, event: spent() };
  } finally {
    await em.close();
  }
}

function printTable(title, head, table, foot) {
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join("  ");
  console.log(`${title}\n`);
  console.log(line(head));
  for (const row of table) console.log(line(row));
  if (foot) console.log(foot);
}

const readRows = [];
for (const n of READ_SIZES) readRows.push(await measureReads(n));
printTable(
  `Reads per sweep (readFacts on the GitHub emulator, pages of ${PULL_PAGE}) and GraphQL points an hour at the default schedule (${SWEEPS_PER_HOUR} sweeps)`,
  [
    "open PRs",
    "GraphQL/sweep",
    "floor ceil(N/100)",
    "REST/sweep",
    "points/sweep",
    "nodes/page (limit 500,000)",
    "points/hour (sweeps)",
    "budget/hour",
    "event runs left/hour",
  ],
  readRows.map((r) => {
    const hour = SWEEPS_PER_HOUR * r.sweep.points;
    const left = Math.max(0, GITHUB_TOKEN_POINTS_PER_HOUR - hour);
    return [
      r.n,
      r.sweep.graphql,
      Math.max(1, Math.ceil(r.n / 100)),
      r.sweep.rest,
      r.sweep.points,
      r.sweep.nodes,
      hour,
      GITHUB_TOKEN_POINTS_PER_HOUR,
      `${Math.floor(left / Math.max(1, r.event.points))} (${r.event.points} pts each)`,
    ];
  }),
  `
budget: GITHUB_TOKEN in a workflow, 1,000 GraphQL points an hour per repository (15,000 for an enterprise's
repositories); REST is a separate 1,000 requests an hour. A point is round(connections asked / 100), at least 1.
event runs left: runs on one pull request's event the hour's remaining points pay for, after the sweeps.`,
);
const overNodes = readRows.filter(
  (r) => r.sweep.nodes > NODE_LIMIT || r.sweep.graphql > Math.max(1, Math.ceil(r.n / PULL_PAGE)),
);
if (overNodes.length) {
  console.error(
    `\nreads over the floor or a page over GitHub's node limit at N = ${overNodes.map((r) => r.n).join(", ")}`,
  );
  process.exitCode = 1;
}
if (READS_ONLY) process.exit();
console.log("");

const rows = [];
for (const n of SIZES) rows.push(await measure(n));

const head = [
  "open PRs",
  "sweep reads",
  "(GraphQL + REST)",
  "goal ≤",
  "writes",
  "max cost/page",
  "max nodes/page",
  "seed-style reads",
  "ratio",
];
const table = rows.map((r) => {
  const seed = seedModel(r.n);
  return [
    r.n,
    r.reads,
    `${r.graphql} + ${r.rest - r.writes}`,
    goal(r.n),
    r.writes,
    r.maxCost,
    r.maxNodes,
    seed.reads,
    `${(seed.reads / r.reads).toFixed(1)}x`,
  ];
});
const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)));
const line = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join("  ");
console.log("API requests per scheduled sweep of a converged board (bundled Action on the GitHub emulator)\n");
console.log(line(head));
for (const row of table) console.log(line(row));
console.log(`
seed-style: ceil(N/100) list pages + 1 label read + 3 reads per pull request (pr view, reviews, timeline);
a model of the seed's one-call-per-pull-request script, not a measurement. Writes on a converged board: 0 for both.
cost/nodes: GitHub's GraphQL rate-limit cost and node count (limit 500,000 nodes) of the largest page.`);
const bad = rows.filter((r) => r.reads > goal(r.n) || r.writes > 0 || r.ops > 0 || r.invalid > 0);
if (bad.length) {
  console.error(
    `\nmissed the goal at N = ${bad.map((r) => r.n).join(", ")} (reads over ceil(N/100)+3, writes on a converged board, or schema mismatches)`,
  );
  process.exitCode = 1;
}
