// The dashboard page in a real browser: Debian's chromium (installed by scripts/setup.sh) driven by
// playwright-core opens the BUILT page (page/dist) from a loopback server and reads the emulator on
// another origin, with the browser's own CORS, CSP and layout. Every cell must be the engine's answer on
// the facts the page read, grouped as the engine groups them; no request may leave for another host;
// markup in GitHub's strings must stay text; filters live in the address; a refresh asks GitHub
// conditionally and reads again only on a change. Screenshots at 1400 and 390 px go to .tmp/screens/
// (never committed).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { createEngine } from "../../js/node.js";
import { startEmulator } from "../../emulator/index.js";
import { warningKinds } from "../../lib/summary.js";
import { COLUMNS, partsText, sharedNext } from "../../page/src/render.js";
import { runUrl } from "../../page/src/cells.js";
import { FULL_READ_MINUTES } from "../../page/src/github.js";
import { servePage } from "../../scripts/lib/serve-page.mjs";
import { stationsConfig } from "./lib/team.js";
import { seedPageBoard } from "./lib/page-board.js";
import { launchChromium } from "./lib/chromium.js";

const OWNER = "acme";
const REPO = "widgets";
const TOKEN = "ghp_pageBrowserReaderToken0000000000000";
const CONFIG = stationsConfig();
const SCREENS = new URL("../../.tmp/screens/", import.meta.url).pathname;

// Markup where GitHub lets anyone write: titles, bodies, labels, branch names. Each would set
// window.__pwned if the page ever parsed it as HTML.
const XSS = `<img src=x onerror="window.__pwned=1">`;
const SEEDS = [
  { pull: { title: "Draft parser", author: "agent-m1", labels: ["from:m1"], draft: true } },
  {
    pull: {
      title: `Title ${XSS} & <b>bold</b>`,
      body: `Body ${XSS}`,
      author: "agent-m1",
      labels: ["from:m1", `area:${XSS}`],
      head: `agent/<svg onload=window.__pwned=2>`,
    },
    check: "SUCCESS",
  },
  {
    pull: {
      title: "Fix <script>window.__pwned=3</script> escaping",
      author: "agent-m1",
      labels: ["from:m1", "reviewer:m4"],
    },
    review: { author: "review-bot", state: "CHANGES_REQUESTED" },
  },
  {
    pull: { title: "Docs for the CLI", author: "win-box", labels: ["from:m6"] },
    review: { author: "alice", state: "APPROVED" },
    check: "SUCCESS",
  },
  {
    pull: {
      title: "Speed up the sweep with a title long enough to wrap on a phone screen of 390 pixels",
      author: "win-box",
      labels: ["from:m6"],
    },
    check: "FAILURE",
  },
  {
    pull: { title: "Land the gate", author: "win-box", labels: ["from:m6", "merge-queued"], head: "agent/gate" },
    review: { author: "alice", state: "APPROVED" },
    check: "SUCCESS",
  },
  // The queue's pictures: a Merge-After on #6, a layer stacked on #6's branch, a cycle of two.
  {
    pull: { title: "After the gate", body: "Merge-After: #6", author: "win-box", labels: ["from:m6", "merge-queued"] },
  },
  {
    pull: { title: "Stacked on the gate", author: "agent-m1", labels: ["from:m1", "merge-queued"], base: "agent/gate" },
  },
  { pull: { title: "Cycle one", body: "Merge-After: #10", author: "agent-m1", labels: ["from:m1", "merge-queued"] } },
  { pull: { title: "Cycle two", body: "Merge-After: #9", author: "agent-m1", labels: ["from:m1", "merge-queued"] } },
  // Set aside by the queue (its marker written by the account the page reads as), and one claimed.
  {
    pull: { title: "Rebase conflicted", author: "win-box", labels: ["from:m6", "merge-queued"] },
    after: (gh, pr) =>
      gh.comment(pr.number, {
        author: "alice",
        body: `<!-- prflow:set-aside reason=rebase-failed head=${pr.headSha} base=0000000000000000000000000000000000000000 -->\n**The merge queue set this pull request aside** (\`rebase-failed\`): rebasing it onto the base conflicted.\n\n- [ ] Retry: tick this box to have the queue try this pull request again.\n`,
      }),
  },
  {
    pull: { title: "Being fixed", author: "win-box", labels: ["from:m6", "merge-queued"] },
    after: (gh, pr) =>
      gh.comment(pr.number, {
        author: "alice",
        body: `<!-- prflow:claim head=${pr.headSha} by=fixer-7 at=${new Date(gh.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z")} -->\n**fixer-7** is fixing this pull request.\n`,
      }),
  },
  // A draft marked ready once the Action has labelled it: two states, so a timeline.
  {
    pull: { title: "Drafted, then ready", author: "agent-m1", labels: ["from:m1"], draft: true },
    later: (gh, pr) => gh.markReady(pr.number),
  },
  // Last (its issue takes the next number; `later` counts pull requests from 1): closes an issue that says Start-After: #6: an inherited edge, drawn dashed.
  {
    pull: { title: "Feature after the gate", author: "win-box", labels: ["from:m6", "merge-queued"] },
    after: (gh, pr) => {
      const issue = gh.createIssue({ title: "The feature", body: "Start-After: #6" });
      gh.state.pull(pr.number).body = `Fixes #${issue.number}`;
    },
  },
];

