// The page opens on the work, in Chromium (the built page/dist, the demo's board on the emulator): once
// connected the form folds into one line and the repositories are remembered; the first screen holds
// pull requests (8 rows at 1440x900, 2 cards at 390x844, counted); groups go by urgency; the queue is
// a numbered lane with the engine's estimates and today's landings with their CI runs; a repository
// that cannot be read fails in its own section only; a search with no match says so and Esc leaves
// it; cards lead with the title and show each label once; the Agents tab is the engine's scoreboard.
// Screenshots at both sizes, light and dark, go to .tmp/screens/ (never committed).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine } from "../../js/node.js";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit, readFacts } from "../../lib/github/index.js";
import { githubPort } from "../../lib/stations/github-port.js";
import { demoConfig, seedDemo, seedingSpan } from "../../scripts/lib/demo-emulator.mjs";
import { makeClock } from "../../emulator/state.js";
import { servePage } from "../../scripts/lib/serve-page.mjs";
import { launchChromium } from "./lib/chromium.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const SCREENS = new URL("../../.tmp/screens/", import.meta.url).pathname;
const config = demoConfig(root);
const engine = createEngine(config);

let em;
let page;
let chromiumRun;

before(async () => {
  chromiumRun = await launchChromium();
  // As the demo does: the seeding ends at this machine's time, so the page's durations are the board's.
  em = await startEmulator({ clock: makeClock(Date.now() - (await seedingSpan(20))) });
  seedDemo(em, 20);
  em.setFile(".github/prflow.json", JSON.stringify(config));
  for (const l of engine.labelCatalog().labels) if (!em.state.label(l.name)) em.createLabel(l);
  const app = makeOctokit({ token: em.appToken, baseUrl: em.url, timeScale: 0.001 });
  for (let i = 0; i < 3; i++) {
    const facts = await readFacts(app, { owner: em.state.owner, repo: em.state.repo });
    const plan = engine.reconcile({ facts });
    if (!plan.ops.length) break;
    await githubPort(app, { owner: em.state.owner, repo: em.state.repo }).apply(plan.ops, facts);
  }
  page = await servePage();
});

after(async () => {
  await chromiumRun?.close();
  await page?.close();
  await em?.close();
});

const REPO = () => `${em.state.owner}/${em.state.repo}`;

/** Opens the page at width x height with `repos`, sends the form, waits for the page's own end signal. */
async function open(width, height, { repos = [REPO()], scheme = "light", token = em.personalToken } = {}) {
  const tab = await chromiumRun.browser.newPage();
  await tab.setViewportSize({ width, height });
  await tab.emulateMedia({ colorScheme: scheme });
  const errors = [];
  tab.on("pageerror", (e) => errors.push(e.message));
  await tab.addInitScript(() => {
    document.addEventListener("prflow:confirm", () => document.getElementById("confirm-api-yes").click());
    window.__ended = new Promise((resolve) => {
      document.addEventListener("prflow:rendered", () => resolve("rendered"), { once: true });
      document.addEventListener("prflow:failed", (e) => resolve(`failed: ${e.detail}`), { once: true });
    });
  });
  await tab.goto(`${page.url}/index.html?${repos.map((r) => `repo=${r}`).join("&")}&api=${encodeURIComponent(em.url)}`);
  await tab.fill("#token", token);
  await tab.click("#form button[type=submit]");
  const outcome = await tab.evaluate(() => window.__ended);
  return { tab, errors, outcome };
}

/** The facts the page read, from its snapshot box. */
async function snapshot(tab) {
  await tab.click("#snapshot-box summary");
  await tab.waitForFunction(() => document.getElementById("snapshot").textContent.length > 0);
  const facts = JSON.parse(await tab.textContent("#snapshot"));
  await tab.click("#snapshot-box summary");
  return facts;
}

/** Rows (or cards) whose top is inside the first screen, as the browser laid them out. */
const onFirstScreen = (tab) =>
  tab.evaluate(() => {
    const h = window.innerHeight;
    return [...document.querySelectorAll("#view tr.row")].filter((tr) => {
      const r = tr.getBoundingClientRect();
      return !tr.hidden && r.height > 0 && r.top >= 0 && r.top + 40 <= h;
    }).length;
  });

