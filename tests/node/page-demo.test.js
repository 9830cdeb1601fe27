// The demo's board (`npm run demo -- --dashboard`) is truthful and full: its repository holds the config
// the Action runs with, and once reconciled the dashboard has something in every group and every
// picture: a merge queue with a Merge-After edge and a stack, a set-aside conflict with its Retry box,
// a claimed pull request, a failed check, and a stop-the-line. Read as the page reads it (the owner's
// token), decided by the engine; nothing here is expected by hand but which situations exist.
import { test } from "node:test";
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createEngine } from "../../js/node.js";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit, readFacts } from "../../lib/github/index.js";
import { readBoardFacts } from "../../lib/github/read-queue.js";
import { githubPort } from "../../lib/stations/github-port.js";
import { demoConfig, seedDemo } from "../../scripts/lib/demo-emulator.mjs";
import { launchChromium } from "./lib/chromium.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

test("the demo board fills every group of the dashboard, the graph, a set-aside, a claim and a stop-the-line", async (t) => {
  const em = await startEmulator();
  try {
    const config = demoConfig(root);
    const engine = createEngine(config);
    assert.deepEqual(engine.configErrors(), [], "the demo's config is valid");
    const board = seedDemo(em, 20);
    em.setFile(".github/prflow.json", JSON.stringify(config));
    for (const l of engine.labelCatalog().labels) if (!em.state.label(l.name)) em.createLabel(l);
    // The Action's reconcile, as the demo runs it, until the board is converged.
    const app = makeOctokit({ token: em.appToken, baseUrl: em.url, timeScale: 0.001 });
    for (let i = 0; i < 3; i++) {
      const facts = await readFacts(app, { owner: em.state.owner, repo: em.state.repo });
      const plan = engine.reconcile({ facts });
      if (!plan.ops.length) break;
      await githubPort(app, { owner: em.state.owner, repo: em.state.repo }).apply(plan.ops, facts);
    }
    const facts = await readBoardFacts(makeOctokit({ token: em.personalToken, baseUrl: em.url }), {
      owner: em.state.owner,
      repo: em.state.repo,
      engine,
    });
    const view = engine.dashboard({ facts });
    t.diagnostic(view.groups.map((g) => `${g.actor}: ${g.numbers.join(", ")}`).join("; "));
    for (const r of view.rows.filter((r) => r.queue))
      t.diagnostic(`#${r.number} ${r.title}: ${r.queue.triage} ${r.queue.reason}: ${r.queue.detail}`);
    assert.equal(view.rows.length, board.length);

    const actors = view.groups.map((g) => g.actor);
    // The demo reads as one of the humans who merge: a person's turn is "You".
    for (const a of ["reviewers", "agents", "queue", "you"])
      assert.ok(actors.includes(a), `someone waits on ${a}: ${actors}`);
    assert.ok(
      !actors.includes("nobody"),
      `no pull request without an actor (a bug): ${JSON.stringify(view.rows.filter((r) => r.actor === "nobody").map((r) => [r.number, r.nextAction]))}`,
    );
    const vias = new Set(view.graph.edges.map((e) => e.via));
    assert.ok(vias.has("mergeAfter") && vias.has("stack"), `a Merge-After edge and a stack: ${[...vias]}`);
    const setAside = view.rows.find((r) => r.setAside);
    assert.equal(setAside?.setAside.reason, "rebase-failed", "a set-aside conflict");
    assert.ok(setAside.setAside.commentId, "with the comment holding its Retry box");
    assert.ok(
      view.rows.some((r) => r.claim?.by === "fixer-box"),
      "a claimed pull request",
    );
    assert.ok(
      view.rows.some((r) => r.checkRuns.failed.length),
      "a failed check to link",
    );
    assert.ok(
      view.queue.order.length > 0 || view.queue.inFlight.length > 0,
      `the queue has work: ${JSON.stringify(view.queue)}`,
    );
    assert.equal(view.stopTheLine, true, "the pull request left for weeks stops the line");
    assert.deepEqual(em.validationFailures, []);
  } finally {
    await em.close();
  }
});

