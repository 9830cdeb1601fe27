// The Node suites' one snapshot check: generated text (help pages, job summaries, reports) against a
// committed file. It never blesses on its own: a missing or different file fails, and only
// PRFLOW_BLESS=1 (the same variable the engine's fixtures answer to) writes it, for the diff to be read.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const blessing = () => process.env.PRFLOW_BLESS === "1";

/** Asserts `actual` is the text of `file` (a path or a file: URL); with PRFLOW_BLESS=1 writes it instead. */
export function matchSnapshot(file, actual) {
  const path = file instanceof URL ? fileURLToPath(file) : file;
  const want = existsSync(path) ? readFileSync(path, "utf8") : null;
  if (blessing()) {
    if (want !== actual) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, actual);
    }
    return;
  }
  if (want === null) assert.fail(`${path} is missing; PRFLOW_BLESS=1 writes it: read it, then commit it`);
  assert.equal(actual, want, `${path} differs; if the change is meant, PRFLOW_BLESS=1 rewrites it: review the diff`);
}
