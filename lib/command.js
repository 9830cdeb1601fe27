// The one runner of the commands prflow runs on a pull request's code: autoFix, a generated branch's
// rebuild, a fixer's AI. Each runs through the shell in its own process group with an environment
// that holds no token (the GitHub token variables, the runner's, and any variable whose value is a
// registered secret are dropped), a timeout, and a tag in its environment: when it ends, times out,
// or the worker is stopped, the group is killed, and so is any process still carrying the tag (one
// that left the group with setsid), so nothing it started outlives it.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { isSecret } from "./redact.js";

// Variables that carry a GitHub or runner credential by name.
const TOKEN_NAMES =
  /^(GH_TOKEN|GITHUB_TOKEN|GH_ENTERPRISE_TOKEN|GITHUB_ENTERPRISE_TOKEN|PRFLOW_TOKEN|INPUT_.*|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_.*|ACTIONS_CACHE_URL|ACTIONS_RESULTS_URL|GIT_ASKPASS|SSH_ASKPASS|GIT_CONFIG_.*|GIT_DIR|GIT_WORK_TREE)$/;

/** The environment for a command: this process's, with `extra`, without any token. */
export function commandEnv(extra = {}, env = process.env) {
  const out = {};
  for (const [k, v] of Object.entries({ ...env, ...extra }))
    if (v != null && !TOKEN_NAMES.test(k) && !isSecret(v)) out[k] = v;
  return out;
}

const TAG = "PRFLOW_COMMAND_RUN";
// The commands running now: their process group and tag, for killCommands.
const live = new Map();

/** Kills the group and every process still carrying `tag`. */
function reap(pgid, tag) {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // The group is gone already.
  }
  const needle = `${TAG}=${tag}`;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(needle))
        process.kill(Number(pid), "SIGKILL");
    } catch {
      // Not ours to read, or gone.
    }
  }
}

/** Ends every command still running (SIGTERM of the worker): their groups and what escaped them. */
export function killCommands() {
  for (const [pgid, run] of live) {
    run.stopped = true;
    reap(pgid, run.tag);
  }
  live.clear();
}

/**
 * Runs `command` through `sh -c` in `cwd`, `input` on stdin. `timeoutMs` (0: none) ends it with
 * SIGTERM to its group, then SIGKILL after `graceMs`. Resolves { code, signal, stdout, stderr,
 * timedOut, stopped } (`stopped`: ended by killCommands); never rejects (a command that cannot start is exit 127).
 */
export function runCommand(
  command,
  { cwd, input = "", env = {}, timeoutMs = 0, graceMs = 2000, maxBytes = 16 << 20 } = {},
) {
  return new Promise((resolve) => {
    const tag = randomUUID();
    const child = spawn("sh", ["-c", command], {
      cwd,
      env: commandEnv({ ...env, [TAG]: tag }),
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const keep = (buf, d) => (buf.length < maxBytes ? buf + d : buf);
    child.stdout.on("data", (d) => (stdout = keep(stdout, d)));
    child.stderr.on("data", (d) => (stderr = keep(stderr, d)));
    const run = { tag, stopped: false };
    if (child.pid) live.set(child.pid, run);
    let timer = null;
    let hard = null;
    if (timeoutMs > 0 && child.pid) {
      timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // Gone meanwhile.
        }
        hard = setTimeout(() => reap(child.pid, tag), graceMs);
      }, timeoutMs);
    }
    let exited = null;
    const finish = (code, signal, message) => {
      clearTimeout(timer);
      clearTimeout(hard);
      resolve({
        code,
        signal: signal ?? null,
        stdout,
        stderr: message ? `${stderr}${message}` : stderr,
        timedOut,
        stopped: run.stopped,
      });
    };
    child.on("error", (e) => finish(127, null, e.message));
    // When the shell exits, whatever it started goes with it (the group, and any process carrying the
    // tag); then the pipes close, and the output is whole.
    child.on("exit", (code, signal) => {
      exited = { code: code ?? 128, signal };
      live.delete(child.pid);
      reap(child.pid, tag);
    });
    child.on("close", () => exited && finish(exited.code, exited.signal));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}
