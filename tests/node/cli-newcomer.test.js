// The CLI as someone new to it runs it against the emulator: from a folder that is not a clone it
// decides with the repository's own config (read through the API, as the page and the Action do) and
// says so; missing labels stop `claim` and `station` before any claim, in both flows; `queue --format
// json` is one JSON object a line; the write rule's deprecation line; options it does not know.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "../../js/node.js";
import { startEmulator } from "../../emulator/index.js";
import { ROOT, runCli } from "./lib/cli.js";

const STATIONS = {
  flow: "stations",
  stations: {
    machines: { m1: { role: "dev", logins: ["agent-m1"] }, m4: { role: "review", logins: ["review-bot"] } },
    settleSeconds: 0,
  },
};

const emptyFolder = () => mkdtempSync(join(tmpdir(), "prflow-newcomer-"));

async function board(t, { config, labels = config ?? {}, git = false } = {}) {
  const gh = await startEmulator({ seed: "newcomer", git });
  t.after(() => gh.close());
  if (config) gh.setFile(".github/prflow.json", JSON.stringify(config));
  if (labels) for (const l of createEngine(JSON.stringify(labels)).labelCatalog().labels) gh.createLabel(l);
  const cwd = emptyFolder();
  const run = (args, env = {}) => runCli(args, { cwd, env: { ...gh.env(), PRFLOW_TIME_SCALE: "0.001", ...env } });
  return { gh, cwd, run };
}

test("newcomer: from an empty folder, status decides with the repository's config and names it; the same answer as that file given with --config", async (t) => {
  const { gh, cwd, run } = await board(t, { config: STATIONS });
  gh.createPull({ author: "agent-m1", labels: ["from:m1", "state:ready-for-review"] });
  gh.createPull({ author: "agent-m1", labels: ["from:m1", "state:dev"] });
  const repoRun = await run(["status", "--repo", "acme/widgets", "--format", "json"]);
  assert.equal(repoRun.code, 0, repoRun.stderr);
  assert.match(repoRun.stderr, /^config: \.github\/prflow\.json of acme\/widgets \(its default branch\)$/m);
  // The Action reads the same file from its checkout: given as --config, the view is the same.
  writeFileSync(join(cwd, "stations.json"), JSON.stringify(STATIONS));
  const fileRun = await run(["status", "--repo", "acme/widgets", "--format", "json", "--config", "stations.json"]);
  assert.match(fileRun.stderr, /^config: stations\.json \(--config, a local file\)$/m);
  assert.deepEqual(JSON.parse(repoRun.stdout).rows, JSON.parse(fileRun.stdout).rows);
  // And not the preset's answer: the preset would read this board differently.
  writeFileSync(join(cwd, "preset.json"), "{}");
  const presetRun = await run(["status", "--repo", "acme/widgets", "--format", "json", "--config", "preset.json"]);
  assert.notDeepEqual(JSON.parse(presetRun.stdout).rows, JSON.parse(repoRun.stdout).rows);
});

test("newcomer: reconcile from an empty folder plans what the Action plans from its checkout of the same config", async (t) => {
  const { gh, run } = await board(t, { config: STATIONS });
  gh.createPull({ author: "agent-m1", labels: ["from:m1"] });
  gh.createPull({ author: "agent-m1", labels: ["from:m1", "state:dev"], draft: false });
  const cli = await run(["reconcile", "--repo", "acme/widgets", "--format", "json"]);
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stderr, /^config: \.github\/prflow\.json of acme\/widgets \(its default branch\)$/m);
  const ws = emptyFolder();
  mkdirSync(join(ws, ".github"));
  writeFileSync(join(ws, ".github", "prflow.json"), JSON.stringify(STATIONS));
  const action = await gh.runAction({
    actionPath: ROOT,
    event: "schedule",
    payload: { schedule: "17,47 * * * *" },
    inputs: { mode: "reconcile", live: "false" },
    workspace: ws,
  });
  assert.equal(action.code, 0, action.stdout + action.stderr);
  const ops = (plan) => plan.ops.map((op) => JSON.stringify(op)).sort();
  const cliPlan = JSON.parse(cli.stdout).plan;
  assert.ok(cliPlan.ops.length > 0, "the stations config has something to say here");
  assert.deepEqual(ops(cliPlan), ops(JSON.parse(action.outputs.plan)));
  // The preset, which the CLI used to fall back to here, plans otherwise.
  writeFileSync(join(ws, "preset.json"), "{}");
  const preset = await run([
    "reconcile",
    "--repo",
    "acme/widgets",
    "--format",
    "json",
    "--config",
    join(ws, "preset.json"),
  ]);
  assert.notDeepEqual(ops(JSON.parse(preset.stdout).plan), ops(cliPlan));
});

