// The demo on the GitHub emulator: a bot-panel team's repository, the bundled Action run against it the way a
// workflow runs it (labels mode, then a live scheduled reconcile, then the same sweep again), and in the
// terminal the board, what changed and why, and what each run cost in API requests.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator/index.js";
import { makeClock } from "../../emulator/state.js";
import { boardText } from "../../lib/summary.js";
import { seedBoard } from "./seed-emulator.mjs";
import { servePage } from "./serve-page.mjs";

const requestsLine = (c) => `${c.total} API requests (${c.reads} reads: ${c.graphql} GraphQL, ${c.rest - c.writes} REST; ${c.writes} writes)`;

export async function runDemo({ root, count = 20, dashboard = false }) {
  // The page times each state to the browser's clock, so the emulator's clock must end its seeding at
  // the real time: a throwaway seeding measures how far the situations move it.
  const span = await seedingSpan(count);
  const em = await startEmulator({ clock: makeClock(Date.now() - span) });
  const ws = mkdtempSync(join(tmpdir(), "prflow-demo-"));
  try {
    const board = seedBoard(em, count);
    mkdirSync(join(ws, ".github"));
    copyFileSync(join(root, "examples/prflow.json"), join(ws, ".github/prflow.json"));
    // The repository holds the config too, as a real one does: the dashboard reads it from there.
    em.setFile(".github/prflow.json", readFileSync(join(root, "examples/prflow.json"), "utf8"));
    const run = (mode, event = "schedule") =>
      em.runAction({ actionPath: root, event, payload: event === "schedule" ? { schedule: "17,47 * * * *" } : {}, inputs: { mode, live: "true" }, workspace: ws });
    console.log(`prflow demo: acme/widgets, a bot-panel team (bots: claude-bot, codex-bot, gemini-bot; human: maintainer)`);
    console.log(`with ${board.length} open pull requests, on the GitHub emulator at ${em.url}; config examples/prflow.json\n`);

    em.reset();
    const labels = await run("labels", "workflow_dispatch");
    if (labels.code) throw new Error(`labels mode failed:\n${labels.stdout}${labels.stderr}`);
    const labelResults = JSON.parse(labels.outputs.plan);
    const named = (status) => labelResults.filter((r) => r.status === status).map((r) => r.name);
    console.log(`1. uses: org/prflow-action@v1 with mode: labels, live: true`);
    console.log(`   created ${named("created").length}: ${named("created").join(", ")}`);
    if (named("updated").length) console.log(`   updated ${named("updated").length} that agents had made by hand (colour, description): ${named("updated").join(", ")}`);
    console.log(`   ${requestsLine(em.counts())}\n`);

    em.reset();
    const sweep = await run("reconcile");
    if (sweep.code) throw new Error(`reconcile failed:\n${sweep.stdout}${sweep.stderr}`);
    const plan = JSON.parse(sweep.outputs.plan);
    const results = plan.ops.map(() => ({ status: "applied" }));
    const titles = new Map(board.map((b) => [b.number, b.situation]));
    console.log(`2. uses: org/prflow-action@v1 with mode: reconcile, live: true (a scheduled sweep)`);
    console.log(`   ${sweep.outputs.ops} operations, ${sweep.outputs.writes} writes, ${sweep.outputs.warnings} warnings; ${requestsLine(em.counts())}\n`);
    const text = boardText(plan, Number(sweep.outputs.writes) === plan.ops.length ? results : [], { live: true });
    console.log(text.replace(/^#(\d+)(\s+)(.*)$/gm, (line, n, sp, rest) => `${line}  ${titles.has(Number(n)) ? `(${titles.get(Number(n))})` : ""}`));

    em.reset();
    const again = await run("reconcile");
    console.log(`\n3. the same sweep again: ${again.outputs.ops} operations, ${again.outputs.writes} writes; ${requestsLine(em.counts())}`);
    console.log(`   (the board is converged: the Action's own writes used GITHUB_TOKEN, so they started no runs)`);
    if (em.validationFailures.length) console.log(`\n!! ${em.validationFailures.length} requests did not match GitHub's schemas`);
    if (dashboard) {
      // The dashboard page (page/dist) against this emulator, until Ctrl-C.
      const page = await servePage();
      console.log(`\n4. the dashboard: ${page.url}/?repo=${em.state.owner}/${em.state.repo}&api=${encodeURIComponent(em.url)}`);
      console.log(`   token: ${em.personalToken}   (Ctrl-C stops the emulator and the page)`);
      await new Promise((resolve) => process.once("SIGINT", resolve));
      await page.close();
    } else {
      console.log(`\nThe dashboard page on this board: npm run demo -- --dashboard`);
    }
  } finally {
    await em.settle();
    em.server.closeAllConnections?.();
    await new Promise((resolve) => em.server.close(resolve));
    rmSync(ws, { recursive: true, force: true });
  }
}

/** How far seeding `count` situations moves the emulator's clock. */
async function seedingSpan(count) {
  const probe = await startEmulator();
  try {
    const start = probe.clock.now();
    seedBoard(probe, count);
    return probe.clock.now() - start;
  } finally {
    await probe.close();
  }
}
