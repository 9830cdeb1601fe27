// The dashboard page as a browser runs it: the BUILT page (page/dist, not page/src) loaded in jsdom from
// a loopback static server, reading live data from the emulator on another origin through a fetch that
// keeps the browser's CORS rules (preflight, allowed origin, only exposed headers readable). The table
// must show, per open pull request, what the engine says when called directly on the same facts.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { JSDOM, VirtualConsole } from "jsdom";
import { createEngine } from "../../js/node.js";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit, PULL_PAGE } from "../../lib/github/index.js";
import { readBoardFacts } from "../../lib/github/read-queue.js";
import { COLUMNS, partsText, sharedNext } from "../../page/src/render.js";
import { dashboardText } from "../../lib/dashboard-text.js";
import { runCli } from "./lib/cli.js";
import { stationsConfig } from "./lib/team.js";
import { seedPageBoard } from "./lib/page-board.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { servePage } from "../../scripts/lib/serve-page.mjs";
import { createServer } from "node:http";

const OWNER = "acme";
const REPO = "widgets";
const TOKEN = "ghp_dashboardReaderToken000000000000000";
const CONFIG = stationsConfig();

// Seeds: pull requests the engine should read in different states (expected values come from the
// engine, never from this file).
const SEEDS = [
  { rule: "a draft", pull: { title: "Draft parser", author: "agent-m1", labels: ["from:m1"], draft: true } },
  {
    rule: "opened by a dev machine, unclaimed",
    pull: { title: "Add the lexer", author: "agent-m1", labels: ["from:m1"] },
    check: "SUCCESS",
  },
  {
    rule: "claimed by a station that asked for changes",
    pull: { title: "Fix <b>escaping</b> | pipes", author: "agent-m1", labels: ["from:m1", "reviewer:m4"] },
    review: { author: "review-bot", state: "CHANGES_REQUESTED" },
  },
  {
    rule: "approved by a person, checks green",
    pull: { title: "Docs for the CLI", author: "win-box", labels: ["from:m6"] },
    review: { author: "alice", state: "APPROVED" },
    check: "SUCCESS",
  },
  {
    rule: "a failing check",
    pull: { title: "Speed up the sweep", author: "win-box", labels: ["from:m6"] },
    check: "FAILURE",
  },
  {
    rule: "approved and queued for merge",
    pull: { title: "Land the gate", author: "win-box", labels: ["from:m6", "merge-queued"] },
    review: { author: "alice", state: "APPROVED" },
    check: "SUCCESS",
  },
];

/** What a cell of `row` must read, by the page's own formatter over the engine's row. */
const cellText = (key, row, view, repository = `${OWNER}/${REPO}`, api) => {
  const headings = new Map(view.groups.map((g) => [g.actor, g.heading]));
  // The next action a group's rows share is said once, under its heading.
  const group = view.groups.find((g) => g.numbers.includes(row.number));
  const shared = sharedNext(group.numbers.map((n) => ({ row: view.rows.find((r) => r.number === n) })));
  const ctx = {
    api,
    repository,
    labelColors: view.labelColors,
    actorHeading: (a) => headings.get(a) ?? a,
    several: false,
    now: Date.parse(view.now),
    sharedNext: shared,
  };
  return partsText(COLUMNS.find(([k]) => k === key)[2](row, ctx));
};
/** The engine's rows in the order the page draws them: by group, in each group the engine's order. */
const drawOrder = (view) => view.groups.flatMap((g) => g.numbers);

/** The facts the page read (its snapshot box, filled when opened). */
async function snapshot(document) {
  const box = document.getElementById("snapshot-box");
  const toggled = new Promise((r) => box.addEventListener("toggle", r, { once: true }));
  box.open = true;
  await toggled;
  return JSON.parse(document.getElementById("snapshot").textContent);
}

