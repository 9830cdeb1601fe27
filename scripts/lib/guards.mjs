// The engine's guards (docs/performance.md), measured the one way bench.mjs and bench-ab.mjs both print
// them: a board of 10,000 pull requests decided through the public API in Wasm (`createEngine(config)
// .reconcile({ facts })`, facts a JS object as the hosts hold them, the plan a JS object back), the
// page's Wasm gzipped, and the Action's Wasm. Limits, not tests: a benchmark prints them, it never fails
// the test command on a noisy machine.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { config, median, settle, snapshot } from "./bench-snapshot.mjs";

export const LIMITS = { boardMs: 500, pageGzipBytes: 200 * 1000, actionBytes: 1.82e6 };
export const BOARD = 10000;

/** Times `reconcile` of each engine on the same board, interleaved (A, B, B, A, ...); medians in ms. */
export function timeBoards(engines, runs, n = BOARD) {
  const facts = snapshot(n);
  const plans = engines.map((e) => e.reconcile({ facts })); // warm-up: the first call compiles the Wasm tiers
  for (const p of plans)
    if (JSON.stringify(p.ops) !== JSON.stringify(plans[0].ops))
      throw new Error(`the builds give different plans for ${n} pull requests`);
  const times = engines.map(() => []);
  for (let r = 0; r < runs; r++) {
    const order = engines.map((_, i) => i);
    for (const i of r % 2 ? order.reverse() : order) {
      settle();
      const t0 = performance.now();
      engines[i].reconcile({ facts });
      times[i].push(performance.now() - t0);
    }
  }
  return { times: times.map(median), fastest: times.map((t) => Math.min(...t)), ops: plans[0].ops.length };
}

/** The sizes of a pkg folder's builds: the Action's (and the CLI's and the library's) and the page's. */
export function sizes(pkgDir) {
  const action = readFileSync(join(pkgDir, "prflow_bg.wasm"));
  const page = readFileSync(join(pkgDir, "page/prflow_bg.wasm"));
  return { actionBytes: action.length, pageBytes: page.length, pageGzipBytes: gzipSync(page, { level: 9 }).length };
}

/** One guard's line: the figure, its limit, and whether it holds. */
export function guardLine(what, value, limit, unit, holds = value <= limit) {
  return `${holds ? "ok  " : "OVER"} ${what}: ${value.toLocaleString("en")} ${unit} (limit ${limit.toLocaleString("en")} ${unit})`;
}

export { config };
