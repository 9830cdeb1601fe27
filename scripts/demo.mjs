// The README's main command: a bot-panel team's repository on the GitHub emulator, the bundled Action run
// against it as a workflow would (labels mode, then reconcile live), then the board and what changed and why.
// Without the emulator (emulator/ not present yet) it runs the engine on the sample snapshot and prints the plan.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { demoFacts } from "./lib/demo-board.mjs";
import { boardText } from "../lib/summary.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const config = JSON.parse(readFileSync(`${root}examples/prflow.json`, "utf8"));
const snapshotPath = `${root}examples/snapshot.json`;

async function offline() {
  const prflow = await import("../js/node.js");
  const engine = prflow.createEngine(config);
  const facts = existsSync(snapshotPath) ? JSON.parse(readFileSync(snapshotPath, "utf8")) : demoFacts();
  const source = existsSync(snapshotPath) ? "examples/snapshot.json" : "scripts/lib/demo-board.mjs";
  const plan = engine.reconcile({ facts });
  console.log(`prflow ${engine.version()} on ${facts.repository} (${source}, offline: the engine only, nothing written)\n`);
  console.log(boardText(plan, [], { live: false }));
}

const emulatorEntry = `${root}emulator/index.js`;
if (existsSync(emulatorEntry) && existsSync(`${root}action/dist/index.mjs`)) {
  const { runDemo } = await import("./lib/demo-emulator.mjs");
  await runDemo({ root, dashboard: process.argv.includes("--dashboard") });
} else {
  await offline();
}