// Response headers a page may read without their being exposed (the Fetch standard's safelist).
const SAFELISTED = [
  "cache-control",
  "content-language",
  "content-length",
  "content-type",
  "expires",
  "last-modified",
  "pragma",
];
// Request headers a page may send without a preflight, and those a browser never lets it set.
const SIMPLE_REQUEST = ["accept", "accept-language", "content-language"];
const FORBIDDEN_REQUEST = ["user-agent", "origin", "host", "connection", "content-length"];

/**
 * fetch as a browser page at `pageOrigin` gets it: cross-origin requests are preflighted when they carry
 * a non-simple header, refused unless the server allows the origin, and only safelisted or exposed
 * response headers are readable. Every request is logged with whether it carried a token.
 */
function browserFetch(pageOrigin, log) {
  return async (input, init = {}) => {
    // A URL or a Request from the page's realm (not this one's): read it by shape.
    const url = new URL(typeof input === "string" ? input : (input.href ?? input.url));
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    for (const h of FORBIDDEN_REQUEST) headers.delete(h);
    log.push({ url: url.href, method, token: headers.get("authorization") });
    if (url.origin === pageOrigin) return fetch(url, { ...init, headers });

    const unsafe = [...headers.keys()].filter(
      (h) =>
        !SIMPLE_REQUEST.includes(h) &&
        !(
          h === "content-type" &&
          /^(text\/plain|application\/x-www-form-urlencoded|multipart\/form-data)\b/.test(headers.get(h))
        ),
    );
    if (unsafe.length || !["GET", "HEAD", "POST"].includes(method)) {
      log.push({ url: url.href, method: "OPTIONS", token: null, preflight: true });
      const pre = await fetch(url, {
        method: "OPTIONS",
        headers: {
          origin: pageOrigin,
          "access-control-request-method": method,
          "access-control-request-headers": unsafe.join(","),
        },
      });
      await pre.arrayBuffer();
      const allowed = (pre.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/,\s*/);
      if (
        !pre.ok ||
        pre.headers.get("access-control-allow-origin") !== "*" ||
        unsafe.some((h) => !allowed.includes(h))
      ) {
        throw new TypeError(`Failed to fetch: the preflight of ${method} ${url.pathname} was refused`);
      }
    }
    headers.set("origin", pageOrigin);
    const res = await fetch(url, { ...init, method, headers });
    if (res.headers.get("access-control-allow-origin") !== "*")
      throw new TypeError(`Failed to fetch: ${url.origin} does not allow ${pageOrigin}`);
    const readable = new Set([
      ...SAFELISTED,
      ...(res.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/),
    ]);
    const visible = new Headers();
    for (const [k, v] of res.headers) if (readable.has(k)) visible.set(k, v);
    return new Response(res.status === 204 ? null : await res.arrayBuffer(), {
      status: res.status,
      statusText: res.statusText,
      headers: visible,
    });
  };
}

/**
 * Opens the page with `?repo=&api=`, types `token` into the form and sends it. Resolves with the window
 * and how the load ended (`prflow:rendered` or `prflow:failed`) — the page's own signal, no timer.
 * When the page asks to confirm an API URL that is not GitHub's, the person says yes, unless `confirm`
 * is false: the load then ends as "confirm". `asked` lists the hosts the page asked about.
 */
