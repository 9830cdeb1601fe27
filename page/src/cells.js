// What each cell of a pull request's row says, as "parts": plain strings, or { text, code, href, cls,
// color, title } for a piece drawn as code, a link or a chip. render.js turns parts into text nodes
// (never markup) and the browser tests compare a cell's text with the same parts, so what is drawn
// and what is checked cannot drift. Only formatting lives here: every value is the engine's
// DashboardView row, unchanged.
import { pullUrl } from "./github.js";

/** Minutes as people say them: 45 min, 3 h 20 min, 2 d 4 h. */
export function duration(minutes) {
  if (minutes === null || minutes === undefined) return "";
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  if (m < 48 * 60) return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ""}`;
  const h = Math.floor((m % 1440) / 60);
  return `${Math.floor(m / 1440)} d${h ? ` ${h} h` : ""}`;
}

/** Text with `inline code` as code parts: the backticks go, the code stays text. */
export function prose(text) {
  const parts = [];
  const bits = String(text ?? "").split("`");
  // An odd count of backticks leaves the last one literal.
  const closed = bits.length % 2 === 1 ? bits.length : bits.length - 1;
  for (let i = 0; i < bits.length; i++) {
    if (i >= closed) parts.push(`\`${bits[i]}`);
    else if (i % 2 === 1) parts.push({ text: bits[i], code: true });
    else if (bits[i]) parts.push(bits[i]);
  }
  return parts;
}

/** The web address of a check's run: its job page when both ids are known, else the check run, else the checks tab. */
export function runUrl(ctx, row, check) {
  const pull = pullUrl(ctx.api, ctx.repository, row.number);
  const server = pull.slice(0, pull.indexOf(`/${ctx.repository}/pull/`));
  if (check.runId && check.id) return `${server}/${ctx.repository}/actions/runs/${check.runId}/job/${check.id}`;
  if (check.id) return `${server}/${ctx.repository}/runs/${check.id}`;
  return `${pull}/checks`;
}

/** How long before `now` (the view's clock, in ms) the time `at` was: "12 min ago", "3 h ago". */
export function ago(now, at) {
  const then = Date.parse(at);
  return Number.isNaN(then) || !Number.isFinite(now) ? `at ${at}` : `${duration((now - then) / 60000)} ago`;
}

/** `HH:MM` of a time on this browser's clock. */
export function clockOf(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ""
    : [d.getHours(), d.getMinutes()].map((n) => String(n).padStart(2, "0")).join(":");
}

/** The engine's `3rd of 7, about 14:20` (UTC) with the time on this browser's clock. */
export const laneWords = (l) => (l.eta ? l.words.replace(/about \d\d:\d\d$/, `about ${clockOf(l.eta)}`) : l.words);

const chip = (name, ctx, cls = "chip") => ({ text: name, cls, color: ctx.labelColors?.[name] });
const join = (items, sep = " ") => items.flatMap((x, i) => (i ? [sep, x] : [x]));

/**
 * The columns: [key, heading, parts(row, ctx)]. `ctx` = { api, repository, labelColors, actorHeading,
 * several, now }, `now` the view's clock in milliseconds (Date.parse(view.now)).
 */
export const COLUMNS = [
  ["number", "#", (r, ctx) => [{ text: `#${r.number}`, href: pullUrl(ctx.web ?? ctx.api, ctx.repository, r.number) }]],
  [
    "title",
    "Pull request",
    (r, ctx) => {
      // Each label once: the state and the blockers are drawn in their own cells.
      const elsewhere = new Set([r.shownState, ...r.blockers]);
      const labels = r.labels.filter((l) => !elsewhere.has(l));
      return [
        { text: r.title, cls: "t" },
        " ",
        { text: `${ctx.several ? `${ctx.repository} · ` : ""}${r.author} · `, cls: "meta" },
        { text: r.headRef, code: true, cls: "meta" },
        ...(labels.length ? [" ", ...join(labels.map((l) => chip(l, ctx, "label")))] : []),
      ];
    },
  ],
  [
    "state",
    "State",
    (r, ctx) => [
      chip(r.shownState ?? "(none)", ctx),
      " ",
      { text: r.minutes === null ? (r.problem ?? "?") : duration(r.minutes), cls: "dur" },
    ],
  ],
  [
    "why",
    "Why, and what happens next",
    (r, ctx) => [
      ...prose(r.shownWhy),
      ...(r.blockers.length ? [" ", ...join(r.blockers.map((b) => chip(b, ctx, "label")))] : []),
      // The group's shared next action is said once under its heading.
      ...(ctx.sharedNext === r.nextAction
        ? []
        : [" ", { text: `Next: ${ctx.actorHeading(r.actor)}: `, cls: "next" }, ...prose(r.nextAction)]),
    ],
  ],
  [
    "checks",
    "Checks",
    (r, ctx) => {
      const c = r.checkRuns;
      const parts = c.failed.map((f) => ({
        text: `✗ ${f.workflow ? `${f.workflow} / ` : ""}${f.name}`,
        href: runUrl(ctx, r, f),
        cls: "fail",
      }));
      if (c.pending.length)
        parts.push({ text: `● ${c.pending.length} running`, cls: "pending", title: c.pending.join(", ") });
      if (c.passed) parts.push({ text: `✓ ${c.passed}`, cls: "pass" });
      return join(parts);
    },
  ],
  [
    "queue",
    "Queue, claims",
    (r, ctx) => {
      const parts = [];
      const q = r.queue;
      // When the queue's reason is the claim or the set-aside record, its words repeat that record's
      // (with the claim's raw time): the record's own part below says it once, the words as its tooltip.
      const claimed = q?.reason === "claimed" && r.claim;
      const asideByRecord = q?.reason === "set-aside" && r.setAside;
      if (q) {
        if (q.lane)
          parts.push(
            {
              text: laneWords(q.lane),
              cls: "place",
              title: `position in the lane and estimated landing (${q.lane.words} UTC)`,
            },
            " ",
          );
        else if (q.place) parts.push({ text: `#${q.place} in line`, cls: "place" }, " ");
        if (!claimed && !asideByRecord) parts.push(...prose(q.detail || q.reason));
        if (q.waitingOn.length) parts.push(` (waits for ${q.waitingOn.map((n) => `#${n}`).join(", ")})`);
      }
      const s = r.setAside;
      if (s) {
        const pull = pullUrl(ctx.api, ctx.repository, r.number);
        parts.push(
          " ",
          {
            text: `set aside: ${s.reason}`,
            cls: "setaside",
            title: asideByRecord && q.detail ? `${q.detail}. ${s.sentence}` : s.sentence,
          },
          " ",
          s.commentId
            ? { text: "Retry box", href: `${pull}#issuecomment-${s.commentId}` }
            : { text: "(its comment is not written yet)" },
        );
      }
      if (r.claim)
        parts.push(" ", {
          text: `claimed by ${r.claim.by}, ${ago(ctx.now, r.claim.at)}`,
          cls: "claim",
          title: claimed ? q.detail : `claimed at ${r.claim.at}`,
        });
      if (r.claimers.length) parts.push(" ", { text: `reviewing: ${r.claimers.join(", ")}`, cls: "claim" });
      return parts[0] === " " ? parts.slice(1) : parts;
    },
  ],
];

/** The text a cell's parts read as (what textContent gives once drawn). */
export const partsText = (parts) => parts.map((p) => (typeof p === "string" ? p : p.text)).join("");
