// The dashboard page: reads the form (prefilled from the address: ?repo= (one or several), ?api=, the
// filters, ?every=; the token from sessionStorage), reads facts from GitHub with the Action's own reader,
// asks the engine (the same Wasm) for each repository's dashboard view, and draws them. Refresh asks
// GitHub first whether anything changed (a conditional request; 304 costs no rate limit) and reads
// again only then. It announces the end of each load with a `prflow:rendered` or `prflow:failed` event
// on the document (tests and embedding pages wait for it), and a `prflow:confirm` event when it waits
// for the person to confirm an API URL that is not GitHub's.
import { load } from "../../js/web.js";
import { sampleBoard } from "../../js/sample-board.js";
import { apiBase, client, parseRepos, probe, readAll, ReadError, DEFAULT_API, FULL_READ_MINUTES } from "./github.js";
import { renderBoards } from "./render.js";
import { applyFilters, choices, FILTER_KEYS, readFilters, SORTS } from "./filters.js";
import { installKeys } from "./keys.js";
import { SCOREBOARD_HEADINGS } from "../../lib/queue-report.js";

/** sessionStorage key of the token, per API base: a token is never offered to another host. */
const tokenKey = (api) => `prflow.token ${api}`;
/**
 * sessionStorage key of the person's yes to an API base other than GitHub's: a link can carry any
 * `?api=`, so the token goes there only once the person has read the host and said yes, in this tab.
 */
const confirmedKey = (api) => `prflow.confirmed ${api}`;
/** localStorage key of the repositories last shown: the page opens on them next time. */
const REPOS_KEY = "prflow.repos";

const $ = (id) => document.getElementById(id);
let prflow;
/**
 * What is drawn: { api, token, readAt, boards: [{ repository, api, facts, engine, view, problems,
 * configSource, etag, clock, labelColors, labelCache, readNow, readAt }], drawn }. `readAt` is this browser's
 * Date.now() when the facts were read: a redraw moves the read's `now` (`readNow`) on by the time since.
 */
let current = null;
let timer = null;
let busy = false;

// The engine, in one place: the Wasm loaded once, then one view per repository's facts. Streamed from
// its Response, so the browser may keep the compiled code for the next visit.
async function loadEngine() {
  if (prflow) return;
  const res = await fetch(new URL("prflow_bg.wasm", document.baseURI));
  if (!res.ok) throw new Error(`prflow_bg.wasm: HTTP ${res.status}`);
  prflow = await load(res);
}

// A browser runs a Wasm function from quickly compiled code until the function is hot, and compiles it
// well only then, in the background: a first dashboard() of 500 pull requests took 2 to 5 times its
// steady time. So while the facts are on the network the engine answers a sample board, a slice at a
// time between the responses, and stops at the first real answer; once a page's life.
const WARM_SLICES = 6;
const WARM_PULLS = 40;
let warming = false;
let warmed = false;
function warmUp() {
  if (warmed) return;
  warmed = warming = true;
  const engine = prflow.createEngine();
  const facts = { ...sampleBoard(WARM_PULLS), now: new Date().toISOString().replace(/\.\d{3}Z$/, "Z") };
  let slices = 0;
  const slice = () => {
    if (!warming || slices++ === WARM_SLICES) return;
    engine.dashboard({ facts });
    setTimeout(slice, 0);
  };
  setTimeout(slice, 0);
}
// A bad config is the engine's answer like any other: every problem with its path, and no rows (the
// Action too writes nothing until they are fixed); the page never substitutes the preset.
function dashboardView(engine, facts) {
  warming = false;
  const start = performance.now();
  const view = engine.dashboard({ facts });
  // Named measures, so the benchmark can say where the script time goes (engine or drawing).
  performance.measure?.("prflow engine", { start, end: performance.now() });
  return view;
}

function status(line) {
  $("status").textContent = line;
}

function fail(line) {
  $("error").textContent = line;
  $("error").hidden = false;
  status("");
  document.body.dataset.state = "failed";
  document.dispatchEvent(new CustomEvent("prflow:failed", { detail: line }));
}

/** The address: repositories, API, filters, interval, and the row's deep link. */
function writeAddress() {
  const p = new URLSearchParams();
  for (const r of $("repo")
    .value.split(/[\s,]+/)
    .filter(Boolean))
    p.append("repo", r);
  const api = $("api").value.trim();
  if (api && api !== DEFAULT_API) p.set("api", api);
  const web = new URLSearchParams(location.search).get("web");
  if (web) p.set("web", web);
  const f = filters();
  for (const k of FILTER_KEYS) if (f[k] && !(k === "sort" && f[k] === "engine")) p.set(k, f[k]);
  if (Number($("every").value) > 0) p.set("every", $("every").value);
  history.replaceState(null, "", `?${p}${location.hash}`);
}

