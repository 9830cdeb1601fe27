// Scaling of the queue's triage in cycle members (issue 16): a Merge-After ring and a Merge-After chain of
// up to 10,000 pull requests, decided by a Wasm build in this process; prints time and the Wasm memory the
// call left allocated (a fresh instance per size, so it is that call's peak), and ring(4,000)/ring(2,000),
// which is about 2 when the triage is linear and about 4 when it is quadratic. With two build folders it
// runs both on the same inputs, interleaved, and prints B/A.
//   node scripts/bench-scale.mjs [DIR_A [DIR_B]]      (default pkg/; RUNS=5)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { median } from "./lib/bench-snapshot.mjs";

const root = new URL("..", import.meta.url).pathname;
const dirs = process.argv.slice(2);
if (!dirs.length) dirs.push(`${root}pkg`);
const RUNS = Number(process.env.RUNS ?? 5);

/** A Merge-After ring (the last waits for the first) or chain (each waits for the one before) of `n`. */
export function queueBoard(n, shape) {
  const pullRequests = [];
  for (let i = 1; i <= n; i++) {
    const after = shape === "ring" ? (i % n) + 1 : i - 1;
    pullRequests.push({ number: i, title: `t${i}`, author: "dev", baseRef: "main", headRef: `b${i}`, headSha: `h${i}`, labels: ["merge-queued"], body: after ? `Merge-After: #${after}` : "" });
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

/** Time: the median of RUNS calls on one instance after a first call (the compiler's tiers warmed). Memory: one
 * call on a fresh instance, whose linear memory never shrinks, so its size after the call is the call's peak. */
async function measure(dir, text) {
  const call = (glue) => {
    try {
      // The preset engine (no config), asked as every shell asks it: JSON text in and out.
      return { out: new glue.Engine().call("triage", text) };
    } catch (e) {
      // An engine that runs out of Wasm memory aborts: reported as such, the other rows still run.
      return { failed: String(e.message ?? e).split("\n")[0] };
    }
  };
  const once = await fresh(dir);
  const first = call(once.glue);
  const mb = once.memory.buffer.byteLength / 2 ** 20;
  if (first.failed) return { failed: first.failed, mb };
  const warm = await fresh(dir);
  call(warm.glue);
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    call(warm.glue);
    times.push(performance.now() - t0);
  }
  return { ms: median(times), mb, outMb: first.out.length / 1e6 };
}

const cases = [
  ["ring", 2000],
  ["ring", 4000],
  ["ring", 10000],
  ["chain", 10000],
];
const results = dirs.map(() => ({}));
for (const [shape, n] of cases) {
  const text = JSON.stringify(queueBoard(n, shape));
  for (let d = 0; d < dirs.length; d++) results[d][`${shape}${n}`] = await measure(dirs[d], text);
}
console.log(`queue triage on a Merge-After ring and chain, Wasm in Node ${process.version}, time the median of ${RUNS} warm calls, memory that of a fresh instance after one call`);
for (let d = 0; d < dirs.length; d++) {
  const r = results[d];
  console.log(`\n${dirs[d]}`);
  console.log("board         |       ms | Wasm memory MB | report MB");
  for (const [shape, n] of cases) {
    const x = r[`${shape}${n}`];
    if (x.failed) console.log(`${`${shape} ${n}`.padEnd(13)} | failed (${x.failed}) with ${x.mb.toFixed(1)} MB of Wasm memory`);
    else console.log(`${`${shape} ${n}`.padEnd(13)} | ${x.ms.toFixed(1).padStart(8)} | ${x.mb.toFixed(1).padStart(14)} | ${x.outMb.toFixed(2).padStart(9)}`);
  }
  console.log(`ring(4,000)/ring(2,000): ${(r.ring4000.ms / r.ring2000.ms).toFixed(2)}x time (about 2 when linear)`);
}
if (dirs.length === 2) {
  console.log("\nB/A time: " + cases.map(([s, n]) => `${s} ${n} ${(results[1][`${s}${n}`].ms / results[0][`${s}${n}`].ms).toFixed(3)}x`).join(", "));
}
