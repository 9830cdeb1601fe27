// Seeds the GitHub emulator with a bot-panel team's repository: open pull requests in mixed states (the
// situations of scripts/lib/demo-board.mjs, made with the emulator's own writes so that timelines, commit
// ids and events are GitHub's), for the demo, the end-to-end tests and the API benchmark.
import { AGENTS, BOTS, HUMAN } from "./demo-board.mjs";
import { fileSkeleton } from "../../emulator/state.js";

/** Labels a repository has before prflow's labels mode ran: only GitHub's defaults. */
export const GITHUB_DEFAULT_LABELS = [
  { name: "bug", color: "d73a4a", description: "Something isn't working" },
  { name: "documentation", color: "0075ca", description: "Improvements or additions to documentation" },
];

/** One situation: `open(em, author)` opens and shapes a pull request and returns its number. */
const approveAll = (em, n, bots = BOTS) => {
  for (const author of bots) em.review(n, { author, state: "APPROVED" });
};
const ci = (em, n, conclusion = "SUCCESS", name = "test") =>
  em.checkRun({ number: n, name, workflow: "ci", conclusion });
const green = (em, n) => {
  ci(em, n, "SUCCESS", "test");
  ci(em, n, "SUCCESS", "lint");
};

/** Changed paths, rotated over the pull requests so that some get a scope label and some none. */
const PATHS = [
  ["tests/node/board.test.js"],
  ["src/labels.rs"],
  ["lib/github/read.js"],
  ["docs/labels.md"],
  ["Cargo.toml"],
];
/** Every path a situation edits (the base branch has them when the emulator runs on git). */
const SEEDED_FILES = [...PATHS.flat(), "README.md", "src/bot_panel.rs", "action/src/main.js"];

/** Opened three weeks before the rest and left alone since: `stale` from real activity. */
export const QUIET = [
  "quiet for three weeks",
  (em, a, f) => {
    const n = em.createPull({ title: "quiet", author: a, files: f }).number;
    em.checkRun({ number: n, name: "test", workflow: "ci" });
    em.review(n, { author: "claude-bot", state: "CHANGES_REQUESTED" });
    return n;
  },
];

