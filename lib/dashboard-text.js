// The words of the dashboard, shared by the page (page/src/render.js draws them into a table) and the
// terminal (`prflow status`): which columns a row has and how each cell and the queue's summary line
// read. Only formatting lives here; every value is the engine's DashboardView, unchanged but for the
// control characters the terminal text drops (lib/plain-text.js).
import { oneLine, plainText } from "./plain-text.js";

/** The table's columns: [key, heading, cell(row) → text]. The page's tests find cells by `data-col`. */
export const COLUMNS = [
  ["number", "#", (r) => `#${r.number}`],
  ["title", "Title", (r) => r.title],
  ["state", "State", (r) => r.state ?? "(none)"],
  ["why", "Why", (r) => r.why],
  ["blockers", "Blockers", (r) => r.blockers.join(", ")],
  ["owner", "Owner", (r) => r.owner],
  ["claimers", "Claimed by", (r) => r.claimers.join(", ")],
  ["minutes", "In state", (r) => (r.minutes === null ? (r.problem ?? "?") : `${r.minutes} min`)],
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

/** The queue's summary line: what moves next, the order, what is in flight, any cycle. */
export function queueLine(q) {
  const next = q.next && q.next.action !== "idle" ? `${q.next.action}${q.next.number ? ` #${q.next.number}` : ""}` : "idle";
  const cycles = q.cycles.length ? `; cycles: ${q.cycles.map((c) => c.map((n) => `#${n}`).join(" → ")).join("; ")}` : "";
  // The lane (what lands next, with estimates) says it better than a bare pick order, which reads
  // "none" while the one queued pull request is in flight.
  if (q.lane?.entries.length) return `Merge queue: ${q.lane.entries.map((e) => `#${e.number} ${e.words}`).join("; ")}${cycles}`;
  return `Merge queue: next ${next}; order ${nums(q.order)}; in flight ${nums(q.inFlight)}${cycles}`;
}

/** A warning as one line. */
export const warningLine = (w) => (w.number ? `#${w.number}: ${w.message}` : w.message);

/**
 * The view as terminal text: stop-the-line first, the queue line, one aligned row per pull request
 * (a cell longer than `width` is cut with an ellipsis; `width` 0 cuts nothing), then the warnings.
 */
export function dashboardText(view, { width = 48 } = {}) {
  // Cells are made plain before they are measured, so a title's escapes neither reach the terminal nor
  // skew the columns.
  const fit = (raw) => {
    const text = oneLine(raw);
    return width > 0 && text.length > width ? `${text.slice(0, width - 1)}…` : text;
  };
  const lines = [];
  if (view.stopTheLine) lines.push(`STOP THE LINE: ${view.stopReasons.map(oneLine).join("; ")}`);
  lines.push(queueLine(view.queue), "");
  if (!view.rows.length) lines.push("No open pull request.");
  else {
    const table = [COLUMNS.map(([, heading]) => heading), ...view.rows.map((row) => COLUMNS.map(([, , cell]) => fit(cell(row))))];
    const widths = COLUMNS.map((_, i) => Math.max(...table.map((r) => r[i].length)));
    for (const r of table) lines.push(r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd());
  }
  if (view.warnings.length) lines.push("", "Warnings:", ...view.warnings.map((w) => `  ${oneLine(warningLine(w))}`));
  return `${plainText(lines.join("\n"))}\n`;
}
