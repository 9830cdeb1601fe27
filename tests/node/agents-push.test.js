// `prflow push-fixed-pr` on the emulator with real git: skip-ci goes on before the push (so the push
// runs no matrix), the push is leased at the claimed head, and the claim is resolved after, handing the
// pull request back to the worker; a lost lease is one line and nothing after it is written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, gitRepo, labels, ownComments, setAsideConflict } from "./lib/agents.js";

/** In the clone: the branch rebased onto main with the conflict resolved by taking both sides' intent. */
async function resolveInClone(dir, branch) {
  await git(dir, ["fetch", "--quiet", "origin"]);
  await git(dir, ["checkout", "--quiet", "-B", branch, `origin/${branch}`]);
  const r = await git(dir, ["rebase", "origin/main"], { allowFail: true });
  assert.notEqual(r.code, 0, "the rebase conflicts, as the worker found");
  writeFileSync(join(dir, "src/a.rs"), "resolved by hand\n");
  await git(dir, ["add", "src/a.rs"]);
  await git(dir, ["-c", "core.editor=true", "rebase", "--continue"]);
  return (await git(dir, ["rev-parse", "HEAD"])).stdout;
}

test("push-fixed-pr: skip-ci on before the push, the fix pushed with its lease, no matrix run for it, the claim resolved and the worker owns it again", async (t) => {
  const { gh, dir, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  const claimed = await prflow(["claim-pr", String(n), "--by", "fixer-1"]);
  assert.equal(claimed.code, 0, claimed.stdout + claimed.stderr);
  const fixed = await resolveInClone(dir, "agent/c");

  const refused = await prflow(["push-fixed-pr", String(n), "--by", "fixer-2"]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /^prflow: push-fixed-pr #\d+: #\d+ is claimed by fixer-1, not fixer-2$/m);

  const since = gh.events.length;
  const r = await prflow(["push-fixed-pr", String(n), "--by", "fixer-1"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(gh.state.pull(n).headSha, fixed, "the fix is the head");
  const events = gh.events
    .slice(since)
    .filter((e) => e.name === "pull_request")
    .map((e) => `${e.action}${e.payload.label ? ` ${e.payload.label.name}` : ""}`);
  assert.deepEqual(events, ["labeled skip-ci", "synchronize"], "skip-ci on BEFORE the push, nothing else");
  assert.ok(labels(gh, n).includes("skip-ci"));
  const usage = gh.ci.usage({ number: n }).heads[fixed];
  assert.equal(usage?.runs ?? 0, 0, "the push under skip-ci ran no matrix");
  const [claim] = ownComments(gh, n, "<!-- prflow:resolved was=claim");
  assert.match(
    claim,
    new RegExp(`Resolved: fix pushed by fixer-1 as ${fixed.slice(0, 7)}; the worker has it again\\.$`),
  );
  const report = JSON.parse((await prflow(["report", "--format", "json"])).stdout);
  assert.equal(
    report.entries.find((e) => e.number === n).owner,
    "worker",
    "the set-aside no longer stands at the new head",
  );
  assert.deepEqual(gh.validationFailures, []);
});

test("push-fixed-pr: a lost lease is one line naming the push, and nothing after it is written (the claim stays as it was)", async (t) => {
  const { gh, dir, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  assert.equal((await prflow(["claim-pr", String(n), "--by", "fixer-1"])).code, 0);
  await resolveInClone(dir, "agent/c");
  // Someone pushes to the branch between the fixer's read and its push (as skip-ci goes on).
  let moved = null;
  gh.workflows.on("pull_request", (_name, payload) => {
    if (moved || payload.action !== "labeled" || payload.label?.name !== "skip-ci") return;
    moved = gh.push(n, { by: "agent-2" }).headSha;
  });
  const claimBefore = ownComments(gh, n, "<!-- prflow:claim");
  const r = await prflow(["push-fixed-pr", String(n), "--by", "fixer-1"]);
  assert.ok(moved, "the branch moved under the fixer");
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const lines = r.stderr
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("prflow:"));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(
    lines[0],
    /^prflow: push-fixed-pr #\d+: push: the lease at [0-9a-f]{7} was lost: agent\/c moved since it was read; nothing else written$/,
  );
  assert.equal(gh.state.pull(n).headSha, moved, "git kept the other push");
  assert.deepEqual(ownComments(gh, n, "<!-- prflow:claim"), claimBefore, "the claim comment was not rewritten");
  assert.deepEqual(ownComments(gh, n, "<!-- prflow:resolved"), []);
  assert.deepEqual(gh.validationFailures, []);
});
