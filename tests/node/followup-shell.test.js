// The follow-up sweep's shell (lib/followup.js, used by `prflow sweep` and the Action's `sweep` mode)
// against the emulator: dry run by default, live writes the ping and the board, a repeat writes nothing,
// a released claim goes back to the queue, and a bad config stops before reading anything.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startEmulator, makeClock } from "../../emulator/index.js";
import { applyOps, makeOctokit } from "../../lib/github/index.js";
import { sweepRun } from "../../lib/followup.js";
import { RunError } from "../../lib/run.js";
import * as prflow from "../../js/node.js";
import { runCli } from "./lib/cli.js";

const CONFIG = {
  followup: { people: { onDuty: "alice", reviewers: ["alice", "bob"], machineOwners: { m1: "carol", m4: "bob" } } },
};

async function repository() {
  const gh = await startEmulator({ clock: makeClock("2026-11-30T09:00:00Z") });
  for (const name of ["state:ready-for-review", "state:reviewing", "from:m1", "reviewer:m4"]) gh.createLabel({ name });
  const octokit = makeOctokit({ token: gh.appToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
  const sweep = ({ live = false, config = CONFIG } = {}) =>
    sweepRun({
      prflow,
      octokit,
      owner: gh.state.owner,
      repo: gh.state.repo,
      configPath: ".github/prflow.json",
      readFile: () => JSON.stringify(config),
      live,
    });
  const stop = async () => {
    gh.server.closeAllConnections?.();
    await new Promise((resolve) => gh.server.close(resolve));
  };
  return { gh, sweep, stop };
}

const comments = (gh, n) => gh.state.pull(n).comments.map((id) => gh.state.comments.get(id));

test("dry run by default; live writes the ping and opens the board; the same sweep again writes nothing", async () => {
  const { gh, sweep, stop } = await repository();
  try {
    const pr = gh.createPull({ title: "Queue me", author: "agent-m1" });
    gh.addLabels(pr.number, ["from:m1", "state:ready-for-review"], { by: "agent-m1" });
    gh.clock.advance({ minutes: 61 });

    const dry = await sweep();
    assert.deepEqual(
      dry.plan.ops.map((o) => o.op),
      ["upsertComment", "upsertBoard"],
      "a ping and the board are due",
    );
    assert.ok(
      dry.results.every((r) => r.outcome === "dry-run"),
      "a dry run only says what it would do",
    );
    assert.equal(gh.counts().writes, 0, "and writes nothing");
    assert.match(dry.summary, /dry run: nothing was written/);

    const live = await sweep({ live: true });
    assert.ok(
      live.results.every((r) => r.outcome === "applied"),
      JSON.stringify(live.results),
    );
    const [ping] = comments(gh, pr.number);
    assert.match(
      ping.body,
      /^<!-- prflow:followup state=state:ready-for-review since=2026-11-30T09:00:00Z level=60 -->\n@alice @bob:/,
    );
    const boards = [...gh.state.pulls.values()].filter((i) => !i.isPull);
    assert.equal(boards.length, 1);
    assert.ok(boards[0].labels.includes("flow:board"), "the board carries its label (created with the issue)");
    assert.match(boards[0].body, /^<!-- prflow:board digest=[0-9a-f]{16} -->/);

    const before = gh.requests.length;
    const again = await sweep({ live: true });
    assert.equal(again.plan.ops.length, 0, "the marker and the board's digest say it is all done");
    assert.equal(gh.counts({ since: before }).writes, 0);
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await stop();
  }
});

test("a claim with no verdict for 180 minutes is released back to the queue, once", async () => {
  const { gh, sweep, stop } = await repository();
  try {
    const pr = gh.createPull({ title: "Claimed and forgotten", author: "agent-m1" });
    gh.addLabels(pr.number, ["from:m1", "state:reviewing", "reviewer:m4"], { by: "station-m4" });
    gh.clock.advance({ minutes: 181 });
    const run = await sweep({ live: true });
    assert.deepEqual(
      run.results.map((r) => r.outcome),
      ["applied", "applied", "applied"],
      "comment, labels, board",
    );
    assert.deepEqual([...gh.state.pull(pr.number).labels].sort(), ["from:m1", "state:ready-for-review"]);
    assert.match(comments(gh, pr.number)[0].body, /\*\*Claim released\.\*\* @bob: `reviewer:m4`/);
    gh.clock.advance({ minutes: 30 });
    const next = await sweep({ live: true });
    assert.deepEqual(
      next.plan.ops.filter((o) => o.op !== "upsertBoard"),
      [],
      "back in the queue: a new stay, nothing due yet",
    );
  } finally {
    await stop();
  }
});

test("a bad config stops the sweep before anything is read, naming the file and the JSON path", async () => {
  const { gh, sweep, stop } = await repository();
  try {
    await assert.rejects(
      sweep({ config: { followup: { workingHours: { zone: "Mars/Olympus" } } } }),
      (e) =>
        e instanceof RunError &&
        /\.github\/prflow\.json: \$\.followup\.workingHours\.zone: expected one of the built-in zones/.test(e.message),
    );
    assert.equal(gh.requests.length, 0, "nothing was read");
  } finally {
    await stop();
  }
});

test("prflow sweep: a dry run from the terminal reports the ping it would write and whether the line is stopped", async () => {
  const { gh, stop } = await repository();
  try {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "prflow-sweep-"));
    writeFileSync(join(dir, "prflow.json"), JSON.stringify(CONFIG));
    const pr = gh.createPull({ title: "Queue me", author: "agent-m1" });
    gh.addLabels(pr.number, ["from:m1", "state:ready-for-review"], { by: "agent-m1" });
    gh.clock.advance({ minutes: 125 });
    const env = { ...gh.env(gh.appToken), PRFLOW_TIME_SCALE: "0.001" };
    const r = await runCli(
      ["sweep", "--repo", `${gh.state.owner}/${gh.state.repo}`, "--config", join(dir, "prflow.json"), "--json"],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.stopTheLine, false, "125 minutes is past escalation, not yet stop-the-line");
    assert.deepEqual(
      out.results.map((x) => x.outcome),
      ["dry-run", "dry-run"],
      "escalation comment and board, not written",
    );
    assert.match(out.plan.ops[0].marker, /level=120/);
    assert.equal(gh.counts().writes, 0);
  } finally {
    await stop();
  }
});

