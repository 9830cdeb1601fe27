// The one runner of the commands prflow runs on a pull request's code (lib/command.js): a hung command
// is killed with its whole process group on timeout and when the station is stopped, and a process
// that left the group (setsid) goes too, so nothing it started is left running. Counted, not timed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { runCommand, commandEnv } from "../../lib/command.js";
import { registerSecret } from "../../lib/redact.js";
import { CLI } from "./lib/cli.js";
import { gitRepo, ownComments, setAsideConflict } from "./lib/agents.js";

/** A hung command: a child in its group, a grandchild that left it with setsid, and itself, all asleep. */
const hung = (mark) =>
  `sleep 1000 # ${mark}-child & setsid sh -c 'sleep 1000 # ${mark}-escaped' & sleep 1000 # ${mark}-self`;

/** Processes whose command line carries `mark` (the station's own, which names the command, aside). */
const alive = (mark) =>
  readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const cmd = readFileSync(`/proc/${p}/cmdline`, "latin1");
        return cmd.includes(mark) && !cmd.includes("prflow.js");
      } catch {
        return false;
      }
    });

const until = async (ok) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 50));
};

test("a command past its timeout is killed with its group and what escaped it; nothing is left running", async () => {
  const mark = `prflow-hung-${randomBytes(4).toString("hex")}`;
  const r = await runCommand(hung(mark), { cwd: "/tmp", timeoutMs: 300, graceMs: 100 });
  assert.equal(r.timedOut, true);
  assert.deepEqual(alive(mark), [], "no orphan");
});

test("a command's environment holds no token, by name or by value", () => {
  const secret = `s3cr3t-${randomBytes(6).toString("hex")}`;
  registerSecret(secret);
  const env = commandEnv(
    {},
    {
      GH_TOKEN: "a",
      GITHUB_TOKEN: "b",
      INPUT_TOKEN: "c",
      ACTIONS_RUNTIME_TOKEN: "d",
      GIT_CONFIG_VALUE_0: "e",
      SOME_NAME: secret,
      KEEP: "k",
    },
  );
  assert.deepEqual(env, { KEEP: "k" });
});

test("prflow fixer: SIGTERM while the AI hangs kills it with its group, releases the claim with a comment, and leaves no orphan", async (t) => {
  const { gh, work, env } = await gitRepo(t);
  const n = setAsideConflict(gh);
  const mark = `prflow-ai-${randomBytes(4).toString("hex")}`;
  const child = spawn(
    process.execPath,
    [CLI, "fixer", "fixer-1", "--ai", hung(mark), "--once", "--repo", "acme/widgets"],
    { cwd: work, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise((r) => child.on("exit", r));
  await until(() => alive(`${mark}-escaped`).length > 0);
  child.kill("SIGTERM");
  await exited;
  assert.deepEqual(alive(mark), [], `no orphan: ${out}`);
  assert.match(out, new RegExp(`#${n}: gave up: the AI command was ended: the station was stopped`), out);
  assert.equal(ownComments(gh, n, "**Fixer fixer-1 gave up**").length, 1, "the claim is released with a comment");
  assert.equal(ownComments(gh, n, "<!-- prflow:claim").length, 0);
});

test("prflow fixer --command-timeout: a hung AI is killed when its time is up, and the pull request is given up on in words", async (t) => {
  const { gh, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  const mark = `prflow-ai-${randomBytes(4).toString("hex")}`;
  const r = await prflow(["fixer", "fixer-1", "--ai", hung(mark), "--once", "--command-timeout", "0.01"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    new RegExp(`#${n}: gave up: the AI command ran past its 0.01 minutes and was killed with what it started`),
    r.stdout + r.stderr,
  );
  assert.deepEqual(alive(mark), []);
  const [comment] = ownComments(gh, n, "**Fixer fixer-1 gave up**");
  assert.match(comment, /ran past its 0\.01 minutes/);
});
