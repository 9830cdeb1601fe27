// The README's main command: a bot-panel team's repository on the GitHub emulator, the bundled Action run
// against it as a workflow would (labels mode, then reconcile live), then the board and what changed and why;
// then the merge queue's worker landing a small queued board one pull request at a time (scripts/lib/demo-queue.mjs).
// Without the emulator (emulator/ not present yet) it runs the engine on the sample snapshot and prints the plan.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { demoFacts } from "./lib/demo-board.mjs";
import { boardText } from "../lib/summary.js";
import { terminalWidth } from "../cli/usage.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const config = JSON.parse(readFileSync(`${root}examples/prflow.json`, "utf8"));
const snapshotPath = `${root}examples/snapshot.json`;

async function offline() {
  const prflow = await import("../js/node.js");
  const engine = prflow.createEngine(config);
  const facts = existsSync(snapshotPath) ? JSON.parse(readFileSync(snapshotPath, "utf8")) : demoFacts();
  const source = existsSync(snapshotPath) ? "examples/snapshot.json" : "scripts/lib/demo-board.mjs";
  const plan = engine.reconcile({ facts });
  console.log(
    `prflow ${engine.version()} on ${facts.repository} (${source}, offline: the engine only, nothing written)\n`,
  );
  console.log(boardText(plan, [], { live: false, width: terminalWidth() }));
}

const emulatorEntry = `${root}emulator/index.js`;
if (existsSync(emulatorEntry) && existsSync(`${root}action/dist/index.mjs`)) {
  const { runDemo } = await import("./lib/demo-emulator.mjs");
  const dashboard = process.argv.includes("--dashboard");
  await runDemo({ root, dashboard });
  if (!dashboard) {
    // The merge queue's worker on a queued board of its own (real git, the CI simulator).
    const { runQueueDemo } = await import("./lib/demo-queue.mjs");
    console.log(
      `\n4. the merge queue: prflow queue (the same code as the Action's mode: queue), landing one pull request at a time\n`,
    );
    await runQueueDemo();
  }
} else {
  await offline();
}
