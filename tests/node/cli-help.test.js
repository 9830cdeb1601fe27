// Every command's help, as a person reads it at 80 columns, against tests/node/snapshots/help/*.txt
// (PRFLOW_BLESS=1 rewrites them); and every option a command takes appears on its page with words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { runCli, ROOT } from "./lib/cli.js";
import { matchSnapshot } from "./lib/snapshot.js";

const DIR = `${ROOT}tests/node/snapshots/help/`;
const commands = readdirSync(`${ROOT}cli/commands`)
  .filter((f) => f.endsWith(".js"))
  .map((f) => f.slice(0, -3))
  .sort();

const compare = (name, text) => matchSnapshot(`${DIR}${name}.txt`, text);

test("cli help: the top-level help", async () => {
  const r = await runCli(["--help"], { env: { COLUMNS: "80" } });
  assert.equal(r.code, 0);
  for (const line of r.stdout.split("\n")) assert.ok(line.length <= 80, `a line over 80 columns: ${line}`);
  compare("prflow", r.stdout);
});

for (const name of commands) {
  test(`cli help: prflow ${name} --help is its snapshot, and prflow help ${name} the same`, async () => {
    const a = await runCli([name, "--help"], { env: { COLUMNS: "80" } });
    const b = await runCli(["help", name], { env: { COLUMNS: "80" } });
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.stdout, a.stdout);
    for (const line of a.stdout.split("\n")) assert.ok(line.length <= 80, `${name}: a line over 80 columns: ${line}`);
    const { options = {} } = await import(`${ROOT}cli/commands/${name}.js`);
    for (const opt of Object.keys(options))
      assert.match(a.stdout, new RegExp(`^  --${opt}\\b.*\\S{3}`, "m"), `${name}: --${opt} listed with words`);
    assert.match(a.stdout, /^examples:\n {2}prflow /m, `${name}: an example`);
    compare(name, a.stdout);
  });
}

test("cli status: every line fits COLUMNS (80 when not a terminal), grouped by who acts next, durations in h and d, bidi shown escaped; its snapshot at 80", async () => {
  const { mkdtempSync, writeFileSync: write } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { demoFacts } = await import("../../scripts/lib/demo-board.mjs");
  const dir = mkdtempSync(`${tmpdir()}/prflow-status-`);
  const { createEngine } = await import("../../js/node.js");
  const config = readFileSync(`${ROOT}examples/prflow.json`, "utf8");
  write(`${dir}/prflow.json`, config);
  const facts = demoFacts();
  // The board as reconcile leaves it, each state applied a different while ago, so times read in h and d.
  const plan = createEngine(config).reconcile({ facts });
  for (const [i, pr] of facts.pullRequests.entries()) {
    const state = plan.pulls.find((p) => p.number === pr.number)?.state;
    if (!state) continue;
    if (!pr.labels.includes(state)) pr.labels.push(state);
    pr.timeline.push({
      kind: "labeled",
      label: state,
      at: new Date(Date.parse(facts.now) - (i * 7 + 1) * 3_600_000).toISOString(),
      actor: "prflow",
    });
  }
  // A title that would reorder the terminal's line: shown escaped, never obeyed.
  facts.pullRequests[0].title = "Fix \u202Eexe.txt\u202C the parser";
  write(`${dir}/facts.json`, JSON.stringify(facts));
  const wide = await runCli(["status", "--facts", "facts.json", "--config", "prflow.json", "--width", "0"], {
    cwd: dir,
  });
  assert.equal(wide.code, 0, wide.stderr);
  assert.ok(Math.max(...wide.stdout.split("\n").map((l) => l.length)) > 100, "uncut, some line is wider than 100");
  for (const env of [{}, { COLUMNS: "80" }, { COLUMNS: "100" }, { COLUMNS: "140" }]) {
    const columns = Number(env.COLUMNS ?? 80);
    const r = await runCli(["status", "--facts", "facts.json", "--config", "prflow.json"], { cwd: dir, env });
    assert.equal(r.code, 0, r.stderr);
    for (const l of r.stdout.split("\n")) assert.ok(l.length <= columns, `${columns} columns: ${l.length}: ${l}`);
    if (columns === 80) {
      assert.doesNotMatch(r.stdout, /[\u202a-\u202e\u2066-\u2069]/, "no bidi control reaches the terminal");
      assert.match(r.stdout, /<U\+202E>exe\.txt<U\+202C>/);
      assert.doesNotMatch(r.stdout, /\d{3,} min/, "no minutes past an hour");
      assert.match(r.stdout, /· \d+ (h|d)$/m, "durations in hours or days");
      assert.doesNotMatch(r.stdout, /^\s+#\d+ .*state:/m, "states read without their prefix");
      compare("status-board", r.stdout);
    }
  }
  // Grouped by who acts next, in the engine's order of groups.
  const json = await runCli(["status", "--facts", "facts.json", "--config", "prflow.json", "--format", "json"], {
    cwd: dir,
  });
  const view = JSON.parse(json.stdout);
  const r = await runCli(["status", "--facts", "facts.json", "--config", "prflow.json"], { cwd: dir });
  const headings = r.stdout
    .split("\n")
    .filter((l) => /^\S.* \(\d+\)$/.test(l))
    .map((l) => l.replace(/ \(\d+\)$/, ""));
  assert.deepEqual(
    headings,
    view.groups.map((g) => g.heading),
  );
});

test("cli plan: the board fits COLUMNS (80 when not a terminal), its blockers wrapped and its reasons too; its snapshot at 80", async () => {
  const { mkdtempSync, writeFileSync: write } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { demoFacts } = await import("../../scripts/lib/demo-board.mjs");
  const { createEngine } = await import("../../js/node.js");
  const { boardText } = await import("../../lib/summary.js");
  const dir = mkdtempSync(`${tmpdir()}/prflow-board-`);
  const config = readFileSync(`${ROOT}examples/prflow.json`, "utf8");
  write(`${dir}/prflow.json`, config);
  write(`${dir}/facts.json`, JSON.stringify(demoFacts()));
  // Uncut, the same board has lines past 80: the fitting is what keeps them in.
  const plan = createEngine(config).reconcile({ facts: demoFacts() });
  assert.ok(
    Math.max(
      ...boardText(plan, [], { width: 0 })
        .split("\n")
        .map((l) => l.length),
    ) > 80,
    "uncut, some line is wider than 80",
  );
  for (const env of [{}, { COLUMNS: "80" }, { COLUMNS: "60" }, { COLUMNS: "120" }]) {
    const columns = Number(env.COLUMNS ?? 80);
    const r = await runCli(["plan", "facts.json", "--config", "prflow.json"], { cwd: dir, env });
    assert.equal(r.code, 0, r.stderr);
    for (const l of r.stdout.split("\n")) assert.ok(l.length <= columns, `${columns} columns: ${l.length}: ${l}`);
    // Nothing is lost to the fitting: every reason's words are there, wrapped.
    const words = r.stdout.split(/\s+/).join(" ");
    for (const op of plan.ops)
      for (const c of op.op === "editLabels" ? [...op.add, ...op.remove] : [])
        assert.ok(words.includes(c.reason.split(/\s+/).join(" ")), `${columns}: ${c.reason}`);
    if (columns === 80) compare("plan-board", r.stdout);
  }
});
