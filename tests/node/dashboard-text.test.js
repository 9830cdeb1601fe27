// The terminal's dashboard (lib/dashboard-text.js) on a view as the engine gives it once the queue is a
// lane: the lane's words stand in the queue line and on each queued row, a row shows the state its group
// means (shownState/shownWhy), groups keep the engine's order, and every line fits the width.
import { test } from "node:test";
import assert from "node:assert/strict";
import { dashboardText, duration } from "../../lib/dashboard-text.js";

const row = (number, extra = {}) => ({
  number,
  title: `Pull request ${number}`,
  author: "agent-1",
  state: "state:needs-human",
  why: "maintainer asked to merge",
  blockers: [],
  owner: "agent-1",
  claimers: [],
  minutes: 90,
  problem: null,
  queue: null,
  actor: "person",
  ...extra,
});
const queued = (number, position) => ({
  triage: "candidate",
  place: position,
  detail: "",
  reason: "ready",
  waitingOn: [],
  nextActor: "worker",
  nextAction: "rebases and releases it",
  lane: {
    number,
    position,
    of: 3,
    eta: "2026-07-21T14:20:00Z",
    words: `${["1st", "2nd", "3rd"][position - 1]} of 3, about 14:20`,
  },
});

const view = {
  rows: [
    row(22, {
      shownState: "merge-queued",
      shownWhy: "in flight: merging once its checks pass",
      actor: "queue",
      queue: queued(22, 1),
    }),
    row(23, { shownState: "merge-queued", shownWhy: "candidate: ready", actor: "queue", queue: queued(23, 2) }),
    row(30, { minutes: 28810, stopsTheLine: true }),
  ],
  groups: [
    { actor: "stopTheLine", heading: "Stop the line: waited past its limit", numbers: [30] },
    { actor: "queue", heading: "The merge queue", numbers: [22, 23] },
  ],
  queue: {
    order: [23],
    inFlight: [22],
    next: { action: "watch", number: 22 },
    cycles: [],
    lane: { summary: "next to land: #22 about 13:50; then #23", entries: [queued(22, 1).lane, queued(23, 2).lane] },
  },
  stopTheLine: true,
  stopReasons: ["#30 waited 20 d in needs-human"],
  warnings: [],
};

test("dashboard text: the lane's words, the row's shown state, the engine's group order, 80 columns", () => {
  const text = dashboardText(view, { width: 80 });
  for (const line of text.split("\n")) assert.ok(line.length <= 80, line);
  assert.match(text, /^Merge queue: next to land: #22 about 13:50; then #23; in flight #22$/m);
  assert.doesNotMatch(text, /order none/);
  assert.match(text, /^ {2}#23 Pull request 23 +merge-queued · 1 h$/m, "the queue's state, not needs-human");
  assert.match(text, /queue: candidate 2nd of 3, about 14:20/);
  assert.match(text, /^ {2}#30 .*needs-human · 20 d$/m, "28,810 minutes read as 20 d");
  const headings = text.split("\n").filter((l) => /^\S.* \(\d+\)$/.test(l));
  assert.deepEqual(headings, ["Stop the line: waited past its limit (1)", "The merge queue (2)"]);
  assert.doesNotMatch(text.slice(text.indexOf("The merge queue")), /owner agent-1/, "the queue's group names no owner");
});

test("dashboard text: durations in minutes, hours and days", () => {
  assert.deepEqual([0, 59, 60, 47 * 60 + 59, 48 * 60, 28810].map(duration), [
    "0 min",
    "59 min",
    "1 h",
    "47 h",
    "2 d",
    "20 d",
  ]);
});
