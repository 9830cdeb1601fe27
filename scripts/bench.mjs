// Benchmarks the engine natively and in Wasm on Node 24, side by side in one run, on the same
// generated snapshots (1,000 and 10,000 pull requests, 3 reviews and 10 check runs each), beside Node's
// own JSON.parse of the same text (issue 16's goal: the engine decides a board in no more time than
// that), and prints the times, their ratios and the size of each host's .wasm. Medians of RUNS runs; the
// goal's ratio also as the median of each run's own ratio, the two timed back to back, which a shared
// machine's load moves less than it moves either median.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createEngine } from "../js/node.js";
import { Engine } from "../pkg/prflow.js"; // initialised by js/node.js; the text-to-text entry, like native
import { config, median, settle, snapshot } from "./lib/bench-snapshot.mjs";

const RUNS = Number(process.env.RUNS ?? 15);
const sizes = (process.env.SIZES ?? "1000,10000").split(",").map(Number);
const root = new URL("..", import.meta.url).pathname;
mkdirSync(`${root}.tmp`, { recursive: true });

execFileSync("cargo", ["build", "--quiet", "--release", "--bin", "prflow-native"], { cwd: root, stdio: "inherit" });
const configPath = `${root}.tmp/bench-config.json`;
writeFileSync(configPath, JSON.stringify(config));
const rows = [];
for (const n of sizes) {
  const facts = JSON.stringify(snapshot(n));
  const factsPath = `${root}.tmp/bench-facts-${n}.json`;
  writeFileSync(factsPath, facts);
  const native = JSON.parse(execFileSync(`${root}target/release/prflow-native`, ["bench", factsPath, configPath, String(RUNS)], { encoding: "utf8" }));
  const configText = JSON.stringify(config);
  const raw = new Engine(configText);
  const request = `{"facts":${facts}}`;
  const engine = createEngine(configText);
  engine.reconcile({ facts }); // warm-up: the first call compiles the Wasm tiers
  const times = [];
  const glueTimes = [];
  const parseTimes = [];
  const apiTimes = [];
  let ops = 0;
  // Interleaved, so the shared machine's noise falls on each alike: the engine text in -> plan text out
  // (js/core.js's path, the request written into Wasm memory by encodeInto), the same through
  // wasm-bindgen's string glue, Node's own JSON.parse of the same text, and the JS API (plan parsed too),
  // each after a full collection of the garbage the one before left.
  for (let r = 0; r < RUNS; r++) {
    settle();
    const t0 = performance.now();
    const text = engine.callText("reconcile", request);
    times.push(performance.now() - t0);
    settle();
    const t1 = performance.now();
    raw.call("reconcile", request);
    glueTimes.push(performance.now() - t1);
    settle();
    const t2 = performance.now();
    JSON.parse(request);
    parseTimes.push(performance.now() - t2);
    settle();
    const t3 = performance.now();
    ops = engine.reconcile({ facts }).ops.length;
    apiTimes.push(performance.now() - t3);
    if (r === 0 && text !== raw.call("reconcile", request)) throw new Error("the two paths into the engine give different plans");
  }
  if (ops !== native.ops) throw new Error(`native and Wasm plans differ in size: ${native.ops} vs ${ops}`);
  const paired = median(times.map((t, i) => t / parseTimes[i]));
  const fastest = Math.min(...times) / Math.min(...parseTimes);
  rows.push({ n, mb: facts.length / 1e6, native, nativeMs: native.medianMs, wasmMs: median(times), glueMs: median(glueTimes), parseMs: median(parseTimes), apiMs: median(apiTimes), paired, fastest, ops });
}
console.log(`engine benchmark: median of ${RUNS} interleaved runs, Node ${process.version}`);
console.log("native and wasm: facts JSON text in -> plan JSON text out (wasm: written into Wasm memory by encodeInto, as js/core.js does; glue: wasm-bindgen's string copy)");
console.log("JSON.parse: Node's own parse of the same request text; js api: engine.reconcile() from js/node.js incl. JSON.parse of the plan");
console.log("wasm/JSON.parse: of the medians; paired: the median of each run's ratio; fastest: of the fastest runs");
console.log("pull requests | JSON in MB | native ms | wasm ms | wasm/native | JSON.parse ms | wasm/JSON.parse | paired | fastest | glue ms | js api ms | native parse / decide / serialize ms | ops");
for (const r of rows) {
  const split = [r.native.parseMs, r.native.decideMs, r.native.serializeMs].map((x) => x.toFixed(1)).join(" / ");
  console.log(
    `${String(r.n).padStart(13)} | ${r.mb.toFixed(1).padStart(10)} | ${r.nativeMs.toFixed(1).padStart(9)} | ${r.wasmMs.toFixed(1).padStart(7)} | ${(r.wasmMs / r.nativeMs).toFixed(2).padStart(10)}x | ${r.parseMs.toFixed(1).padStart(13)} | ${(r.wasmMs / r.parseMs).toFixed(2).padStart(14)}x | ${r.paired.toFixed(2).padStart(5)}x | ${r.fastest.toFixed(2).padStart(6)}x | ${r.glueMs.toFixed(1).padStart(7)} | ${r.apiMs.toFixed(1).padStart(9)} | ${split.padStart(36)} | ${r.ops}`,
  );
}
// Each host's build (scripts/build.sh): the Action's and the CLI's for speed, the pages' for size.
for (const [file, what] of [["pkg/prflow_bg.wasm", "the Action and the CLI, opt-level 3"], ["pkg/page/prflow_bg.wasm", "the dashboard page, opt-level z"], ["pkg/sim/prflow_bg.wasm", "the simulations page, opt-level z"]]) {
  const bytes = readFileSync(`${root}${file}`);
  console.log(`${file}: ${(bytes.length / 1024).toFixed(1)} KiB (${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KiB gzipped), ${what}`);
}
