// git for the worker and the agents' commands (prflow queue, push-fixed-pr, the fixer station): one runner, the repository's remote
// with the token as GitHub takes it, a bare clone kept under the state directory, and throwaway
// worktrees beside it. The state directory is outside any checkout (a worktree inside one would be
// seen by its tools) and outside the OS temp directory, which is often a tmpfs.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** The committer of what prflow itself makes (a rebase, an autoFix amend); authors of rebased commits stay theirs. */
export const IDENTITY = { GIT_AUTHOR_NAME: "prflow", GIT_AUTHOR_EMAIL: "prflow@users.noreply.github.com", GIT_COMMITTER_NAME: "prflow", GIT_COMMITTER_EMAIL: "prflow@users.noreply.github.com" };

// The git and command processes running now: a second stop signal ends them (killRunning) before the
// worker removes their worktrees, so nothing goes on writing into a directory that is gone, or pushes
// after the exit.
const running = new Set();

/** execFile as a promise of { stdout, stderr }, the child counted in `running` while it lives. */
export function run(file, args, options) {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, options, (error, stdout, stderr) => {
      running.delete(child);
      if (error) reject(Object.assign(error, { stdout, stderr }));
      else resolve({ stdout, stderr });
    });
    running.add(child);
    if (options?.input !== undefined) child.stdin.end(options.input);
  });
}

/** Ends every process `run` started that is still running (SIGKILL: the caller is on its way out). */
export function killRunning() {
  for (const child of running) child.kill("SIGKILL");
}

/** Where clones and worktrees live: PRFLOW_STATE_DIR, else ~/.local/state/prflow. */
export function stateDir(env = process.env) {
  return env.PRFLOW_STATE_DIR || join(env.HOME || homedir(), ".local", "state", "prflow");
}

/** The remote as GitHub serves it to a token: https://x-access-token:TOKEN@host/owner/repo.git. */
export function remoteUrl({ owner, repo, token, serverUrl = "https://github.com" }) {
  const url = new URL(`${serverUrl.replace(/\/$/, "")}/${owner}/${repo}.git`);
  if (token) {
    url.username = "x-access-token";
    url.password = token;
  }
  return url.toString();
}

/**
 * A remote URL's credentials moved out of it: `url` without them (what may be written into a clone's
 * config, which every worktree and every command run in one can read) and `env`, the same credentials
 * as an Authorization header given to one git process at a time through GIT_CONFIG_* (as
 * actions/checkout gives its token), so an AI or autoFix command run in a worktree never finds the token.
 */
export function splitCredentials(remote) {
  const url = new URL(remote);
  if (!url.username && !url.password) return { url: remote, env: {} };
  const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64");
  url.username = "";
  url.password = "";
  return { url: url.toString(), env: { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.extraHeader", GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` } };
}

/**
 * The environment for a command prflow runs in a worktree (a fixer's AI, a rebuild, autoFix): this
 * process's, without the GitHub tokens it was given. Such a command reads and changes files; the
 * station or the worker pushes, with the token, after it.
 */
export function commandEnv(extra = {}, env = process.env) {
  const out = { ...env, ...extra };
  for (const name of ["GH_TOKEN", "GITHUB_TOKEN"]) delete out[name];
  return out;
}

// The credentials of the clone this process fetches and pushes through (freshClone), given to git only.
let remoteAuth = {};

/** Takes the token out of what git printed, so an error line never carries it. */
const redact = (text) => String(text).replace(/\/\/[^/@\s]+:[^/@\s]+@/g, "//***@");

/** Runs git; a failure throws one line naming the command, unless `allowFail` (then { code, stdout, stderr }). */
export async function git(cwd, args, { allowFail = false, env = {}, input } = {}) {
  try {
    const { stdout, stderr } = await run("git", args, { cwd, env: { ...IDENTITY, ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_EDITOR: "true", ...remoteAuth, ...env }, maxBuffer: 64 << 20, input });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (e) {
    const out = { code: typeof e.code === "number" ? e.code : 1, stdout: String(e.stdout ?? "").trim(), stderr: redact(e.stderr ?? e.message) };
    if (allowFail) return out;
    throw new Error(`git ${args[0]}: ${out.stderr.trim().split("\n").filter(Boolean).pop() ?? `exit ${out.code}`}`);
  }
}

/** A bare clone of the repository under the state directory, fetched now: `origin/<branch>` for every branch. */
export async function freshClone({ url: remote, dir }) {
  const { url, env } = splitCredentials(remote);
  remoteAuth = env;
  if (!existsSync(join(dir, "HEAD"))) {
    mkdirSync(dir, { recursive: true });
    await git(dir, ["init", "--quiet", "--bare"]);
    await git(dir, ["remote", "add", "origin", url]);
  } else await git(dir, ["remote", "set-url", "origin", url]);
  await git(dir, ["fetch", "--quiet", "--prune", "origin", "+refs/heads/*:refs/remotes/origin/*"]);
  return dir;
}

/** A throwaway worktree of `clone` at `ref` (detached); removed by the returned `remove()`. */
export async function worktree(clone, path, ref) {
  await git(clone, ["worktree", "add", "--quiet", "--detach", "--force", path, ref]);
  return { path, remove: () => git(clone, ["worktree", "remove", "--force", path], { allowFail: true }) };
}

/** Whether a rebase stopped half way in this worktree. */
export async function rebaseInProgress(cwd) {
  for (const dir of ["rebase-merge", "rebase-apply"]) {
    const p = (await git(cwd, ["rev-parse", "--path-format=absolute", "--git-path", dir])).stdout;
    if (existsSync(p)) return true;
  }
  return false;
}

/**
 * `git push --force-with-lease` of `commit` to `branch`, leased at `lease`: git's own answer decides.
 * Returns { ok: true } or { ok: false, lost: boolean, detail }.
 */
export async function leasedPush(cwd, { remote = "origin", branch, commit, lease }) {
  const r = await git(cwd, ["push", "--porcelain", `--force-with-lease=refs/heads/${branch}:${lease}`, remote, `${commit}:refs/heads/${branch}`], { allowFail: true });
  if (r.code === 0) return { ok: true };
  const text = `${r.stdout}\n${r.stderr}`;
  return { ok: false, lost: /stale info|\[rejected\]/.test(text), detail: text.trim().split("\n").filter(Boolean).pop() ?? `exit ${r.code}` };
}
