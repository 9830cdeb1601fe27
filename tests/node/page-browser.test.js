// The dashboard page in a real browser: Debian's chromium (installed by scripts/setup.sh) driven by
// playwright-core opens the BUILT page (page/dist) from a loopback server and reads the emulator on
// another origin, with the browser's own CORS, CSP and layout. Every cell must be the engine's answer on
// the facts the page read, no request may leave for another host, and markup in GitHub's strings must
// stay text. Screenshots at 1400 and 390 px go to .tmp/screens/ (never committed).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "../../js/node.js";
import { COLUMNS } from "../../page/src/render.js";
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
  { pull: { title: `Title ${XSS} & <b>bold</b>`, body: `Body ${XSS}`, author: "agent-m1", labels: ["from:m1", `area:${XSS}`], head: `agent/<svg onload=window.__pwned=2>` }, check: "SUCCESS" },
  { pull: { title: "Fix <script>window.__pwned=3</script> escaping", author: "agent-m1", labels: ["from:m1", "reviewer:m4"] }, review: { author: "review-bot", state: "CHANGES_REQUESTED" } },
  { pull: { title: "Docs for the CLI", author: "win-box", labels: ["from:m6"] }, review: { author: "alice", state: "APPROVED" }, check: "SUCCESS" },
  { pull: { title: "Speed up the sweep with a title long enough to wrap on a phone screen of 390 pixels", author: "win-box", labels: ["from:m6"] }, check: "FAILURE" },
  { pull: { title: "Land the gate", author: "win-box", labels: ["from:m6", "merge-queued"] }, review: { author: "alice", state: "APPROVED" }, check: "SUCCESS" },
];

let gh;
let page;
let browser;
let chromiumRun;

before(async () => {
  chromiumRun = await launchChromium();
  browser = chromiumRun.browser;
  gh = await seedPageBoard({ owner: OWNER, repo: REPO, token: TOKEN, config: CONFIG, seeds: SEEDS });
  page = await servePage();
});

after(async () => {
  await chromiumRun?.close();
  await page?.close();
  await gh?.close();
});

/** Opens the page at `width` px, sends the form with the token, confirms the emulator's URL, waits for the page's own end signal. */
async function open(width, hash = "") {
  // A persistent context (the fresh profile) takes no per-page options: the viewport is set on the tab.
  const tab = await browser.newPage();
  await tab.setViewportSize({ width, height: 900 });
  const requests = [];
  const errors = [];
  tab.on("request", (r) => requests.push(r.url()));
  tab.on("pageerror", (e) => errors.push(e.message));
  await tab.addInitScript(() => {
    window.__ended = new Promise((resolve) => {
      document.addEventListener("prflow:confirm", () => document.getElementById("confirm-api-yes").click());
      document.addEventListener("prflow:rendered", () => resolve("rendered"));
      document.addEventListener("prflow:failed", (e) => resolve(`failed: ${e.detail}`));
    });
  });
  await tab.goto(`${page.url}/index.html?repo=${OWNER}/${REPO}&api=${encodeURIComponent(gh.url)}${hash}`);
  await tab.fill("#token", TOKEN);
  await tab.click("button[type=submit]");
  const outcome = await tab.evaluate(() => window.__ended);
  return { tab, requests, errors, outcome };
}

test("in chromium: every cell is the engine's, requests stay on the page and the API, markup stays text", async (t) => {
  const { tab, requests, errors, outcome } = await open(1400);
  try {
    assert.equal(outcome, "rendered");
    assert.deepEqual(errors, [], "no script error in the page");
    const facts = JSON.parse(await tab.textContent("#snapshot"));
    const expected = createEngine(CONFIG).dashboard({ facts });
    assert.deepEqual(expected.configErrors, []);
    assert.equal(expected.rows.length, SEEDS.length);

    const shown = await tab.$$eval("#pulls tbody tr", (trs) =>
      trs.map((tr) => ({ number: Number(tr.dataset.number), cells: Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.col, td.textContent])) })),
    );
    assert.deepEqual(shown.map((r) => r.number), expected.rows.map((r) => r.number), "one row per engine row, in its order");
    for (const row of expected.rows) {
      const cells = shown.find((r) => r.number === row.number).cells;
      for (const [key, , format] of COLUMNS) assert.equal(cells[key], format(row), `#${row.number}: column ${key}`);
    }
    const titles = expected.rows.map((r) => r.title);
    assert.ok(titles.includes(SEEDS[1].pull.title), "the markup title reached the engine unchanged");

    // Markup rendered as text: no element came from GitHub's strings, no handler ran.
    assert.equal(await tab.evaluate(() => window.__pwned), undefined, "no onerror/onload/script from GitHub's strings ran");
    assert.equal(await tab.$$eval("#view img, #view svg, #view script, #view b", (n) => n.length), 0, "no element parsed from a title, label or branch");

    // Only the page's origin and the configured API were asked for anything.
    const origins = [...new Set(requests.map((u) => new URL(u).origin))].sort();
    assert.deepEqual(origins, [gh.url, page.url].sort(), `requests went only to the page and the API: ${origins}`);
    assert.ok(requests.some((u) => u.startsWith(gh.url)), "the API was read");

    mkdirSync(SCREENS, { recursive: true });
    await tab.screenshot({ path: join(SCREENS, "page-1400.png"), fullPage: true });
    t.diagnostic(`screenshot ${join(SCREENS, "page-1400.png")}`);
  } finally {
    await tab.close();
  }
});

