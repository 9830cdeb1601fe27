// Keyboard navigation over the drawn rows: j / k move to the next / previous pull request shown (a
// filtered-out row is skipped), o or Enter opens the focused one on GitHub, / goes to the search; the row reached is the one its deep link (#pr-N, or
// #pr-owner/repo-N with several repositories) names, so a link copied from the address bar opens there.
// It reads only what render.js drew; it decides nothing.

/** The rows shown, in the order drawn. */
const rows = (doc) =>
  [...doc.querySelectorAll("#view tr.row[id]")].filter((tr) => !tr.hidden && !tr.closest("section[hidden]"));
const LINK = /^#pr-[\w.\-/]+$/;
/** j / k: next / previous row shown; o or Enter: open the focused row's pull request; /: the search. */
const KEYS = ["j", "k", "o", "Enter", "/"];

/** Installs the j/k handler on `doc`; keys typed into a field are the field's. */
export function installKeys(doc) {
  // The deep link the page was opened with: reading the form rewrites the address, and the rows are
  // drawn only once the facts arrive, so the row it names is focused then (and kept in the address).
  const linked = LINK.test(decodeURIComponent(doc.location.hash))
    ? decodeURIComponent(doc.location.hash).slice(1)
    : null;
  let opened = false;
  doc.addEventListener("prflow:rendered", () => {
    // Only the first drawing goes to the link: a refresh keeps the row the person moved to.
    if (opened) return;
    opened = true;
    const tr = linked && doc.getElementById(linked);
    if (!tr) return;
    tr.focus();
    tr.scrollIntoView({ block: "center" });
    history.replaceState(null, "", `${doc.location.search}#${linked}`);
  });
  // A link inside the page (the graph's nodes) names a row: focus it as j/k would.
  doc.defaultView?.addEventListener("hashchange", () => {
    const tr = doc.getElementById(decodeURIComponent(doc.location.hash).slice(1));
    if (tr?.matches("tr.row")) tr.focus();
  });
  doc.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !KEYS.includes(event.key)) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    if (event.key === "/") {
      // As on GitHub: "/" goes to the search.
      const search = doc.getElementById("f-q");
      if (!search || search.closest("[hidden]")) return;
      event.preventDefault();
      search.focus();
      return;
    }
    if (event.key === "o" || event.key === "Enter") {
      // The focused row's pull request, by its own link (the first cell's).
      const link = doc.activeElement?.matches?.("tr.row")
        ? doc.activeElement.querySelector('td[data-col="number"] a')
        : null;
      if (!link) return;
      event.preventDefault();
      link.click();
      return;
    }
    const all = rows(doc);
    if (!all.length) return;
    const at = all.findIndex((tr) => tr === doc.activeElement || `#${tr.id}` === decodeURIComponent(doc.location.hash));
    const next = at < 0 ? 0 : Math.min(all.length - 1, Math.max(0, at + (event.key === "j" ? 1 : -1)));
    event.preventDefault();
    const tr = all[next];
    tr.focus();
    // The address keeps the search (filters, repo, api) and names the row: a deep link.
    history.replaceState(null, "", `${doc.location.search}#${tr.id}`);
  });
}
