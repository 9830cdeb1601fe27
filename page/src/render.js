// Draws the engine's DashboardView into the page. Text only (textContent, never innerHTML), so a
// title or a label cannot inject markup; every value shown is the engine's, unchanged.
import { COLUMNS, queueLine, warningLine } from "../../lib/dashboard-text.js";
import { pullUrl } from "./github.js";

export { COLUMNS };

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
  root.append(el(doc, "p", { id: "queue" }, queueLine(view.queue)));

  const head = el(doc, "tr", {}, ...COLUMNS.map(([key, heading]) => el(doc, "th", { scope: "col", "data-col": key }, heading)));
  const body = el(doc, "tbody");
  for (const row of view.rows) {
    // id: the row's deep link (#pr-N); tabindex: keyboard navigation (keys.js) can focus it.
    const tr = el(doc, "tr", { id: `pr-${row.number}`, tabindex: "-1", "data-number": String(row.number), "data-state": row.state ?? "" });
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
    for (const w of view.warnings) ul.append(el(doc, "li", {}, warningLine(w)));
    root.append(el(doc, "h2", {}, "Warnings"), ul);
  }
}

/** The config's problems, each with its JSON path (the engine answers nothing else until they are fixed). */
export function renderConfigErrors(doc, root, source, errors) {
  root.replaceChildren();
  if (!errors.length) return;
  root.append(el(doc, "p", {}, `${source} has ${errors.length} problem${errors.length === 1 ? "" : "s"}; prflow decides nothing until they are fixed:`));
  const ul = el(doc, "ul", { id: "config-errors-list" });
  for (const e of errors) ul.append(el(doc, "li", { "data-path": e.path }, `${e.path}: expected ${e.expected}, found ${e.found}`));
  root.append(ul);
}
