// Scaling in dependency members (issue 16): the queue's triage and the dashboard (which lays the same graph
// out in layers) on a Merge-After ring, a chain (each waits for the one before) and a chain listed against
// its direction (each waits for the one after) of up to 10,000 pull requests, decided by a Wasm build in
// this process; prints time and the Wasm memory the call left allocated (a fresh instance per size, so it
// is that call's peak), and the 4,000/2,000 ratios, about 2 when a call is linear and about 4 when it is
// quadratic. With two build folders it runs both on the same inputs, interleaved, and prints B/A.
//   node scripts/bench-scale.mjs [DIR_A [DIR_B]]      (default pkg/; RUNS=9)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { median, settle } from "./lib/bench-snapshot.mjs";

const root = new URL("..", import.meta.url).pathname;
const dirs = process.argv.slice(2);
if (!dirs.length) dirs.push(`${root}pkg`);
const RUNS = Number(process.env.RUNS ?? 9);

/** A Merge-After ring (the last waits for the first), chain (each waits for the one before) or reversed
 * chain (each waits for the one after) of `n`. */
export function queueBoard(n, shape) {
  const pullRequests = [];
  for (let i = 1; i <= n; i++) {
    const after = shape === "ring" ? (i % n) + 1 : shape === "chain" ? i - 1 : i < n ? i + 1 : 0;
    pullRequests.push({
      number: i,
      title: `t${i}`,
      author: "dev",
      baseRef: "main",
      headRef: `b${i}`,
      headSha: `h${i}`,
      labels: ["merge-queued"],
      body: after ? `Merge-After: #${after}` : "",
    });
  }
  return { facts: { repository: "me/here", now: "2026-01-01T00:00:00Z", defaultBranch: "main", pullRequests } };
}

let loads = 0;
/** A fresh instance of a build (its own linear memory), so the memory after one call is that call's. */
async function fresh(dir) {
  const glue = await import(`${pathToFileURL(resolve(dir, "prflow.js")).href}?i=${loads++}`);
  const exports = glue.initSync({ module: readFileSync(resolve(dir, "prflow_bg.wasm")) });
  return { glue, memory: exports.memory };
}

function ask(glue, name, text) {
  try {
    // The preset engine (no config), asked as every shell asks it: a JS object in and out (a build
    // from before the object boundary takes the text).
    const engine = new glue.Engine();
    return { out: engine.callInput ? engine.call(name, text) : engine.call(name, JSON.parse(text)) };
  } catch (e) {
    // An engine that runs out of Wasm memory aborts: reported as such, the other rows still run.
    return { failed: String(e.message ?? e).split("\n")[0] };
  }
}

const cases = [
  ["triage", "ring", 2000],
  ["triage", "ring", 4000],
  ["triage", "ring", 10000],
  ["triage", "chain", 10000],
  ["triage", "reversed", 10000],
  ["dashboard", "ring", 10000],
  ["dashboard", "chain", 10000],
  ["dashboard", "reversed", 2000],
  ["dashboard", "reversed", 4000],
  ["dashboard", "reversed", 10000],
];
const key = (call, shape, n) => `${call} ${shape} ${n}`;
const texts = cases.map(([, shape, n]) => JSON.stringify(queueBoard(n, shape)));

// Memory: one call on a fresh instance, whose linear memory never shrinks, so its size after the call is
// that call's peak.
const results = dirs.map(() => ({}));
for (let d = 0; d < dirs.length; d++) {
  for (let c = 0; c < cases.length; c++) {
    const once = await fresh(dirs[d]);
    const first = ask(once.glue, cases[c][0], texts[c]);
    const mb = once.memory.buffer.byteLength / 2 ** 20;
    results[d][key(...cases[c])] = first.failed
      ? { failed: first.failed, mb }
      : { mb, outMb: (typeof first.out === "string" ? first.out : JSON.stringify(first.out)).length / 1e6, times: [] };
  }
}

// Time: every case on one instance per build, round after round, the builds interleaved, so a stretch of
// load on the shared machine falls on all rows alike instead of on whichever row ran then, and each call
// after a full collection (settle), so none pays for the garbage of the one before. Two rounds go
// first untimed: V8 compiles a module with its baseline compiler and optimises functions as they run hot,
// and a row timed before that (the first, as the rows ran one after another) once read a ring of 2,000
// slower than the ring of 4,000 after it.
const warm = [];
for (const dir of dirs) warm.push((await fresh(dir)).glue);
for (let r = -2; r < RUNS; r++) {
  for (let c = 0; c < cases.length; c++) {
    for (let d = 0; d < dirs.length; d++) {
      const row = results[d][key(...cases[c])];
      if (row.failed) continue;
      settle();
      const t0 = performance.now();
      ask(warm[d], cases[c][0], texts[c]);
      if (r >= 0) row.times.push(performance.now() - t0);
    }
  }
}
for (const r of results) {
  for (const row of Object.values(r)) {
    if (!row.failed) [row.ms, row.fastest] = [median(row.times), Math.min(...row.times)];
  }
}

console.log(
  `the queue's triage and the dashboard on a Merge-After ring, chain and reversed chain, Wasm in Node ${process.version}, time the median (and the fastest) of ${RUNS} warm calls interleaved with the other rows, memory that of a fresh instance after one call`,
);
for (let d = 0; d < dirs.length; d++) {
  const r = results[d];
  console.log(`\n${dirs[d]}`);
  console.log("call and board           |       ms |  fastest | Wasm memory MB | answer MB");
  for (const c of cases) {
    const x = r[key(...c)];
    if (x.failed)
      console.log(`${key(...c).padEnd(24)} | failed (${x.failed}) with ${x.mb.toFixed(1)} MB of Wasm memory`);
    else
      console.log(
        `${key(...c).padEnd(24)} | ${x.ms.toFixed(1).padStart(8)} | ${x.fastest.toFixed(1).padStart(8)} | ${x.mb.toFixed(1).padStart(14)} | ${x.outMb.toFixed(2).padStart(9)}`,
      );
  }
  const ratio = (call, shape, of) => (r[key(call, shape, 4000)][of] / r[key(call, shape, 2000)][of]).toFixed(2);
  const both = (call, shape) => `${ratio(call, shape, "ms")}x time (fastest ${ratio(call, shape, "fastest")}x)`;
  console.log(
    `triage ring(4,000)/ring(2,000): ${both("triage", "ring")}; dashboard reversed(4,000)/reversed(2,000): ${both("dashboard", "reversed")} (about 2 when linear)`,
  );
}
if (dirs.length === 2) {
  console.log(
    "\nB/A time: " +
      cases.map((c) => `${key(...c)} ${(results[1][key(...c)].ms / results[0][key(...c)].ms).toFixed(3)}x`).join(", "),
  );
}
