// The engine's guards, printed beside their limits (docs/performance.md): a board of 10,000 pull
// requests decided through the public API in Wasm, the page's Wasm gzipped, the Action's Wasm; and, for
// scale, the same board of 1,000 and the native engine's time on the same text. A benchmark, never a
// timed test: it prints, and exits 1 only when a guard is over its limit.
//   npm run bench                (RUNS=9)
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createEngine } from "../js/node.js";
import { snapshot } from "./lib/bench-snapshot.mjs";
import { BOARD, LIMITS, config, guardLine, sizes, timeBoards } from "./lib/guards.mjs";

const RUNS = Number(process.env.RUNS ?? 9);
const root = new URL("..", import.meta.url).pathname;
mkdirSync(`${root}.tmp`, { recursive: true });
execFileSync("cargo", ["build", "--quiet", "--release", "--bin", "prflow-native"], { cwd: root, stdio: "inherit" });
const configPath = `${root}.tmp/bench-config.json`;
writeFileSync(configPath, JSON.stringify(config));

const engine = createEngine(config);
console.log(
  `engine benchmark: reconcile through the public API in Wasm (facts an object in, the plan an object out), median of ${RUNS} runs, Node ${process.version}`,
);
console.log("pull requests | wasm ms | fastest ms | native ms (text in, text out) | ops");
let board;
for (const n of [1000, BOARD]) {
  const factsPath = `${root}.tmp/bench-facts-${n}.json`;
  writeFileSync(factsPath, JSON.stringify(snapshot(n)));
  const native = JSON.parse(
    execFileSync(`${root}target/release/prflow-native`, ["bench", factsPath, configPath, String(RUNS)], {
      encoding: "utf8",
    }),
  );
  const t = timeBoards([engine], RUNS, n);
  if (n === BOARD) board = t.times[0];
  console.log(
    `${String(n).padStart(13)} | ${t.times[0].toFixed(1).padStart(7)} | ${t.fastest[0].toFixed(1).padStart(10)} | ${native.medianMs.toFixed(1).padStart(29)} | ${t.ops}`,
  );
}

const s = sizes(`${root}pkg`);
const lines = [
  guardLine(
    `a board of ${BOARD.toLocaleString("en")} pull requests decided in Wasm`,
    Math.round(board),
    LIMITS.boardMs,
    "ms",
  ),
  guardLine("the page's Wasm gzipped (pkg/page/prflow_bg.wasm)", s.pageGzipBytes, LIMITS.pageGzipBytes, "bytes"),
  guardLine(
    "the Action's Wasm (pkg/prflow_bg.wasm)",
    s.actionBytes,
    LIMITS.actionBytes,
    "bytes",
    s.actionBytes < LIMITS.actionBytes,
  ),
];
console.log(`\nguards:\n${lines.join("\n")}`);
process.exitCode = lines.some((l) => l.startsWith("OVER")) ? 1 : 0;
