// The Action's and the CLI's own words, without GitHub: config loading (a missing file is the preset, a bad
// one names the file and JSON path), the `numbers` input, and the job summary and board as snapshots.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as prflow from "../../js/node.js";
import { loadConfig } from "../../lib/config-file.js";
import { boardText, reconcileSummary } from "../../lib/summary.js";
import { demoFacts } from "../../scripts/lib/demo-board.mjs";
import { matchSnapshot } from "./lib/snapshot.js";

const FILE = ".github/prflow.json";
const reader = (text) => (path) => {
  if (text === null) throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
  return text;
};

const configCases = [
  { rule: "a missing config file is the preset, not an error", text: null, source: "preset", errors: [] },
  { rule: "a valid file is used as written", text: '{"stale": {"days": 3}}', source: FILE, errors: [] },
  {
    rule: "a file that is not JSON names the file and the root",
    text: '{"stale": ',
    source: FILE,
    errors: [/^\.github\/prflow\.json: \$: expected JSON, found a syntax error/],
  },
  {
    rule: "an unknown key names the file and its JSON path",
    text: '{"stale": {"dayz": 3}}',
    source: FILE,
    errors: [/^\.github\/prflow\.json: \$\.stale\.dayz: expected a known key/],
  },
  {
    rule: "a wrong type says what was expected and what was found",
    text: '{"botPanel": {"bots": ["a", 3]}}',
    source: FILE,
    errors: [/^\.github\/prflow\.json: \$\.botPanel\.bots\[1\]: expected a string, found integer `3`$/],
  },
];

for (const c of configCases) {
  test(`config: ${c.rule}`, () => {
    const loaded = loadConfig(prflow, FILE, { readFile: reader(c.text) });
    assert.equal(loaded.source, c.source);
    assert.equal(loaded.errors.length, c.errors.length, loaded.errors.join("\n"));
    for (const [i, re] of c.errors.entries()) assert.match(loaded.errors[i], re);
    assert.equal(loaded.config === null, c.errors.length > 0, "a bad config yields no config to run with");
  });
}

const snapshot = (name, actual) => matchSnapshot(new URL(`./snapshots/${name}`, import.meta.url), actual);

test("summary: a dry run's job summary lists every pull request, what would change and why", () => {
  const config = JSON.parse(readFileSync(new URL("../../examples/prflow.json", import.meta.url), "utf8"));
  const plan = prflow.createEngine(config).reconcile({ facts: demoFacts() });
  const results = plan.ops.map((op) => ({ op: op.op, number: op.number, outcome: "dry-run" }));
  const summary = reconcileSummary({
    repo: "acme/widgets",
    plan,
    results,
    live: false,
    scope: "all open pull requests (schedule)",
    counts: { ops: plan.ops.length, writes: 0, warnings: plan.warnings.length },
  });
  for (const pull of plan.pulls)
    assert.match(summary, new RegExp(`^\\| #${pull.number} \\|`, "m"), `#${pull.number} has a row`);
  assert.match(summary, /dry run: nothing was written/);
  snapshot("summary-dry-run.md", summary);
  snapshot("board.txt", boardText(plan, results, { live: false }) + "\n");
});

test("summary: past GitHub's 1 MiB limit, the rows without a change are left out and counted", () => {
  const config = JSON.parse(readFileSync(new URL("../../examples/prflow.json", import.meta.url), "utf8"));
  const plan = prflow.createEngine(config).reconcile({ facts: demoFacts() });
  const changed = new Set(plan.ops.map((op) => op.number));
  const unchanged = plan.pulls.filter((p) => !changed.has(p.number)).length;
  const args = {
    repo: "acme/widgets",
    plan,
    results: [],
    live: false,
    scope: "all",
    counts: { ops: plan.ops.length, writes: 0, warnings: 0 },
  };
  const small = reconcileSummary({ ...args, maxBytes: 2_000 });
  assert.ok(unchanged > 0, "the sample has unchanged pull requests");
  for (const pull of plan.pulls)
    assert.equal(new RegExp(`^\\| #${pull.number} \\|`, "m").test(small), changed.has(pull.number), `#${pull.number}`);
  assert.match(small, new RegExp(`${unchanged} pull requests with no change are left out`));
});
