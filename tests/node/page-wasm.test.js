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
// build reaches today (433,982 bytes, 186,201 gzipped) with about 3% for the facts' growth, so a change
// that grows it by more fails here. Lower them as it shrinks.
const PAGE_MAX = 447_000;
const PAGE_GZIP_MAX = 191_800;

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
  assert.deepEqual(glue.Engine.names(), ["dashboard", "queueReads"]);
});

test("the page's and the simulations' builds answer as the full engine does", async () => {
  const { prflow: page } = await load("pkg/page/prflow_bg.wasm");
  const config = { botPanel: { bots: ["claude-bot"] }, queue: {} };
  for (const name of ["dashboard", "queueReads"]) {
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
  assert.throws(() => page.createEngine().call("reconcile", { facts: board }), /unknown decision "reconcile"; the engine knows dashboard, queueReads/);

  const { glue, prflow: sim } = await load("pkg/sim/prflow_bg.wasm");
  assert.deepEqual(glue.Engine.names(), ["simReview", "simQueue", "simReviewDefaults", "simQueueDefaults"]);
  const params = { ...createEngine().simQueueDefaults(), seed: 7, days: 2 };
  assert.deepEqual(sim.createEngine().simQueue(params), createEngine().simQueue(params));
  assert.equal(bytes("page/dist/sim_bg.wasm").compare(bytes("pkg/sim/prflow_bg.wasm")), 0, "page/dist ships pkg/sim's build");
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
