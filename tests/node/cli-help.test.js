// Every command's help, as a person reads it at 80 columns, against tests/node/snapshots/help/*.txt
// (PRFLOW_BLESS=1 rewrites them); and every option a command takes appears on its page with words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { runCli, ROOT } from "./lib/cli.js";
import { matchSnapshot } from "./lib/snapshot.js";

const DIR = `${ROOT}tests/node/snapshots/help/`;
const commands = readdirSync(`${ROOT}cli/commands`).filter((f) => f.endsWith(".js")).map((f) => f.slice(0, -3)).sort();

const compare = (name, text) => matchSnapshot(`${DIR}${name}.txt`, text);

test("cli help: the top-level help", async () => {
  const r = await runCli(["--help"], { env: { COLUMNS: "80" } });
  assert.equal(r.code, 0);
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
    for (const opt of Object.keys(options)) assert.match(a.stdout, new RegExp(`^  --${opt}\\b.*\\S{3}`, "m"), `${name}: --${opt} listed with words`);
    assert.match(a.stdout, /^examples:\n  prflow /m, `${name}: an example`);
    compare(name, a.stdout);
  });
}

test("cli status: the table fits the terminal's width (COLUMNS, 100 when not a terminal); --width 0 cuts nothing", async () => {
  const { mkdtempSync, writeFileSync: write } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { demoFacts } = await import("../../scripts/lib/demo-board.mjs");
  const dir = mkdtempSync(`${tmpdir()}/prflow-status-`);
  write(`${dir}/facts.json`, JSON.stringify(demoFacts()));
  const rows = (text) => text.split("\n").filter((l) => l && !/^(Merge queue:|STOP THE LINE:|Warnings:| {2}|\S+: \d+ open pull)/.test(l));
  const wide = await runCli(["status", "--facts", "facts.json", "--width", "0"], { cwd: dir });
  assert.equal(wide.code, 0, wide.stderr);
  const widest = Math.max(...rows(wide.stdout).map((l) => l.length));
  assert.ok(widest > 120, `uncut, the table is wide (${widest})`);
  for (const columns of [80, 100, 140]) {
    const r = await runCli(["status", "--facts", "facts.json"], { cwd: dir, env: { COLUMNS: String(columns) } });
    assert.equal(r.code, 0, r.stderr);
    for (const l of rows(r.stdout)) assert.ok(l.length <= columns, `${columns} columns: ${l.length}: ${l}`);
  }
});
