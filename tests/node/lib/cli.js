// Runs the real `prflow` CLI as a user would, for the Node suites: a child process on Node 24 with only
// PATH, HOME and the variables a test names, so nothing from the test runner's environment leaks in.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const CLI = `${ROOT}cli/prflow.js`;

/** `prflow ARGS`, with `env` added to PATH and HOME: resolves to { code, stdout, stderr } once it exits. */
export function prflow(args, env = {}, { cwd = ROOT } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The same, options first: the name the older suites import. */
export const runCli = (args, { env = {}, cwd = ROOT } = {}) => prflow(args, env, { cwd });

/** A config file that is the preset (`{}`): an explicit --config that does not exist is an error now. */
export const PRESET_CONFIG = `${ROOT}tests/node/lib/preset.json`;
