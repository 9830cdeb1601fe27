// The demo on the GitHub emulator: a bot-panel team's repository, the bundled Action run against it the way a
// workflow runs it (labels mode, then a live scheduled reconcile, then the same sweep again), and in the
// terminal the board, what changed and why, and what each run cost in API requests. Beside the review
// situations (seed-emulator.mjs) the board has a merge queue (seedQueue): a Merge-After chain, a stack,
// a set-aside conflict, a claimed pull request, and one a human has left for weeks, which stops the line.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator/index.js";
import { makeClock } from "../../emulator/state.js";
import { boardText } from "../../lib/summary.js";
import { cut } from "../../lib/dashboard-text.js";
import { terminalWidth } from "../../cli/usage.js";
import { seedBoard } from "./seed-emulator.mjs";
import { BOTS, HUMAN } from "./demo-board.mjs";
import { servePage } from "./serve-page.mjs";

const requestsLine = (c) =>
  `${c.total} API requests (${c.reads} reads: ${c.graphql} GraphQL, ${c.rest - c.writes} REST; ${c.writes} writes)`;

export async function runDemo({ root, count = 20, dashboard = false }) {
  // The page times each state to the browser's clock, so the emulator's clock must end its seeding at
  // the real time: a throwaway seeding measures how far the situations move it.
  const span = await seedingSpan(count);
  const em = await startEmulator({ clock: makeClock(Date.now() - span) });
  const ws = mkdtempSync(join(tmpdir(), "prflow-demo-"));
  try {
    const board = seedDemo(em, count);
    mkdirSync(join(ws, ".github"));
    const config = `${JSON.stringify(demoConfig(root), null, 2)}\n`;
    writeFileSync(join(ws, ".github/prflow.json"), config);
    // The repository holds the config too, as a real one does: the dashboard reads it from there.
    em.setFile(".github/prflow.json", config);
    const run = (mode, event = "schedule") =>
      em.runAction({
        actionPath: root,
        event,
        payload: event === "schedule" ? { schedule: "17,47 * * * *" } : {},
        inputs: { mode, live: "true" },
        workspace: ws,
      });
    console.log(
      `prflow demo: acme/widgets, a bot-panel team (bots: claude-bot, codex-bot, gemini-bot; human: maintainer)`,
    );
    console.log(
      `with ${board.length} open pull requests, on the GitHub emulator at ${em.url}; config examples/prflow.json and a stop-the-line level\n`,
    );

    em.reset();
    const labels = await run("labels", "workflow_dispatch");
    if (labels.code) throw new Error(`labels mode failed:\n${labels.stdout}${labels.stderr}`);
    const labelResults = JSON.parse(labels.outputs.plan);
    const named = (status) => labelResults.filter((r) => r.status === status).map((r) => r.name);
    console.log(`1. uses: org/prflow-action@v1 with mode: labels, live: true`);
    console.log(`   created ${named("created").length}: ${named("created").join(", ")}`);
    if (named("updated").length)
      console.log(
        `   updated ${named("updated").length} that agents had made by hand (colour, description): ${named("updated").join(", ")}`,
      );
    console.log(`   ${requestsLine(em.counts())}\n`);

    em.reset();
    const sweep = await run("reconcile");
    if (sweep.code) throw new Error(`reconcile failed:\n${sweep.stdout}${sweep.stderr}`);
    const plan = JSON.parse(sweep.outputs.plan);
    const results = plan.ops.map(() => ({ status: "applied" }));
    const titles = new Map(board.map((b) => [b.number, b.situation]));
    console.log(`2. uses: org/prflow-action@v1 with mode: reconcile, live: true (a scheduled sweep)`);
    console.log(
      `   ${sweep.outputs.ops} operations, ${sweep.outputs.writes} writes, ${sweep.outputs.warnings} warnings; ${requestsLine(em.counts())}\n`,
    );
    const width = terminalWidth();
    const text = boardText(plan, Number(sweep.outputs.writes) === plan.ops.length ? results : [], {
      live: true,
      width,
    });
    // Each row's situation in the room the terminal leaves, cut rather than wrapped: the table stays a table.
    console.log(
      text.replace(/^#(\d+)(\s+)(.*)$/gm, (line, n) =>
        cut(titles.has(Number(n)) ? `${line}  (${titles.get(Number(n))})` : line, width),
      ),
    );

    em.reset();
    const again = await run("reconcile");
    console.log(
      `\n3. the same sweep again: ${again.outputs.ops} operations, ${again.outputs.writes} writes; ${requestsLine(em.counts())}`,
    );
    console.log(`   (the board is converged: the Action's own writes used GITHUB_TOKEN, so they started no runs)`);
    if (em.validationFailures.length)
      console.log(`\n!! ${em.validationFailures.length} requests did not match GitHub's schemas`);
    if (dashboard) {
      // The dashboard page (page/dist) against this emulator, until Ctrl-C.
      // Row links open the demo's own view of a pull request (the emulator serves an API, not GitHub's web pages).
      const page = await servePage(undefined, { "/web/": (path) => pullPage(em, path) });
      console.log(
        `\n4. the dashboard: ${page.url}/?repo=${em.state.owner}/${em.state.repo}&api=${encodeURIComponent(em.url)}&web=${encodeURIComponent(`${page.url}/web`)}`,
      );
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
export async function seedingSpan(count) {
  const probe = await startEmulator();
  try {
    const start = probe.clock.now();
    seedDemo(probe, count);
    return probe.clock.now() - start;
  } finally {
    await probe.close();
  }
}

/**
 * examples/prflow.json, plus a follow-up level: a pull request waiting two days for a human stops the
 * line. The account the demo's page reads as (the repository owner's, whose token the worker also uses,
 * as a one-person team's would) is one of the humans who merge, so the page's "You" group shows.
 */
export function demoConfig(root, owner = "acme") {
  const config = JSON.parse(readFileSync(join(root, "examples/prflow.json"), "utf8"));
  const level = {
    after: 2880,
    action: "stop-the-line",
    message: "A human has not looked at it for two days: agents open no new pull request until one does.",
  };
  const botPanel = { ...config.botPanel, humans: [...new Set([...(config.botPanel?.humans ?? []), owner])] };
  return {
    ...config,
    botPanel,
    followup: { ...config.followup, levels: { ...config.followup?.levels, "state:needs-human": [level] } },
  };
}

const escapeHtml = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The demo's web view of a pull request (`/web/OWNER/REPO/pull/N`), from the emulator's state: what a row's link opens. */
export function pullPage(em, path) {
  const m = /^\/web\/[^/]+\/[^/]+\/pull\/(\d+)/.exec(path);
  const pr = m && em.state.pulls.get(Number(m[1]));
  if (!pr) return null;
  const items = (xs) => xs.map((x) => `<li>${x}</li>`).join("");
  const comments = (pr.comments ?? []).map((c) => `<b>${escapeHtml(c.author)}</b>: <pre>${escapeHtml(c.body)}</pre>`);
  return `<!doctype html><meta charset="utf-8"><title>#${pr.number} ${escapeHtml(pr.title)}</title>
<h1>#${pr.number} ${escapeHtml(pr.title)}</h1><p>${escapeHtml(pr.state)}${pr.merged ? " (merged)" : ""} · by ${escapeHtml(pr.author)} · <code>${escapeHtml(pr.headRef)}</code> into <code>${escapeHtml(pr.baseRef)}</code></p>
<p>Labels: ${escapeHtml(pr.labels.join(", ") || "none")}</p><h2>Body</h2><pre>${escapeHtml(pr.body)}</pre><h2>Comments</h2><ul>${items(comments)}</ul>
<p>(The prflow demo's view of the emulator's pull request: on GitHub this link opens the pull request.)</p>`;
}

/** The review situations (seedBoard) and the merge queue's (seedQueue), the oldest first. Returns [{ number, situation }]. */
export function seedDemo(em, count) {
  const waiting = seedWaitingHuman(em);
  const board = seedBoard(em, count);
  const queue = seedQueue(em);
  // Past GitHub's mergeability recomputation, so the queue reads each merge state (seedBoard does the same).
  em.clock.advance({ minutes: 5 });
  return [...board, waiting, ...queue];
}

const green = (em, n) => {
  for (const name of ["test", "lint"]) em.checkRun({ number: n, name, workflow: "ci" });
};
const approved = (em, n) => {
  for (const author of [...BOTS, HUMAN]) em.review(n, { author, state: "APPROVED" });
};

/** Approved by the panel, the maintainer asked, and left there: opened before the rest, so it has waited weeks. */
function seedWaitingHuman(em) {
  const n = em.createPull({
    title: "waiting for the maintainer since the last release",
    author: "agent-rig",
    files: ["docs/release.md"],
  }).number;
  green(em, n);
  for (const author of BOTS) em.review(n, { author, state: "APPROVED" });
  em.requestReviewers(n, { reviewers: [HUMAN] });
  em.addLabels(n, ["state:needs-human"]);
  return { number: n, situation: "waiting for a human for weeks: stops the line" };
}

/**
 * The merge queue, as its worker leaves it: the worker and the page read as the repository owner's
 * account (the seed's `viewerDidAuthor` rule: only that account's markers count), so its set-aside and
 * claim comments are written as that account.
 */
export function seedQueue(em) {
  const worker = em.state.owner;
  const open = (title, extra = {}) => {
    const pr = em.createPull({ title, author: "agent-cast", labels: ["merge-queued"], ...extra });
    green(em, pr.number);
    approved(em, pr.number);
    return pr;
  };
  const base = open("queue: the parser rewrite", { head: "agent/parser" });
  const after = open("queue: the parser's docs", {
    body: `Updates the docs for the new parser.\n\nMerge-After: #${base.number}`,
  });
  const stacked = open("queue: the parser's fast path, stacked on it", { base: "agent/parser" });
  const conflict = open("queue: rename the config keys", { conflicting: true });
  em.comment(conflict.number, {
    author: worker,
    body: `<!-- prflow:set-aside reason=rebase-failed head=${conflict.headSha} base=${em.state.branch(em.state.defaultBranch).sha} -->\n**The merge queue set this pull request aside** (\`rebase-failed\`): rebasing it onto the base conflicted.\n\nA push to this branch, or \`main\` moving, clears it.\n\n- [ ] Retry: tick this box to have the queue try this pull request again.\n`,
  });
  const claimed = open("queue: flaky retry test", {});

  em.checkRun({ number: claimed.number, name: "test", workflow: "ci", conclusion: "FAILURE" });
  em.comment(claimed.number, {
    author: worker,
    body: `<!-- prflow:claim head=${claimed.headSha} by=fixer-box at=${new Date(em.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z")} -->\n**fixer-box** is fixing this pull request.\n`,
  });
  // Waiting their turn under skip-ci, and the day's landings with their timed CI runs: the lane's
  // estimates come from those.
  const waiting = [
    "queue: cache the label colours",
    "queue: one reader for the board",
    "queue: shorter status lines",
  ].map((title) => open(title, { labels: ["merge-queued", "skip-ci"] }));
  const landed = ["landed: the sweep's board", "landed: docs for the lane", "landed: retry a 502 once"].map(
    (title, i) => {
      const pr = em.createPull({ title, author: i === 1 ? "agent-rig" : "agent-cast", labels: ["merge-queued"] });
      const at = (minutes) => new Date(em.clock.now() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
      em.checkRun({ number: pr.number, name: "test", workflow: "ci", startedAt: at(14 + 3 * i), completedAt: at(1) });
      em.checkRun({ number: pr.number, name: "lint", workflow: "ci", startedAt: at(14 + 3 * i), completedAt: at(9) });
      em.merge(pr.number);
      em.clock.advance({ minutes: 7 });
      return pr;
    },
  );
  void landed;
  return [
    ...waiting.map((pr) => ({ number: pr.number, situation: "queued: waiting its turn under skip-ci" })),
    { number: base.number, situation: "queued: the base of a Merge-After chain and a stack" },
    { number: after.number, situation: `queued: Merge-After: #${base.number}` },
    { number: stacked.number, situation: `queued: stacked on #${base.number}'s branch` },
    { number: conflict.number, situation: "queued, set aside: the rebase conflicted" },
    { number: claimed.number, situation: "queued, a failed check, claimed by a fixer" },
  ];
}
