// Each host's build of the engine (issue 16): the dashboard page downloads a Wasm with only the decisions
// it calls, built for size, and the simulations page its own; both answer as the full engine does. Sizes
// are deterministic (scripts/build.sh --check holds page/dist to a fresh build), so they are bounded here.
// Also the request path of js/core.js: a big request written straight into Wasm memory reads the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { bind } from "../../js/core.js";
import { createEngine } from "../../js/node.js";
import { Engine } from "../../pkg/prflow.js";

const root = new URL("../../", import.meta.url);
const bytes = (path) => readFileSync(new URL(path, root));

// The dashboard's Wasm: the goal is 300 KB (110 KB gzipped), not reached; these bounds are what the
// build reaches today (339,507 bytes, 149,767 gzipped, with the queue's lane and the agents'
// scoreboard; 318,184 and 139,880 before them) with about 3% for the facts' growth, so a change that
// grows it by more fails here. Lower them as it shrinks.
const PAGE_MAX = 349_700;
const PAGE_GZIP_MAX = 154_300;

let loads = 0;
/** The pages' glue (pkg/prflow.js, the one they bundle) over a given Wasm, bound as every host binds it. */
async function load(wasmPath) {
  const glue = await import(`${new URL("pkg/prflow.js", root).href}?host=${loads++}`);
  glue.initSync({ module: bytes(wasmPath) });
  return { glue, prflow: bind(glue) };
}

const board = {
  repository: "o/r",
  now: "2026-11-30T12:00:00Z",
  pullRequests: [
    { number: 1, title: "ünïcode", author: "a", baseRef: "main", headRef: "b", labels: ["merge-queued"], checks: [{ name: "t", status: "COMPLETED", conclusion: "FAILURE" }] },
    { number: 2, title: "two", author: "b", baseRef: "main", headRef: "c", labels: [], body: "Merge-After: #1" },
  ],
};

test("the dashboard page's Wasm is its own build: only the page's decisions, and under its size bound", async () => {
  const page = bytes("page/dist/prflow_bg.wasm");
  const full = bytes("pkg/prflow_bg.wasm");
  assert.deepEqual(page, bytes("pkg/page/prflow_bg.wasm"), "page/dist ships pkg/page's build");
  assert.ok(page.length <= PAGE_MAX, `page Wasm ${page.length} bytes, bound ${PAGE_MAX}`);
  const gz = gzipSync(page, { level: 9 }).length;
  assert.ok(gz <= PAGE_GZIP_MAX, `page Wasm ${gz} bytes gzipped, bound ${PAGE_GZIP_MAX}`);
  assert.ok(page.length < full.length / 2, `page ${page.length} bytes against the full engine's ${full.length}`);

  const { glue } = await load("pkg/page/prflow_bg.wasm");
  assert.deepEqual(glue.Engine.names(), ["dashboard", "scoreboard", "queueReads"]);
});

test("the page's and the simulations' builds answer as the full engine does", async () => {
  const { prflow: page } = await load("pkg/page/prflow_bg.wasm");
  const config = { botPanel: { bots: ["claude-bot"] }, queue: {} };
  const queued = { ...board, landed: [{ number: 9, author: "a", labels: ["from:m1"], createdAt: "2026-11-30T10:00:00Z", mergedAt: "2026-11-30T11:00:00Z", checks: [{ name: "t", status: "COMPLETED", conclusion: "SUCCESS", startedAt: "2026-11-30T10:30:00Z", completedAt: "2026-11-30T10:42:00Z" }] }] };
  for (const name of ["dashboard", "scoreboard", "queueReads"]) {
    assert.deepEqual(page.createEngine(config)[name]({ facts: queued }), createEngine(config)[name]({ facts: queued }), `${name}, with a landing`);
    assert.deepEqual(page.createEngine(config)[name]({ facts: board }), createEngine(config)[name]({ facts: board }), name);
  }
  // A bad config: the same problems, with their paths.
  assert.deepEqual(page.createEngine({ stale: { days: "x" } }).configErrors(), createEngine({ stale: { days: "x" } }).configErrors());
  // autoFix patterns: the page checks them without regex-lite (src/config/pattern.rs), in regex-lite's words.
  const patterns = { queue: { autoFix: { ignore: ["fix:(fmt", "lint/.*", "*x"], fixers: [{ context: "[z-a]", run: "true" }] } } };
  const expected = createEngine(patterns).configErrors();
  assert.equal(expected.filter((e) => e.expected === "a regular expression").length, 3, JSON.stringify(expected));
  assert.deepEqual(page.createEngine(patterns).configErrors(), expected);
  // A decision the page does not call is not in its build.
  assert.throws(() => page.createEngine().call("reconcile", { facts: board }), /unknown decision "reconcile"; the engine knows dashboard, scoreboard, queueReads/);

  const { glue, prflow: sim } = await load("pkg/sim/prflow_bg.wasm");
  assert.deepEqual(glue.Engine.names(), ["simReview", "simQueue", "simReviewDefaults", "simQueueDefaults"]);
  const params = { ...createEngine().simQueueDefaults(), seed: 7, days: 2 };
  assert.deepEqual(sim.createEngine().simQueue(params), createEngine().simQueue(params));
  assert.equal(bytes("page/dist/sim_bg.wasm").compare(bytes("pkg/sim/prflow_bg.wasm")), 0, "page/dist ships pkg/sim's build");
});

