// The `prflow` command: usage errors are clear and exit 2, a dry run is the default and writes nothing,
// --live writes, and `plan` works offline on a facts file. Runs cli/prflow.js as a user would, against the
// GitHub emulator via GITHUB_API_URL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, copyFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { APP_TOKEN, startEmulator } from "../../emulator/index.js";
import { seedBoard } from "../../scripts/lib/seed-emulator.mjs";
import { demoFacts } from "../../scripts/lib/demo-board.mjs";
import { prflow } from "./lib/cli.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const usageCases = [
  {
    rule: "no command prints the list of commands on stderr, a usage error",
    args: [],
    code: 2,
    err: /commands:\n\s+claim[\s\S]*claim-pr[\s\S]*fixer[\s\S]*gate[\s\S]*labels[\s\S]*open-pr[\s\S]*plan[\s\S]*push-fixed-pr[\s\S]*queue[\s\S]*reconcile[\s\S]*report[\s\S]*report-unowned[\s\S]*station[\s\S]*sweep/,
  },
  {
    rule: "an unknown command names the known ones",
    args: ["sweep-all"],
    code: 2,
    err: /unknown command "sweep-all"; commands: claim, claim-pr, fixer, gate, labels, open-pr, plan, push-fixed-pr, queue, reconcile, report, report-unowned, sim, station, status, sweep/,
  },
  {
    rule: "an unknown option shows the usage",
    args: ["reconcile", "--bogus"],
    code: 2,
    err: /^prflow: --bogus: `prflow reconcile` has no such option; it takes --repo, --config, [^\n]*\n\(`prflow help reconcile`/,
  },
  {
    rule: "a repository must be owner/name",
    args: ["reconcile", "--repo", "widgets"],
    code: 2,
    err: /--repo: expected owner\/name, found "widgets"/,
  },
  {
    rule: "--live and --dry-run contradict",
    args: ["labels", "--repo", "a/b", "--live", "--dry-run"],
    code: 2,
    err: /--live and --dry-run contradict/,
  },
  {
    rule: "no token is a usage error, not a 401",
    args: ["reconcile", "--repo", "a/b"],
    code: 2,
    err: /no token: set GH_TOKEN or GITHUB_TOKEN/,
  },
  { rule: "plan needs exactly one facts file", args: ["plan"], code: 2, err: /expected one facts file, found 0/ },
  {
    rule: "a missing facts file names the file",
    args: ["plan", "nope.json"],
    code: 1,
    err: /nope\.json: \$: expected a JSON facts file, found no such file/,
  },
];

for (const c of usageCases) {
  test(`cli usage: ${c.rule}`, async () => {
    const r = await prflow(c.args);
    assert.equal(r.code, c.code, r.stdout + r.stderr);
    if (c.out) assert.match(r.stdout, c.out);
    if (c.err) assert.match(r.stderr, c.err);
  });
}

test("cli plan: a facts file is planned offline, with the board's words", async () => {
  const dir = mkdtempSync(join(tmpdir(), "prflow-cli-"));
  writeFileSync(join(dir, "facts.json"), JSON.stringify(demoFacts()));
  const r = await prflow(
    ["plan", "facts.json", "--config", join(ROOT, "examples/prflow.json"), "--json"],
    {},
    { cwd: dir },
  );
  assert.equal(r.code, 0, r.stderr);
  const plan = JSON.parse(r.stdout);
  assert.equal(plan.pulls.length, demoFacts().pullRequests.length);
  assert.ok(plan.ops.length > 0);
});

test("cli reconcile and labels: a dry run by default writes nothing; --live writes; the second --live run writes nothing", async () => {
  const em = await startEmulator();
  try {
    seedBoard(em, 12);
    const cwd = mkdtempSync(join(tmpdir(), "prflow-cli-"));
    mkdirSync(join(cwd, ".github"));
    copyFileSync(join(ROOT, "examples/prflow.json"), join(cwd, ".github/prflow.json"));
    const env = {
      GITHUB_TOKEN: APP_TOKEN,
      GITHUB_API_URL: em.url,
      GITHUB_GRAPHQL_URL: em.graphqlUrl,
      PRFLOW_TIME_SCALE: "0.001",
    };
    const steps = [
      {
        rule: "labels, dry run by default",
        args: ["labels", "--repo", "acme/widgets"],
        writes: 0,
        out: /would create/,
      },
      { rule: "labels --live creates them", args: ["labels", "--repo", "acme/widgets", "--live"], writesAtLeast: 1 },
      {
        rule: "reconcile, dry run by default",
        args: ["reconcile", "--repo", "acme/widgets"],
        writes: 0,
        out: /dry run: nothing was written[\s\S]*Would change/,
      },
      {
        rule: "reconcile --live --numbers 3 writes only #3",
        args: ["reconcile", "--repo", "acme/widgets", "--live", "--numbers", "3"],
        writes: 1,
        out: /^#3 /m,
      },
      {
        rule: "reconcile --live writes the rest",
        args: ["reconcile", "--repo", "acme/widgets", "--live"],
        writesAtLeast: 1,
      },
      {
        rule: "reconcile --live again writes nothing",
        args: ["reconcile", "--repo", "acme/widgets", "--live", "--json"],
        writes: 0,
        json: (o) => assert.equal(o.counts.ops, 0),
      },
    ];
    for (const s of steps) {
      em.reset();
      const r = await prflow(s.args, env, { cwd });
      assert.equal(r.code, 0, `${s.rule}: ${r.stdout}${r.stderr}`);
      const writes = em.counts().writes;
      if (s.writes !== undefined) assert.equal(writes, s.writes, s.rule);
      if (s.writesAtLeast !== undefined) assert.ok(writes >= s.writesAtLeast, `${s.rule}: ${writes} writes`);
      if (s.out) assert.match(r.stdout, s.out, s.rule);
      if (s.json) s.json(JSON.parse(r.stdout));
    }
    assert.deepEqual(em.validationFailures, []);
  } finally {
    await em.settle();
    em.server.closeAllConnections?.();
    await new Promise((resolve) => em.server.close(resolve));
  }
});
