// The simulations (issue 19) through the Wasm and the CLI: every pinned fixture of tests/fixtures/sim/
// (checked natively by tests/sim_fixtures.rs) gives the same report from the Wasm to the last digit;
// `prflow sim` reads its parameters from flags and a --params file, draws and prints a seed when none
// is given, and names the file and field of a bad parameter; the plots are the same bytes every build.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { createEngine, drawSeed } from "../../js/node.js";

const engine = createEngine();
const sim = (kind, params) => (kind === "review" ? engine.simReview(params) : engine.simQueue(params));
import { queueText, reviewText } from "../../lib/sim-view.js";
import { runCli, ROOT } from "./lib/cli.js";

const FIXTURES = `${ROOT}tests/fixtures/sim/`;
const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => ({ file: f, ...JSON.parse(readFileSync(FIXTURES + f, "utf8")) }));
const fixture = (name) => fixtures.find((f) => f.file === name);

test("a few seeds of each simulation are pinned", () => {
  assert.ok(fixtures.filter((f) => f.kind === "review").length >= 2);
  assert.ok(fixtures.filter((f) => f.kind === "queue").length >= 2);
});

for (const f of fixtures) {
  test(`Wasm equals native: ${f.file}`, () => {
    assert.deepStrictEqual(sim(f.kind, f.input), f.expect);
  });
}

test("sim: a bad parameter throws an Error naming its JSON path; no seed is an error, never a hidden draw", () => {
  assert.throws(() => sim("queue", { seed: 1, ciMinutes: -1 }), {
    message: "simQueue $.ciMinutes: expected minutes from 0.5 to 1440, found -1",
  });
  assert.throws(
    () => sim("review", { seed: 1, stations: "two" }),
    /^Error: simReview \$\.stations: invalid type: string "two"/,
  );
  assert.throws(() => sim("review", {}), /\$\.seed: missing/);
  const seeds = new Set(Array.from({ length: 8 }, () => drawSeed()));
  assert.ok(seeds.size > 1, "drawSeed draws");
  for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 0 && s <= 0xffffffff);
});

test("cli sim review: flags are the engine's parameters (the pinned fixture's report, to the digit)", async () => {
  const f = fixture("review-small-seed7.json");
  const r = await runCli([
    "sim",
    "review",
    "--seed",
    "7",
    "--seeds",
    "2",
    "--hours",
    "40",
    "--utilizations",
    "0.6,0.9",
    "--high-share",
    "0.2",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepStrictEqual(JSON.parse(r.stdout), f.expect);
  assert.equal(r.stderr, "", "a given seed is not announced");
});

test("cli sim queue: a --params file, flags over it, and the text the report reads as", async () => {
  const f = fixture("queue-busy-seed99.json");
  const dir = mkdtempSync(join(tmpdir(), "prflow-sim-"));
  const { seed, ciMinutes, ...rest } = f.input;
  writeFileSync(join(dir, "team.json"), JSON.stringify({ ...rest, ciMinutes: 99 }));
  const r = await runCli(
    ["sim", "queue", "--params", "team.json", "--ci-minutes", String(ciMinutes), "--seed", String(seed)],
    { cwd: dir },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, queueText(f.expect));
  assert.match(r.stdout, /One at a time caps landings at 8 h \/ 20 min = 24\.0 a day/);
});

test("cli sim: with no seed one is drawn and printed, and --seed replays the run", async () => {
  const args = [
    "sim",
    "queue",
    "--seeds",
    "1",
    "--days",
    "1",
    "--sweep-ci",
    "",
    "--sweep-failures",
    "",
    "--sweep-flakes",
    "",
    "--format",
    "json",
  ];
  const a = await runCli(args);
  assert.equal(a.code, 0, a.stderr);
  const seed = Number(/^seed: (\d+) \(drawn; --seed \1 replays this run\)$/m.exec(a.stderr)?.[1]);
  assert.ok(Number.isInteger(seed), a.stderr);
  assert.equal(JSON.parse(a.stdout).seed, seed);
  const b = await runCli([...args, "--seed", String(seed)]);
  assert.equal(b.stdout, a.stdout);
});

test("cli sim review: the text puts our pull median at 0.85 beside the article's 41 minutes", async () => {
  const f = fixture("review-article.json");
  const text = reviewText(f.expect);
  assert.match(
    text,
    /At 0\.85 utilization \(3\.00 PRs\/h\) pull's median wait is \d+\.\d min; the article says 41\.0 \(ours [+-]\d+\.\d min\)\./,
  );
  for (const name of ["round-robin push", "least-loaded push", "pull (WIP 2)"])
    assert.match(text, new RegExp(`^${name.replace(/[()]/g, "\\$&")} +\\d`, "m"));
});

test("cli sim: a bad --params file names the file and the field; a bad flag names the flag", async () => {
  const dir = mkdtempSync(join(tmpdir(), "prflow-sim-"));
  writeFileSync(join(dir, "bad.json"), JSON.stringify({ stations: 0, heavyShare: 2 }));
  writeFileSync(join(dir, "typo.json"), JSON.stringify({ stationz: 2 }));
  writeFileSync(join(dir, "broken.json"), "{ stations: 2");
  const run = (...args) => runCli(["sim", ...args, "--seed", "1"], { cwd: dir });
  let r = await run("review", "--params", "bad.json");
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    "prflow: bad.json: $.stations: expected from 1 to 50, found 0\nprflow: bad.json: $.heavyShare: expected a share from 0 to 1, found 2\n",
  );
  r = await run("review", "--params", "typo.json");
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^prflow: typo\.json: \$\.stationz: unknown field `stationz`/);
  r = await run("review", "--params", "broken.json");
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^prflow: broken\.json: \$: not valid JSON/);
  r = await run("review", "--params", "missing.json");
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "prflow: --params missing.json: no such file\n");
  r = await run("review", "--stations", "0");
  assert.equal(r.code, 2, "a flag's bad value is a usage mistake");
  assert.equal(r.stderr, "prflow: --stations: expected from 1 to 50, found 0\n");
  r = await run("review", "--ci-minutes", "10");
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--ci-minutes is a parameter of `prflow sim queue`, not of review/);
  r = await run("review", "--policies", "pull,push");
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--policies: expected round-robin, least-loaded, pull, found "pull,push"/);
  r = await run("dice");
  assert.equal(r.code, 2);
});