async function openPage(pageUrl, apiUrl, token, log, repo = `${OWNER}/${REPO}`, { confirm = true } = {}) {
  const asked = [];
  const errors = [];
  const statuses = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on("jsdomError", (e) => errors.push(e.message));
  let settle;
  const ended = new Promise((r) => (settle = r));
  const dom = await JSDOM.fromURL(`${pageUrl}/index.html?repo=${repo}&api=${encodeURIComponent(apiUrl)}`, {
    runScripts: "dangerously",
    resources: "usable",
    virtualConsole,
    beforeParse(window) {
      // What jsdom lacks and every browser has.
      window.fetch = browserFetch(pageUrl, log);
      for (const name of ["TextEncoder", "TextDecoder", "Response", "Headers", "Request"])
        window[name] ??= globalThis[name];
      window.document.addEventListener("prflow:ready", () => {
        // Every line the status shows, in order (the progress while reading).
        const line = window.document.getElementById("status");
        // (jsdom may call back twice for one replacement of the text: a line is kept once)
        const record = () => statuses.at(-1) !== line.textContent && statuses.push(line.textContent);
        new window.MutationObserver(record).observe(line, { childList: true, characterData: true, subtree: true });
        window.document.getElementById("token").value = token;
        window.document.getElementById("form").requestSubmit();
      });
      window.document.addEventListener("prflow:confirm", (e) => {
        asked.push(e.detail.api);
        if (confirm) window.document.getElementById("confirm-api-yes").click();
        else settle("confirm");
      });
      window.document.addEventListener("prflow:rendered", () => settle("rendered"));
      window.document.addEventListener("prflow:failed", () => settle("failed"));
    },
  });
  const outcome = await ended;
  return {
    window: dom.window,
    document: dom.window.document,
    outcome,
    errors,
    statuses,
    asked,
    close: () => dom.window.close(),
  };
}

let gh;
let page;
before(async () => {
  gh = await seedPageBoard({ owner: OWNER, repo: REPO, token: TOKEN, config: CONFIG, seeds: SEEDS });
  page = await servePage();
});
after(async () => {
  await page?.close();
  await gh?.close();
});

