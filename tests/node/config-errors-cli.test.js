// A config with three mistakes reports all three through the CLI, each with its JSON path and plain
// words (issue 11): serde alone stops at the first, in words like `expected u32`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "./lib/cli.js";

test("prflow plan --config with three mistakes names all three", async () => {
  const dir = mkdtempSync(join(tmpdir(), "prflow-config-"));
  writeFileSync(
    join(dir, "facts.json"),
    JSON.stringify({ repository: "me/here", now: "2026-01-01T00:00:00Z", pullRequests: [] }),
  );
  writeFileSync(
    join(dir, "bad.json"),
    JSON.stringify({ queue: { watch: { timeoutMinutes: -5 } }, labels: { draft: 3 }, nonsense: true }),
  );
  const r = await runCli(["plan", "facts.json", "--config", "bad.json"], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /\$\.queue\.watch\.timeoutMinutes[^\n]*a whole number of minutes, at least 0/);
  assert.match(r.stderr, /\$\.labels\.draft[^\n]*a string/);
  assert.match(r.stderr, /\$\.nonsense/);
  assert.doesNotMatch(r.stderr, /u32/);
});
