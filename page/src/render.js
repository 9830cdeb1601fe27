// Draws the engine's DashboardView into the page. Text only (textContent, never innerHTML), so a
// title or a label cannot inject markup; every value shown is the engine's, unchanged.
import { pullUrl } from "./github.js";

/** The table's columns: [key, heading, cell(row) → text]. Tests find cells by `data-col`. */
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

function queueText(q) {
  if (!q) return "";
  const place = q.place ? ` #${q.place} in line` : "";
  const waits = q.waitingOn.length ? ` (waits for ${q.waitingOn.map((n) => `#${n}`).join(", ")})` : "";
  return `${q.triage}${place}${q.detail ? `: ${q.detail}` : ` (${q.reason})`}${waits}; next: ${q.nextActor}, ${q.nextAction}`;
}

function el(doc, tag, attrs = {}, ...children) {
  const node = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

/** Replaces the contents of `root` with the view: stop-the-line, queue summary, table, warnings. */
export function renderView(doc, root, { view, api, repository }) {
  root.replaceChildren();
  if (view.stopTheLine) {
    root.append(el(doc, "p", { id: "stop", class: "stop" }, `Stop the line: ${view.stopReasons.join("; ")}`));
  }
  const q = view.queue;
  const next = q.next && q.next.action !== "idle" ? `${q.next.action}${q.next.number ? ` #${q.next.number}` : ""}` : "idle";
  const list = (ns) => (ns.length ? ns.map((n) => `#${n}`).join(", ") : "none");
  const cycles = q.cycles.length ? `; cycles: ${q.cycles.map((c) => c.map((n) => `#${n}`).join(" → ")).join("; ")}` : "";
  root.append(el(doc, "p", { id: "queue" }, `Merge queue: next ${next}; order ${list(q.order)}; in flight ${list(q.inFlight)}${cycles}`));

  const head = el(doc, "tr", {}, ...COLUMNS.map(([key, heading]) => el(doc, "th", { scope: "col", "data-col": key }, heading)));
  const body = el(doc, "tbody");
  for (const row of view.rows) {
    const tr = el(doc, "tr", { "data-number": String(row.number), "data-state": row.state ?? "" });
    for (const [key, , cell] of COLUMNS) {
      const td = el(doc, "td", { "data-col": key });
      if (key === "number") td.append(el(doc, "a", { href: pullUrl(api, repository, row.number), rel: "noopener" }, cell(row)));
      else td.textContent = cell(row);
      tr.append(td);
    }
    body.append(tr);
  }
  root.append(el(doc, "table", { id: "pulls" }, el(doc, "thead", {}, head), body));
  if (!view.rows.length) root.append(el(doc, "p", {}, "No open pull request."));

  if (view.warnings.length) {
    const ul = el(doc, "ul", { id: "warnings" });
    for (const w of view.warnings) ul.append(el(doc, "li", {}, w.number ? `#${w.number}: ${w.message}` : w.message));
    root.append(el(doc, "h2", {}, "Warnings"), ul);
  }
}

/** The config's problems, each with its JSON path, and the fallback taken. */
export function renderConfigErrors(doc, root, source, errors) {
  root.replaceChildren();
  if (!errors.length) return;
  root.append(el(doc, "p", {}, `${source} has ${errors.length} problem${errors.length === 1 ? "" : "s"}; showing the preset's reading instead:`));
  const ul = el(doc, "ul", { id: "config-errors-list" });
  for (const e of errors) ul.append(el(doc, "li", { "data-path": e.path }, `${e.path}: expected ${e.expected}, found ${e.found}`));
  root.append(ul);
}
