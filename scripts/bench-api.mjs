// API requests per scheduled sweep, the currency that matters (GITHUB_TOKEN: about 1,000 requests an hour
// per repository). For 10, 100 and 1,000 open pull requests on the GitHub emulator: the bundled Action
// converges the board once, then a scheduled sweep is counted (reads, writes, GraphQL cost), beside what a
// one-call-per-pull-request script like the seed's labels-reconcile.sh would spend on the same sweep.
//   npm run bench:api [-- 10 100 1000]
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator/index.js";
import { seedBoard } from "./lib/seed-emulator.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [10, 100, 1000];

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

/** The goal for a sweep when no nested list overflows: reads at most ceil(N/50) + 3. */
const goal = (n) => Math.ceil(n / 50) + 3;

async function measure(n) {
  const em = await startEmulator();
  const ws = mkdtempSync(join(tmpdir(), "prflow-bench-"));
  try {
    seedBoard(em, n);
    mkdirSync(join(ws, ".github"));
    copyFileSync(join(ROOT, "examples/prflow.json"), join(ws, ".github/prflow.json"));
    const run = (mode) => em.runAction({ actionPath: ROOT, event: "schedule", payload: { schedule: "17,47 * * * *" }, inputs: { mode, live: "true" }, workspace: ws });
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

const rows = [];
for (const n of SIZES) rows.push(await measure(n));

const head = ["open PRs", "sweep reads", "(GraphQL + REST)", "goal ≤", "writes", "max cost/page", "max nodes/page", "seed-style reads", "ratio"];
const table = rows.map((r) => {
  const seed = seedModel(r.n);
  return [r.n, r.reads, `${r.graphql} + ${r.rest - r.writes}`, goal(r.n), r.writes, r.maxCost, r.maxNodes, seed.reads, `${(seed.reads / r.reads).toFixed(1)}x`];
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
  console.error(`\nmissed the goal at N = ${bad.map((r) => r.n).join(", ")} (reads over ceil(N/50)+3, writes on a converged board, or schema mismatches)`);
  process.exitCode = 1;
}