let gh;
let page;
let browser;
let chromiumRun;

before(async () => {
  chromiumRun = await launchChromium();
  browser = chromiumRun.browser;
  gh = await seedPageBoard({ owner: OWNER, repo: REPO, token: TOKEN, config: CONFIG, seeds: SEEDS });
  // The team's own colours, none the config's: the page must draw each label as GitHub does.
  for (const [i, l] of [...gh.state.labels.values()].entries())
    gh.state.updateLabel(l.name, { color: (0x3a5f00 + i * 0x1d2b7).toString(16).padStart(6, "0").slice(-6) });
  page = await servePage();
});

after(async () => {
  await chromiumRun?.close();
  await page?.close();
  await gh?.close();
});

/**
 * Before the page runs: `window.__ended` settles with the first load's end ("rendered read|unchanged" or
 * "failed: ..."), `window.__next()` with the next one's, and the emulator's URL is confirmed as a person would.
 */
function watchEnds(tab) {
  return tab.addInitScript(() => {
    window.__next = () =>
      new Promise((resolve) => {
        document.addEventListener("prflow:rendered", (e) => resolve(`rendered ${e.detail.how}`), { once: true });
        document.addEventListener("prflow:failed", (e) => resolve(`failed: ${e.detail}`), { once: true });
        // A script error on the page ends the wait with its message, so a broken page fails the test
        // instead of leaving it waiting for an event that will not come.
        window.addEventListener("error", (e) => resolve(`page error: ${e.message}`), { once: true });
        window.addEventListener("unhandledrejection", (e) => resolve(`page error: ${e.reason?.message ?? e.reason}`), {
          once: true,
        });
      });
    window.__ended = window.__next();
    document.addEventListener("prflow:confirm", () => document.getElementById("confirm-api-yes").click());
  });
}

/** Opens the page at `width` px, sends the form with the token, confirms the emulator's URL, waits for the page's own end signal. */
async function open(width, query = "", hash = "", api = gh.url) {
  // A persistent context (the fresh profile) takes no per-page options: the viewport is set on the tab.
  const tab = await browser.newPage();
  await tab.setViewportSize({ width, height: 900 });
  const requests = [];
  const errors = [];
  tab.on("request", (r) => requests.push(r.url()));
  tab.on("pageerror", (e) => errors.push(e.message));
  await watchEnds(tab);
  await tab.goto(`${page.url}/index.html?repo=${OWNER}/${REPO}&api=${encodeURIComponent(api)}${query}${hash}`);
  await tab.fill("#token", TOKEN);
  await tab.click("#form button[type=submit]");
  const outcome = await tab.evaluate(() => window.__ended);
  return { tab, requests, errors, outcome };
}

/** The facts the page read: its snapshot box, filled when opened. */
async function snapshot(tab) {
  await tab.click("#snapshot-box summary");
  // The box fills on its toggle event, which the browser fires after the click returns.
  await tab.waitForFunction(() => document.getElementById("snapshot").textContent.length > 0);
  return JSON.parse(await tab.textContent("#snapshot"));
}

/** What each drawn row shows: its number, group, cells' text, state chip colour, links. */
const drawnRows = (tab) =>
  tab.$$eval("#view tr.row", (trs) =>
    trs.map((tr) => ({
      number: Number(tr.dataset.number),
      group: tr.closest("section").dataset.actor,
      hidden: tr.hidden || tr.closest("section").hidden,
      cells: Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.col, td.textContent])),
      chip: getComputedStyle(tr.querySelector('td[data-col="state"] .chip')).backgroundColor,
      labels: [...tr.querySelectorAll('td[data-col="title"] .label')].map((s) => [
        s.textContent,
        getComputedStyle(s).backgroundColor,
      ]),
      bar:
        tr.querySelector(".bar span").getBoundingClientRect().width /
        tr.querySelector(".bar").getBoundingClientRect().width,
      stays: [...tr.querySelectorAll(".stays span")].map((s) => [
        s.title.split(": ")[0],
        getComputedStyle(s).backgroundColor,
      ]),
      links: [...tr.querySelectorAll("a")].map((a) => a.href),
    })),
  );

/**
 * A screenshot of the whole page as a person scrolling it sees it: rows off screen are not drawn until
 * they come near (content-visibility), so the viewport grows to the page's height first (until that
 * height holds: a row drawn for the first time replaces its estimated height with its own).
 */
async function screenshotAll(tab, path) {
  const { width, height } = tab.viewportSize();
  for (let i = 0, last = 0; i < 8; i++) {
    const full = await tab.evaluate(
      () =>
        new Promise((r) =>
          requestAnimationFrame(() => requestAnimationFrame(() => r(document.documentElement.scrollHeight))),
        ),
    );
    if (full === last) break;
    last = full;
    await tab.setViewportSize({ width, height: full });
  }
  await tab.screenshot({ path, fullPage: true });
  await tab.setViewportSize({ width, height });
}

