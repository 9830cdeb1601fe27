// Writes the simulations' plots into docs/ (called by scripts/build.sh, and checked by --check like the
// other generated files): the waits by review policy, the utilization sweep, and landings a day by
// queue policy over CI time. The article's parameters (the engine's defaults) with a fixed seed, so
// the SVGs are the same bytes on every build; the README quotes the same run.
//   node scripts/gen-sim-plots.mjs OUTDIR PKGDIR
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { bind } from "../js/core.js";
import { landingsSvg, sweepSvg, waitsSvg } from "../lib/sim-view.js";

export const PLOT_SEED = 1;
export const PLOTS = ["sim-review-waits.svg", "sim-review-sweep.svg", "sim-queue-landings.svg"];

const [outDir = "docs", pkgDir = "pkg"] = process.argv.slice(2);
const wasm = await import(pathToFileURL(resolve(pkgDir, "prflow.js")).href);
wasm.initSync({ module: readFileSync(resolve(pkgDir, "prflow_bg.wasm")) });
const engine = bind(wasm).createEngine();

const review = engine.simReview({ seed: PLOT_SEED });
const queue = engine.simQueue({ seed: PLOT_SEED });
mkdirSync(outDir, { recursive: true });
const svgs = [waitsSvg(review), sweepSvg(review), landingsSvg(queue)];
for (const [i, name] of PLOTS.entries()) writeFileSync(join(outDir, name), svgs[i]);
console.log(`sim plots: ${PLOTS.map((p) => join(outDir, p)).join(", ")} (seed ${PLOT_SEED})`);
