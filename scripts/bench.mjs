// Benchmarks the engine natively and in Wasm on Node 24, side by side in one run, on the same
// generated snapshots (1,000 and 10,000 pull requests, 3 reviews and 10 check runs each), and
// prints both times, their ratio and the size of the shipped .wasm. Times are medians of RUNS runs.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createEngine } from "../js/node.js";
import { Engine } from "../pkg/prflow.js"; // initialised by js/node.js; the text-to-text entry, like native
import { config, median, snapshot } from "./lib/bench-snapshot.mjs";

const RUNS = Number(process.env.RUNS ?? 7);
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
  const apiTimes = [];
  let ops = 0;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    const text = raw.call("reconcile", request);
    times.push(performance.now() - t0);
    const t1 = performance.now();
    ops = engine.reconcile({ facts }).ops.length;
    apiTimes.push(performance.now() - t1);
    if (r === 0 && text.length === 0) throw new Error("empty plan text");
  }
  if (ops !== native.ops) throw new Error(`native and Wasm plans differ in size: ${native.ops} vs ${ops}`);
  rows.push({ n, mb: facts.length / 1e6, native, nativeMs: native.medianMs, wasmMs: median(times), apiMs: median(apiTimes), ops });
}
const wasmPath = `${root}pkg/prflow_bg.wasm`;
console.log(`engine benchmark: median of ${RUNS} runs, JSON text in -> plan out, Node ${process.version}`);
console.log("native and wasm: facts JSON text in -> plan JSON text out; js api: engine.reconcile() from js/node.js incl. JSON.parse of the plan");
console.log("pull requests | JSON in MB | native ms | wasm ms | wasm/native | js api ms | native parse / decide / serialize ms | ops");
for (const r of rows) {
  const split = [r.native.parseMs, r.native.decideMs, r.native.serializeMs].map((x) => x.toFixed(1)).join(" / ");
  console.log(
    `${String(r.n).padStart(13)} | ${r.mb.toFixed(1).padStart(10)} | ${r.nativeMs.toFixed(1).padStart(9)} | ${r.wasmMs.toFixed(1).padStart(7)} | ${(r.wasmMs / r.nativeMs).toFixed(2).padStart(10)}x | ${r.apiMs.toFixed(1).padStart(9)} | ${split.padStart(36)} | ${r.ops}`,
  );
}
const size = statSync(wasmPath).size;
console.log(`pkg/prflow_bg.wasm: ${(size / 1024).toFixed(1)} KiB (${(gzipSync(readFileSync(wasmPath)).length / 1024).toFixed(1)} KiB gzipped), after wasm-opt -Os`);