const rgb = (hex) => `rgb(${[0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

test("in chromium: rows grouped by who acts next, every cell the engine's, links to runs and Retry boxes, the graph, requests only to the page and the API, markup as text", async (t) => {
  const { tab, requests, errors, outcome } = await open(1400);
  try {
    assert.equal(outcome, "rendered read");
    assert.deepEqual(errors, [], "no script error in the page");
    const facts = await snapshot(tab);
    const view = createEngine(CONFIG).dashboard({ facts });
    assert.deepEqual(view.configErrors, []);
    assert.equal(view.rows.length, SEEDS.length);

    const shown = await drawnRows(tab);
    const order = view.groups.flatMap((g) => g.numbers.map((n) => [g.actor, n]));
    assert.deepEqual(
      shown.map((r) => [r.group, r.number]),
      order,
      "the engine's groups, in its order",
    );
    const headings = new Map(view.groups.map((g) => [g.actor, g.heading]));
    const base = {
      api: gh.url,
      repository: `${OWNER}/${REPO}`,
      labelColors: view.labelColors,
      actorHeading: (a) => headings.get(a) ?? a,
      several: false,
      now: Date.parse(view.now),
    };
    // The next action a group's rows share is said once, under its heading.
    const shared = (n) =>
      sharedNext(
        view.groups
          .find((g) => g.numbers.includes(n))
          .numbers.map((m) => ({ row: view.rows.find((r) => r.number === m) })),
      );
    for (const row of view.rows) {
      const drawn = shown.find((r) => r.number === row.number);
      for (const [key, , parts] of COLUMNS)
        assert.equal(
          drawn.cells[key],
          partsText(parts(row, { ...base, sharedNext: shared(row.number) })),
          `#${row.number}: column ${key}`,
        );
      // Colours are the repository's labels' (recoloured in before()), not the config's.
      const color = (name) => gh.state.label(name)?.color;
      if (row.shownState)
        assert.equal(
          drawn.chip,
          rgb(color(row.shownState)),
          `#${row.number}: its state in its label's colour on GitHub`,
        );
      // Each label once: the state and the blockers have their own cells.
      const elsewhere = new Set([row.shownState, ...row.blockers]);
      assert.deepEqual(
        drawn.labels,
        row.labels.filter((l) => !elsewhere.has(l)).map((l) => [l, rgb(color(l))]),
        `#${row.number}: each label in its colour on GitHub`,
      );
      // The state's timeline: one stretch per stay the engine replayed, in that label's colour.
      assert.deepEqual(
        drawn.stays.map(([label]) => label),
        row.stays.map((x) => x.label),
        `#${row.number}: its stays`,
      );
      for (const [label, bg] of drawn.stays)
        if (color(label)) assert.equal(bg, rgb(color(label)), `#${row.number}: the stay in ${label} in its colour`);
      for (const f of row.checkRuns.failed)
        assert.ok(drawn.links.includes(runUrl(base, row, f)), `#${row.number}: a link to the failed run of ${f.name}`);
      if (row.setAside?.commentId)
        assert.ok(
          drawn.links.some((h) => h.endsWith(`/pull/${row.number}#issuecomment-${row.setAside.commentId}`)),
          `#${row.number}: a link to its Retry box`,
        );
    }
    assert.ok(
      view.rows.some((r) => r.state && view.labelColors[r.state] !== gh.state.label(r.state).color),
      "the repository's colours are not the config's, so the check above can fail",
    );
    t.diagnostic(`groups: ${view.groups.map((g) => `${g.actor} ${g.numbers.join(",")}`).join("; ")}`);
    // The seeds were built to fill these: the test fails if the engine stops reading them so.
    const actors = new Set(view.rows.map((r) => r.actor));
    for (const a of ["agents", "reviewers", "queue", "person"])
      assert.ok(actors.has(a), `someone in the ${a} group: ${[...actors]}`);
    const aside = view.rows.find((r) => r.setAside?.reason === "rebase-failed" && r.setAside.commentId);
    assert.ok(aside, "the set-aside is read, with its comment");
    const asideCell = shown.find((r) => r.number === aside.number).cells.queue;
    assert.equal(asideCell.split("set aside").length, 2, `"set aside" once: ${asideCell}`);
    const claimed = view.rows.find((r) => r.claim?.by === "fixer-7");
    assert.ok(claimed, "the claim is read");
    // Said once, with its age on the view's clock, not the marker's raw time.
    const claimCell = shown.find((r) => r.number === claimed.number).cells.queue;
    assert.match(claimCell, /claimed by fixer-7, \d+ (min|h)/, `the claim with its age: ${claimCell}`);
    assert.equal(claimCell.split("claimed by").length, 2, `"claimed by" once: ${claimCell}`);
    assert.doesNotMatch(claimCell, /\d{4}-\d\d-\d\dT/, `no raw ISO time: ${claimCell}`);
    assert.ok(
      view.rows.some((r) => r.checkRuns.failed.length),
      "a failed check is read",
    );
    assert.ok(
      view.rows.some((r) => r.stays.length > 1),
      "a pull request has moved through states, so a timeline has several stays",
    );
    // Time in state as bars: the longer in its state, the longer the bar; the longest fills it.
    const bars = view.rows
      .filter((r) => r.minutes !== null)
      .map((r) => [r.minutes, shown.find((d) => d.number === r.number).bar])
      .sort((a, b) => a[0] - b[0]);
    assert.ok(new Set(bars.map(([m]) => m)).size > 1, `times in state differ: ${JSON.stringify(bars)}`);
    for (let i = 1; i < bars.length; i++)
      assert.ok(
        bars[i][1] >= bars[i - 1][1] - 0.001,
        `a longer time has a bar at least as long: ${JSON.stringify(bars)}`,
      );
    assert.ok(Math.abs(bars.at(-1)[1] - 1) < 0.01, `the longest fills its bar: ${bars.at(-1)[1]}`);

    // A time in state reads as one phrase: "40 min" never breaks between the number and its unit.
    const broken = await tab.$$eval("#view .dur", (ds) =>
      ds.filter((d) => d.getClientRects().length > 1).map((d) => d.closest("tr").id),
    );
    assert.deepEqual(broken, [], "no time in state is split over two lines");

    // The graph: a node per engine node, an edge per engine edge, the cycle marked.
    assert.ok(
      view.graph.nodes.length >= 5 && view.graph.cycles.length === 1,
      `the seeds make a graph with one cycle: ${JSON.stringify(view.graph.cycles)}`,
    );
    const g = await tab.$eval(".graph-box svg", (svg) => ({
      nodes: [...svg.querySelectorAll("a.node")].map((a) => [Number(a.dataset.number), a.classList.contains("cycle")]),
      edges: [...svg.querySelectorAll("path.edge")].map((p) => [
        Number(p.dataset.from),
        Number(p.dataset.to),
        p.classList.contains("cycle"),
      ]),
    }));
    assert.deepEqual(
      g.nodes,
      view.graph.nodes.map((n) => [n.number, n.inCycle]),
    );
    assert.deepEqual(
      g.edges,
      view.graph.edges.map((e) => [e.from, e.to, e.inCycle]),
    );
    // Each kind of edge in its own line: Merge-After solid, a stack thick, an inherited Start-After dashed.
    const lines = await tab.$$eval(".graph-box path.edge", (ps) =>
      ps.map((p) => [
        p.getAttribute("class").split(" ")[1],
        getComputedStyle(p).strokeDasharray,
        getComputedStyle(p).strokeWidth,
      ]),
    );
    const via = (kind) => lines.find(([v]) => v === kind);
    for (const kind of ["mergeAfter", "stack", "startAfter"])
      assert.ok(via(kind), `a ${kind} edge is drawn: ${JSON.stringify(lines)}`);
    assert.equal(via("mergeAfter")[1], "none", "Merge-After is solid");
    assert.notEqual(via("startAfter")[1], "none", "an inherited Start-After is dashed");
    assert.ok(parseFloat(via("stack")[2]) > parseFloat(via("mergeAfter")[2]), "a stack is thicker");
    const titles = view.rows.map((r) => r.title);
    assert.ok(titles.includes(SEEDS[1].pull.title), "the markup title reached the engine unchanged");

    // Markup rendered as text: no element came from GitHub's strings, no handler ran.
    assert.equal(
      await tab.evaluate(() => window.__pwned),
      undefined,
      "no onerror/onload/script from GitHub's strings ran",
    );
    assert.equal(
      await tab.$$eval("#view img, #view script, #view b, #view tr svg", (n) => n.length),
      0,
      "no element parsed from a title, label or branch",
    );
    // Inline code in the engine's words is drawn as <code>, its text unchanged.
    assert.ok(await tab.$$eval("#view td code", (n) => n.length > 0), "inline code is drawn as code");

    // Only the page's origin and the configured API were asked for anything.
    const origins = [...new Set(requests.map((u) => new URL(u).origin))].sort();
    assert.deepEqual(origins, [gh.url, page.url].sort(), `requests went only to the page and the API: ${origins}`);
    assert.ok(
      requests.some((u) => u.startsWith(gh.url)),
      "the API was read",
    );
    assert.match(await tab.textContent(".asof"), /this browser's clock/, "the stamp says whose clock it is");
    assert.deepEqual(gh.validationFailures, []);

    await tab.click("#snapshot-box summary");
    mkdirSync(SCREENS, { recursive: true });
    await screenshotAll(tab, join(SCREENS, "page-1400.png"));
    t.diagnostic(`screenshot ${join(SCREENS, "page-1400.png")}`);
  } finally {
    await tab.close();
  }
});

