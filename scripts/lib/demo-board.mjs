// A realistic board of a bot-panel team (three bot reviewers, one human who merges), as facts: the demo,
// the benchmark and the end-to-end tests seed the GitHub emulator from it. Deterministic: same input, same
// board. Each pull request is one situation the reconciler must read right, named in its title.
export const BOTS = ["claude-bot", "codex-bot", "gemini-bot"];
export const HUMAN = "maintainer";
export const AGENTS = ["agent-box", "agent-rig", "agent-cast"];
export const NOW = "2026-07-21T12:00:00Z";

const day = 86_400_000;
const at = (daysAgo, hours = 0) =>
  new Date(Date.parse(NOW) - daysAgo * day - hours * 3_600_000).toISOString().replace(".000", "");
const sha = (n, v = 0) => ((n * 2654435761 + v * 40503) >>> 0).toString(16).padStart(8, "0").repeat(5);

const green = (head, daysAgo) => [
  {
    name: "test",
    workflow: "ci",
    status: "COMPLETED",
    conclusion: "SUCCESS",
    startedAt: at(daysAgo, 1),
    completedAt: at(daysAgo),
    id: 1000 + daysAgo,
  },
  {
    name: "lint",
    workflow: "ci",
    status: "COMPLETED",
    conclusion: "SUCCESS",
    startedAt: at(daysAgo, 1),
    completedAt: at(daysAgo),
    id: 2000 + daysAgo,
  },
];
const review = (author, state, commit, daysAgo) => ({ author, state, commit, submittedAt: at(daysAgo), body: "" });
const approvals = (commit, daysAgo, bots = BOTS) => bots.map((b) => review(b, "APPROVED", commit, daysAgo));

/** The situations, in order. `make(n, head)` returns the fields that differ from a fresh, green, unreviewed PR. */
export const SITUATIONS = [
  ["draft, still being built", (n, h) => ({ isDraft: true, labels: ["state:draft"] })],
  [
    "bots reviewing: codex-bot asked",
    (n, h) => ({ reviewRequests: ["codex-bot"], reviews: [review("claude-bot", "APPROVED", h, 1)] }),
  ],
  [
    "claude-bot requested changes",
    (n, h) => ({
      reviews: [review("claude-bot", "CHANGES_REQUESTED", h, 1), review("codex-bot", "APPROVED", h, 1)],
      labels: ["state:bots-reviewing"],
    }),
  ],
  ["all three bots approved the head", (n, h) => ({ reviews: approvals(h, 1), labels: ["state:bots-reviewing"] })],
  ["approvals staled by a push", (n, h) => ({ reviews: approvals(sha(n, 9), 3), labels: ["state:needs-human"] })],
  [
    "approved but conflicting",
    (n, h) => ({ reviews: approvals(h, 2), mergeable: "CONFLICTING", labels: ["state:needs-human", "merge-next"] }),
  ],
  [
    "approved but a check failed",
    (n, h) => ({
      reviews: approvals(h, 1),
      checks: [
        ...green(h, 1).slice(1),
        {
          name: "test",
          workflow: "ci",
          status: "COMPLETED",
          conclusion: "FAILURE",
          startedAt: at(1, 1),
          completedAt: at(1),
          id: 3001,
        },
      ],
    }),
  ],
  [
    "agent set needs-human early; gemini-bot never asked",
    (n, h) => ({ reviews: approvals(h, 1, BOTS.slice(0, 2)), labels: ["state:needs-human"] }),
  ],
  [
    "human asked, round complete",
    (n, h) => ({ reviews: approvals(h, 1), reviewRequests: [HUMAN], labels: ["state:needs-human"] }),
  ],
  ["comments only: the author judges", (n, h) => ({ reviews: BOTS.map((b) => review(b, "COMMENTED", h, 2)) })],
  ["nobody asked yet", (n, h) => ({ labels: [] })],
  [
    "quiet for three weeks",
    (n, h) => ({
      reviews: [review("claude-bot", "CHANGES_REQUESTED", h, 21)],
      createdAt: at(25),
      pushedDaysAgo: 22,
      labels: ["state:addressing"],
    }),
  ],
  [
    "docs change, all approved, human asked",
    (n, h) => ({
      files: ["docs/labels.md", "README.md"],
      reviews: approvals(h, 1),
      reviewRequests: [HUMAN],
      labels: ["state:needs-human", "scope:docs"],
    }),
  ],
  [
    "mergeability still computing",
    (n, h) => ({
      mergeable: "UNKNOWN",
      reviews: approvals(h, 1),
      reviewRequests: [HUMAN],
      labels: ["state:needs-human", "blocker:conflict"],
    }),
  ],
  [
    "re-run replaced a cancelled run",
    (n, h) => ({
      reviews: approvals(h, 1),
      reviewRequests: [HUMAN],
      checks: [
        ...green(h, 1),
        {
          name: "test",
          workflow: "ci",
          status: "COMPLETED",
          conclusion: "CANCELLED",
          startedAt: at(2, 1),
          completedAt: at(2),
          id: 900,
        },
      ],
    }),
  ],
  [
    "checks still running",
    (n, h) => ({
      reviews: approvals(h, 1),
      checks: [{ name: "test", workflow: "ci", status: "IN_PROGRESS", startedAt: at(0, 1), id: 5000 }],
    }),
  ],
  [
    "engine change, gemini-bot reviewing",
    (n, h) => ({
      files: ["src/bot_panel.rs"],
      reviewRequests: ["gemini-bot"],
      reviews: approvals(h, 1, BOTS.slice(0, 2)),
    }),
  ],
  [
    "changes requested after a stale round",
    (n, h) => ({
      reviews: [
        review("codex-bot", "CHANGES_REQUESTED", h, 1),
        ...approvals(sha(n, 7), 4, ["claude-bot", "gemini-bot"]),
      ],
    }),
  ],
  [
    "conflict and failing check together",
    (n, h) => ({
      mergeable: "CONFLICTING",
      checks: [
        {
          name: "test",
          workflow: "ci",
          status: "COMPLETED",
          conclusion: "FAILURE",
          startedAt: at(1, 1),
          completedAt: at(1),
          id: 3100,
        },
      ],
      labels: ["state:addressing"],
    }),
  ],
  [
    "action change, already converged",
    (n, h) => ({
      files: ["action/src/main.js"],
      reviewRequests: ["claude-bot"],
      labels: ["state:bots-reviewing", "scope:action", "blocker:unrequested"],
    }),
  ],
];