const filters = () => Object.fromEntries(FILTER_KEYS.map((k) => [k, $(`f-${k}`).value.trim()]));

/** Reads every repository and draws them. */
async function run(event) {
  event?.preventDefault();
  if (busy) return;
  $("error").hidden = true;
  $("error").textContent = "";
  document.body.dataset.state = "loading";
  try {
    const api = apiBase($("api").value);
    const repos = parseRepos($("repo").value);
    const token = $("token").value.trim();
    if (!token) throw new ReadError("checking the token", "enter a token (fine-grained, read-only)");
    // Asked before the page counts as busy: the person's yes starts this again.
    if (api !== DEFAULT_API && sessionStorage.getItem(confirmedKey(api)) !== "yes") return confirmApi(api);
    busy = true;
    sessionStorage.setItem(tokenKey(api), token);
    writeAddress();

    status("loading the engine");
    try {
      await loadEngine();
      warmUp();
    } catch (e) {
      throw new ReadError("loading the engine", e.message, e);
    }
    const boards = [];
    let requests = 0;
    // Where a row's link opens: GitHub's web server for GitHub's API, else ?web= when given (the demo's).
    const web = webBase();
    // The label colours' ETags from the last read of the same repository on the same API.
    const caches = new Map((current?.api === api ? current.boards : []).map((b) => [b.repository, b.labelCache]));
    for (const { owner, repo } of repos) {
      // The reader's last round is the engine's view of the facts it read: drawn as it is. A repository
      // that cannot be read shows its error in its own section; the others draw as usual.
      try {
        const read = await readAll({
          api,
          token,
          owner,
          repo,
          prflow,
          labelCache: caches.get(`${owner}/${repo}`),
          dashboard: dashboardView,
          progress: status,
        });
        performance.mark?.("prflow facts read");
        requests += read.requests;
        boards.push({
          repository: `${owner}/${repo}`,
          api,
          web,
          ...read,
          readNow: read.facts.now,
          problems: read.view.configErrors,
          readAt: Date.now(),
        });
      } catch (e) {
        if (!(e instanceof ReadError)) throw e;
        boards.push({ repository: `${owner}/${repo}`, api, error: `${e.step} failed: ${e.line}` });
      }
    }
    if (!boards.some((b) => b.view))
      throw new ReadError(
        boards[0].error.replace(/ failed: .*/, ""),
        boards.map((b) => b.error.replace(/^.*? failed: /, "")).join("; "),
      );
    localStorage.setItem(REPOS_KEY, $("repo").value.trim());
    current = { api, token, boards, readAt: Date.now() };
    fold(true);
    draw(`${requests} API requests`);
    schedule();
  } catch (e) {
    fail(e instanceof ReadError ? `${e.step} failed: ${e.line}` : `failed: ${e.message}`);
  } finally {
    busy = false;
  }
}

/**
 * Refresh (the button, or the interval): asks GitHub whether each repository's open list changed
 * (If-None-Match). Unchanged: the engine is asked again with the same facts at the new time (durations
 * move on); changed, or the last full read FULL_READ_MINUTES old: everything is read again.
 */
async function refresh() {
  if (!current || busy) return;
  if (Date.now() - current.readAt >= FULL_READ_MINUTES * 60_000) return run();
  busy = true;
  try {
    let changed = false;
    const { api, token } = current;
    const { octokit, stats } = client({ api, token, progress: status });
    if (current.boards.some((b) => b.error)) {
      busy = false;
      return run();
    }
    for (const b of current.boards) {
      const [owner, repo] = b.repository.split("/");
      const p = await probe(octokit, { owner, repo, etag: b.etag });
      if (p.changed) changed = true;
    }
    busy = false;
    if (changed) return run();
    for (const b of current.boards) {
      // The read's clock (GitHub's when its Date header was readable), moved on by the time since.
      const now = new Date(Date.parse(b.readNow) + (Date.now() - b.readAt)).toISOString().replace(/\.\d{3}Z$/, "Z");
      b.facts = { ...b.facts, now };
      b.view = dashboardView(b.engine, b.facts);
      b.problems = b.view.configErrors;
    }
    draw(
      `unchanged since the last read (GitHub answered 304 to ${stats.requests} conditional request${stats.requests === 1 ? "" : "s"}, which cost no rate limit)`,
      "unchanged",
    );
  } catch (e) {
    busy = false;
    fail(e instanceof ReadError ? `${e.step} failed: ${e.line}` : `failed: ${e.message}`);
  }
}

function schedule() {
  clearInterval(timer);
  const minutes = Number($("every").value);
  if (minutes > 0) {
    timer = setInterval(() => refresh(), minutes * 60_000);
  }
}