test("the plots are the same bytes on every build (a fixed seed), and name what they show", () => {
  const gen = (dir) =>
    execFileSync(process.execPath, [`${ROOT}scripts/gen-sim-plots.mjs`, dir, `${ROOT}pkg`], {
      cwd: ROOT,
      encoding: "utf8",
    });
  const [a, b] = [mkdtempSync(join(tmpdir(), "prflow-plots-")), mkdtempSync(join(tmpdir(), "prflow-plots-"))];
  gen(a);
  gen(b);
  const names = readdirSync(a).sort();
  assert.deepStrictEqual(names, ["sim-queue-landings.svg", "sim-review-sweep.svg", "sim-review-waits.svg"]);
  for (const n of names) {
    const svg = readFileSync(join(a, n), "utf8");
    assert.equal(svg, readFileSync(join(b, n), "utf8"), n);
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox=/);
    assert.ok(svg.trimEnd().endsWith("</svg>"));
  }
  assert.match(readFileSync(join(a, "sim-review-waits.svg"), "utf8"), /least-loaded push/);
  assert.match(readFileSync(join(a, "sim-review-sweep.svg"), "utf8"), /article 41/);
  assert.match(readFileSync(join(a, "sim-queue-landings.svg"), "utf8"), /one at a time \(skip-ci\)/);
});

test("cli sim queue: the worker's policies, bursty arrivals and a CI range, with the worker's figures in JSON", async () => {
  const r = await runCli([
    "sim",
    "queue",
    "--seed",
    "5",
    "--seeds",
    "2",
    "--days",
    "2",
    "--day-hours",
    "24",
    "--arrivals",
    "burst:8/15m",
    "--ci",
    "15-25",
    "--batch-size",
    "8",
    "--speculate",
    "2",
    "--policies",
    "chain-serial,chain-batch,chain-adaptive",
    "--sweep-ci",
    "",
    "--sweep-failures",
    "",
    "--sweep-flakes",
    "",
    "--failure-rate",
    "0.05",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  // The same run is pinned natively: the flags read as the fixture's parameters.
  assert.deepStrictEqual(report, fixture("queue-chain-seed5.json").expect);
  for (const o of report.policies)
    for (const k of ["landedPerDay", "ciRunsPerLanded", "falseEjectionsPer100", "p50WaitMinutes", "p95WaitMinutes"])
      assert.equal(typeof o[k], "number", `${o.policy}.${k}`);
  const bad = await runCli(["sim", "queue", "--arrivals", "8/15"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--arrivals: expected burst:N\/Mm/);
});
