// Filters, search and sorting of the drawn rows, kept in the address so a filtered view is a link:
// ?state= &actor= &author= &label= &q= &sort=. They choose which of the engine's rows are shown and in
// what order inside each group; they decide nothing about a pull request.

/** The filter and sort keys the address carries. */
export const FILTER_KEYS = ["state", "actor", "author", "label", "q", "sort"];

/** The sort orders: the engine's (longest in its state first), or by one field. */
export const SORTS = {
  engine: null,
  number: (a, b) => a.row.number - b.row.number,
  title: (a, b) => a.row.title.localeCompare(b.row.title),
  state: (a, b) =>
    (a.row.state ?? "").localeCompare(b.row.state ?? "") || (b.row.minutes ?? -1) - (a.row.minutes ?? -1),
  author: (a, b) => a.row.author.localeCompare(b.row.author) || a.row.number - b.row.number,
};

/** The filters in `search` (a URLSearchParams). */
export function readFilters(search) {
  return Object.fromEntries(FILTER_KEYS.map((k) => [k, search.get(k) ?? ""]));
}

/** Whether a drawn row (render.js) passes `f`. The text search reads what the row shows. */
export function matches(d, f) {
  const r = d.row;
  if (f.state && (r.state ?? "(none)") !== f.state) return false;
  if (f.actor && r.actor !== f.actor) return false;
  if (f.author && r.author !== f.author) return false;
  if (f.label && !r.labels.includes(f.label)) return false;
  if (f.q) {
    const hay = (d.hay ??= [
      `#${r.number}`,
      r.title,
      r.author,
      r.headRef,
      r.state ?? "",
      r.why,
      r.nextAction,
      ...r.labels,
      d.board.repository,
    ]
      .join("\n")
      .toLowerCase());
    if (
      !f.q
        .toLowerCase()
        .split(/\s+/)
        .filter(Boolean)
        .every((w) => hay.includes(w))
    )
      return false;
  }
  return true;
}

/**
 * Shows the rows `f` passes, hides the rest, orders each group by `f.sort` (the engine's order by
 * default), and updates each group's count; a group with nothing shown is hidden. Returns how many show.
 */
export function applyFilters(doc, drawn, f) {
  let shown = 0;
  const bodies = new Map();
  for (const d of drawn) {
    const ok = matches(d, f);
    if (d.tr.hidden === ok) d.tr.hidden = !ok;
    if (ok) shown++;
    const body = d.tr.parentNode;
    if (!bodies.has(body)) bodies.set(body, []);
    bodies.get(body).push(d);
  }
  const cmp = SORTS[f.sort] ?? null;
  for (const [body, list] of bodies) {
    const ordered = cmp ? [...list].sort(cmp) : list;
    // Reordered only when the order differs, so a filter change moves no node.
    if (ordered.some((d, i) => body.children[i] !== d.tr)) {
      const frag = doc.createDocumentFragment();
      for (const d of ordered) frag.append(d.tr);
      body.append(frag);
    }
    const section = body.closest("section");
    const visible = list.filter((d) => !d.tr.hidden).length;
    section.hidden = visible === 0;
    section.querySelector(".count").textContent = ` (${visible}${visible === list.length ? "" : ` of ${list.length}`})`;
  }
  return shown;
}

/** The choices each filter offers, from the drawn rows: [value, label] pairs. */
export function choices(drawn, actorHeadings) {
  // Code-point order: localeCompare is many times slower over a few thousand values.
  const uniq = (xs) => [...new Set(xs)].sort();
  return {
    state: uniq(drawn.map((d) => d.row.state ?? "(none)")).map((s) => [s, s]),
    actor: [...new Set(drawn.map((d) => d.row.actor))].map((a) => [a, actorHeadings.get(a) ?? a]),
    author: uniq(drawn.map((d) => d.row.author)).map((a) => [a, a]),
    label: uniq(drawn.flatMap((d) => d.row.labels)).map((l) => [l, l]),
  };
}
