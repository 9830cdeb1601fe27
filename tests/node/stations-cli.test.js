// The stations commands as a user runs them, against the emulator: `prflow claim` prints one line a
// script can `case` on and writes only without --dry-run; `prflow station --once` posts the AI's
// first pass as a COMMENT review; `prflow gate classify` settles a docs-only change by itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PRESET_CONFIG, prflow } from "./lib/cli.js";
import { setup } from "./lib/setup.js";

const _ROOT = fileURLToPath(new URL("../..", import.meta.url));
const STATION_TOKEN = "ghp_stationM4token0000000000000000000000";
const config = {
  flow: "stations",
  stations: {
    machines: { m1: { role: "dev", logins: ["agent-m1"] }, m4: { role: "review", logins: ["review-bot"] } },
    settleSeconds: 0,
  },
};

/** The stations repository and `run`: `prflow ARGS --config` its config, as the review station by default. */
async function stationsRepo(t) {
  const { gh, dir } = await setup(t, {
    owner: "acme",
    repo: "widgets",
    seed: "stations-cli",
    tokens: { "review-bot": STATION_TOKEN },
    config,
    dir: "stations",
  });
  const configPath = join(dir, "prflow.json");
  writeFileSync(configPath, JSON.stringify(config));
  const run = (args, token = STATION_TOKEN) =>
    prflow([...args, "--config", configPath], { PRFLOW_TIME_SCALE: "0.001", ...gh.env(token) });
  return { gh, run };
}

const usageCases = [
  {
    rule: "claim needs a known role",
    args: ["claim", "reviewer", "m4"],
    err: /role: expected review, dev, any, found "reviewer"/,
  },
  { rule: "claim needs one machine", args: ["claim", "review"], err: /expected one machine id after the role/ },
  {
    rule: "station needs an AI command",
    args: ["station", "m4", "--repo", "a/b", "--config", PRESET_CONFIG],
    err: /no AI command: pass --ai/,
  },
  {
    rule: "gate report needs the tested sha and the result",
    args: ["gate", "report", "3", "--repo", "a/b"],
    err: /report needs --sha and --result/,
  },
];
for (const c of usageCases) {
  test(`stations cli usage: ${c.rule}`, async () => {
    const r = await prflow(c.args, { GITHUB_TOKEN: "x" });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, c.err);
  });
}

test("stations cli: claim prints one line; --dry-run writes nothing; the WIP limit stops it", async (t) => {
  const { gh, run } = await stationsRepo(t);
  for (let i = 0; i < 3; i++) {
    gh.createPull({ author: "agent-m1", labels: ["from:m1", "state:ready-for-review"] });
    gh.clock.advance({ minutes: 1 });
  }
  const before = gh.counts().writes;
  let r = await run(["claim", "review", "m4", "--repo", "acme/widgets", "--dry-run"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "claim #1\n");
  assert.equal(gh.counts().writes, before, "a dry run writes nothing");
  const lines = [];
  for (let i = 0; i < 3; i++) {
    r = await run(["claim", "review", "m4", "--repo", "acme/widgets"]);
    assert.equal(r.code, 0, r.stderr);
    lines.push(r.stdout.trim());
  }
  assert.deepEqual(lines, ["claim #1", "claim #2", "wip-full 2/2"]);
  assert.ok(gh.state.pull(1).labels.includes("reviewer:m4"));
  assert.ok(!gh.state.pull(1).labels.includes("state:ready-for-review"), "the winner takes it out of the queue");
  r = await run(["claim", "dev", "m1", "--repo", "acme/widgets"]);
  assert.equal(r.stdout, "wip-full 3/2\n");
  assert.deepEqual(gh.validationFailures, []);
});

test("stations cli: claim dev answers stop-the-line while the queue has waited past its level, and stops when it drains", async (t) => {
  const { gh, run } = await stationsRepo(t);
  gh.createPull({ author: "agent-m2", labels: ["from:m2", "state:ready-for-review"] });
  const answers = [];
  const ask = async () => {
    const r = await run(["claim", "dev", "m1", "--repo", "acme/widgets"]);
    assert.equal(r.code, 0, r.stderr);
    answers.push(r.stdout.trim());
    return r;
  };
  await ask();
  gh.clock.advance({ minutes: 241 });
  const stopped = await ask();
  assert.match(
    stopped.stderr,
    /#1 has waited 4 h 1 min in `state:ready-for-review`/,
    "the log says which pull request holds the line",
  );
  const claimed = await run(["claim", "review", "m4", "--repo", "acme/widgets"]);
  assert.equal(claimed.stdout, "claim #1\n", claimed.stderr);
  await ask();
  assert.deepEqual(answers, ["new-work", "stop-the-line", "new-work"]);
  assert.deepEqual(gh.validationFailures, []);
});

test("stations cli: station --once posts a COMMENT review, and /changes only when BLOCKING", async (t) => {
  const { gh, run } = await stationsRepo(t);
  gh.createPull({ author: "agent-m1", labels: ["from:m1"], files: ["src/a.rs"] });
  gh.clock.advance({ minutes: 1 });
  gh.createPull({ author: "agent-m1", labels: ["from:m1"], files: ["src/b.rs"] });
  gh.clock.advance({ minutes: 1 });
  const passing = "cat >/dev/null; echo 'FIRST PASS: no mechanical problems found; a person decides.'";
  let r = await run(["station", "m4", "--once", "--ai", passing, "--repo", "acme/widgets"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "claim #1\n");
  const blocking = "cat >/dev/null; printf 'BLOCKING: no test for b\\n'";
  r = await run(["station", "m4", "--once", "--ai", blocking, "--repo", "acme/widgets"]);
  assert.equal(r.stdout, "claim #2\n", r.stderr);
  const reviews = [1, 2].flatMap((n) => gh.state.pull(n).reviews);
  assert.deepEqual(
    reviews.map((x) => [x.author, x.state]),
    [
      ["review-bot", "COMMENTED"],
      ["review-bot", "COMMENTED"],
    ],
  );
  const commands = (n) => gh.state.pull(n).comments.map((id) => gh.state.comments.get(id).body);
  assert.deepEqual(commands(1), [], "no /changes after a clean first pass");
  assert.deepEqual(commands(2), ["/changes"]);
  // #1 waits for a person (reviewing, counts toward the WIP); #2 went back to its author (does not).
  r = await run(["station", "m4", "--once", "--ai", passing, "--repo", "acme/widgets"]);
  assert.equal(r.stdout, "queue-empty\n");
  assert.deepEqual(gh.validationFailures, []);
});

test("stations cli: gate classify settles a docs-only change without the validation machine", async (t) => {
  const { gh, run } = await stationsRepo(t);
  const pr = gh.createPull({
    author: "agent-m1",
    labels: ["from:m1", "state:ready-for-review"],
    files: ["docs/setup.md"],
  });
  gh.clock.advance({ minutes: 1 });
  gh.user("alice", { association: "MEMBER" });
  gh.review(pr.number, { author: "alice", state: "APPROVED" });
  gh.clock.advance({ minutes: 1 });
  const r = await run(["gate", "classify", String(pr.number), "--repo", "acme/widgets"], gh.appToken);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^run=true\nneed=false\nsha=\w+\npr=1\n$/);
  assert.equal(
    gh.state.statusesFor(gh.state.pull(pr.number).headSha).find((s) => s.context === "win-verify")?.state,
    "success",
  );
  assert.ok(gh.state.pull(pr.number).labels.includes("state:ready-to-merge"));
  assert.deepEqual(gh.validationFailures, []);
});
