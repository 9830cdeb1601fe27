// Every fixture corpus through the Wasm engine on Node: each engine call the one native runner
// (tests/fixtures.rs) made, with its config, input and whole answer (PRFLOW_FIXTURE_DUMP, written under
// .tmp/ by scripts/test.sh), is asked again of `createEngine(config).call(name, input)` from js/node.js
// and must get the identical answer, or the identical error. One engine, two builds, one answer. The
// fixture-only decisions (src/api.rs's `(fixture)` rules) are compiled for the Rust tests only: the
// shipped Wasm has none of them, and the native run is their only replay.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createEngine } from "../../js/node.js";

// The sizes the issues promised, per corpus, in calls (a case with steps makes several).
const PROMISED = { reconcile: 150, queue: 200, stations: 90, followup: 20, "queue-cycle": 200 };

const dumpPath =
  process.env.PRFLOW_FIXTURE_DUMP || fileURLToPath(new URL("../../.tmp/fixture-calls.json", import.meta.url));
if (!existsSync(dumpPath)) {
  test("the native fixture calls exist", () =>
    assert.fail(
      `${dumpPath} is missing: run cargo test first (scripts/test.sh sets PRFLOW_FIXTURE_DUMP=.tmp/fixture-calls.json)`,
    ));
} else {
  const calls = JSON.parse(readFileSync(dumpPath, "utf8"));
  const engines = new Map();
  // One engine per config, built once, as a shell builds it.
  const engineFor = (config) => {
    const key = JSON.stringify(config);
    if (!engines.has(key)) engines.set(key, createEngine(config));
    return engines.get(key);
  };

  test("the dump holds every corpus, each at least as large as promised", () => {
    assert.ok(Array.isArray(calls), `${dumpPath}: expected an array of calls`);
    for (const [corpus, min] of Object.entries(PROMISED)) {
      const n = calls.filter((c) => c.corpus === corpus).length;
      assert.ok(n >= min, `${corpus}: ${n} calls, at least ${min} promised`);
    }
    assert.equal(new Set(calls.map((c) => `${c.corpus}: ${c.name}`)).size, calls.length, "call names are unique");
  });

  const shipped = new Set(Object.keys(createEngine()).filter((k) => !["version", "configErrors", "call"].includes(k)));
  test("the shipped engine has no fixture-only decision, and every other decision the corpora ask", () => {
    const asked = new Set(calls.map((c) => c.call));
    const fixtureOnly = [...asked].filter((name) => !shipped.has(name)).sort();
    assert.deepEqual(
      fixtureOnly,
      ["green", "marker", "order", "owner", "reviewHold", "setAsideApplies", "setAsideComment", "settle"].filter((n) =>
        asked.has(n),
      ),
    );
    assert.throws(() => createEngine().call("settle", {}), /unknown decision "settle"/);
  });

  for (const c of calls.filter((c) => shipped.has(c.call))) {
    test(`Wasm equals native: ${c.corpus}: ${c.name}`, () => {
      const ask = () => engineFor(c.config).call(c.call, c.input);
      if (c.error !== undefined) assert.throws(ask, (e) => e instanceof Error && e.message === c.error);
      else assert.deepStrictEqual(ask(), c.output);
    });
  }
}
