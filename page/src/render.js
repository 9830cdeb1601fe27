// Draws the engine's DashboardViews (one per repository) into the page: rows grouped by who acts next
// (the engine's groups), each repository's stop-the-line, config problems, merge queue and its
// dependency graph, and its warnings grouped by kind. Text only (text nodes, never innerHTML), so a
// title, a label or a branch name cannot inject markup; every value shown is the engine's, unchanged.
// Rows are cloned from one template and appended through one DocumentFragment per group, and nothing
// reads layout while drawing, so 500 rows cost one layout.
import { warningKinds } from "../../lib/summary.js";
import { queueLine } from "../../lib/dashboard-text.js";
import { COLUMNS, clockOf as hhmm, duration, partsText, prose } from "./cells.js";

export { COLUMNS, partsText };

const SVG = "http://www.w3.org/2000/svg";
const HEX = /^[0-9a-f]{6}$/i;

function el(doc, tag, attrs = {}, ...children) {
  const node = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

/** Black or white text, whichever reads on `hex`. */
function ink(hex) {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#1f2328" : "#ffffff";
}

/** Text colour per label colour, worked out once per colour (a board repeats a few colours hundreds of times). */
const inks = new Map();

function paint(node, color) {
  if (!color) return;
  let text = inks.get(color);
  if (text === undefined) inks.set(color, (text = HEX.test(color) ? ink(color) : null));
  if (text === null) return;
  node.style.backgroundColor = `#${color}`;
  node.style.color = text;
}

/**
 * Appends `parts` (cells.js) to `node` as text nodes, links, code and chips: in one append, with
 * neighbouring strings as one text node (500 rows' cells are thousands of parts).
 */
export function appendParts(doc, node, parts) {
  // Most cells are one string, or strings only: one text node, set directly.
  if (parts.every((p) => typeof p === "string")) {
    if (parts.length) node.append(parts.join(""));
    return node;
  }
  const out = [];
  let text = "";
  for (const p of parts) {
    if (typeof p === "string") {
      text += p;
      continue;
    }
    if (text) out.push(text);
    text = "";
    const tag = p.href ? "a" : p.code ? "code" : "span";
    const child = doc.createElement(tag);
    if (p.href) {
      child.href = p.href;
      child.rel = "noopener";
    }
    if (p.cls) child.className = p.cls;
    if (p.title) child.title = p.title;
    if (p.href && p.code) child.append(el(doc, "code", {}, p.text));
    else child.textContent = p.text;
    paint(child, p.color);
    out.push(child);
  }
  if (text) out.push(text);
  // One by one: append(...out) with several nodes first gathers them in a fragment of its own.
  for (const c of out) node.appendChild(typeof c === "string" ? doc.createTextNode(c) : c);
  return node;
}

/**
 * The colour of each label: the repository's own (what GitHub draws), else the one the config gives it
 * (a label the Action has not created yet).
 */
export const colorsOf = (board) =>
  board.labelColors ? { ...board.view.labelColors, ...board.labelColors } : board.view.labelColors;

/** The row's deep-link id: `pr-N`, or `pr-owner/repo-N` when several repositories share the view. */
export const rowId = (repository, number, several) => (several ? `pr-${repository}-${number}` : `pr-${number}`);

/**
 * The next action most rows of a group share (two or more): said once under the group's heading and
 * left out of those rows, so ten rows do not repeat one sentence.
 */
export function sharedNext(members) {
  const counts = new Map();
  for (const { row } of members) counts.set(row.nextAction, (counts.get(row.nextAction) ?? 0) + 1);
  let best = null;
  for (const [action, n] of counts) if (n >= 2 && (best === null || n > counts.get(best))) best = action;
  return best;
}

/**
 * Draws `boards` ([{ repository, api, view, problems, configSource, clock }, or { repository, error }
 * for one that could not be read]) into `root`; returns the drawn rows ([{ id, row, board, tr }]) for
 * filters, sorting and keys. A repository that failed shows its error in its own section only.
 */
export function renderBoards(doc, root, all) {
  root.replaceChildren();
  const several = all.length > 1;
  const drawn = [];
  const boards = all.filter((b) => b.view);
  const maxMinutes = Math.max(1, ...boards.flatMap((b) => b.view.rows.map((r) => r.minutes ?? 0)));

  const header = el(doc, "div", { class: "repos" });
  for (const b of all) header.append(b.view ? repoSection(doc, b, several) : failedSection(doc, b));
  root.append(header);

  // One template per row: cloning it is cheaper than building six cells' elements one by one.
  const template = el(
    doc,
    "tr",
    { class: "row", tabindex: "-1" },
    ...COLUMNS.map(([key]) => el(doc, "td", { "data-col": key })),
  );
  const barTemplate = el(doc, "div", { class: "bar" }, doc.createElement("span"));
  const head = el(
    doc,
    "tr",
    {},
    ...COLUMNS.map(([key, heading]) => el(doc, "th", { scope: "col", "data-col": key }, heading)),
  );
  // The engine's groups, merged across repositories in the engine's order of actors.
  const groups = new Map();
  for (const b of boards) {
    const byNumber = new Map(b.view.rows.map((r) => [r.number, r]));
    for (const g of b.view.groups) {
      if (!groups.has(g.actor)) groups.set(g.actor, { actor: g.actor, heading: g.heading, members: [] });
      for (const n of g.numbers) groups.get(g.actor).members.push({ board: b, row: byNumber.get(n) });
    }
  }
  // The engine's list of actors orders the merged groups; every view carries the same list.
  const actors = boards[0]?.view.actors ?? [];
  const headings = new Map(actors.map((a) => [a.actor, a.heading]));
  const actorHeading = (a) => headings.get(a) ?? a;
  const sorted = actors.map((a) => groups.get(a.actor)).filter(Boolean);
  const colors = new Map(boards.map((b) => [b, colorsOf(b)]));
  const nows = new Map(boards.map((b) => [b, Date.parse(b.view.now)]));
  for (const g of sorted) {
    const body = doc.createElement("tbody");
    const frag = doc.createDocumentFragment();
    const shared = sharedNext(g.members);
    for (const { board, row } of g.members) {
      const ctx = {
        api: board.api,
        repository: board.repository,
        labelColors: colors.get(board),
        actorHeading,
        several,
        now: nows.get(board),
        sharedNext: shared,
        web: board.web,
      };
      const tr = template.cloneNode(true);
      const id = rowId(board.repository, row.number, several);
      tr.id = id;
      // setAttribute, not dataset: the same attributes, without dataset's name conversion per write.
      tr.setAttribute("data-number", String(row.number));
      tr.setAttribute("data-repo", board.repository);
      tr.setAttribute("data-actor", row.actor);
      tr.setAttribute("data-state", row.state ?? "");
      const cells = tr.children;
      for (let i = 0; i < COLUMNS.length; i++) appendParts(doc, cells[i], COLUMNS[i][2](row, ctx));
      cells[2].append(bar(barTemplate, row, maxMinutes));
      if (row.stays.length) cells[2].append(strip(doc, row, board.view, ctx.labelColors));
      frag.append(tr);
      drawn.push({ id, row, board, tr });
    }
    body.append(frag);
    const count = el(doc, "span", { class: "count" }, ` (${g.members.length})`);
    const heading = el(doc, "h2", {}, g.heading, count);
    if (shared !== null)
      heading.append(
        appendParts(
          doc,
          el(doc, "span", { class: "group-next" }, "Next, unless a row says otherwise: "),
          prose(shared),
        ),
      );
    root.append(
      el(
        doc,
        "section",
        { class: "group", "data-actor": g.actor },
        heading,
        el(doc, "table", { class: "pulls" }, el(doc, "thead", {}, head.cloneNode(true)), body),
      ),
    );
  }
  if (!drawn.length && boards.length) root.append(el(doc, "p", {}, "No open pull request."));
  root.append(el(doc, "p", { id: "no-match", hidden: "" }));
  return drawn;
}

/** A repository that could not be read: its name and the error, in its own section; the others draw as usual. */
function failedSection(doc, b) {
  return el(
    doc,
    "section",
    { class: "repo failed", "data-repo": b.repository },
    el(doc, "h2", {}, b.repository),
    el(doc, "p", { class: "repo-error", role: "alert" }, b.error),
  );
}

/**
 * The lane: what lands next, numbered, each with its estimate (in this browser's time; the engine's
 * words are in UTC); then today's landings, each with its CI runs linked.
 */
export function laneBox(doc, b, several) {
  const { lane } = b.view.queue;
  const box = el(doc, "div", { class: "lane-box" });
  const titles = new Map(b.view.rows.map((r) => [r.number, r.title]));
  if (lane.entries.length) {
    const ol = el(doc, "ol", { class: "lane", "aria-label": `merge queue of ${b.repository}, in landing order` });
    for (const e of lane.entries) {
      const when = e.eta ? `about ${hhmm(e.eta)}` : "no estimate";
      const title = titles.get(e.number) ?? "";
      ol.append(
        el(
          doc,
          "li",
          {
            "data-number": String(e.number),
            "data-position": String(e.position),
            "data-eta": e.eta ?? "",
            title: `${e.words} (UTC); ${title}`,
          },
          el(doc, "a", { href: `#${rowId(b.repository, e.number, several)}` }, `#${e.number}`),
          " ",
          el(doc, "span", { class: "lane-title" }, title.length > 28 ? `${title.slice(0, 27)}…` : title),
          " ",
          el(doc, "span", { class: "eta" }, `${e.position === 1 ? "next, " : ""}${when}`),
        ),
      );
    }
    box.append(
      el(
        doc,
        "p",
        { class: "lane-head" },
        `Lands next, ${lane.entries.length} in line`,
        el(doc, "span", { class: "basis" }, ` (${lane.basis})`),
      ),
      ol,
    );
  }
  const today = lane.landedToday;
  if (today.length) {
    const list = el(doc, "ul", { class: "landed" });
    for (const l of today) {
      const runs = l.runs.map((r) => {
        const ok = r.conclusion === "SUCCESS";
        const text = `${ok ? "✓" : "✗"} ${r.workflow ? `${r.workflow} / ` : ""}${r.name}${r.minutes === null ? "" : ` ${r.minutes} min`}`;
        return r.url
          ? el(doc, "a", { href: r.url, class: ok ? "pass" : "fail", rel: "noopener" }, text)
          : el(doc, "span", { class: ok ? "pass" : "fail" }, text);
      });
      const li = el(
        doc,
        "li",
        { "data-number": String(l.number) },
        `#${l.number} ${l.title}, landed ${hhmm(l.mergedAt)}${l.ciMinutes === null ? "" : `, CI ${l.ciMinutes} min`}: `,
      );
      for (const [i, r] of runs.entries()) li.append(...(i ? [", ", r] : [r]));
      if (!runs.length) li.append("no CI run on its head");
      list.append(li);
    }
    box.append(
      el(doc, "details", { class: "landed-today" }, el(doc, "summary", {}, `Landed today: ${today.length}`), list),
    );
  }
  return box;
}

/** Time in state as a bar, on a log scale against the longest on the board (minutes span five orders). */
function bar(template, row, maxMinutes) {
  const outer = template.cloneNode(true);
  outer.title = `in this state ${duration(row.minutes)} (log scale against the longest on the board)`;
  outer.firstChild.style.width = `${row.minutes ? Math.max(2, (100 * Math.log1p(row.minutes)) / Math.log1p(maxMinutes)) : 0}%`;
  return outer;
}

/** The state's stays replayed from the timeline, each as wide as it lasted, in its label's colour. */
function strip(doc, row, view, colors) {
  const outer = el(doc, "div", { class: "stays" });
  const now = Date.parse(view.now);
  for (const s of row.stays) {
    const from = Date.parse(s.from);
    const to = s.to ? Date.parse(s.to) : now;
    const span = doc.createElement("span");
    span.style.flexGrow = String(Math.max(1, (to - from) / 60000));
    span.title = `${s.label}: ${s.from} → ${s.to ?? "now"} (${duration((to - from) / 60000)})`;
    paint(span, colors[s.label]);
    if (!colors[s.label]) span.className = "other";
    outer.append(span);
  }
  return outer;
}

/** One repository's header: its clock, stop-the-line, config problems, queue, graph and warnings. */
function repoSection(doc, b, several) {
  const { view } = b;
  const sec = el(doc, "section", { class: "repo", "data-repo": b.repository });
  sec.append(
    el(
      doc,
      "h2",
      {},
      several ? b.repository : `${b.repository}`,
      el(doc, "span", { class: "asof" }, ` as of ${view.now.replace("T", " ").replace("Z", " UTC")} (${b.clock})`),
    ),
  );
  if (b.problems.length) sec.append(configErrors(doc, b.configSource, b.problems));
  // While pull requests are queued the lane says what lands next; the bare line only when none is.
  if (view.queue.lane.entries.length || view.queue.lane.landedToday.length) sec.append(laneBox(doc, b, several));
  else sec.append(appendParts(doc, el(doc, "p", { class: "queue" }), prose(queueLine(view.queue))));
  if (view.stopTheLine) {
    // One line beside the other folded parts; the reasons a click away (the rows lead the groups below).
    const n = view.stopReasons.length;
    const reasons = el(doc, "ul", {}, ...view.stopReasons.map((r) => appendParts(doc, el(doc, "li"), prose(r))));
    sec.append(
      el(
        doc,
        "details",
        { class: "stop" },
        el(doc, "summary", {}, `Stop the line: ${n} waited past ${n === 1 ? "its" : "their"} limit`),
        reasons,
      ),
    );
  }
  if (view.graph.nodes.length) {
    sec.append(
      el(
        doc,
        "details",
        { class: "graph" },
        el(
          doc,
          "summary",
          {},
          `Dependency graph: ${view.graph.nodes.length} pull requests, ${view.graph.edges.length} edges${view.graph.cycles.length ? `, ${view.graph.cycles.length} cycle${view.graph.cycles.length === 1 ? "" : "s"}` : ""}`,
        ),
        graph(doc, b, several),
      ),
    );
  }
  if (view.warnings.length) sec.append(warnings(doc, view.warnings));
  return sec;
}

const W = 170;
const H = 30;
const GAP_X = 60;
const GAP_Y = 14;

/** The engine's graph in its layers: layer 0 (waits for nobody) on the left, an arrow from each pull request to what it waits for. */
export function graph(doc, b, several) {
  const { nodes, edges } = b.view.graph;
  const layers = Math.max(...nodes.map((n) => n.layer)) + 1;
  const slots = Math.max(...nodes.map((n) => n.slot)) + 1;
  const svg = doc.createElementNS(SVG, "svg");
  const width = layers * (W + GAP_X) + GAP_X;
  const height = slots * (H + GAP_Y) + GAP_Y;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `dependency graph of ${b.repository}`);
  const layerOf = new Map(nodes.map((n) => [n.number, n.layer]));
  const at = new Map(
    nodes.map((n) => [n.number, { x: GAP_X + n.layer * (W + GAP_X), y: GAP_Y + n.slot * (H + GAP_Y) }]),
  );
  const defs = doc.createElementNS(SVG, "defs");
  const marker = doc.createElementNS(SVG, "marker");
  // In user units: a thick (stack) edge keeps the same arrow head.
  for (const [k, v] of Object.entries({
    id: "arrow",
    viewBox: "0 0 10 10",
    refX: "10",
    refY: "5",
    markerWidth: "9",
    markerHeight: "9",
    markerUnits: "userSpaceOnUse",
    orient: "auto-start-reverse",
  }))
    marker.setAttribute(k, v);
  const tip = doc.createElementNS(SVG, "path");
  tip.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
  tip.setAttribute("class", "tip");
  marker.append(tip);
  defs.append(marker);
  svg.append(defs);
  for (const e of edges) {
    const a = at.get(e.from);
    const z = at.get(e.to);
    const path = doc.createElementNS(SVG, "path");
    const [x1, y1] = [a.x, a.y + H / 2];
    let d;
    if (layerOf.get(e.from) > layerOf.get(e.to)) {
      // Leftwards into what it waits for, from one layer to a lower one.
      const [x2, y2] = [z.x + W, z.y + H / 2];
      d = `M ${x1} ${y1} C ${x1 - GAP_X / 2} ${y1}, ${x2 + GAP_X / 2} ${y2}, ${x2} ${y2}`;
    } else {
      // Within a layer (a cycle, or a pull request naming itself): a loop out on the left.
      const y2 = z.y + H / 2 + (e.from === e.to ? 8 : 0);
      const bend = Math.min(GAP_X - 6, 18 + Math.abs(y2 - y1) / 4);
      d = `M ${x1} ${e.from === e.to ? y1 - 8 : y1} C ${x1 - bend} ${y1}, ${z.x - bend} ${y2}, ${z.x} ${y2}`;
    }
    path.setAttribute("d", d);
    path.setAttribute("class", `edge ${e.via}${e.inCycle ? " cycle" : ""}`);
    path.setAttribute("marker-end", "url(#arrow)");
    path.dataset.from = String(e.from);
    path.dataset.to = String(e.to);
    const title = doc.createElementNS(SVG, "title");
    title.textContent = `#${e.from} waits for #${e.to}: ${e.via === "mergeAfter" ? "Merge-After" : e.via === "stack" ? "stacked on its branch" : `Start-After inherited from issue #${e.issue}`}${e.inCycle ? " (in a cycle)" : ""}`;
    path.append(title);
    svg.append(path);
  }
  for (const n of nodes) {
    const { x, y } = at.get(n.number);
    const link = doc.createElementNS(SVG, "a");
    link.setAttribute("href", `#${rowId(b.repository, n.number, several)}`);
    link.setAttribute("class", `node${n.inCycle ? " cycle" : ""}`);
    link.dataset.number = String(n.number);
    const rect = doc.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({ x, y, width: W, height: H, rx: 5 })) rect.setAttribute(k, String(v));
    const text = doc.createElementNS(SVG, "text");
    text.setAttribute("x", String(x + 8));
    text.setAttribute("y", String(y + H / 2 + 4));
    text.textContent = `#${n.number} ${n.title.length > 20 ? `${n.title.slice(0, 19)}…` : n.title}`;
    const title = doc.createElementNS(SVG, "title");
    title.textContent = `#${n.number} ${n.title}${n.inCycle ? " (in a cycle: nothing moves it until a person breaks it)" : ""}`;
    link.append(title, rect, text);
    svg.append(link);
  }
  const legend = el(
    doc,
    "p",
    { class: "legend" },
    "An arrow points at what a pull request waits for: solid, Merge-After; thick, stacked on its branch; dashed, Start-After inherited from an issue; red, a cycle.",
  );
  return el(doc, "div", { class: "graph-box" }, svg, legend);
}