/** One pull request for situation `i` (cycled), numbered `number`. */
export function pullRequest(number, i = number) {
  const [title, make] = SITUATIONS[i % SITUATIONS.length];
  const head = sha(number);
  const extra = make(number, head);
  const pushed = extra.pushedDaysAgo ?? 2;
  const pr = {
    number,
    title: `${title}`,
    author: AGENTS[number % AGENTS.length],
    body: "",
    isDraft: false,
    createdAt: at(Math.max(pushed + 1, 5)),
    baseRef: "main",
    headRef: `agent/${number}`,
    headSha: head,
    mergeable: "MERGEABLE",
    labels: [],
    reviews: [],
    reviewRequests: [],
    checks: green(head, Math.min(pushed, 1)),
    files: [`tests/cases/case-${number}.json`],
    comments: [],
    timeline: [{ kind: "committed", at: at(pushed), actor: AGENTS[number % AGENTS.length] }],
    ...extra,
  };
  delete pr.pushedDaysAgo;
  return pr;
}

/** A repository of `count` open pull requests cycling through the situations, as a facts snapshot. */
export function demoFacts(count = SITUATIONS.length, { repository = "acme/widgets", firstNumber = 101 } = {}) {
  const pullRequests = Array.from({ length: count }, (_, i) => pullRequest(firstNumber + i, i));
  const labels = [
    "state:draft",
    "state:bots-reviewing",
    "state:addressing",
    "state:needs-human",
    "blocker:conflict",
    "blocker:checks",
    "blocker:unrequested",
    "merge-next",
    "stale",
    "scope:docs",
    "scope:engine",
    "scope:action",
    "bug",
    "good first issue",
  ];
  return {
    repository,
    now: NOW,
    viewer: "github-actions[bot]",
    defaultBranch: "main",
    labels,
    requiredChecks: ["test"],
    unknown: [],
    pullRequests,
  };
}
