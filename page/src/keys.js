// Keyboard navigation over the drawn rows: j / k move to the next / previous pull request, and the row
// reached is the one its deep link (#pr-N) names, so a link copied from the address bar opens there.
// It reads only what render.js drew; it decides nothing.

/** The rows in the order drawn. */
const rows = (doc) => [...doc.querySelectorAll("#pulls tbody tr[id]")];

/** Installs the j/k handler on `doc`; keys typed into a field are the field's. */
export function installKeys(doc) {
  // The deep link the page was opened with: reading the form rewrites the address, and the rows are
  // drawn only once the facts arrive, so the row it names is focused then (and kept in the address).
  const linked = /^#pr-\d+$/.test(doc.location.hash) ? doc.location.hash.slice(1) : null;
  doc.addEventListener("prflow:rendered", () => {
    const tr = linked && doc.getElementById(linked);
    if (!tr) return;
    tr.focus();
    tr.scrollIntoView({ block: "center" });
    history.replaceState(null, "", `${doc.location.search}#${linked}`);
  });
  doc.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || (event.key !== "j" && event.key !== "k")) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    const all = rows(doc);
    if (!all.length) return;
    const at = all.findIndex((tr) => tr === doc.activeElement || `#${tr.id}` === doc.location.hash);
    const next = at < 0 ? 0 : Math.min(all.length - 1, Math.max(0, at + (event.key === "j" ? 1 : -1)));
    event.preventDefault();
    const tr = all[next];
    tr.focus();
    // The address keeps the search (filters, repo, api) and names the row: a deep link.
    history.replaceState(null, "", `${doc.location.search}#${tr.id}`);
  });
}