/** Draws the current boards, keeps the focused row, fills the filters' choices, applies them. */
function draw(line, how = "read") {
  const start = performance.now();
  const focused = document.activeElement?.closest?.("tr.row")?.id;
  const drawn = renderBoards(document, $("view"), current.boards);
  current.drawn = drawn;
  const readable = current.boards.filter((b) => b.view);
  const headings = new Map(readable[0].view.actors.map((a) => [a.actor, a.heading]));
  const opts = choices(drawn, headings);
  const f = filters();
  for (const [key, list] of Object.entries(opts)) {
    const select = $(`f-${key}`);
    const keep = f[key];
    const values = new Set(list.map(([v]) => v));
    select.replaceChildren(new Option("all", ""), ...list.map(([v, label]) => new Option(label, v)));
    // A filter from the address that matches nothing now is still the person's choice: kept, shown.
    if (keep && !values.has(keep)) select.append(new Option(`${keep} (none now)`, keep));
    select.value = keep;
  }
  const shown = showFiltered(drawn, f);
  drawAgents(readable);
  if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
  $("toolbar").hidden = false;
  const rows = drawn.length;
  const names = current.boards.map((b) => b.repository).join(", ");
  const engines = [...new Set(readable.map((b) => b.view.engine))].join(", ");
  const configs = current.boards.map(
    (b) =>
      `${current.boards.length > 1 ? `${b.repository} ` : ""}${b.error ? "not read" : `config: ${b.problems.length ? `${b.configSource} has errors` : b.configSource}`}`,
  );
  status(
    `${rows} open pull request${rows === 1 ? "" : "s"} in ${names}${shown === rows ? "" : `, ${shown} shown`}; ${configs.join("; ")}; checked ${clockTime(new Date())}: ${line}; engine ${engines}`,
  );
  // The facts snapshot is written when asked for: 500 pull requests' facts are megabytes of text.
  $("snapshot-box").open = false;
  $("snapshot").textContent = "";
  document.body.dataset.state = "rendered";
  performance.measure?.("prflow draw", { start, end: performance.now() });
  document.dispatchEvent(new CustomEvent("prflow:rendered", { detail: { rows, shown, how } }));
}

/** Applies the filters and says so when nothing matches (an empty view without a word reads as a broken page). */
function showFiltered(drawn, f) {
  const shown = applyFilters(document, drawn, f);
  const none = $("no-match");
  if (none) {
    none.hidden = shown > 0 || drawn.length === 0;
    none.textContent =
      shown > 0
        ? ""
        : `No pull request matches ${f.q ? `“${f.q}”` : "these filters"}${FILTER_KEYS.some((k) => k !== "q" && k !== "sort" && f[k]) ? " with the filters chosen" : ""}. Esc clears the search.`;
  }
  return shown;
}

/** The address's ?web=: where row links open when the API is not GitHub's (http or https only). */
function webBase() {
  const web = new URLSearchParams(location.search).get("web");
  return web && /^https?:\/\//.test(web) ? web.replace(/\/+$/, "") : undefined;
}

/** The form folded into one line once connected (the repositories and a button to change them), or open. */
function fold(folded) {
  $("form").hidden = folded;
  $("intro").hidden = folded;
  $("connected").hidden = !folded;
  if (folded) {
    $("connected-repos").textContent = $("repo").value.trim();
    $("connected-via").textContent = ` via ${$("api").value.trim() || DEFAULT_API}`;
  }
}

/** The Agents tab: each repository's scoreboard (the engine's), one table per repository. */
function drawAgents(boards) {
  const box = $("agents");
  box.replaceChildren();
  for (const b of boards) {
    const board = b.engine.scoreboard({ facts: b.facts });
    // A config with errors answers with them (drawn on the pull requests' tab), and no scoreboard.
    if (!board.agents) continue;
    const table = document.createElement("table");
    table.className = "agents";
    const tr = (cells, tag) => {
      const row = document.createElement("tr");
      for (const c of cells) {
        const cell = document.createElement(tag);
        cell.textContent = c;
        row.append(cell);
      }
      return row;
    };
    const minutes = (m) =>
      m === null ? "–" : m < 120 ? `${m} min` : m < 2880 ? `${Math.round(m / 60)} h` : `${Math.round(m / 1440)} d`;
    const thead = document.createElement("thead");
    thead.append(tr(SCOREBOARD_HEADINGS, "th"));
    const body = document.createElement("tbody");
    for (const a of board.agents)
      body.append(
        tr(
          [
            a.agent,
            a.opened,
            a.landed,
            a.bounced,
            a.setAside,
            minutes(a.medianMinutesToLand),
            a.ciMinutesPerLanding ?? "–",
            a.flakesBlamed === null ? "–" : `${a.flakesBlamed} / ${a.flakesCleared}`,
          ].map(String),
          "td",
        ),
      );
    table.append(thead, body);
    const h = document.createElement("h2");
    h.textContent = `${b.repository}: ${board.window}`;
    const note = document.createElement("p");
    note.className = "meta";
    note.textContent = board.flakesNote ? `Flakes: ${board.flakesNote}.` : "";
    box.append(h, table, note);
  }
}