// The pages read facts and config with their own reader (src/lean.rs), the Action and the CLI with serde
// derive's: every malformed input must be refused in the same words at the same JSON path.
test("the page's readers refuse malformed facts and config as the full engine's derive does", async () => {
  const { prflow: page } = await load("pkg/page/prflow_bg.wasm");
  const pr = (extra) => ({ number: 1, ...extra });
  const facts = [
    { pullRequests: [pr()] },
    { now: "2026-11-30T12:00:00Z", nope: 1 },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ titel: "typo" })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [{ title: "no number" }] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ number: "1" })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ checks: [{ name: "a" }] })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ checks: [{ name: "a", status: "COMPLETED", id: -1 }] })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ checks: [["a"]] })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ reviews: [{ state: "APPROVED" }] })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ mergeable: "MAYBE" })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ mergeable: 0 })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ unknown: ["labels", "nothing"] })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ comments: [{ author: "a" }] })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ timeline: [{ kind: "labeled", at: 3 }] })] },
    { now: "2026-11-30T12:00:00Z", pullRequests: [pr({ closingIssues: [{ source: "link" }] })] },
    { now: "2026-11-30T12:00:00Z", issues: [{ number: 1, blockedBy: ["2"] }] },
    { now: "2026-11-30T12:00:00Z", queueMemory: { records: [{ number: 1, head: "h" }] } },
    { now: "2026-11-30T12:00:00Z", board: { title: "b" } },
    { now: "2026-11-30T12:00:00Z", teamMembers: { "o/t": "me" } },
    { now: 7 },
    [],
  ];
  const refusal = (engine, input) => {
    try {
      engine.callText("dashboard", typeof input === "string" ? input : JSON.stringify(input));
    } catch (e) {
      return e.message;
    }
    return "accepted";
  };
  for (const f of facts) {
    const want = refusal(createEngine(), { facts: f });
    assert.notEqual(want, "accepted", JSON.stringify(f));
    assert.equal(refusal(page.createEngine(), { facts: f }), want, JSON.stringify(f));
  }
  // A key written twice is JSON's to allow and derive's to refuse: only text can say it.
  const twice = '{"facts": {"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": 1, "number": 2}]}}';
  assert.equal(refusal(createEngine(), twice), "dashboard $.facts.pullRequests[0].number: duplicate field `number`");
  assert.equal(refusal(page.createEngine(), twice), refusal(createEngine(), twice));
  const configs = [
    { nope: 1 },
    { $schema: 3 },
    { botPanel: { bots: "claude-bot" } },
    { stale: { days: -1 } },
    { stations: { machines: { m: { role: "cook" } }, gate: { docsOnly: [1] } } },
    { followup: { levels: { "state:addressing": [{ after: 5 }] } } },
    { followup: { levels: { "state:addressing": [{ action: "ping" }] } } },
    { followup: { workingHours: { days: ["someday"] }, people: { onDuty: 3 } } },
    { queue: { watch: { timeoutMinutes: "x" }, generated: [{ branch: "b" }] } },
    { queue: { autoFix: { fixers: [{ context: "c" }], prepare: [{ run: "r" }] } } },
    { queue: { labels: { mergeQueued: 1 } } },
  ];
  for (const c of configs) {
    const want = createEngine(c).configErrors();
    assert.ok(want.length > 0, JSON.stringify(c));
    assert.deepEqual(page.createEngine(c).configErrors(), want, JSON.stringify(c));
  }
  // serde_json's other spelling of a unit variant, `{"name": null}`, is read alike by both.
  const mapped = { followup: { levels: { "state:addressing": [{ after: 5, action: { escalate: null } }] } } };
  assert.deepEqual(createEngine(mapped).configErrors(), []);
  assert.deepEqual(page.createEngine(mapped).configErrors(), []);
});

test("a big request written into Wasm memory by encodeInto reads as wasm-bindgen's string copy does", () => {
  const configText = JSON.stringify({ botPanel: { bots: ["claude-bot"] } });
  const engine = createEngine(configText);
  const raw = new Engine(configText);
  // Over the 64 KiB where js/core.js switches paths; non-ASCII first, in the middle and last, so the
  // encoder meets a character of two, three and four bytes where one byte a character was reserved.
  const pullRequests = Array.from({ length: 1500 }, (_, i) => ({ number: i + 1, title: i === 0 ? "é first" : i === 700 ? "中 middle" : i === 1499 ? "last 🚀" : `plain ${i}`, author: "a", labels: [] }));
  const request = JSON.stringify({ facts: { repository: "o/r", now: "2026-11-30T12:00:00Z", pullRequests } });
  assert.ok(request.length > 65536, `${request.length} characters`);
  const plan = engine.callText("dashboard", request);
  assert.equal(plan, raw.call("dashboard", request));
  assert.match(plan, /🚀/);
  // An ASCII one, and the next request after it: the buffer starts empty each time.
  const ascii = request.replace(/é|中|🚀/g, "x");
  assert.equal(engine.callText("dashboard", ascii), raw.call("dashboard", ascii));
  assert.throws(() => engine.callText("dashboard", ascii.slice(0, -1)), /dashboard: the input is not valid JSON/);
});