test("in chromium at 390 px: cards, nothing wider than the screen", async (t) => {
  const { tab, outcome } = await open(390);
  try {
    assert.equal(outcome, "rendered read");
    mkdirSync(SCREENS, { recursive: true });
    // Every row drawn (the screenshot grows the viewport to the whole page) before anything is measured.
    await screenshotAll(tab, join(SCREENS, "page-390.png"));
    const width = await tab.evaluate(() => document.documentElement.scrollWidth);
    t.diagnostic(`scrollWidth ${width}; screenshot ${join(SCREENS, "page-390.png")}`);
    assert.ok(width <= 390, `no horizontal overflow at 390 px: the document is ${width} px wide`);
    // A row is painted inside its own box (content-visibility), so what is too wide is clipped, not
    // scrolled: each cell's content must fit its cell.
    const clipped = await tab.$$eval("#view tr.row", (trs) =>
      trs.flatMap((tr) =>
        [tr, ...tr.children]
          .filter((x) => x.scrollWidth > x.clientWidth + 1)
          .map((x) => `${tr.id} ${x.dataset.col ?? "row"}: ${x.scrollWidth} > ${x.clientWidth}`),
      ),
    );
    assert.deepEqual(clipped, [], "no row's content is wider than its card");
    // Each row is a card: its cells stack, so a cell starts at the row's left edge.
    const stacked = await tab.$eval("#view tr.row", (tr) => {
      const cells = [...tr.querySelectorAll("td")].map((td) => td.getBoundingClientRect()).filter((r) => r.width > 0);
      return cells.length > 1 && cells.every((r) => Math.abs(r.left - cells[0].left) < 1);
    });
    assert.ok(stacked, "below 600 px each pull request's cells stack into a card");
  } finally {
    await tab.close();
  }
});