test("the built page shows each pull request's engine state, why, owner, claimers, minutes and queue triage", async (t) => {
  const log = [];
  const p = await openPage(page.url, gh.url, TOKEN, log);
  try {
    assert.equal(
      p.outcome,
      "rendered",
      `the page failed: ${p.document.getElementById("error").textContent} ${p.errors.join("; ")}`,
    );
    assert.deepEqual(p.errors, [], "no script error in the page");
    assert.deepEqual(p.asked, [gh.url], "the emulator is not GitHub's API: the person was asked once");

    // The facts the page read (its snapshot) are what the CLI's board reader reads in Node, but `now`:
    // the Action's facts and the merge queue's.
    const shown = await snapshot(p.document);
    const node = await readBoardFacts(makeOctokit({ token: TOKEN, baseUrl: gh.url }), {
      owner: OWNER,
      repo: REPO,
      engine: createEngine(CONFIG),
    });
    assert.deepEqual({ ...shown, now: null }, { ...node, now: null }, "the page reads the same facts as the CLI");
    assert.equal(shown.viewer, "alice", "the queue's facts were read too (who the token is)");

    const expected = createEngine(CONFIG).dashboard({ facts: shown });
    assert.deepEqual(expected.configErrors, []);
    assert.equal(expected.rows.length, SEEDS.length, "one row per seeded pull request");
    assert.ok(
      new Set(expected.rows.map((r) => r.state)).size >= 3,
      `the seeds span several states: ${expected.rows.map((r) => r.state)}`,
    );

    const trs = [...p.document.querySelectorAll("#view tr.row")];
    assert.deepEqual(
      trs.map((tr) => Number(tr.dataset.number)),
      drawOrder(expected),
      "rows grouped by who acts next, in the engine's order",
    );
    for (const row of expected.rows) {
      const tr = p.document.querySelector(`#view tr.row[data-number="${row.number}"]`);
      const cell = (key) => tr.querySelector(`td[data-col="${key}"]`).textContent;
      // What the row shows as its state and why is the engine's (the queue's reading for one it holds).
      assert.equal(
        tr.querySelector('td[data-col="state"] .chip').textContent,
        row.shownState,
        `#${row.number}: the engine's state`,
      );
      assert.ok(cell("why").startsWith(row.shownWhy.replaceAll("`", "")), `#${row.number}: the engine's why`);
      assert.equal(
        tr.querySelector('td[data-col="title"] .t').textContent,
        row.title,
        `#${row.number}: the title as text, markup and pipes untouched`,
      );
      assert.equal(tr.dataset.actor, row.actor, `#${row.number}: in its actor's group`);
      for (const [key] of COLUMNS)
        assert.equal(cell(key), cellText(key, row, expected, undefined, gh.url), `#${row.number}: column ${key}`);
    }
    for (const tr of trs) t.diagnostic([...tr.querySelectorAll("td")].map((td) => td.textContent).join(" | "));
    t.diagnostic(p.document.querySelector(".lane-box").textContent);
    t.diagnostic(p.document.getElementById("status").textContent);
    assert.ok(
      expected.rows.some((r) => r.claimers.length),
      "a claimer is shown",
    );
    // The queue column speaks only of queued work: the queued seed has a cell, the others none.
    const queued = expected.rows.filter((r) => r.queue).map((r) => r.title);
    assert.deepEqual(queued, ["Land the gate"], "only the merge-queued pull request has a queue cell");
    assert.notEqual(
      p.document.querySelector('#view tr.row td[data-col="queue"]:not(:empty)'),
      null,
      "its queue cell is drawn",
    );
    assert.ok(
      expected.rows.every((r) => r.minutes !== null),
      "every pull request is timed by the sweep",
    );
    // The queued one is the lane's first, the next landing: no bare "order none" while it is queued.
    const lane = [...p.document.querySelectorAll("ol.lane li")].map((li) => Number(li.dataset.number));
    assert.deepEqual(
      lane,
      expected.queue.lane.entries.map((e) => e.number),
    );
    assert.deepEqual(lane, [expected.rows.find((r) => r.title === "Land the gate").number]);
    assert.equal(p.document.querySelector("#view .queue"), null, "no bare queue line while something is queued");
    assert.ok(
      p.statuses.includes(`reading pull requests ${SEEDS.length}/${SEEDS.length}`),
      `progress while reading: ${JSON.stringify(p.statuses)}`,
    );
    assert.match(p.document.getElementById("status").textContent, /config: \.github\/prflow\.json/);

    // The token went only to the API, and every exchange passed GitHub's descriptions.
    assert.ok(
      log.some((r) => r.preflight),
      "the API calls were preflighted, as a browser does for Authorization",
    );
    const withToken = log.filter((r) => r.token);
    assert.ok(withToken.length > 0);
    assert.deepEqual(
      [...new Set(withToken.map((r) => new URL(r.url).origin))],
      [gh.url],
      "the token is sent to the API base only",
    );
    assert.ok(
      log.some((r) => r.url.endsWith("/prflow_bg.wasm") && !r.token),
      "the Wasm comes from the page, without the token",
    );
    assert.deepEqual(gh.validationFailures, []);
    assert.equal(
      p.window.sessionStorage.getItem(`prflow.token ${gh.url}`),
      TOKEN,
      "the token is kept for this tab only",
    );
  } finally {
    p.close();
  }
});

test("a fine-grained token: GitHub refuses it check runs, the page still draws and says what it could not read", async (t) => {
  const fine = gh.registerToken("github_pat_11DASHBOARD0fineGrainedReader000000000000", "alice");
  const p = await openPage(page.url, gh.url, fine, []);
  try {
    assert.equal(
      p.outcome,
      "rendered",
      `the page failed: ${p.document.getElementById("error").textContent} ${p.errors.join("; ")}`,
    );
    const shown = await snapshot(p.document);
    const withRuns = SEEDS.map((seed, i) => (seed.check ? i + 1 : null)).filter(Boolean);
    const unread = shown.pullRequests
      .filter((pr) => pr.unknown.includes("checks"))
      .map((pr) => pr.number)
      .sort((a, b) => a - b);
    assert.deepEqual(unread, withRuns, "exactly the pull requests with check runs have unreadable checks");
    const expected = createEngine(CONFIG).dashboard({ facts: shown });
    for (const row of expected.rows) {
      const tr = p.document.querySelector(`#view tr.row[data-number="${row.number}"]`);
      for (const [key] of COLUMNS)
        assert.equal(
          tr.querySelector(`td[data-col="${key}"]`).textContent,
          cellText(key, row, expected, undefined, gh.url),
          `#${row.number}: column ${key}`,
        );
      t.diagnostic(`#${row.number} ${row.state ?? "(none)"}: ${row.why}`);
    }
    // Where the checks decide (the gate after an approval) the engine says it could not read them.
    const said = expected.rows.filter((r) => /checks could not be read/.test(r.why)).map((r) => r.number);
    assert.ok(
      said.length > 0 && said.every((n) => withRuns.includes(n)),
      `the unreadable checks are named in Why: ${said}`,
    );
    assert.deepEqual(gh.validationFailures, [], "GitHub's answers, errors included, match its schema");
  } finally {
    p.close();
  }
});