// `npm run demo -- --dashboard` itself, opened in chromium as its printed lines say: the page reads the
// config from the repository (not the preset), the clocks line up (the last changes are minutes old,
// not months), and the board has something in every group and picture.
test("in chromium: `npm run demo -- --dashboard` opens a truthful board", { timeout: 300_000 }, async (t) => {
  const demo = spawn(process.execPath, ["scripts/demo.mjs", "--dashboard"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  demo.stderr.on("data", (d) => (err += d));
  const exited = new Promise((resolve) => demo.once("exit", (code, signal) => resolve({ code, signal })));
  const chromiumRun = await launchChromium();
  try {
    const printed = await new Promise((resolve, reject) => {
      demo.stdout.on("data", (d) => {
        out += d;
        const url = /4\. the dashboard: (\S+)/.exec(out)?.[1];
        const token = /token: (\S+)/.exec(out)?.[1];
        if (url && token) resolve({ url, token });
      });
      exited.then(({ code }) =>
        reject(new Error(`the demo ended (${code}) before printing the dashboard's address:\n${out}\n${err}`)),
      );
    });
    const tab = await chromiumRun.browser.newPage();
    await tab.setViewportSize({ width: 1400, height: 900 });
    await tab.addInitScript(() => {
      document.addEventListener("prflow:confirm", () => document.getElementById("confirm-api-yes").click());
      window.__ended = new Promise((resolve) => {
        document.addEventListener("prflow:rendered", () => resolve("rendered"), { once: true });
        document.addEventListener("prflow:failed", (e) => resolve(`failed: ${e.detail}`), { once: true });
      });
    });
    await tab.goto(printed.url);
    await tab.fill("#token", printed.token);
    await tab.click("#form button[type=submit]");
    assert.equal(await tab.evaluate(() => window.__ended), "rendered");
    const status = await tab.textContent("#status");
    t.diagnostic(status);
    assert.match(status, /config: \.github\/prflow\.json;/, "the config is the repository's, not the preset");
    assert.equal(await tab.$$eval("#view .config-errors", (n) => n.length), 0);

    await tab.click("#snapshot-box summary");
    await tab.waitForFunction(() => document.getElementById("snapshot").textContent.length > 0);
    const facts = JSON.parse(await tab.textContent("#snapshot"));
    const view = createEngine(demoConfig(root)).dashboard({ facts });
    // The page times states on this browser's clock; the demo's emulator ended its seeding at it.
    const minutes = view.rows.map((r) => r.minutes).filter((m) => m !== null);
    assert.ok(minutes.length === view.rows.length, "every pull request has a time in state");
    assert.ok(
      Math.min(...minutes) < 60 && Math.min(...minutes) >= 0,
      `the latest state change is minutes old on the page's clock: ${Math.min(...minutes)} min`,
    );
    assert.ok(Math.max(...minutes) < 60 * 24 * 60, `no state is months old: ${Math.max(...minutes)} min`);
    const durations = await tab.$$eval("#view .dur", (n) => n.map((x) => x.textContent));
    assert.ok(
      durations.some((d) => / d\b/.test(d)),
      `the pull request left for weeks reads in days: ${durations}`,
    );

    const groups = await tab.$$eval("#view section.group", (s) =>
      s.map((x) => [x.dataset.actor, x.querySelectorAll("tr.row").length]),
    );
    for (const a of ["reviewers", "agents", "queue", "you"])
      assert.ok(
        groups.some(([g, n]) => g === a && n > 0),
        `someone waits on ${a}: ${JSON.stringify(groups)}`,
      );
    assert.ok(!groups.some(([g]) => g === "nobody"), "no pull request without an actor");
    assert.match(await tab.textContent("#view .stop"), /Stop the line/, "the stop-the-line is shown");
    const edges = await tab.$$eval(".graph-box path.edge", (p) => p.map((x) => x.getAttribute("class")));
    assert.ok(
      edges.some((c) => c.includes("mergeAfter")) && edges.some((c) => c.includes("stack")),
      `the graph has a Merge-After and a stack: ${edges}`,
    );
    assert.ok(
      await tab.$$eval("#view a", (as) => as.some((a) => a.textContent === "Retry box")),
      "the set-aside conflict links its Retry box",
    );
    assert.match(await tab.textContent("#view"), /claimed by fixer-box/, "the claimed pull request");
    // A row's link opens something that works: the demo's view of that pull request, not the emulator's API (401).
    const first = await tab.$eval("#view tr.row", (tr) => ({
      number: tr.dataset.number,
      href: tr.querySelector('td[data-col="number"] a').href,
    }));
    const res = await fetch(first.href);
    assert.equal(res.status, 200, `${first.href} answers`);
    assert.match(await res.text(), new RegExp(`<h1>#${first.number} `), "with that pull request");
    await tab.close();
  } finally {
    await chromiumRun.close();
    demo.kill("SIGINT");
    const end = await exited;
    assert.ok(
      end.code === 0 || end.signal === "SIGINT",
      `the demo stops cleanly on Ctrl-C: ${JSON.stringify(end)}\n${err}`,
    );
  }
});