test("in chromium: a deep link opens at its row, j and k move between rows shown and keep the address a deep link", async () => {
  const { tab, outcome } = await open(1400, "", "#pr-3");
  try {
    assert.equal(outcome, "rendered read");
    const ids = await tab.$$eval("#view tr.row", (trs) => trs.map((tr) => tr.id));
    const i = ids.indexOf("pr-3");
    assert.ok(i > 0 && i < ids.length - 1, `#3 has rows above and below: ${ids}`);
    const at = () =>
      tab.evaluate(() => ({
        focused: document.activeElement?.id,
        hash: location.hash,
        repo: new URLSearchParams(location.search).get("repo"),
      }));
    assert.deepEqual(
      await at(),
      { focused: "pr-3", hash: "#pr-3", repo: `${OWNER}/${REPO}` },
      "the linked row is focused and the link kept",
    );
    await tab.keyboard.press("j");
    assert.deepEqual(
      await at(),
      { focused: ids[i + 1], hash: `#${ids[i + 1]}`, repo: `${OWNER}/${REPO}` },
      "j: the next row drawn",
    );
    await tab.keyboard.press("k");
    await tab.keyboard.press("k");
    assert.deepEqual(
      await at(),
      { focused: ids[i - 1], hash: `#${ids[i - 1]}`, repo: `${OWNER}/${REPO}` },
      "k twice: two rows up",
    );
    // Once connected the form is folded: Change opens it again.
    await tab.click("#change");
    await tab.focus("#repo");
    await tab.keyboard.press("j");
    assert.equal(await tab.inputValue("#repo"), `${OWNER}/${REPO}j`, "a j typed in a field is the field's");
    assert.equal(await tab.evaluate(() => location.hash), `#${ids[i - 1]}`);

    // "/" goes to the search, as on GitHub; "o" opens the focused row's pull request.
    await tab.focus(`#${ids[i - 1]}`);
    await tab.keyboard.press("/");
    assert.equal(await tab.evaluate(() => document.activeElement?.id), "f-q", "/ focuses the search");
    assert.equal(await tab.inputValue("#f-q"), "", "and types nothing into it");
    await tab.focus(`#${ids[i - 1]}`);
    const number = ids[i - 1].slice("pr-".length);
    // The emulator serves no web pages: the navigation is answered here.
    await tab.route(`**/${OWNER}/${REPO}/pull/${number}`, (route) =>
      route.fulfill({ status: 200, contentType: "text/plain", body: "pull request" }),
    );
    const opened = tab.waitForRequest(
      (r) => r.isNavigationRequest() && r.url().endsWith(`/${OWNER}/${REPO}/pull/${number}`),
      { timeout: 60_000 },
    );
    await tab.keyboard.press("o");
    assert.equal(
      new URL((await opened).url()).origin,
      gh.url,
      "o opens the pull request of the focused row, on the API's server",
    );
    // Closing the tab while that navigation commits could hang page.close() until the browser closed.
    await tab.waitForURL(`**/${OWNER}/${REPO}/pull/${number}`, { timeout: 60_000 });
  } finally {
    await tab.close();
  }
});