/** Warnings by kind (lib/summary.js's reading), with their counts, the pull requests each names, and an example. */
function warnings(doc, list) {
  const kinds = warningKinds(list);
  // Folded to one line: the rows come first on the screen, the warnings a click away.
  const box = el(
    doc,
    "details",
    { class: "warnings" },
    el(
      doc,
      "summary",
      {},
      el(doc, "h3", {}, `Warnings: ${list.length}${kinds.length > 1 ? ` of ${kinds.length} kinds` : ""}`),
    ),
  );
  for (const k of kinds) {
    const body = el(doc, "div", { class: "kind-body" });
    if (k.numbers.length) body.append(el(doc, "p", {}, `Pull requests: ${k.numbers.map((n) => `#${n}`).join(", ")}`));
    if (k.names.length) body.append(el(doc, "p", {}, `Names: ${k.names.join(", ")}`));
    body.append(appendParts(doc, el(doc, "p", {}, "For example: "), prose(k.example)));
    box.append(
      el(
        doc,
        "details",
        { class: "kind", "data-count": String(k.count) },
        appendParts(doc, el(doc, "summary", {}, `${k.count} × `), prose(k.kind)),
        body,
      ),
    );
  }
  return box;
}

/** The config's problems, each with its JSON path (the engine answers nothing else until they are fixed). */
export function configErrors(doc, source, errors) {
  const box = el(doc, "div", { class: "config-errors" });
  box.append(
    el(
      doc,
      "p",
      {},
      `${source} has ${errors.length} problem${errors.length === 1 ? "" : "s"}; prflow decides nothing until they are fixed:`,
    ),
  );
  const ul = el(doc, "ul", { class: "config-errors-list" });
  for (const e of errors)
    ul.append(
      appendParts(
        doc,
        el(doc, "li", { "data-path": e.path }, el(doc, "code", {}, e.path), ": "),
        prose(`expected ${e.expected}, found ${e.found}`),
      ),
    );
  box.append(ul);
  return box;
}
