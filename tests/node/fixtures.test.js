// The whole fixture corpus through the Wasm module on Node: every case of tests/fixtures/reconcile/, as
// expanded and planned natively by tests/fixtures.rs (PRFLOW_FIXTURE_DUMP), must give the identical plan
// through `reconcile` from js/node.js. One engine, two builds, one answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { reconcile } from "../../js/node.js";

const dumpPath = process.env.PRFLOW_FIXTURE_DUMP || fileURLToPath(new URL("../../.tmp/fixture-plans.json", import.meta.url));

if (!existsSync(dumpPath)) {
  test("the native fixture plans exist", () => {
    assert.fail(`${dumpPath} is missing: run cargo test first (scripts/test.sh sets PRFLOW_FIXTURE_DUMP=.tmp/fixture-plans.json)`);
  });
} else {
  const cases = JSON.parse(readFileSync(dumpPath, "utf8"));

  test("the dump holds the whole corpus", () => {
    assert.ok(Array.isArray(cases), `${dumpPath}: expected an array of cases`);
    assert.ok(cases.length >= 150, `${dumpPath}: ${cases.length} cases, the corpus promises at least 150`);
    assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, "case names are unique");
  });

  for (const { name, facts, config, plan } of cases) {
    test(`Wasm plan equals native plan: ${name}`, () => {
      assert.deepStrictEqual(reconcile(facts, config), plan);
    });
  }
}