test("in chromium at 390 px: cards, nothing wider than the screen", async (t) => {
  const { tab, outcome } = await open(390);
  try {
    assert.equal(outcome, "rendered");
    const width = await tab.evaluate(() => document.documentElement.scrollWidth);
    mkdirSync(SCREENS, { recursive: true });
    await tab.screenshot({ path: join(SCREENS, "page-390.png"), fullPage: true });
    t.diagnostic(`scrollWidth ${width}; screenshot ${join(SCREENS, "page-390.png")}`);
    assert.ok(width <= 390, `no horizontal overflow at 390 px: the document is ${width} px wide`);
    // Each row is a card: its cells stack, so a cell starts at the row's left edge.
    const stacked = await tab.$eval("#pulls tbody tr", (tr) => {
      const cells = [...tr.querySelectorAll("td")].map((td) => td.getBoundingClientRect()).filter((r) => r.width > 0);
      return cells.length > 1 && cells.every((r) => Math.abs(r.left - cells[0].left) < 1);
    });
    assert.ok(stacked, "below 600 px each pull request's cells stack into a card");
  } finally {
    await tab.close();
  }
});

test("in chromium: a deep link opens at its row, j and k move between rows and keep the address a deep link", async () => {
  const { tab, outcome } = await open(1400, "#pr-3");
  try {
    assert.equal(outcome, "rendered");
    const at = () => tab.evaluate(() => ({ focused: document.activeElement?.id, hash: location.hash, repo: new URLSearchParams(location.search).get("repo") }));
    assert.deepEqual(await at(), { focused: "pr-3", hash: "#pr-3", repo: `${OWNER}/${REPO}` }, "the linked row is focused and the link kept");
    await tab.keyboard.press("j");
    assert.deepEqual(await at(), { focused: "pr-4", hash: "#pr-4", repo: `${OWNER}/${REPO}` }, "j: the next row");
    await tab.keyboard.press("k");
    await tab.keyboard.press("k");
    assert.deepEqual(await at(), { focused: "pr-2", hash: "#pr-2", repo: `${OWNER}/${REPO}` }, "k twice: two rows up");
    await tab.focus("#repo");
    await tab.keyboard.press("j");
    assert.equal(await tab.inputValue("#repo"), `${OWNER}/${REPO}j`, "a j typed in a field is the field's");
    assert.equal(await tab.evaluate(() => location.hash), "#pr-2");
  } finally {
    await tab.close();
  }
});

test("in chromium: the visitor's dark scheme is followed (prefers-color-scheme)", async (t) => {
  const { tab, outcome } = await open(1400);
  try {
    assert.equal(outcome, "rendered");
    const colours = () => tab.evaluate(() => { const s = getComputedStyle(document.body); return { bg: s.backgroundColor, fg: s.color }; });
    await tab.emulateMedia({ colorScheme: "light" });
    assert.deepEqual(await colours(), { bg: "rgb(255, 255, 255)", fg: "rgb(31, 35, 40)" }, "light: dark text on white");
    await tab.emulateMedia({ colorScheme: "dark" });
    assert.deepEqual(await colours(), { bg: "rgb(13, 17, 23)", fg: "rgb(230, 237, 243)" }, "dark: light text on GitHub's dark background");
    mkdirSync(SCREENS, { recursive: true });
    await tab.screenshot({ path: join(SCREENS, "page-1400-dark.png"), fullPage: true });
    t.diagnostic(`screenshot ${join(SCREENS, "page-1400-dark.png")}`);
  } finally {
    await tab.close();
  }
});
