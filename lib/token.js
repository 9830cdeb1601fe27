// Taking the write token in, so that nothing the worker, the station or the fixer starts can find it:
// it is read from the environment once, kept in memory (and registered for redaction), deleted from
// process.env, and erased from the environment the kernel keeps for this process
// (/proc/<pid>/environ, which any process of the same user can read: deleting a variable from
// process.env does not touch it). The erasing writes over the variable's value in this process's own
// memory through /proc/self/mem (Linux); where that is not possible the run refuses to go on with
// the token readable there, unless PRFLOW_ALLOW_ENV_TOKEN=1 says the caller accepts it.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { registerSecret } from "./redact.js";
import { commandEnv } from "./command.js";

const exec = promisify(execFile);

/**
 * Writes NULs over the values of `names` in this process's initial environment. Returns the names it
 * could not erase (none on Linux with /proc).
 */
export function eraseFromKernelEnv(names) {
  let environ;
  let start;
  try {
    environ = readFileSync("/proc/self/environ");
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name's closing parenthesis; env_start is field 50 (proc(5)).
    start = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[50 - 3]);
  } catch {
    return names.filter((n) => n in process.env);
  }
  const left = [];
  let fd = null;
  try {
    for (const name of names) {
      const key = Buffer.from(`${name}=`);
      let at = environ.subarray(0, key.length).equals(key) ? 0 : -1;
      if (at < 0) {
        const i = environ.indexOf(Buffer.concat([Buffer.from([0]), key]));
        at = i < 0 ? -1 : i + 1;
      }
      if (at < 0) continue;
      const from = at + key.length;
      const end = environ.indexOf(0, from);
      if (end <= from) continue;
      fd ??= openSync("/proc/self/mem", "r+");
      writeSync(fd, Buffer.alloc(end - from, 0), 0, end - from, start + from);
    }
  } catch {
    left.push(...names);
  } finally {
    if (fd != null) closeSync(fd);
  }
  return left;
}

// Where a token may be handed to prflow: the CLI's variables, and the Action's inputs (the runner
// passes `token` as INPUT_TOKEN, and a workflow may pass GITHUB_TOKEN down as well).
export const TOKEN_VARIABLES = [
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "PRFLOW_TOKEN",
  "INPUT_TOKEN",
  "INPUT_WORKFLOW-TOKEN",
  "INPUT_WORKFLOW_TOKEN",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
];

/**
 * Takes the variables `TOKEN_VARIABLES` out of this process (process.env and the kernel's copy) and
 * returns their values by name; every value is registered for redaction. Throws when the kernel's
 * copy cannot be erased (see the module doc).
 */
export function takeTokens(env = process.env) {
  const found = {};
  for (const name of TOKEN_VARIABLES) if (env[name]) found[name] = env[name];
  for (const v of Object.values(found)) registerSecret(v);
  const left = eraseFromKernelEnv(Object.keys(found));
  for (const name of Object.keys(found)) delete env[name];
  if (left.length && env.PRFLOW_ALLOW_ENV_TOKEN !== "1")
    throw new Error(
      `the token variables ${left.join(", ")} could not be erased from this process's environment as the kernel keeps it, where a command it runs could read them; set PRFLOW_ALLOW_ENV_TOKEN=1 to go on anyway`,
    );
  return found;
}

/** The CLI's token: GH_TOKEN, GITHUB_TOKEN, then `gh auth token` (run without any token in its environment). */
export async function findToken(taken) {
  const t = taken.GH_TOKEN ?? taken.GITHUB_TOKEN ?? taken.PRFLOW_TOKEN;
  if (t) return t;
  try {
    const out = (await exec("gh", ["auth", "token"], { env: commandEnv() })).stdout.trim();
    if (out) registerSecret(out);
    return out || null;
  } catch {
    return null;
  }
}