export const SEED_SITUATIONS = [
  [
    "draft, still being built",
    (em, a, f) => em.createPull({ title: "draft", author: a, files: f, draft: true }).number,
  ],
  [
    "bots reviewing: codex-bot asked",
    (em, a, f) => {
      const n = em.createPull({ title: "bots reviewing", author: a, files: f }).number;
      green(em, n);
      em.review(n, { author: "claude-bot", state: "APPROVED" });
      em.requestReviewers(n, { reviewers: ["codex-bot", "gemini-bot"] });
      return n;
    },
  ],
  [
    "claude-bot requested changes",
    (em, a, f) => {
      const n = em.createPull({ title: "changes requested", author: a, files: f, labels: [] }).number;
      green(em, n);
      em.review(n, { author: "claude-bot", state: "CHANGES_REQUESTED" });
      approveAll(em, n, ["codex-bot", "gemini-bot"]);
      return n;
    },
  ],
  [
    "all three bots approved the head",
    (em, a, f) => {
      const n = em.createPull({ title: "approved by the panel", author: a, files: f }).number;
      green(em, n);
      approveAll(em, n);
      return n;
    },
  ],
  [
    "approvals staled by a push; the agent had set needs-human",
    (em, a, f) => {
      const n = em.createPull({ title: "stale approvals", author: a, files: f }).number;
      em.addLabels(n, ["state:needs-human"]);
      approveAll(em, n);
      em.push(n);
      green(em, n);
      return n;
    },
  ],
  [
    "approved but conflicting; merge-next set by the maintainer",
    (em, a, f) => {
      const n = em.createPull({ title: "conflicts", author: a, files: f, conflicting: true }).number;
      em.addLabels(n, ["state:needs-human"]);
      em.addLabels(n, ["merge-next"], { by: HUMAN });
      green(em, n);
      approveAll(em, n);
      return n;
    },
  ],
  [
    "approved but a check failed",
    (em, a, f) => {
      const n = em.createPull({ title: "red check", author: a, files: f }).number;
      ci(em, n, "FAILURE", "test");
      ci(em, n, "SUCCESS", "lint");
      approveAll(em, n);
      return n;
    },
  ],
  [
    "gemini-bot never asked; the agent set needs-human early",
    (em, a, f) => {
      const n = em.createPull({ title: "partial round", author: a, files: f }).number;
      em.addLabels(n, ["state:needs-human"]);
      green(em, n);
      approveAll(em, n, BOTS.slice(0, 2));
      return n;
    },
  ],
  [
    "human asked, round complete",
    (em, a, f) => {
      const n = em.createPull({ title: "with the maintainer", author: a, files: f }).number;
      green(em, n);
      approveAll(em, n);
      em.requestReviewers(n, { reviewers: [HUMAN] });
      return n;
    },
  ],
  [
    "comments only: the author judges",
    (em, a, f) => {
      const n = em.createPull({ title: "comments only", author: a, files: f }).number;
      green(em, n);
      for (const author of BOTS) em.review(n, { author, state: "COMMENTED", body: "looks fine" });
      return n;
    },
  ],
  [
    "nobody asked yet",
    (em, a, f) => {
      const n = em.createPull({ title: "fresh", author: a, files: f }).number;
      green(em, n);
      return n;
    },
  ],
  [
    "docs change, all approved",
    (em, a, f) => {
      const n = em.createPull({ title: "docs", author: a, files: ["docs/labels.md", "README.md"] }).number;
      green(em, n);
      approveAll(em, n);
      return n;
    },
  ],
  [
    "re-run replaced a cancelled run",
    (em, a, f) => {
      const n = em.createPull({ title: "re-run", author: a, files: f }).number;
      ci(em, n, "CANCELLED", "test");
      green(em, n);
      approveAll(em, n);
      em.requestReviewers(n, { reviewers: [HUMAN] });
      return n;
    },
  ],
  [
    "checks still running",
    (em, a, f) => {
      const n = em.createPull({ title: "running", author: a, files: ["src/bot_panel.rs"] }).number;
      em.checkRun({ number: n, name: "test", workflow: "ci", status: "IN_PROGRESS" });
      em.requestReviewers(n, { reviewers: BOTS });
      return n;
    },
  ],
  [
    "conflict and a failing check",
    (em, a, f) => {
      const n = em.createPull({
        title: "two blockers",
        author: a,
        conflicting: true,
        files: ["action/src/main.js"],
      }).number;
      ci(em, n, "FAILURE", "test");
      return n;
    },
  ],
];

/**
 * Opens `count` pull requests cycling through the situations, authored by the agents in turn, then moves
 * the clock past GitHub's mergeability recomputation so every one reads MERGEABLE or CONFLICTING.
 * Returns [{ number, situation }].
 */
export function seedBoard(em, count = SEED_SITUATIONS.length) {
  for (const label of GITHUB_DEFAULT_LABELS) if (!em.state.label(label.name)) em.createLabel(label);
  // On real git the base branch first has every file the pull requests edit, so that each edits its own
  // line of an existing file: they merge cleanly with each other, and a conflict is one a seed made.
  if (em.git)
    em.moveBranch(em.state.defaultBranch, { files: Object.fromEntries(SEEDED_FILES.map((f) => [f, fileSkeleton(f)])) });
  const out = [];
  if (count >= 5) {
    out.push({ number: QUIET[1](em, AGENTS[0], PATHS[0]), situation: QUIET[0] });
    em.clock.advance({ days: 20 });
  }
  for (let i = out.length; i < count; i++) {
    const [situation, open] = SEED_SITUATIONS[i % SEED_SITUATIONS.length];
    const number = open(em, AGENTS[i % AGENTS.length], PATHS[i % PATHS.length]);
    out.push({ number, situation });
  }
  em.clock.advance({ minutes: 5 });
  return out;
}
