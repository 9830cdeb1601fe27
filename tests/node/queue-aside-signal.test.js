// `prflow queue` stopped by SIGTERM in the middle of a rebase, as a child process against the
// emulator with real git: the first signal finishes the step (the push is whole) and stops; a second
// exits at once. Either way no worktree is left in the clone it runs from, and no branch is half-pushed.
// The worker runs no hook of its clone's (hooks are off for every git of its own), so a `git` first on
// its PATH holds the rebase once the step has begun: the worktree is made, the rebase is next.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { startEmulator } from "../../emulator/index.js";
import { CLI, PRESET_CONFIG } from "./lib/cli.js";

const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
// The mark folder is written in: the worker gives its git no variable of its own environment.
const HOLD = (mark) => `#!/bin/sh
# Only a rebase (not its --abort): say so, then wait to be let go, then be git.
case " $* " in *" rebase --quiet "*)
  touch "${mark}/in-rebase"
  i=0
  while [ ! -e "${mark}/go" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done ;;
esac
exec ${REAL_GIT} "$@"
`;

async function board(t) {
  const gh = await startEmulator({ git: true });
  const work = mkdtempSync(join(tmpdir(), "prflow-queue-signal-"));
  t.after(async () => {
    writeFileSync(join(work, "go"), "");
    await gh.close();
    rmSync(work, { recursive: true, force: true });
  });
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(["ci"], { strict: true });
  const pr = gh.createPull({
    title: "one",
    head: "agent/one",
    files: ["src/a.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.moveBranch("main");
  gh.advance({ minutes: 2 }); // GitHub has computed the merge state: the worker's survey reads it at once
  const stateDir = join(work, "state", "prflow", `${gh.owner}-${gh.repo}`);
  const clone = join(stateDir, "repo.git");
  const bin = join(work, "bin");
  mkdirSync(bin);
  const mark = join(work, "mark");
  mkdirSync(mark);
  writeFileSync(join(bin, "git"), HOLD(mark));
  chmodSync(join(bin, "git"), 0o755);
  // Its own temp directory, to see that the worker leaves nothing there either.
  const tmp = join(work, "tmp");
  mkdirSync(tmp);
  const env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: work,
    TMPDIR: tmp,
    ...gh.env(gh.personalToken),
    GH_TOKEN: gh.personalToken,
    PRFLOW_GIT_URL: gh.url,
    XDG_STATE_HOME: join(work, "state"),
    PRFLOW_TEST_MARK: mark,
  };
  const child = spawn(process.execPath, [CLI, "queue", "--repo", `${gh.owner}/${gh.repo}`, "--config", PRESET_CONFIG], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.on("close", (code, sig) => resolve({ code, sig })));
  // Until the hook says the rebase has begun (or the worker exits, which fails below).
  let gone = false;
  exited.then(() => (gone = true));
  while (!gone && !existsSync(join(mark, "in-rebase"))) await delay(50);
  assert.ok(!gone, `the worker exited before its rebase:\n${output}`);
  const worktrees = () =>
    execFileSync("git", ["worktree", "list", "--porcelain"], { cwd: clone, encoding: "utf8" })
      .split("\n")
      .filter((l) => l.startsWith("worktree "));
  assert.equal(worktrees().length, 2, "mid-rebase: the clone and the throwaway worktree");
  // Until the worker says it took the signal (the handler ran), or it exits.
  const heard = async () => {
    while (!gone && !output.includes("stop requested")) await delay(50);
  };
  return { gh, pr, child, exited, heard, output: () => output, mark, stateDir, worktrees, before: pr.headSha, tmp };
}

/** What is left in the worker's worktree directory and in its temp directory. */
const left = (stateDir, tmp) => [
  ...(existsSync(join(stateDir, "worktrees")) ? readdirSync(join(stateDir, "worktrees")) : []),
  ...readdirSync(tmp),
];

test("SIGTERM mid-rebase: the step finishes (the push is whole), the worker stops, and no worktree is left", async (t) => {
  const { gh, pr, child, exited, heard, output, mark, stateDir, worktrees, before, tmp } = await board(t);
  child.kill("SIGTERM");
  await heard();
  writeFileSync(join(mark, "go"), "");
  const { code } = await exited;
  assert.equal(code, 0, output());
  assert.match(output(), /stop requested: finishing this step/);
  assert.match(output(), /stopping: a stop signal arrived/);
  assert.equal(worktrees().length, 1, `only the clone itself:\n${worktrees().join("\n")}`);
  assert.deepEqual(left(stateDir, tmp), [], "no worktree directory, nothing in the temp directory");
  const head = gh.state.pull(pr.number).headSha;
  assert.notEqual(head, before, "the step it was in was finished: the rebased head was pushed");
  assert.ok(gh.git.isAncestor(gh.git.tip("main"), head), "whole: built on main's tip");
  assert.deepEqual(gh.validationFailures, []);
});

test("a second SIGTERM mid-rebase exits at once: nothing pushed or released, no worktree and nothing in the temp directory left", async (t) => {
  const { gh, pr, child, exited, heard, output, stateDir, worktrees, before, tmp } = await board(t);
  child.kill("SIGTERM");
  await heard();
  child.kill("SIGTERM");
  const { code } = await exited;
  assert.equal(code, 130, output());
  assert.equal(worktrees().length, 1, `only the clone itself:\n${worktrees().join("\n")}`);
  assert.deepEqual(left(stateDir, tmp), [], "no worktree directory, nothing in the temp directory");
  assert.equal(gh.state.pull(pr.number).headSha, before, "the remote head is unchanged");
  assert.ok(gh.state.pull(pr.number).labels.includes("skip-ci"), "nothing was released");
  assert.ok(
    !gh.requests.some(
      (r) =>
        r.operation === "git receive-pack" &&
        r.method === "POST" &&
        !r.refs?.every((ref) => ref.startsWith("refs/prflow/")),
    ),
    "no push of a branch reached the server (the queue's lease is its own ref)",
  );
  assert.deepEqual(gh.validationFailures, []);
});
