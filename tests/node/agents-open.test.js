// `prflow open-pr` on the emulator with real git: a stack of three opened with --base, each layer based
// on the one below, naming it in Merge-After:, every layer under skip-ci with auto-rebase (the bottom
// one given it when the second layer is opened), nothing armed; a dry run writes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { gitRepo, pushBranch, labels } from "./lib/agents.js";

test("open-pr --base builds a stack of three: bases, Merge-After: trailers, skip-ci and auto-rebase on every layer, merge-queued, nothing armed", async (t) => {
  const { gh, dir, prflow } = await gitRepo(t);
  await pushBranch(dir, "agent/l1", "origin/main", "src/one.rs", "one\n");
  await pushBranch(dir, "agent/l2", "agent/l1", "src/two.rs", "two\n");
  await pushBranch(dir, "agent/l3", "agent/l2", "src/three.rs", "three\n");

  const opened = [];
  for (const [head, base] of [
    ["agent/l1", null],
    ["agent/l2", "agent/l1"],
    ["agent/l3", "agent/l2"],
  ]) {
    const r = await prflow([
      "open-pr",
      "--title",
      `Layer ${head.slice(-1)}`,
      "--body",
      `The ${head} layer.`,
      "--head",
      head,
      ...(base ? ["--base", base] : []),
      "--queue",
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const m = /^#(\d+): opened/.exec(r.stdout);
    assert.ok(m, r.stdout);
    opened.push(Number(m[1]));
  }
  const [n1, n2, n3] = opened;
  const pr = (n) => gh.state.pull(n);
  assert.deepEqual([pr(n1).baseRef, pr(n2).baseRef, pr(n3).baseRef], ["main", "agent/l1", "agent/l2"]);
  assert.equal(pr(n1).body, "The agent/l1 layer.\n", "the bottom layer names nothing");
  assert.equal(pr(n2).body, `The agent/l2 layer.\n\nMerge-After: #${n1}\n`);
  assert.equal(pr(n3).body, `The agent/l3 layer.\n\nMerge-After: #${n2}\n`);
  for (const n of opened) {
    assert.deepEqual(labels(gh, n), ["auto-rebase", "merge-queued", "skip-ci"], `#${n}'s labels`);
    assert.ok(!pr(n).autoMerge, `#${n} is not armed: only the worker arms`);
  }
  // Each layer's files are its own: git says so from the branches pushed.
  assert.deepEqual(pr(n2).files, ["src/two.rs"]);

  // The queue reads the stack as the worker will land it: bottom first, the others waiting on the layer below.
  const report = JSON.parse((await prflow(["report", "--format", "json"])).stdout);
  const entry = (n) => report.entries.find((e) => e.number === n);
  assert.equal(entry(n1).owner, "worker");
  assert.match(JSON.stringify(entry(n2)), new RegExp(`#${n1}`));
  assert.deepEqual(gh.validationFailures, []);
});

test("open-pr: a dry run opens nothing; a --base with no open pull request and a branch already open are one-line errors", async (t) => {
  const { gh, dir, prflow } = await gitRepo(t);
  await pushBranch(dir, "agent/x", "origin/main", "src/x.rs", "x\n");
  const pulls = () => [...gh.state.pulls.values()].filter((p) => p.isPull).length;

  const dry = await prflow(["open-pr", "--title", "X", "--head", "agent/x", "--queue", "--dry-run"]);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /open `agent\/x` onto `main` with skip-ci, merge-queued \(dry run: nothing written\)/);
  assert.equal(pulls(), 0);

  const nowhere = await prflow(["open-pr", "--title", "X", "--head", "agent/x", "--base", "agent/nowhere"]);
  assert.equal(nowhere.code, 1);
  assert.equal(
    nowhere.stderr
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("prflow:")).length,
    1,
    nowhere.stderr,
  );
  assert.match(
    nowhere.stderr,
    /prflow: open-pr: --base agent\/nowhere is neither the default branch `main` nor an open pull request's branch/,
  );

  assert.equal((await prflow(["open-pr", "--title", "X", "--head", "agent/x"])).code, 0);
  const again = await prflow(["open-pr", "--title", "X", "--head", "agent/x"]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /prflow: open-pr: `agent\/x` already has an open pull request: #\d+/);
  assert.equal(pulls(), 1);
  assert.deepEqual(gh.validationFailures, []);
});
