// The merge queue's fixture corpus through the Wasm module on Node: every case of tests/fixtures/queue/,
// as expanded and answered natively by tests/queue_fixtures.rs (PRFLOW_QUEUE_DUMP), must get the
// identical answer (or the identical error) from the Wasm export every JS name of the queue goes through.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import "../../js/node.js"; // initialises the module below
import { queueCallJson } from "../../pkg/prflow.js";

const dumpPath = process.env.PRFLOW_QUEUE_DUMP || fileURLToPath(new URL("../../.tmp/queue-answers.json", import.meta.url));

if (!existsSync(dumpPath)) {
  test("the native queue answers exist", () => {
    assert.fail(`${dumpPath} is missing: run cargo test first (scripts/test.sh sets PRFLOW_QUEUE_DUMP=.tmp/queue-answers.json)`);
  });
} else {
  const cases = JSON.parse(readFileSync(dumpPath, "utf8"));

  test("the dump holds the whole queue corpus", () => {
    assert.ok(cases.length >= 200, `${dumpPath}: ${cases.length} cases, the issue asks for at least 200`);
    assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, "case names are unique");
  });

  for (const { name, call, input, output, error } of cases) {
    test(`Wasm answer equals native answer: ${name}`, () => {
      const run = () => JSON.parse(queueCallJson(call, JSON.stringify(input)));
      if (error !== undefined) assert.throws(run, (e) => e instanceof Error && e.message === `${call}: ${error}`);
      else assert.deepStrictEqual(run(), output);
    });
  }
}
