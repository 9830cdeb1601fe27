// The guards of two builds in one process (before and after a change): each is a folder of wasm-bindgen
// output (prflow.js, prflow_bg.wasm, page/prflow_bg.wasm), e.g. a build of the previous commit and pkg/.
// A folder may hold its own core.js (the JS face it shipped with, for a build whose boundary differed);
// without one, js/core.js binds it. Runs are interleaved (A, B, B, A, ...) so the shared machine's noise
// falls on both alike. Both must give the same plan, or the comparison stops.
//   node scripts/bench-ab.mjs DIR_A DIR_B        (RUNS=9)
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { BOARD, LIMITS, config, guardLine, sizes, timeBoards } from "./lib/guards.mjs";

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error(
    "usage: node scripts/bench-ab.mjs DIR_A DIR_B   (each holds prflow.js, prflow_bg.wasm and page/prflow_bg.wasm)",
  );
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 9);

/** A separate instance of a build's glue (the query makes Node load the module anew), bound by its JS face. */
async function load(dir, tag) {
  const glue = await import(`${pathToFileURL(resolve(dir, "prflow.js")).href}?build=${tag}`);
  glue.initSync({ module: readFileSync(resolve(dir, "prflow_bg.wasm")) });
  const own = resolve(dir, "core.js");
  const { bind } = await import(
    existsSync(own) ? pathToFileURL(own).href : new URL("../js/core.js", import.meta.url).href
  );
  return bind(glue).createEngine(config);
}

const engines = [await load(dirA, "a"), await load(dirB, "b")];
const t = timeBoards(engines, RUNS);
const [a, b] = [sizes(dirA), sizes(dirB)];
console.log(`A = ${dirA}, B = ${dirB}; median of ${RUNS} interleaved runs; Node ${process.version}`);
for (const [name, ms, fastest, s] of [
  ["A", t.times[0], t.fastest[0], a],
  ["B", t.times[1], t.fastest[1], b],
]) {
  console.log(`\n${name} (${name === "A" ? dirA : dirB}):`);
  console.log(
    guardLine(
      `a board of ${BOARD.toLocaleString("en")} pull requests decided in Wasm (fastest ${fastest.toFixed(0)} ms)`,
      Math.round(ms),
      LIMITS.boardMs,
      "ms",
    ),
  );
  console.log(guardLine("the page's Wasm gzipped", s.pageGzipBytes, LIMITS.pageGzipBytes, "bytes"));
  console.log(
    guardLine("the Action's Wasm", s.actionBytes, LIMITS.actionBytes, "bytes", s.actionBytes < LIMITS.actionBytes),
  );
}
console.log(
  `\nB/A: board ${(t.times[1] / t.times[0]).toFixed(2)}x, page gzipped ${(b.pageGzipBytes / a.pageGzipBytes).toFixed(2)}x, Action ${(b.actionBytes / a.actionBytes).toFixed(2)}x`,
);