test("newcomer: a local .github/prflow.json is never read in place of the repository's, and the line says how to try it", async (t) => {
  const { gh, cwd, run } = await board(t, { config: null, labels: {} });
  gh.createPull({ author: "agent-m1" });
  mkdirSync(join(cwd, ".github"));
  writeFileSync(join(cwd, ".github", "prflow.json"), JSON.stringify(STATIONS));
  const r = await run(["reconcile", "--repo", "acme/widgets", "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /^config: acme\/widgets has no \.github\/prflow\.json on its default branch: the bot-panel preset \(the \.github\/prflow\.json in this folder is not read; --config \.github\/prflow\.json tries it\)$/m,
  );
  assert.equal(r.stderr.match(/^config:/gm).length, 1, "said once");
});

const stopCases = [
  { flow: "stations", config: STATIONS, args: ["claim", "review", "m4", "--live"] },
  { flow: "stations", config: STATIONS, args: ["station", "m4", "--once", "--ai", "true", "--live"] },
  { flow: "bot-panel", config: null, labels: {}, args: ["claim", "review", "m4", "--live"] },
  { flow: "bot-panel", config: null, labels: {}, args: ["station", "m4", "--once", "--ai", "true", "--live"] },
];
for (const c of stopCases) {
  test(`newcomer: ${c.args[0]} under the ${c.flow} flow with its labels missing stops before any claim: one line naming prflow labels --live, exit 1`, async (t) => {
    // The stations flow's labels are not there (none at all, or only the bot-panel ones).
    const { gh, run } = await board(t, { config: c.config, labels: c.labels ?? null });
    gh.createPull({ author: "agent-m1", labels: [] });
    gh.reset();
    const before = gh.counts().writes;
    const r = await run([...c.args, "--repo", "acme/widgets"]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, "", "no queue-empty");
    const errors = r.stderr.split("\n").filter((l) => l.startsWith("prflow:"));
    assert.equal(errors.length, 1, r.stderr);
    assert.match(errors[0], /^prflow: claim: .*`prflow labels --repo acme\/widgets --live`, then claim again$/);
    assert.doesNotMatch(r.stderr, /lost #|trying the next one/);
    assert.equal(gh.counts().writes, before, "no claim attempted");
  });
}

test("newcomer: queue --format json is one JSON object a line, one per event", async (t) => {
  const config = { queue: {} };
  const { gh, cwd } = await board(t, { config, git: true });
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(["ci"], { strict: true });
  gh.createPull({ title: "one", head: "agent/one", files: ["src/a.rs"], labels: ["merge-queued", "skip-ci"] });
  gh.advance({ minutes: 2 });
  const env = {
    ...gh.env(gh.personalToken),
    GH_TOKEN: gh.personalToken,
    PRFLOW_GIT_URL: gh.url,
    XDG_STATE_HOME: cwd,
    HOME: cwd,
  };
  const r = await runCli(["queue", "--repo", "acme/widgets", "--once", "--dry-run", "--format", "json"], { cwd, env });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.ok(lines.length >= 3, r.stdout);
  const events = lines.map((l) => JSON.parse(l));
  for (const e of events) {
    assert.equal(typeof e.at, "string");
    assert.ok(!Number.isNaN(Date.parse(e.at)), e.at);
    assert.equal(typeof e.event, "string");
  }
  assert.match(events[0].event, /^config: \.github\/prflow\.json of acme\/widgets/);
  assert.ok(
    events.some((e) => /^dry run: would rebase #1 onto main/.test(e.event)),
    r.stdout,
  );
});

test("newcomer: a command that wrote by default still writes without --live, saying it is deprecated; --dry-run writes nothing", async (t) => {
  const { gh, run } = await board(t, { config: STATIONS });
  gh.createPull({ author: "agent-m1", labels: ["from:m1", "state:ready-for-review"] });
  const dry = await run(["claim", "review", "m4", "--repo", "acme/widgets", "--dry-run"]);
  assert.equal(dry.stdout, "claim #1\n");
  assert.doesNotMatch(dry.stderr, /deprecated/);
  assert.ok(!gh.state.pull(1).labels.includes("reviewer:m4"));
  const old = await run(["claim", "review", "m4", "--repo", "acme/widgets"]);
  assert.equal(old.code, 0, old.stderr);
  assert.equal(old.stdout, "claim #1\n");
  assert.match(old.stderr, /^prflow claim: writing without --live is deprecated; add --live to write/m);
  assert.ok(gh.state.pull(1).labels.includes("reviewer:m4"), "still written, as agents expect");
});

const usageCases = [
  {
    rule: "an unknown option names the command's options",
    args: ["status", "--colour"],
    line: /^prflow: --colour: `prflow status` has no such option; it takes --repo, --facts, /,
  },
  {
    rule: "an option missing its value",
    args: ["status", "--repo"],
    line: /^prflow: --repo: expected a value after it, found none$/m,
  },
  {
    rule: "a switch given a value",
    args: ["labels", "--live=yes", "--repo", "a/b"],
    line: /^prflow: --live: takes no value \(it is on or off\)$/m,
  },
  {
    rule: "--live with --dry-run",
    args: ["claim", "review", "m4", "--live", "--dry-run", "--repo", "a/b"],
    line: /^prflow: --live and --dry-run contradict each other; pick one$/m,
  },
  {
    rule: "sim with no stations",
    args: ["sim", "review", "--stations", "0", "--seed", "1"],
    line: /^prflow: --stations: /,
  },
];
for (const c of usageCases) {
  test(`newcomer usage: ${c.rule} is our words and exit 2`, async () => {
    const r = await runCli(c.args, { cwd: emptyFolder(), env: { GITHUB_TOKEN: "x" } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, c.line);
    assert.doesNotMatch(r.stderr, /Unknown option|ERR_PARSE_ARGS|argument missing/);
  });
}