test("in chromium at 1440x900: the form folds, the first screen holds at least 8 rows, groups by urgency, the lane with estimates", async (t) => {
  const { tab, errors, outcome } = await open(1440, 900);
  try {
    assert.equal(outcome, "rendered");
    assert.deepEqual(errors, []);
    assert.equal(await tab.isVisible("#form"), false, "the form is folded once connected");
    assert.match(await tab.textContent("#connected"), new RegExp(`${REPO()} via`), "one line names what is shown");
    mkdirSync(SCREENS, { recursive: true });
    await tab.screenshot({ path: join(SCREENS, "work-1440-light.png") });
    const rows = await onFirstScreen(tab);
    t.diagnostic(`${rows} rows on the first screen at 1440x900`);
    assert.ok(rows >= 8, `at least 8 rows on the first screen, found ${rows}`);

    const facts = await snapshot(tab);
    const view = engine.dashboard({ facts });
    const groups = await tab.$$eval("#view section.group", (s) => s.map((x) => x.dataset.actor));
    assert.deepEqual(
      groups,
      view.groups.map((g) => g.actor),
      "the engine's groups, in its order",
    );
    assert.equal(groups[0], "stopTheLine", "what stops the line comes first");
    assert.ok(
      groups.indexOf("you") < groups.indexOf("reviewers") && groups.indexOf("you") > 0,
      `then You (the demo's token is a configured human): ${groups}`,
    );

    // The lane: the engine's order, a position each, the next landing first, estimates from today's landings.
    const lane = engine.lane({ facts });
    assert.ok(
      lane.entries.length >= 3 && lane.ciMinutes > 0,
      `the demo queues several with timed landings: ${JSON.stringify(lane)}`,
    );
    const drawn = await tab.$$eval("ol.lane li", (lis) =>
      lis.map((li) => ({
        number: Number(li.dataset.number),
        position: Number(li.dataset.position),
        eta: li.dataset.eta,
        text: li.textContent,
      })),
    );
    assert.deepEqual(
      drawn.map((d) => [d.number, d.position, d.eta]),
      lane.entries.map((e) => [e.number, e.position, e.eta]),
    );
    assert.match(drawn[0].text, /next, about \d\d:\d\d/, "the next landing is named, with its time");
    assert.ok(
      drawn.every((d) => /about \d\d:\d\d/.test(d.text)),
      "every queued one has its estimate",
    );
    assert.doesNotMatch(await tab.textContent("#view"), /order none/, "no `order none` while pull requests are queued");
    // A queued row's cell says its place and time, as the engine words it.
    const cell = await tab.textContent(`#pr-${lane.entries[1].number} td[data-col="queue"]`);
    assert.ok(cell.includes(lane.entries[1].words), `${cell} holds ${lane.entries[1].words}`);
    // Today's landings, each with its CI runs.
    await tab.click("details.landed-today summary");
    const landed = await tab.$$eval("ul.landed li", (lis) =>
      lis.map((li) => ({ number: Number(li.dataset.number), text: li.textContent })),
    );
    assert.deepEqual(
      landed.map((l) => l.number),
      lane.landedToday.map((l) => l.number),
    );
    for (const l of lane.landedToday)
      for (const r of l.runs)
        assert.ok(
          landed.find((x) => x.number === l.number).text.includes(`${r.name} ${r.minutes} min`),
          `#${l.number}: run ${r.name}`,
        );
    // A row the queue holds reads as the queue's, not as a person's turn.
    for (const r of view.rows.filter((r) => r.actor === "queue")) {
      const state = await tab.textContent(`#pr-${r.number} td[data-col="state"]`);
      assert.doesNotMatch(state, /needs-human/, `#${r.number} in the queue's group`);
    }

    // The repeated "next" sentence: once per group, not on each row that shares it.
    for (const g of view.groups) {
      const actions = g.numbers.map((n) => view.rows.find((r) => r.number === n).nextAction);
      const repeated = actions.filter((a, i) => actions.indexOf(a) !== i).length;
      if (!repeated) continue;
      const nextLines = await tab.$$eval(`section.group[data-actor="${g.actor}"] .next`, (xs) => xs.length);
      assert.ok(nextLines < g.numbers.length, `${g.actor}: ${nextLines} "Next" lines for ${g.numbers.length} rows`);
      assert.equal(await tab.$$eval(`section.group[data-actor="${g.actor}"] .group-next`, (xs) => xs.length), 1);
    }

    await tab.emulateMedia({ colorScheme: "dark" });
    await tab.screenshot({ path: join(SCREENS, "work-1440-dark.png") });
  } finally {
    await tab.close();
  }
});