test("in chromium: filters and search live in the address, a link restores them, j skips what they hide", async () => {
  const { tab, outcome } = await open(1400, "&actor=queue");
  try {
    assert.equal(outcome, "rendered read");
    const view = createEngine(CONFIG).dashboard({ facts: await snapshot(tab) });
    const visible = async () =>
      (await drawnRows(tab))
        .filter((r) => !r.hidden)
        .map((r) => r.number)
        .sort((a, b) => a - b);
    const want = (pred) =>
      view.rows
        .filter(pred)
        .map((r) => r.number)
        .sort((a, b) => a - b);
    assert.deepEqual(
      await visible(),
      want((r) => r.actor === "queue"),
      "?actor=queue: the queue's rows only",
    );
    assert.ok((await visible()).length > 0);
    assert.equal(await tab.$eval("#f-actor", (s) => s.value), "queue", "the filter shows what the address says");

    await tab.selectOption("#f-actor", "");
    await tab.fill("#f-q", "gate");
    const search = await tab.evaluate(() => location.search);
    assert.equal(new URLSearchParams(search).get("q"), "gate", "the search is in the address");
    assert.equal(new URLSearchParams(search).get("actor"), null, "a cleared filter leaves the address");
    const gate = want((r) => `${r.title}\n${r.headRef}\n${r.why}\n${r.nextAction}`.toLowerCase().includes("gate"));
    assert.deepEqual(await visible(), gate, "text search over what the row shows");

    await tab.selectOption("#f-sort", "number");
    assert.equal(new URLSearchParams(await tab.evaluate(() => location.search)).get("sort"), "number");
    const rows = await drawnRows(tab);
    const first = rows.find((r) => !r.hidden);
    assert.ok(first, `a row is shown: ${JSON.stringify(rows.map((r) => [r.number, r.hidden]))}`);
    await tab.evaluate(() => document.activeElement?.blur());
    await tab.keyboard.press("j");
    const focused = await tab.evaluate(() => document.activeElement?.id);
    assert.equal(focused, `pr-${first.number}`, "j goes to the first row shown");

    // The address is the view: opened in a new tab (which has no token: a tab's own session), it shows the same rows.
    const again = await browser.newPage();
    try {
      await watchEnds(again);
      await again.goto(await tab.evaluate(() => location.href));
      assert.equal(await again.inputValue("#token"), "", "a new tab has no token");
      await again.fill("#token", TOKEN);
      await again.click("#form button[type=submit]");
      assert.equal(await again.evaluate(() => window.__ended), "rendered read");
      const rows = await again.$$eval("#view tr.row", (trs) =>
        trs.filter((tr) => !tr.hidden && !tr.closest("section").hidden).map((tr) => Number(tr.dataset.number)),
      );
      assert.deepEqual(
        [...rows].sort((a, b) => a - b),
        gate,
      );
    } finally {
      await again.close();
    }
  } finally {
    await tab.close();
  }
});

test("in chromium: Refresh asks GitHub conditionally; a 304 reads nothing more, a change reads again", async () => {
  const { tab, outcome } = await open(1400);
  try {
    assert.equal(outcome, "rendered read");
    let since = gh.requests.length;
    const after = () => gh.requests.slice(since).map((r) => `${r.method} ${r.operation ?? r.path} ${r.status}`);
    const refreshed = async () => {
      const next = tab.evaluate(() => window.__next());
      await tab.click("#refresh");
      return next;
    };
    assert.equal(await refreshed(), "rendered unchanged");
    assert.deepEqual(
      after(),
      ["GET /repos/{owner}/{repo}/issues 304"],
      "one conditional request, answered 304, nothing else",
    );

    since = gh.requests.length;
    gh.addLabels(2, ["prio:high"], { by: "alice" });
    assert.equal(await refreshed(), "rendered read");
    assert.ok(after()[0] === "GET /repos/{owner}/{repo}/issues 200", `the change is seen: ${after()[0]}`);
    assert.ok(
      after().some((r) => r.startsWith("POST")),
      "and everything is read again",
    );
    assert.ok(
      after().includes("GET /repos/{owner}/{repo}/labels 304"),
      `the label colours asked with their ETag, unchanged: ${after()}`,
    );
    assert.match(await tab.textContent("#pr-2"), /prio:high/, "the new label is drawn");
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await tab.close();
  }
});

test(`in chromium: the interval refresh shows a check that finished with no pull request update once the last full read is ${FULL_READ_MINUTES} minutes old`, async () => {
  // The browser's clock is the test's: fast-forwarding it fires the page's interval.
  const tab = await browser.newPage();
  try {
    await tab.clock.install();
    await tab.setViewportSize({ width: 1400, height: 900 });
    await watchEnds(tab);
    await tab.goto(`${page.url}/index.html?repo=${OWNER}/${REPO}&api=${encodeURIComponent(gh.url)}&every=1`);
    await tab.fill("#token", TOKEN);
    await tab.click("#form button[type=submit]");
    assert.equal(await tab.evaluate(() => window.__ended), "rendered read");
    const lint = () =>
      tab.$$eval("#pr-4 td[data-col=checks] a", (as) => as.map((a) => a.textContent).filter((t) => t.includes("lint")));
    assert.deepEqual(await lint(), []);

    // A check finishes: GitHub's open list is unchanged (a check run touches no pull request's updated_at).
    gh.clock.advance({ minutes: 1 });
    gh.checkRun({ number: 4, name: "lint", status: "COMPLETED", conclusion: "FAILURE" });
    let since = gh.requests.length;
    const after = () => gh.requests.slice(since).map((r) => `${r.method} ${r.operation ?? r.path} ${r.status}`);
    const tick = async (time) => {
      const next = tab.evaluate(() => window.__next());
      await tab.clock.fastForward(time);
      return next;
    };
    assert.equal(await tick("01:00"), "rendered unchanged", "a minute on: the interval asks, GitHub answers 304");
    assert.deepEqual(after(), ["GET /repos/{owner}/{repo}/issues 304"]);
    assert.deepEqual(await lint(), [], "the 304 could not tell of the check");

    since = gh.requests.length;
    assert.equal(
      await tick(`0${FULL_READ_MINUTES - 1}:00`),
      "rendered read",
      `${FULL_READ_MINUTES} minutes after the full read: everything is read again`,
    );
    assert.ok(
      after().some((r) => r.startsWith("POST prflowSweep 200")),
      `the facts were read again: ${after()}`,
    );
    assert.deepEqual(await lint(), ["✗ CI / lint"], "the finished check is drawn, linked to its run");
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await tab.close();
  }
});

