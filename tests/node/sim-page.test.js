// The simulations page (page/sim.html) in a real browser: Debian's chromium driven by playwright-core
// opens the BUILT page (page/dist) from a loopback server, runs a pinned fixture's parameters and must
// show the CLI's text for that report to the character, with its plots; without a seed it draws one
// with the browser's crypto and writes it into the form. No request leaves the page's origin.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { servePage } from "../../scripts/lib/serve-page.mjs";
import { reviewText } from "../../lib/sim-view.js";
import { launchChromium } from "./lib/chromium.js";

const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/sim/${name}`, import.meta.url), "utf8"));

let chromium;
let browser;
let site;
before(async () => {
  chromium = await launchChromium();
  browser = chromium.browser;
  site = await servePage();
});
after(async () => {
  await chromium?.close();
  await site?.close();
});

async function runOnPage({ kind, seed, params }) {
  const page = await browser.newPage();
  const requests = [];
  const errors = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${site.url}/sim.html`);
  await page.selectOption("#kind", kind);
  await page.fill("#seed", seed === undefined ? "" : String(seed));
  await page.fill("#params", JSON.stringify(params));
  await page.click("#run");
  await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state));
  const out = {
    state: await page.evaluate(() => document.body.dataset.state),
    text: await page.textContent("#text"),
    error: await page.textContent("#error"),
    seedField: await page.inputValue("#seed"),
    svgs: await page.locator("#plots svg").count(),
    requests,
    errors,
  };
  await page.close();
  return out;
}

test("sim page: a pinned seed shows the CLI's text to the character, and the review plots", async () => {
  const f = fixture("review-small-seed7.json");
  const { seed, ...params } = f.input;
  const r = await runOnPage({ kind: "review", seed, params });
  assert.equal(r.state, "done", r.error);
  assert.equal(r.text, reviewText(f.expect));
  assert.equal(r.svgs, 2);
  assert.deepStrictEqual(r.errors, []);
  for (const url of r.requests) assert.ok(url.startsWith(`${site.url}/`), `only the page's origin: ${url}`);
});

test("sim page: no seed draws one with the browser's crypto and writes it into the form", async () => {
  const params = { seeds: 1, days: 1, sweepCiMinutes: [10, 20], sweepFailureRate: [], sweepFlakeRate: [] };
  const r = await runOnPage({ kind: "queue", params });
  assert.equal(r.state, "done", r.error);
  assert.match(r.seedField, /^\d+$/);
  assert.match(r.text, new RegExp(`^prflow sim queue, seed ${r.seedField} `));
  assert.equal(r.svgs, 1);
});

test("sim page: a bad parameter is shown with its JSON path, and nothing is drawn", async () => {
  const r = await runOnPage({ kind: "review", seed: 1, params: { stations: 0 } });
  assert.equal(r.state, "error");
  assert.equal(r.error, "sim review: $.stations: expected from 1 to 50, found 0");
  assert.equal(r.svgs, 0);
});
