// Replays a fixture corpus the native suite dumped (scripts/test.sh sets the variables under .tmp/)
// through the Wasm module: one test per case, each requiring the native answer exactly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * `envVar` names the dump (default `.tmp/<file>`); `min` is the corpus size the issue promises;
 * `ask(case)` returns the Wasm's answer, compared with `case[answerKey]`; a case with `error`
 * must make `ask` throw an Error whose message is `errorMessage(case)`.
 */
export function replay({ envVar, file, min, what, answerKey, ask, errorMessage = (c) => c.error }) {
  const dumpPath = process.env[envVar] || fileURLToPath(new URL(`../../../.tmp/${file}`, import.meta.url));
  if (!existsSync(dumpPath)) {
    test(`the native ${what} exist`, () => assert.fail(`${dumpPath} is missing: run cargo test first (scripts/test.sh sets ${envVar}=.tmp/${file})`));
    return;
  }
  const cases = JSON.parse(readFileSync(dumpPath, "utf8"));
  test(`the dump holds the whole corpus of ${what}`, () => {
    assert.ok(Array.isArray(cases), `${dumpPath}: expected an array of cases`);
    assert.ok(cases.length >= min, `${dumpPath}: ${cases.length} cases, at least ${min} promised`);
    assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, "case names are unique");
  });
  for (const c of cases) {
    test(`Wasm equals native: ${c.name}`, () => {
      if (c.error !== undefined) assert.throws(() => ask(c), (e) => e instanceof Error && e.message === errorMessage(c));
      else assert.deepStrictEqual(ask(c), c[answerKey]);
    });
  }
}
