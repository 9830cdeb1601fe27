// The fixer station (`prflow fixer`) on the emulator with real git: a conflict set aside by the worker is
// claimed, a scripted AI resolves it in the throwaway worktree from the brief on stdin, and the fix is
// pushed under skip-ci with the claim handed back; an AI that gives up says so on the pull request; a
// generated branch is rebuilt by its command, not by the AI; a fixer that dies holding a claim holds it
// for claimMinutes of the emulator's clock, then the pull request is the fixer role's again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, PRESET_CONFIG } from "./lib/cli.js";
import { gitRepo, labels, ownComments, setAsideConflict } from "./lib/agents.js";

/** The scripted AI: keeps the brief, resolves the conflict the rebase stopped on, finishes the rebase. */
const RESOLVER = `#!/bin/sh
cat > "$BRIEF_OUT"
{ git config --get remote.origin.url; env | grep -c '^G[HI][A-Z_]*TOKEN=' || true; } > "$BRIEF_OUT.seen"
printf 'resolved by the fixer\\n' > src/a.rs
git add src/a.rs
git rebase --continue >/dev/null
`;

test("a fixer claims the set-aside conflict, its scripted AI resolves it in a throwaway worktree, the fix is pushed under skip-ci and the worker owns it again", async (t) => {
  const { gh, work, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  const waiting = gh.createPull({
    title: "waiting its turn",
    head: "agent/w",
    files: ["src/w.rs"],
    labels: ["merge-queued", "skip-ci"],
  }).number;
  writeFileSync(join(work, "ai.sh"), RESOLVER);
  const brief = join(work, "brief.md");
  const before = gh.state.pull(n).headSha;
  const since = gh.events.length;

  const r = await prflow(["fixer", "fixer-1", "--ai", `sh ${join(work, "ai.sh")}`, "--once"], {
    extraEnv: { BRIEF_OUT: brief },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const head = gh.state.pull(n).headSha;
  assert.notEqual(head, before);
  assert.match(
    r.stdout,
    new RegExp(`^#${n}: fix ${head.slice(0, 7)} pushed under skip-ci; the worker has it again$`, "m"),
  );
  // The fix is a rebase onto main's tip with the conflict resolved: git's own history says so.
  assert.equal(gh.git.show(head, "src/a.rs"), "resolved by the fixer");
  assert.equal(gh.git.mergeBase(gh.git.tip("main"), head), gh.git.tip("main"), "built on main's tip");

  const text = readFileSync(brief, "utf8");
  assert.match(text, new RegExp(`^# Fix pull request #${n} \\(\`agent/c\` onto \`main\`\\)`));
  assert.match(text, /## Conflicting files\n\n- src\/a\.rs\n/);
  assert.match(text, /## The set-aside comment\n\n<!-- prflow:set-aside reason=rebase-failed/);
  const tree = /worktree\n\n {4}(\S+)\n/.exec(text)[1];
  assert.ok(tree.startsWith(join(work, "state")), `the worktree is under the state directory: ${tree}`);
  assert.ok(!existsSync(tree), "the throwaway worktree is removed");
  // What the AI command could see of the token: no remote in the clone (git takes the token per fetch
  // and push, on a pipe) and no GH_TOKEN/GITHUB_TOKEN in its environment (tests/node/queue-token.test.js
  // looks everywhere else).
  const [tokens] = readFileSync(`${brief}.seen`, "utf8").trim().split("\n");
  assert.equal(tokens, "0");

  const events = gh.events
    .slice(since)
    .filter((e) => e.name === "pull_request" && e.payload.number === n)
    .map((e) => `${e.action}${e.payload.label ? ` ${e.payload.label.name}` : ""}`);
  assert.deepEqual(events, ["labeled skip-ci", "synchronize"], "skip-ci on before the push");
  assert.equal(
    gh.ci.usage({ number: n }).heads[head]?.runs ?? 0,
    0,
    "no matrix for the fixed head: the worker releases it",
  );
  assert.ok(labels(gh, n).includes("skip-ci"));
  assert.equal(ownComments(gh, n, "<!-- prflow:claim").length, 0, "the claim is resolved");
  assert.equal(ownComments(gh, n, "<!-- prflow:resolved was=claim").length, 1);
  assert.deepEqual(ownComments(gh, waiting, "<!-- prflow:"), [], "the worker's pull request was not touched");
  const report = JSON.parse((await prflow(["report", "--format", "json"])).stdout);
  assert.equal(report.entries.find((e) => e.number === n).owner, "worker");
  assert.deepEqual(gh.validationFailures, []);
});

test("a fixer whose AI gives up releases the claim and says why on the pull request; another fixer may take it", async (t) => {
  const { gh, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  const head = gh.state.pull(n).headSha;
  const r = await prflow(["fixer", "fixer-1", "--ai", "echo 'cannot tell which side is right' >&2; exit 3", "--once"]);
  assert.equal(r.code, 0, "giving up is an outcome of the pass, not a failure of the station: " + r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`^#${n}: gave up: the AI command exited 3$`, "m"));
  assert.equal(gh.state.pull(n).headSha, head, "nothing pushed");
  const said = ownComments(gh, n, "**Fixer fixer-1 gave up**");
  assert.equal(said.length, 1);
  // What failed and its exit code in words; what the AI printed only as quoted code, redacted.
  assert.match(said[0], /the AI command exited 3\n\nIts last output:\n\n```\ncannot tell which side is right\n```/);
  assert.match(ownComments(gh, n, "<!-- prflow:resolved was=claim")[0], /Resolved: released by fixer-1\.$/);
  const other = await prflow(["claim-pr", String(n), "--by", "fixer-2"]);
  assert.equal(other.code, 0, other.stdout + other.stderr);
  assert.deepEqual(gh.validationFailures, []);
});

test("a generated branch is rebuilt by its configured command from the base's tip, never given to the AI", async (t) => {
  const { gh, work, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh, { head: "chore/pnpm-update" });
  const config = join(work, "prflow.json");
  writeFileSync(
    config,
    JSON.stringify({
      queue: {
        generated: [
          {
            branch: "chore/pnpm-update",
            rebuild: "printf 'regenerated\\n' > lock.txt && git add lock.txt && git commit -q -m 'Rebuild the update'",
          },
        ],
      },
    }),
  );
  const r = await prflow(["fixer", "fixer-1", "--ai", "echo the AI must not run >&2; exit 9", "--once"], { config });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const head = gh.state.pull(n).headSha;
  assert.equal(
    gh.git.git(["rev-parse", `${head}^`]),
    gh.git.tip("main"),
    "one commit on main's tip: rebuilt, not rebased",
  );
  assert.deepEqual(gh.state.pull(n).files, ["lock.txt"]);
  assert.deepEqual(gh.validationFailures, []);
});

test("a fixer that dies holding a claim: the claim holds until claimMinutes pass on the clock, then the pull request is the fixer role's again", async (t) => {
  const { gh, dir, env, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  const child = spawn(
    process.execPath,
    [CLI, "fixer", "fixer-1", "--ai", "sleep 600", "--once", "--repo", "acme/widgets", "--config", PRESET_CONFIG],
    { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: "ignore", detached: true },
  );
  t.after(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  });
  while (!ownComments(gh, n, "<!-- prflow:claim").length) await new Promise((r) => setTimeout(r, 50));
  process.kill(-child.pid, "SIGKILL");
  await new Promise((r) => child.once("exit", r));

  const held = await prflow(["claim-pr", String(n), "--by", "fixer-2"]);
  assert.equal(held.code, 1);
  assert.match(held.stderr, /^prflow: .*is claimed by fixer-1/m);
  const idle = await prflow(["fixer", "fixer-2", "--once", "--dry-run"]);
  assert.match(idle.stdout, /queue-empty/, "the dead fixer's claim still keeps others off");

  gh.advance({ minutes: 121 });
  const report = JSON.parse((await prflow(["report", "--format", "json"])).stdout);
  const entry = report.entries.find((e) => e.number === n);
  assert.equal(entry.owner, "fixer");
  assert.equal(entry.claim ?? null, null, "the claim lapsed");
  const next = await prflow(["fixer", "fixer-2", "--once", "--dry-run"]);
  assert.match(next.stdout, new RegExp(`^#${n}: set aside \`rebase-failed\``, "m"));
  assert.deepEqual(gh.validationFailures, []);
});
