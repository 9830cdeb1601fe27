// The benchmark's board: a deterministic snapshot of N pull requests (3 reviews and 10 check runs each, in
// mixed states), the config it is decided under, and how runs are summed up. Shared by bench.mjs (native
// vs Wasm) and bench-ab.mjs (one Wasm build vs another), so both measure the same work the same way.
import { bots } from "../../js/sample-board.js";

export { bots };
export const config = { botPanel: { bots, humans: ["maintainer"] }, scopes: { "scope:docs": ["docs/**", "**/*.md"], "scope:engine": ["src/**"] } };

export { sampleBoard as snapshot } from "../../js/sample-board.js";

/** The median of run times (the upper one of an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