test("the comment writer edits the comment the engine names (commentId) while it still carries its marker, and judges no author itself", async () => {
  const { gh, stop } = await repository();
  try {
    const pr = gh.createPull({ title: "p", author: "agent-m1" });
    const own = gh.comment(pr.number, { author: "github-actions[bot]", body: "<!-- prflow:followup x -->\nold" });
    const octokit = makeOctokit({ token: gh.appToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
    const write = async (extra) =>
      (await applyOps(octokit, [{ ...op, ...extra }], { owner: gh.state.owner, repo: gh.state.repo, live: true }))[0];
    const op = { op: "upsertComment", number: pr.number, marker: "<!-- prflow:followup x -->", reason: "test" };
    // Without the engine's pick the writer creates a comment, even though an own comment carries the marker.
    assert.match((await write({ body: "<!-- prflow:followup x -->\nnew" })).detail, /^commented/);
    assert.equal(comments(gh, pr.number).length, 2);
    const same = await write({ body: own.body, commentId: own.id });
    assert.deepEqual([same.outcome, same.detail], ["unchanged", "the comment already says this"]);
    const edited = await write({ body: "<!-- prflow:followup x -->\nedited", commentId: own.id });
    assert.deepEqual([edited.outcome, edited.detail], ["applied", `updated comment ${own.id}`]);
    assert.equal(gh.state.comments.get(own.id).body, "<!-- prflow:followup x -->\nedited");
    // A person rewrote the comment's first line: it is no longer the one the engine chose, so it is left alone.
    gh.state.editComment(own.id, { body: "my own words now" }, "alice");
    const stale = await write({ body: "<!-- prflow:followup x -->\nagain", commentId: own.id });
    assert.equal(stale.outcome, "guard-failed");
    assert.match(stale.detail, /no longer starts with <!-- prflow:followup x -->/);
    assert.equal(gh.state.comments.get(own.id).body, "my own words now");
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await stop();
  }
});
