// The benchmark's board: a deterministic snapshot of N pull requests (3 reviews and 10 check runs each, in
// mixed states), the config it is decided under, how runs are summed up, and the garbage collection each
// timed run starts after. Shared by bench.mjs (native vs Wasm), bench-ab.mjs (one Wasm build vs another)
// and bench-scale.mjs, so they measure the same work the same way.
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { bots } from "../../js/sample-board.js";

export { bots };
export const config = {
  botPanel: { bots, humans: ["maintainer"] },
  scopes: { "scope:docs": ["docs/**", "**/*.md"], "scope:engine": ["src/**"] },
};

export { sampleBoard as snapshot } from "../../js/sample-board.js";

/** The median of run times (the upper one of an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// A full garbage collection before each timed run, outside its time: a run would otherwise pay for the
// garbage the runs before it left (a 10,000-pull-request plan is an 8 MB string), and in an interleaved
// A/B that bill fell on one side by the period of V8's collections (1,000 pull requests read B/A 0.95x
// in one run and 1.75x in the next, on the same two builds).
v8.setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc");

/** Collects all garbage now, so the next timed run starts with none. */
export function settle() {
  collect();
}