test("in chromium at 390x844: two cards on the first screen, each leading with its title and showing each label once", async (t) => {
  const { tab, outcome } = await open(390, 844);
  try {
    assert.equal(outcome, "rendered");
    mkdirSync(SCREENS, { recursive: true });
    await tab.screenshot({ path: join(SCREENS, "work-390-light.png") });
    const cards = await onFirstScreen(tab);
    t.diagnostic(`${cards} cards on the first screen at 390x844`);
    assert.ok(cards >= 2, `at least 2 cards on the first screen, found ${cards}`);
    const checked = await tab.$$eval("#view tr.row", (trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll("td")]
          .filter((td) => td.getBoundingClientRect().height > 0)
          .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        const chips = [...tr.querySelectorAll(".label, .chip")].map((c) => c.textContent);
        return {
          id: tr.id,
          first: cells[0]?.dataset.col,
          firstText: getComputedStyle(cells[0], "::before").content,
          chips,
        };
      }),
    );
    for (const c of checked) {
      assert.equal(c.first, "title", `${c.id}: the card leads with its title`);
      assert.equal(c.firstText, "none", `${c.id}: no "title:" before it`);
      assert.equal(new Set(c.chips).size, c.chips.length, `${c.id}: each label once: ${c.chips}`);
    }
    await tab.emulateMedia({ colorScheme: "dark" });
    await tab.screenshot({ path: join(SCREENS, "work-390-dark.png") });
  } finally {
    await tab.close();
  }
});

test("in chromium: a search with no match says so, and Esc leaves the search box", async () => {
  const { tab, outcome } = await open(1440, 900);
  try {
    assert.equal(outcome, "rendered");
    assert.equal(await tab.isVisible("#no-match"), false, "nothing to say while rows show");
    await tab.click("#f-q");
    await tab.keyboard.type("zz-no-such-pull-request");
    await tab.waitForFunction(() => !document.getElementById("no-match").hidden);
    assert.match(await tab.textContent("#no-match"), /No pull request matches “zz-no-such-pull-request”/);
    await tab.keyboard.press("Escape");
    assert.notEqual(await tab.evaluate(() => document.activeElement?.id), "f-q", "Esc leaves the search box");
    assert.equal(await tab.isVisible("#no-match"), false, "and the rows are back");
    // The keys are the rows' again: j focuses the first row.
    await tab.keyboard.press("j");
    assert.match(await tab.evaluate(() => document.activeElement?.id ?? ""), /^pr-\d+$/);
  } finally {
    await tab.close();
  }
});

test("in chromium: a repository that does not exist fails in its own section; the other draws; the repositories are remembered", async () => {
  const { tab, outcome, errors } = await open(1440, 900, { repos: [`${em.state.owner}/no-such-repo`, REPO()] });
  try {
    assert.equal(outcome, "rendered", "one missing repository does not blank the page");
    assert.deepEqual(errors, []);
    const failed = await tab.$$eval("section.repo.failed", (s) => s.map((x) => [x.dataset.repo, x.textContent]));
    assert.equal(failed.length, 1);
    assert.equal(failed[0][0], `${em.state.owner}/no-such-repo`);
    assert.match(failed[0][1], /failed/);
    assert.ok((await tab.$$eval("#view tr.row", (trs) => trs.length)) > 8, "the readable repository's rows are drawn");
    assert.ok((await tab.$$eval(`#view tr.row[data-repo="${REPO()}"]`, (trs) => trs.length)) > 0);
    // A new visit with no ?repo= opens on the repositories last shown.
    const again = await chromiumRun.browser.newPage();
    await again.goto(`${page.url}/index.html?api=${encodeURIComponent(em.url)}`);
    assert.equal(await again.inputValue("#repo"), `${em.state.owner}/no-such-repo, ${REPO()}`);
    await again.close();
  } finally {
    await tab.close();
  }
});

test("in chromium: the Agents tab is the engine's scoreboard, with no invented flake number", async () => {
  const { tab, outcome } = await open(1440, 900);
  try {
    assert.equal(outcome, "rendered");
    const facts = await snapshot(tab);
    const board = engine.scoreboard({ facts });
    await tab.click("#tab-agents");
    assert.equal(await tab.isVisible("#view"), false);
    const rows = await tab.$$eval("#agents table.agents tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].map((td) => td.textContent)),
    );
    assert.deepEqual(
      rows.map((r) => r[0]),
      board.agents.map((a) => a.agent),
    );
    assert.deepEqual(
      rows.map((r) => Number(r[2])),
      board.agents.map((a) => a.landed),
    );
    assert.ok(
      board.agents.some((a) => a.landed > 0),
      "the demo's landings count",
    );
    assert.ok(
      rows.every((r) => r[7] === "–"),
      "flakes: no number while none is recorded",
    );
    assert.match(await tab.textContent("#agents"), /Flakes: no flake data yet/);
    mkdirSync(SCREENS, { recursive: true });
    await tab.screenshot({ path: join(SCREENS, "work-1440-agents.png") });
  } finally {
    await tab.close();
  }
});