test("prflow status: the same view in a terminal, read from the repository with the CLI", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "prflow-status-"));
  const configPath = join(dir, "prflow.json");
  writeFileSync(configPath, JSON.stringify(CONFIG));
  const env = { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url };
  const repoArgs = ["--repo", `${OWNER}/${REPO}`, "--config", configPath];

  const json = await runCli(["status", ...repoArgs, "--format", "json"], { env });
  assert.equal(json.code, 0, json.stderr);
  const view = JSON.parse(json.stdout);
  assert.match(
    json.stderr,
    new RegExp(`^reading pull requests ${SEEDS.length}/${SEEDS.length}$`, "m"),
    "progress per page on stderr, the JSON alone on stdout",
  );
  const facts = await readBoardFacts(makeOctokit({ token: TOKEN, baseUrl: gh.url }), {
    owner: OWNER,
    repo: REPO,
    engine: createEngine(CONFIG),
  });
  const expected = createEngine(CONFIG).dashboard({ facts });
  // Everything but the minutes (the CLI's clock is not this one's) is the engine's, row by row.
  const timeless = (rows) => rows.map(({ minutes, since, ...rest }) => rest);
  assert.deepEqual(timeless(view.rows), timeless(expected.rows), "the CLI shows the engine's rows");
  assert.deepEqual(view.queue, expected.queue);
  assert.equal(view.repository, `${OWNER}/${REPO}`);

  const text = await runCli(["status", ...repoArgs, "--width", "0"], { env });
  assert.equal(text.code, 0, text.stderr);
  t.diagnostic(text.stdout);
  const body = dashboardText({ ...view }, { width: 0 });
  // The table is the shared formatter's, over the CLI's own view (its minutes).
  assert.ok(text.stdout.endsWith(body), "the terminal text is dashboardText of the view");
  for (const row of view.rows)
    assert.match(
      text.stdout,
      new RegExp(
        `^  #${row.number} .*\n {4,}${(row.shownWhy ?? row.why).slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
        "m",
      ),
      `#${row.number} and its why`,
    );
  // Something is queued: the lane says what lands next, never a bare "order none".
  assert.ok(
    text.stdout.split("\n").some((l) => l.startsWith(`Merge queue: ${view.queue.lane.summary}`)),
    "the lane's summary names the next landing",
  );
  assert.match(view.queue.lane.summary, new RegExp(`#${view.queue.lane.next}\\b`));

  const bad = await runCli(["status", ...repoArgs, "--width", "wide"], { env });
  assert.equal(bad.code, 2, "bad input is refused");
  assert.match(bad.stderr, /--width: expected a whole number/);
  assert.deepEqual(gh.validationFailures, []);
});

