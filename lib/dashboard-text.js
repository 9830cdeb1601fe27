// The words of the dashboard, shared by the page (page/src/render.js draws them into a table) and the
// terminal (`prflow status`): which columns a row has and how each cell and the queue's summary line
// read. Only formatting lives here; every value is the engine's DashboardView, unchanged but for the
// control characters the terminal text drops (lib/plain-text.js) and the bidi controls it shows escaped.
import { oneLine, plainText } from "./plain-text.js";

/** Minutes as a terminal says them: 45 min, 5 h, 3 d (whole units, rounded down). */
export function duration(minutes) {
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / (24 * 60))} d`;
}

/** A row's state without the `state:` prefix every state label shares: the group heading says the rest. */
const stateOf = (r) => (r.shownState !== undefined ? r.shownState : r.state)?.replace(/^state:/, "") ?? "(no state)";
const whyOf = (r) => (r.shownWhy !== undefined ? r.shownWhy : r.why);

/** The table's columns: [key, heading, cell(row) → text]. The page's tests find cells by `data-col`. */
export const COLUMNS = [
  ["number", "#", (r) => `#${r.number}`],
  ["title", "Title", (r) => r.title],
  ["state", "State", (r) => r.state ?? "(none)"],
  ["why", "Why", (r) => r.why],
  ["blockers", "Blockers", (r) => r.blockers.join(", ")],
  ["owner", "Owner", (r) => r.owner],
  ["claimers", "Claimed by", (r) => r.claimers.join(", ")],
  ["minutes", "In state", (r) => (r.minutes === null ? (r.problem ?? "?") : duration(r.minutes))],
  ["queue", "Queue", (r) => queueText(r.queue)],
];

const nums = (ns) => (ns.length ? ns.map((n) => `#${n}`).join(", ") : "none");

/** A row's place in the merge queue, or "" when it is not queued. */
export function queueText(q) {
  if (!q) return "";
  const place = q.lane ? ` ${q.lane.words}` : q.place ? ` #${q.place} in line` : "";
  const waits = q.waitingOn.length ? ` (waits for ${nums(q.waitingOn)})` : "";
  return `${q.triage}${place}${q.detail ? `: ${q.detail}` : ` (${q.reason})`}${waits}; next: ${q.nextActor}, ${q.nextAction}`;
}

/** The queue's summary line: the lane's words when the engine gives them, else what moves next, the order, what is in flight, any cycle. */
export function queueLine(q) {
  const cycles = q.cycles.length
    ? `; cycles: ${q.cycles.map((c) => c.map((n) => `#${n}`).join(" → ")).join("; ")}`
    : "";
  // The lane (what lands next, with estimates) says it better than a bare pick order, which reads
  // "none" while the one queued pull request is in flight.
  if (q.lane?.entries?.length)
    return `Merge queue: ${q.lane.summary}${q.inFlight.length ? `; in flight ${nums(q.inFlight)}` : ""}${cycles}`;
  const next =
    q.next && q.next.action !== "idle" ? `${q.next.action}${q.next.number ? ` #${q.next.number}` : ""}` : "idle";
  return `Merge queue: next ${next}; order ${nums(q.order)}; in flight ${nums(q.inFlight)}${cycles}`;
}

/** A warning as one line. */
export const warningLine = (w) => (w.number ? `#${w.number}: ${w.message}` : w.message);

/** `text` cut to `width` columns with an ellipsis (0 cuts nothing). */
export const cut = (text, width) =>
  width > 0 && text.length > width ? `${text.slice(0, Math.max(1, width - 1))}…` : text;

/**
 * Words wrapped to `width` after `indent` spaces, at most `max` lines (the last one cut); lines after
 * the first start after `hang` spaces (the indent unless given).
 */
export function wrapped(text, width, indent, max = 2, hang = indent) {
  if (width <= 0) return [" ".repeat(indent) + text];
  const roomOf = (i) => Math.max(10, width - (i === 0 ? indent : hang));
  const out = [];
  let line = "";
  for (const word of text.split(" ").filter(Boolean)) {
    if (line && line.length + 1 + word.length > roomOf(out.length)) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  const kept = out.slice(0, max);
  if (out.length > max) kept[max - 1] = `${kept[max - 1]} ${out.slice(max).join(" ")}`;
  return kept.map((l, i) => " ".repeat(i === 0 ? indent : hang) + cut(l, roomOf(i)));
}

/** One pull request: `#N title … state · time`, then why, then what else holds it (blockers, claims, the queue). */
function rowLines(r, width, group) {
  const time = r.minutes === null ? "time ?" : duration(r.minutes);
  const right = `  ${oneLine(stateOf(r))} · ${time}`;
  const left = `  #${r.number} `;
  const title = oneLine(r.title);
  // The title takes the room the number and the state leave, padded so the states line up at the right.
  const room = Math.max(8, width - left.length - right.length);
  const lines = [width > 0 ? `${left}${cut(title, room).padEnd(room)}${right}`.trimEnd() : `${left}${title}${right}`];
  const indent = left.length;
  const why = oneLine(whyOf(r) || (r.minutes === null ? (r.problem ?? "") : ""));
  if (why) lines.push(...wrapped(why, width, indent));
  const more = [];
  if (r.blockers.length) more.push(`blocked: ${r.blockers.map((b) => oneLine(b.replace(/^blocker:/, ""))).join(", ")}`);
  // The group names who acts; the owner is worth a word where it is a named machine or person.
  if (group !== "queue" && r.owner && r.owner !== r.author) more.push(`owner ${oneLine(r.owner)}`);
  if (r.claimers.length) more.push(`claimed by ${r.claimers.map(oneLine).join(", ")}`);
  if (r.queue) more.push(`queue: ${oneLine(queueText(r.queue))}`);
  if (more.length) lines.push(...wrapped(more.join(" · "), width, indent));
  return lines;
}

/**
 * The view as terminal text, grouped by who acts next in the engine's order (its `groups`, the page's
 * sections): stop-the-line first, the queue line, then each group with its pull requests; every line
 * fits `width` columns (0 cuts nothing); then the warnings.
 */
export function dashboardText(view, { width = 80 } = {}) {
  const lines = [];
  const fit = (text) => cut(oneLine(text), width);
  if (view.stopTheLine)
    lines.push(...wrapped(`STOP THE LINE: ${view.stopReasons.map(oneLine).join("; ")}`, width, 0, 4));
  lines.push(...wrapped(oneLine(queueLine(view.queue)), width, 0, 3));
  if (!view.rows.length) lines.push("", "No open pull request.");
  const byNumber = new Map(view.rows.map((r) => [r.number, r]));
  const groups = view.groups?.length
    ? view.groups
    : [{ actor: "", heading: "Open pull requests", numbers: view.rows.map((r) => r.number) }];
  for (const g of groups) {
    const rows = g.numbers.map((n) => byNumber.get(n)).filter(Boolean);
    if (!rows.length) continue;
    lines.push("", fit(`${g.heading} (${rows.length})`));
    for (const r of rows) lines.push(...rowLines(r, width, g.actor));
  }
  if (view.warnings.length) lines.push("", "Warnings:", ...view.warnings.map((w) => fit(`  ${warningLine(w)}`)));
  return `${plainText(lines.join("\n"))}\n`;
}
