// `prflow queue` against the emulator on real git: the engine's cycle step decides, the shell rebases in
// a throwaway worktree, pushes leased against the head the survey saw, arms auto-merge and takes
// `skip-ci` off after its guards are read again; a real conflict is set aside with its comment and the
// next candidate is moved in the same cycle; nothing is left in the worktree directory.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setup } from "./lib/setup.js";
import { makeOctokit } from "../../lib/github/index.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue, stamp } from "../../lib/queue/worker.js";
import { createEngine } from "../../js/node.js";

const OPTIONS = {
  dryRun: false,
  autoFix: true,
  activeInterval: 30,
  idleAfter: 10,
  idleInterval: 300,
  pollInterval: 30,
};

/** A repository on git with auto-merge, and `go`: the worker run until `until` holds (at most 40 steps). */
async function worker(t) {
  const { gh, dir: stateDir } = await setup(t, { git: true, dir: "queue-worker" });
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(["ci"], { strict: true });
  const octokit = makeOctokit({ token: gh.personalToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl });
  const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir });
  const lines = [];
  // Waiting advances the emulator's clock, so GitHub's UNKNOWN merge state settles as it would.
  const sleep = async (ms) => gh.clock.advance(ms);
  // At most 40 steps: a loop that never reaches what the test waits for fails rather than hangs.
  const go = (until) => {
    let steps = 0;
    return runQueue({
      gh: { octokit, owner: gh.owner, repo: gh.repo },
      g,
      engine: createEngine(),
      options: OPTIONS,
      log: (l) => lines.push(l),
      sleep,
      stopWhen: (out, facts) => until(out, facts) || ++steps >= 40,
    });
  };
  return { gh, g, go, lines, stateDir };
}

const behind = async (gh, branch) =>
  (
    await fetch(`${gh.url}/repos/${gh.owner}/${gh.repo}/compare/main...${branch}`, {
      headers: { authorization: `token ${gh.personalToken}` },
    }).then((r) => r.json())
  ).behind_by;

test("a queued pull request behind main is rebased onto it, pushed, armed and released, then watched", async (t) => {
  const { gh, go, lines, stateDir } = await worker(t);
  const pr = gh.createPull({
    title: "one",
    head: "agent/one",
    files: ["src/a.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  const before = pr.headSha;
  gh.moveBranch("main");
  assert.ok((await behind(gh, "agent/one")) > 0, "the branch starts behind main");
  const { wait } = await go((out) => out.wait.kind === "poll");
  assert.deepEqual(wait, { kind: "poll", number: pr.number, afterSeconds: 30 });
  const after = gh.state.pull(pr.number);
  assert.notEqual(after.headSha, before, "the branch was pushed");
  assert.equal(await behind(gh, "agent/one"), 0, "the pushed head is built on main's tip");
  assert.ok(!after.labels.includes("skip-ci"), "released: skip-ci is off");
  assert.ok(after.labels.includes("merge-queued"));
  assert.ok(after.autoMerge, "armed before it was released");
  assert.ok(
    lines.some((l) => l.includes(`#${pr.number} released`)),
    lines.join("\n"),
  );
  assert.deepEqual(readdirSync(join(stateDir, "worktrees")), [], "no worktree is left behind");
  // The token went to each fetch and push on a pipe, never into the clone's config, which a command
  // run in a worktree (autoFix, a fixer's AI) could read: the clone has no remote at all.
  const config = readFileSync(join(stateDir, "repo.git", "config"), "utf8");
  assert.doesNotMatch(config, /url =/);
  assert.ok(!config.includes(gh.personalToken) && !config.includes("x-access-token"), config);
  assert.deepEqual(gh.validationFailures, []);
});

test("the survey reads which paused branches are built on the tip from git (one fetch), not one compare request each", async (t) => {
  const { gh, go } = await worker(t);
  // #1 holds the queue (released: its CI never finishes here); three wait under skip-ci, the first of
  // them cut before main moved: the survey must say which are built on the tip.
  gh.createPull({ title: "in flight", head: "agent/a", files: ["src/a.rs"], labels: ["merge-queued"] });
  const b = gh.createPull({
    title: "waiting b",
    head: "agent/b",
    files: ["src/b.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.moveBranch("main");
  const c = gh.createPull({
    title: "waiting c",
    head: "agent/c",
    files: ["src/c.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  const since = gh.requests.length;
  let seen = null;
  await go((out, facts) => {
    seen = facts;
    return true;
  });
  const built = (n) => seen.pullRequests.find((p) => p.number === n).builtOnBaseTip;
  assert.deepEqual([built(b.number), built(c.number)], [false, true], "git's answer for each paused branch");
  const asked = gh.requests.slice(since);
  assert.deepEqual(
    asked.filter((r) => /\/compare\//.test(r.path ?? "")).map((r) => r.path),
    [],
    "no compare request: git answered",
  );
  assert.deepEqual(gh.validationFailures, []);
});

test("a real conflict (picked first: priority:high) is set aside with its comment naming the file, and the next candidate is released in the same cycle", async (t) => {
  const { gh, go, stateDir } = await worker(t);
  const bad = gh.createPull({
    title: "clash",
    head: "agent/clash",
    files: ["src/c.rs"],
    labels: ["merge-queued", "skip-ci", "priority:high"],
    conflicting: true,
  });
  const badHead = bad.headSha;
  const good = gh.createPull({
    title: "fine",
    head: "agent/fine",
    files: ["src/d.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  await go((out) => out.wait.kind === "poll");
  const comments = await fetch(`${gh.url}/repos/${gh.owner}/${gh.repo}/issues/${bad.number}/comments`, {
    headers: { authorization: `token ${gh.personalToken}` },
  }).then((r) => r.json());
  assert.equal(comments.length, 1, "one set-aside comment");
  const body = comments[0].body;
  assert.match(body, /prflow:set-aside reason=rebase-failed/, body);
  assert.match(body, /src\/c\.rs/);
  assert.match(body, /Retry/);
  assert.equal(gh.state.pull(bad.number).headSha, badHead, "the conflicting branch was not pushed");
  assert.ok(!gh.state.pull(good.number).labels.includes("skip-ci"), "the next candidate was released");
  assert.ok(existsSync(stateDir));
  assert.deepEqual(readdirSync(join(stateDir, "worktrees")), []);
});

test("log lines are stamped with local time, milliseconds and the offset from UTC", () => {
  assert.match(stamp(new Date("2026-09-27T12:03:04.500Z")), /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.500[+-]\d\d:\d\d\]$/);
});