test("failure modes are one clear line naming what failed", async (t) => {
  // (rule, how to break it, what the line must say)
  const cases = [
    {
      rule: "a bad token is the 401",
      token: "ghp_notAToken",
      api: () => gh.url,
      says: /^reading pull requests failed: bad token: GitHub answered 401/,
    },
    {
      rule: "a spent rate limit says so",
      token: TOKEN,
      api: () => gh.url,
      arrange: () => gh.setRateLimit({ graphql: 0 }),
      restore: () => gh.setRateLimit({}),
      says: /^reading pull requests failed: rate limited: /,
    },
    {
      rule: "a repository that is not there is named",
      token: TOKEN,
      api: () => gh.url,
      repo: "acme/nothing",
      says: /^reading pull requests failed: repository acme\/nothing not found/,
    },
    {
      rule: "an API that is not https is refused before the token leaves",
      token: TOKEN,
      api: () => "http://example.com",
      says: /^checking the API URL failed: .*not https/,
    },
  ];
  for (const c of cases) {
    await t.test(c.rule, async () => {
      c.arrange?.();
      const log = [];
      const p = await openPage(page.url, c.api(), c.token, log, c.repo).finally(() => c.restore?.());
      try {
        assert.equal(p.outcome, "failed");
        const error = p.document.getElementById("error");
        assert.equal(error.hidden, false);
        assert.match(error.textContent, c.says);
        assert.equal(p.document.querySelectorAll("#view tr.row").length, 0, "no table from a failed read");
        assert.ok(
          log.every((r) => !r.token || new URL(r.url).origin === gh.url),
          "a token goes nowhere else",
        );
        assert.deepEqual(gh.validationFailures, []);
      } finally {
        p.close();
      }
    });
  }
});

test("a config with three mistakes: the page shows all three with their JSON paths and draws no guess", async () => {
  gh.setFile(
    ".github/prflow.json",
    JSON.stringify({
      flow: "stations",
      stations: { machines: { m1: { role: "boss" } } },
      colour: "red",
      stale: { days: -1 },
    }),
  );
  try {
    const p = await openPage(page.url, gh.url, TOKEN, []);
    try {
      assert.equal(p.outcome, "rendered");
      const bad = JSON.parse(gh.state.files.get(".github/prflow.json"));
      const problems = createEngine(bad).configErrors();
      assert.deepEqual(
        problems.map((e) => e.path).sort(),
        ["$.colour", "$.stale.days", "$.stations.machines.m1.role"],
        "the engine finds all three",
      );
      const items = [...p.document.querySelectorAll(".config-errors-list li")];
      assert.deepEqual(
        items.map((li) => li.dataset.path),
        problems.map((e) => e.path),
        "each error with its JSON path",
      );
      assert.equal(
        p.document.querySelectorAll("#view tr.row").length,
        0,
        "no rows: the page does not fall back to the preset on its own",
      );
      assert.deepEqual(gh.validationFailures, []);
    } finally {
      p.close();
    }
  } finally {
    gh.setFile(".github/prflow.json", `${JSON.stringify(CONFIG, null, 2)}\n`);
  }
});

test("a repository with more open pull requests than a page: progress counts them page by page", async () => {
  const big = await startEmulator({ owner: OWNER, repo: REPO });
  try {
    big.clock.set(Date.now() - 3600_000);
    big.registerToken(TOKEN, "alice");
    const n = PULL_PAGE + 5;
    for (let i = 0; i < n; i++) big.createPull({ title: `change ${i}`, author: "agent-m1" });
    const p = await openPage(page.url, big.url, TOKEN, []);
    try {
      assert.equal(p.outcome, "rendered", p.document.getElementById("error").textContent);
      const progress = p.statuses.filter((s) => /^reading pull requests \d+\/\d+$/.test(s));
      assert.deepEqual(
        progress,
        [`reading pull requests ${PULL_PAGE}/${n}`, `reading pull requests ${n}/${n}`],
        "one line per page",
      );
      assert.equal(p.document.querySelectorAll("#view tr.row").length, n);
      const shown = await snapshot(p.document);
      const view = createEngine().dashboard({ facts: shown });
      const byNumber = new Map(view.rows.map((r) => [r.number, r.state ?? "(none)"]));
      const states = [...p.document.querySelectorAll('#view tr.row td[data-col="state"] .chip')].map(
        (td) => td.textContent,
      );
      assert.deepEqual(
        states,
        drawOrder(view).map((n) => byNumber.get(n)),
        "the preset's states, no config file",
      );
      assert.match(
        p.document.getElementById("status").textContent,
        /config: \.github\/prflow\.json not found: the preset applies/,
      );
      assert.deepEqual(big.validationFailures, []);
    } finally {
      p.close();
    }
  } finally {
    await big.close();
  }
});