test("in chromium: warnings grouped by kind with their counts and inline code as code; a broken config shows each problem at its path and no rows", async () => {
  // A repository nobody ran `prflow labels` on: every pull request warns of the labels it lacks.
  const bare = await startEmulator({ owner: OWNER, repo: REPO });
  bare.registerToken(TOKEN, "alice");
  bare.setFile(".github/prflow.json", JSON.stringify(CONFIG));
  for (let i = 0; i < 3; i++) bare.createPull({ title: `Unlabelled ${i}`, author: "agent-m1", labels: [] });
  const { tab, outcome } = await open(1400, "", "", bare.url);
  try {
    assert.equal(outcome, "rendered read");
    const view = createEngine(CONFIG).dashboard({ facts: await snapshot(tab) });
    const kinds = warningKinds(view.warnings);
    assert.ok(
      kinds.some((k) => k.count > 1 && k.kind.includes("`")),
      `a kind repeats and names code: ${JSON.stringify(kinds.map((k) => [k.count, k.kind]))}`,
    );
    const drawn = await tab.$$eval("#view .warnings details.kind", (ds) =>
      ds.map((d) => ({
        count: Number(d.dataset.count),
        summary: d.querySelector("summary").textContent,
        code: [...d.querySelectorAll("summary code")].map((c) => c.textContent),
      })),
    );
    assert.deepEqual(
      drawn,
      kinds.map((k) => ({
        count: k.count,
        summary: `${k.count} × ${k.kind.replaceAll("`", "")}`,
        code: [...k.kind.matchAll(/`([^`]*)`/g)].map((m) => m[1]),
      })),
      "one line per kind, largest first, with its count; backticked words drawn as code, the backticks gone",
    );
    assert.match(
      await tab.textContent("#view .warnings h3"),
      new RegExp(`^Warnings: ${view.warnings.length}${kinds.length > 1 ? ` of ${kinds.length} kinds` : ""}$`),
    );

    // The same repository with a config that has mistakes: the engine's problems, each at its path, and no guess.
    bare.setFile(
      ".github/prflow.json",
      JSON.stringify({ ...CONFIG, flow: "stations", followup: 7, labels: { prefix: 3 } }),
    );
    const next = tab.evaluate(() => window.__next());
    await tab.click("#change");
    await tab.click("#form button[type=submit]");
    assert.equal(await next, "rendered read");
    const broken = createEngine({ ...CONFIG, flow: "stations", followup: 7, labels: { prefix: 3 } }).configErrors();
    assert.ok(broken.length >= 2, `the config has several problems: ${JSON.stringify(broken)}`);
    const listed = await tab.$$eval("#view .config-errors li", (lis) =>
      lis.map((li) => [li.dataset.path, li.querySelector("code").textContent]),
    );
    assert.deepEqual(
      listed,
      broken.map((e) => [e.path, e.path]),
      "each problem at its JSON path, the path as code",
    );
    assert.equal(await tab.$$eval("#view tr.row", (n) => n.length), 0, "no row drawn from a guess");
    assert.match(await tab.textContent("#status"), /config: \.github\/prflow\.json has errors/);
    assert.deepEqual(bare.validationFailures, []);
  } finally {
    await tab.close();
    await bare.close();
  }
});

test("in chromium: the visitor's dark scheme is followed (prefers-color-scheme)", async (t) => {
  const { tab, outcome } = await open(1400);
  try {
    assert.equal(outcome, "rendered read");
    const colours = () =>
      tab.evaluate(() => {
        const s = getComputedStyle(document.body);
        return { bg: s.backgroundColor, fg: s.color };
      });
    await tab.emulateMedia({ colorScheme: "light" });
    assert.deepEqual(await colours(), { bg: "rgb(255, 255, 255)", fg: "rgb(31, 35, 40)" }, "light: dark text on white");
    await tab.emulateMedia({ colorScheme: "dark" });
    assert.deepEqual(
      await colours(),
      { bg: "rgb(13, 17, 23)", fg: "rgb(230, 237, 243)" },
      "dark: light text on GitHub's dark background",
    );
    mkdirSync(SCREENS, { recursive: true });
    await screenshotAll(tab, join(SCREENS, "page-1400-dark.png"));
    t.diagnostic(`screenshot ${join(SCREENS, "page-1400-dark.png")}`);
  } finally {
    await tab.close();
  }
});

/**
 * One API in front of several emulators (each emulates one repository), as api.github.com serves every
 * repository: REST by the `/repos/OWNER/REPO` of its path, GraphQL by the `repo` variable of its query.
 */
async function oneApi(byRepo) {
  const first = Object.values(byRepo)[0];
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    let target = first;
    const m = /^\/repos\/[^/]+\/([^/?]+)/.exec(req.url);
    if (m) target = byRepo[m[1]] ?? first;
    else if (req.url.startsWith("/graphql") && body.length) target = byRepo[JSON.parse(body).variables?.repo] ?? first;
    const headers = { ...req.headers };
    delete headers.host;
    const answer = await fetch(`${target.url}${req.url}`, {
      method: req.method,
      headers,
      body: ["GET", "HEAD", "OPTIONS"].includes(req.method) ? undefined : body,
    });
    const out = Object.fromEntries(
      [...answer.headers].filter(
        ([k]) => !["content-encoding", "content-length", "transfer-encoding", "connection"].includes(k),
      ),
    );
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

test("in chromium: several repositories in one view, grouped together, each row its own repository's engine answer", async () => {
  const other = await seedPageBoard({
    owner: OWNER,
    repo: "gadgets",
    token: TOKEN,
    config: CONFIG,
    seeds: [SEEDS[0], SEEDS[3], SEEDS[5]],
  });
  const api = await oneApi({ [REPO]: gh, gadgets: other });
  const tab = await browser.newPage();
  try {
    await tab.setViewportSize({ width: 1400, height: 900 });
    await watchEnds(tab);
    await tab.goto(
      `${page.url}/index.html?repo=${OWNER}/${REPO}&repo=${OWNER}/gadgets&api=${encodeURIComponent(api.url)}`,
    );
    assert.equal(
      await tab.inputValue("#repo"),
      `${OWNER}/${REPO}, ${OWNER}/gadgets`,
      "both repositories from the address",
    );
    await tab.fill("#token", TOKEN);
    await tab.click("#form button[type=submit]");
    assert.equal(await tab.evaluate(() => window.__ended), "rendered read");

    const all = await snapshot(tab);
    assert.deepEqual(
      all.map((f) => f.repository),
      [`${OWNER}/${REPO}`, `${OWNER}/gadgets`],
      "the snapshot holds each repository's facts",
    );
    const views = all.map((f) => ({ repository: f.repository, view: createEngine(CONFIG).dashboard({ facts: f }) }));
    const headings = new Map(views.flatMap(({ view }) => view.groups.map((g) => [g.actor, g.heading])));
    // Rows in the engine's order of actors; inside a group, each repository's rows in its engine's order.
    const order = views[0].view.actors
      .map((a) => a.actor)
      .flatMap((actor) =>
        views.flatMap(({ repository, view }) =>
          (view.groups.find((g) => g.actor === actor)?.numbers ?? []).map((n) => `pr-${repository}-${n}`),
        ),
      );
    const drawn = await tab.$$eval("#view tr.row", (trs) =>
      trs.map((tr) => ({
        id: tr.id,
        repo: tr.dataset.repo,
        cells: Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.col, td.textContent])),
      })),
    );
    assert.deepEqual(
      drawn.map((d) => d.id),
      order,
      "one group per actor across both repositories",
    );
    for (const { repository, view } of views) {
      const ctx = {
        api: api.url,
        repository,
        labelColors: view.labelColors,
        actorHeading: (a) => headings.get(a) ?? a,
        several: true,
        now: Date.parse(view.now),
      };
      for (const row of view.rows) {
        const d = drawn.find((x) => x.id === `pr-${repository}-${row.number}`);
        // A group merged across repositories shares its next action across them.
        const group = view.groups.find((g) => g.numbers.includes(row.number)).actor;
        const merged = views.flatMap(({ view: v }) =>
          (v.groups.find((g) => g.actor === group)?.numbers ?? []).map((n) => ({
            row: v.rows.find((r) => r.number === n),
          })),
        );
        for (const [key, , parts] of COLUMNS)
          assert.equal(
            d.cells[key],
            partsText(parts(row, { ...ctx, sharedNext: sharedNext(merged) })),
            `${repository}#${row.number}: column ${key}`,
          );
      }
    }
    assert.deepEqual(
      await tab.$$eval("section.repo", (s) => s.map((x) => x.dataset.repo)),
      [`${OWNER}/${REPO}`, `${OWNER}/gadgets`],
      "each repository's queue, graph and warnings",
    );
    const link = `#pr-${OWNER}/gadgets-1`;
    await tab.evaluate((h) => (location.hash = h), link);
    assert.equal(
      await tab.evaluate(() => document.activeElement?.id),
      link.slice(1),
      "a row's deep link names its repository",
    );
  } finally {
    await tab.close();
    await api.close();
    await other.close();
  }
});