/** The tabs: the pull requests, or the agents' scoreboard. */
function showTab(name) {
  for (const t of ["pulls", "agents"]) {
    $(`tab-${t}`).setAttribute("aria-selected", String(t === name));
  }
  $("view").hidden = name !== "pulls";
  $("agents").hidden = name !== "agents";
}

/** HH:MM:SS on this browser's clock: toLocaleTimeString's first call loads the locale's data, tens of milliseconds. */
const clockTime = (d) =>
  [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");

/** Shows which host the token would go to and waits for the person's answer; nothing is sent meanwhile. */
function confirmApi(api) {
  $("confirm-api-host").textContent = api;
  $("confirm-api").hidden = false;
  $("confirm-api").dataset.api = api;
  status(`waiting for you to confirm the API URL ${api}`);
  document.body.dataset.state = "confirm";
  document.dispatchEvent(new CustomEvent("prflow:confirm", { detail: { api } }));
}

function start() {
  const params = new URLSearchParams(location.search);
  $("repo").value = params.getAll("repo").join(", ") || (localStorage.getItem(REPOS_KEY) ?? "");
  $("api").value = params.get("api") ?? DEFAULT_API;
  try {
    $("token").value = sessionStorage.getItem(tokenKey(apiBase($("api").value))) ?? "";
  } catch {
    // a bad ?api= is reported when the form is sent
  }
  const f = readFilters(params);
  for (const k of FILTER_KEYS) {
    const field = $(`f-${k}`);
    if (field.tagName === "SELECT" && f[k] && ![...field.options].some((o) => o.value === f[k]))
      field.append(new Option(f[k], f[k]));
    field.value = f[k] || (k === "sort" ? "engine" : "");
  }
  $("f-sort").replaceChildren(
    ...Object.keys(SORTS).map((k) => new Option(k === "engine" ? "longest in state first" : `by ${k}`, k)),
  );
  $("f-sort").value = SORTS[f.sort] !== undefined ? f.sort || "engine" : "engine";
  $("every").value = ["0", "1", "5", "15"].includes(params.get("every")) ? params.get("every") : "0";

  $("form").addEventListener("submit", run);
  $("filters").addEventListener("submit", (e) => e.preventDefault());
  const onFilter = () => {
    writeAddress();
    if (current?.drawn) {
      const shown = showFiltered(current.drawn, filters());
      $("status").dataset.shown = String(shown);
    }
  };
  $("filters").addEventListener("input", onFilter);
  $("filters").addEventListener("change", onFilter);
  $("refresh").addEventListener("click", () => refresh());
  $("change").addEventListener("click", () => {
    fold(false);
    $("repo").focus();
  });
  $("tab-pulls").addEventListener("click", () => showTab("pulls"));
  $("tab-agents").addEventListener("click", () => showTab("agents"));
  // Esc leaves the search (and clears it when it already is empty of focus): the keys are the rows' again.
  $("f-q").addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    if ($("f-q").value) {
      $("f-q").value = "";
      onFilter();
    }
    $("f-q").blur();
  });
  $("every").addEventListener("change", () => {
    writeAddress();
    schedule();
  });
  $("snapshot-box").addEventListener("toggle", () => {
    if ($("snapshot-box").open && current) {
      const facts = current.boards.map((b) => b.facts);
      $("snapshot").textContent = JSON.stringify(facts.length === 1 ? facts[0] : facts, null, 2);
    }
  });
  $("confirm-api-yes").addEventListener("click", () => {
    sessionStorage.setItem(confirmedKey($("confirm-api").dataset.api), "yes");
    $("confirm-api").hidden = true;
    // run() reads the field again: a host changed since the question is asked about anew.
    run();
  });
  $("confirm-api-no").addEventListener("click", () => {
    $("confirm-api").hidden = true;
    $("api").value = DEFAULT_API;
    status("the API URL is GitHub's again: press Show");
    document.body.dataset.state = "ready";
  });
  $("forget").addEventListener("click", () => {
    sessionStorage.clear();
    $("token").value = "";
  });
  installKeys(document);
  document.body.dataset.state = "ready";
  document.dispatchEvent(new CustomEvent("prflow:ready"));
  if ($("repo").value && $("token").value) run();
}

start();