test("an API URL other than GitHub's is shown to the person, and no request leaves until they say yes", async () => {
  // A server that would take the token (it allows any origin, as an attacker's would).
  const seen = [];
  const evil = createServer((req, res) => {
    seen.push({ url: req.url, token: req.headers.authorization ?? null });
    res
      .writeHead(req.method === "OPTIONS" ? 204 : 404, {
        "access-control-allow-origin": "*",
        "access-control-allow-headers": "*",
      })
      .end();
  });
  await new Promise((r) => evil.listen(0, "127.0.0.1", r));
  const evilUrl = `http://127.0.0.1:${evil.address().port}`;
  try {
    const log = [];
    const p = await openPage(page.url, evilUrl, TOKEN, log, undefined, { confirm: false });
    try {
      assert.equal(p.outcome, "confirm", "the page waits for the person instead of reading");
      assert.deepEqual([...new Set(p.asked)], [evilUrl], "the page asked about that host");
      const box = p.document.getElementById("confirm-api");
      assert.equal(box.hidden, false, "the question is visible");
      assert.equal(
        p.document.getElementById("confirm-api-host").textContent,
        evilUrl,
        "it names the host the token would go to",
      );
      assert.deepEqual(
        log.filter((r) => new URL(r.url).origin === evilUrl),
        [],
        "nothing was sent to the unconfirmed API",
      );
      assert.deepEqual(seen, []);
      assert.equal(
        p.window.sessionStorage.getItem(`prflow.token ${evilUrl}`),
        null,
        "the token is not even kept for it",
      );

      // "Use api.github.com instead" puts GitHub's API back and sends nothing.
      p.document.getElementById("confirm-api-no").click();
      assert.equal(box.hidden, true);
      assert.equal(p.document.getElementById("api").value, "https://api.github.com");
      assert.deepEqual(seen, []);
    } finally {
      p.close();
    }
  } finally {
    await new Promise((r) => evil.close(r));
  }
});

test("the page's CSP names the hosts, forbids form submission and <base>; the form cannot put the token in a URL", async () => {
  const html = await (await fetch(`${page.url}/index.html`)).text();
  // The page parsed without its script: what a submission before the script runs would carry.
  const { window } = new JSDOM(html, { url: `${page.url}/index.html?repo=acme/widgets` });
  try {
    const csp = window.document.querySelector('meta[http-equiv="Content-Security-Policy"]').content;
    const directives = Object.fromEntries(
      csp
        .split(";")
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v]),
    );
    // 'self' (a GHES serving the page) and loopback (the emulator) besides GitHub's API: no scheme-only
    // source such as `https:` and no host wildcard.
    assert.deepEqual(directives["connect-src"], [
      "'self'",
      "https://api.github.com",
      "http://127.0.0.1:*",
      "http://localhost:*",
    ]);
    for (const source of directives["connect-src"])
      assert.doesNotMatch(source, /^[a-z]+:$|\*\.|^\*$/, `${source} names a host`);
    assert.deepEqual(directives["form-action"], ["'none'"]);
    assert.deepEqual(directives["base-uri"], ["'none'"]);

    const form = window.document.getElementById("form");
    assert.equal(form.method, "post", "a submission is never a GET with the fields in the URL");
    window.document.getElementById("token").value = TOKEN;
    window.document.getElementById("repo").value = "acme/widgets";
    const sent = [...new window.FormData(form).entries()];
    assert.ok(
      sent.every(([, v]) => v !== TOKEN),
      `the token is not a submittable field: ${JSON.stringify(sent.map(([k]) => k))}`,
    );
    assert.equal(window.document.getElementById("confirm-api").hidden, true, "the question is hidden until asked");
  } finally {
    window.close();
  }
});
