// Compares two builds of the engine's Wasm in one process, on the benchmark's board: each is a folder of
// wasm-bindgen output (prflow.js + prflow_bg.wasm), e.g. pkg/ and a build of an older commit. Runs are
// interleaved (A, B, A, B, ...) so the shared machine's noise falls on both alike; the ratio B/A is the
// number to read. Both must give the same plan, or the comparison stops. What is timed is the path the
// hosts take (js/core.js's `callText`: the request written into Wasm memory by encodeInto, then
// `callInput`, the plan text out), not `Engine.call` with a JS string, whose glue copy hides changes.
//   node scripts/bench-ab.mjs DIR_A DIR_B        (RUNS=15 SIZES=1000,10000 by default)
import { readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { bind } from "../js/core.js";
import { config, median, settle, snapshot } from "./lib/bench-snapshot.mjs";

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error("usage: node scripts/bench-ab.mjs DIR_A DIR_B   (each holds prflow.js and prflow_bg.wasm)");
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 15);
const sizes = (process.env.SIZES ?? "1000,10000").split(",").map(Number);

/** A separate instance of a build's glue (the query makes Node load the module anew), initialised with its Wasm. */
async function load(dir, tag) {
  const glue = await import(`${pathToFileURL(resolve(dir, "prflow.js")).href}?build=${tag}`);
  const wasmPath = resolve(dir, "prflow_bg.wasm");
  glue.initSync({ module: readFileSync(wasmPath) });
  // A build from before the Engine class (issue 11) has the free reconcileJson export instead.
  const engine = glue.Engine ? bind(glue).createEngine(configText) : null;
  const reconcile = (facts) => (engine ? engine.callText("reconcile", `{"facts":${facts}}`) : glue.reconcileJson(facts, configText));
  return { reconcile, wasmPath };
}

const configText = JSON.stringify(config);
const builds = [await load(dirA, "a"), await load(dirB, "b")];

console.log(`A = ${dirA}, B = ${dirB}; reconcile as js/core.js calls it, JSON text in -> plan text out; median of ${RUNS} interleaved runs; Node ${process.version}`);
// The fastest run beside the median: on a machine shared with other work, noise only ever adds time.
console.log("pull requests | A ms | B ms | B/A | fastest: A ms | B ms | B/A");
for (const n of sizes) {
  const facts = JSON.stringify(snapshot(n));
  const plans = builds.map((b) => b.reconcile(facts)); // warm-up, and the check below
  if (plans[0] !== plans[1]) throw new Error(`the two builds give different plans for ${n} pull requests`);
  const times = [[], []];
  for (let r = 0; r < RUNS; r++) {
    // A, B then B, A: whatever the order itself costs falls on both alike.
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      const b = builds[i];
      settle();
      const t0 = performance.now();
      b.reconcile(facts);
      times[i].push(performance.now() - t0);
    }
  }
  const [a, b] = times.map(median);
  const [fa, fb] = times.map((t) => Math.min(...t));
  console.log(`${String(n).padStart(13)} | ${a.toFixed(1).padStart(6)} | ${b.toFixed(1).padStart(6)} | ${(b / a).toFixed(2)}x | ${fa.toFixed(1).padStart(13)} | ${fb.toFixed(1).padStart(6)} | ${(fb / fa).toFixed(2)}x`);
}
for (const [name, { wasmPath }] of [["A", builds[0]], ["B", builds[1]]]) {
  const bytes = readFileSync(wasmPath);
  console.log(`${name}: ${wasmPath} ${statSync(wasmPath).size} bytes (${gzipSync(bytes).length} gzipped)`);
}
