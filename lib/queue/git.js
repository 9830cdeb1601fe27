// The one git runner of prflow's own clones (the queue worker, the fixer station): one bare clone per
// repository under the state folder, throwaway worktrees beside it, and one credentials rule. The
// token is given only to the git processes that fetch and push, only from the bare clone (never from a
// worktree a command has run in), per invocation on a pipe (fd 3, read by a credential helper given on
// the command line, so it is in no environment, no command line and no file), with repository hooks
// off (`core.hooksPath` an empty folder) and the clone's config written again first (a command run in
// a worktree can edit it: an `insteadOf` that sends the push elsewhere, a helper, an fsmonitor).
// `git()` and `leasedPush()` at the end run the person's own git in their checkout (open-pr,
// push-fixed-pr): their remote, their credentials.
import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { redact, registerSecret } from "../redact.js";
import { runCommand } from "../command.js";
import { gitTransient, retrying } from "../retry.js";
import { recoverStateDir } from "./recovery.js";

const exec = promisify(execFile);

/** The committer of what prflow itself makes (a rebase, an autoFix amend); authors of rebased commits stay theirs. */
export const IDENTITY = {
  GIT_AUTHOR_NAME: "prflow",
  GIT_AUTHOR_EMAIL: "prflow@users.noreply.github.com",
  GIT_COMMITTER_NAME: "prflow",
  GIT_COMMITTER_EMAIL: "prflow@users.noreply.github.com",
};

/** Where clones and worktrees live: PRFLOW_STATE_DIR, else $XDG_STATE_HOME/prflow, else ~/.local/state/prflow. */
export function stateDir(env = process.env) {
  return env.PRFLOW_STATE_DIR || join(env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state"), "prflow");
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

// The clone's whole config, written before every credentialed git: nothing a command left in it
// (remotes, url rewrites, helpers, filters, includes) survives to the process that holds the token.
const CLEAN_CONFIG = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n";

// Reads the credentials git asks for from fd 3 (the pipe this process writes the token to), and only
// for `get`: `store` and `erase` must not swallow the pipe.
const HELPER = '!f() { test "$1" = get && cat <&3; }; f';

// The git processes running now, so a second stop signal can end them before their worktrees go.
const running = new Set();

/** Ends every git process of this runner that still runs (the caller is on its way out). */
export function killRunning() {
  for (const child of running) child.kill("SIGKILL");
}

// git as found when this module loads, before any command of a pull request has run: a command can
// write into a folder on PATH (~/.local/bin, node_modules/.bin), and a `git` or `cat` it put there must
// not be what later runs with the token. Our git processes get a PATH of git's folder and the system's.
const GIT = (() => {
  for (const dir of (process.env.PATH ?? "").split(":").filter((d) => d.startsWith("/")))
    if (existsSync(join(dir, "git"))) return join(dir, "git");
  return "git";
})();
const GIT_PATH = [
  ...new Set([GIT.includes("/") ? GIT.slice(0, GIT.lastIndexOf("/")) : null, "/usr/bin", "/bin"].filter(Boolean)),
].join(":");

/**
 * The environment a git process of ours gets: no GitHub token, no GIT_* variable a caller set (a
 * GIT_DIR or GIT_CONFIG_* would redirect it), the user's and the system's config left out.
 */
function gitEnv(extra) {
  return {
    PATH: GIT_PATH,
    HOME: process.env.HOME ?? homedir(),
    LANG: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_EDITOR: "true",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    ...IDENTITY,
    ...extra,
  };
}

/**
 * Git for prflow's own clone of one repository. `cloneUrl` may carry the token
 * (https://x-access-token:TOKEN@host/owner/repo.git): it is taken out and kept in memory only.
 */
export class Git {
  constructor({ cloneUrl, stateDir: dir, token, commandTimeoutMinutes }) {
    // The flag's timeout for autoFix commands, over the config's (each autoFix op carries that one).
    this.commandTimeoutMinutes = commandTimeoutMinutes;
    const url = new URL(cloneUrl);
    this.token = token ?? (url.password ? decodeURIComponent(url.password) : null);
    if (this.token) registerSecret(this.token);
    url.username = "";
    url.password = "";
    this.cloneUrl = url.toString();
    this.stateDir = dir;
    this.dir = join(dir, "repo.git");
    this.hooks = join(dir, "no-hooks");
    this.trees = new Map();
    // The waits and the log of a push's retries (lib/retry.js): the worker's, so a test's clock moves.
    this.retryIo = {};
  }

  /**
   * Runs git in `cwd` with hooks off. `auth` gives it the token (only from the bare clone: see the
   * module doc). A failure throws one line naming the command, unless `allowFail` (then { code, stdout, stderr }).
   */
  run(cwd, args, { allowFail = false, auth = false, env = {} } = {}) {
    if (auth && cwd !== this.dir) throw new Error("git: credentials are given only to git run in the bare clone");
    // Every git of ours starts from the clean config (a command may have run since the last one).
    if (existsSync(join(this.dir, "HEAD"))) writeFileSync(join(this.dir, "config"), CLEAN_CONFIG);
    const pre = [
      "-c",
      `core.hooksPath=${this.hooks}`,
      "-c",
      "credential.helper=",
      ...(auth && this.token ? ["-c", `credential.helper=${HELPER}`] : []),
    ];
    return new Promise((resolve, reject) => {
      const child = spawn(GIT, [...pre, ...args], {
        cwd,
        env: gitEnv(env),
        stdio: ["ignore", "pipe", "pipe", auth && this.token ? "pipe" : "ignore"],
      });
      running.add(child);
      if (auth && this.token) {
        child.stdio[3].on("error", () => {});
        child.stdio[3].end(`username=x-access-token\npassword=${this.token}\n`);
      }
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const done = (code, message) => {
        running.delete(child);
        const out = { code, stdout: stdout.trim(), stderr: redact(message ?? stderr) };
        if (code === 0 || allowFail) return resolve(out);
        reject(new Error(`git ${args[0]}: ${out.stderr.trim().split("\n").filter(Boolean).pop() ?? `exit ${code}`}`));
      };
      child.on("error", (e) => done(127, e.message));
      child.on("close", (code, signal) => done(code ?? 128, signal ? `${stderr}killed by ${signal}` : undefined));
    });
  }

  async ready() {
    mkdirSync(this.hooks, { recursive: true });
    if (!existsSync(join(this.dir, "HEAD"))) {
      mkdirSync(this.stateDir, { recursive: true });
      await this.run(this.stateDir, ["init", "--quiet", "--bare", this.dir]);
    }
    writeFileSync(join(this.dir, "config"), CLEAN_CONFIG);
    // What a killed worker left (lib/queue/recovery.js), once per process, before the first worktree.
    this.recovered ??= await recoverStateDir({
      stateDir: this.stateDir,
      clone: this.dir,
      run: (cwd, args, o) => this.run(cwd, args, o),
    });
  }

  /** The branch's head on the remote, or null when it cannot be read. */
  async remoteHead(branch) {
    const r = await this.run(this.dir, ["ls-remote", this.cloneUrl, `refs/heads/${branch}`], {
      allowFail: true,
      auth: true,
    });
    return r.code === 0 ? r.stdout.split(/\s/)[0] || null : null;
  }

  /** Fetches `refspecs` from the repository (by URL: the clone has no remote). */
  fetchRefs(refspecs, { allowFail = false } = {}) {
    return this.run(this.dir, ["fetch", "--quiet", "--force", this.cloneUrl, ...refspecs], { allowFail, auth: true });
  }

  /** Fetches one branch; returns its head. */
  async fetch(branch) {
    await this.fetchRefs([`+refs/heads/${branch}:refs/prflow/${branch}`]);
    return (await this.run(this.dir, ["rev-parse", `refs/prflow/${branch}`])).stdout;
  }

  /** Fetches every branch as refs/prflow/<branch>. */
  fetchAll() {
    return this.fetchRefs(["+refs/heads/*:refs/prflow/*"]);
  }

  has(sha) {
    return this.run(this.dir, ["cat-file", "-e", `${sha}^{commit}`], { allowFail: true }).then((r) => r.code === 0);
  }

  /**
   * Which heads are built on `tip` (the tip is an ancestor of the head), from git: one fetch of the
   * base and the named branches, then a local ancestry check each. A head git does not have (the branch
   * moved since the survey) is left out, for the caller to ask GitHub. Returns Map head sha -> boolean.
   */
  async builtOn({ tip, base, heads }) {
    const branches = [...new Set([base, ...heads.map((h) => h.branch)].filter(Boolean))];
    if (branches.length)
      await this.fetchRefs(
        branches.map((b) => `+refs/heads/${b}:refs/prflow/${b}`),
        { allowFail: true },
      );
    const answers = new Map();
    if (!(await this.has(tip))) await this.fetchRefs([tip], { allowFail: true });
    if (!(await this.has(tip))) return answers;
    for (const { sha } of heads) {
      if (!(await this.has(sha))) continue;
      answers.set(
        sha,
        (await this.run(this.dir, ["merge-base", "--is-ancestor", tip, sha], { allowFail: true })).code === 0,
      );
    }
    return answers;
  }

  /** A throwaway worktree for pull request `number` (any key) at `sha`, detached; the last one for it is dropped first. */
  async tree(number, sha, { path } = {}) {
    await this.drop(number);
    const dir = path ?? join(this.stateDir, "worktrees", String(number));
    rmSync(dir, { recursive: true, force: true });
    await this.run(this.dir, ["worktree", "add", "--quiet", "--detach", "--force", dir, sha]);
    this.trees.set(number, dir);
    return dir;
  }

  async drop(number) {
    const dir = this.trees.get(number);
    if (!dir) return;
    this.trees.delete(number);
    await this.run(this.dir, ["worktree", "remove", "--force", "--force", dir], { allowFail: true });
    rmSync(dir, { recursive: true, force: true });
  }

  async dropAll() {
    for (const n of [...this.trees.keys()]) await this.drop(n);
    await this.run(this.dir, ["worktree", "prune"], { allowFail: true });
  }

  /** On the way out at once (a second signal): end what runs in the worktrees, then remove them. */
  dropAllNow() {
    killRunning();
    for (const dir of this.trees.values()) {
      try {
        execFileSync(GIT, ["-c", `core.hooksPath=${this.hooks}`, "worktree", "remove", "--force", "--force", dir], {
          cwd: this.dir,
          stdio: "ignore",
          env: gitEnv({}),
        });
      } catch {
        // Removed below whatever git says; prune forgets it.
      }
      rmSync(dir, { recursive: true, force: true });
    }
    this.trees.clear();
    try {
      execFileSync(GIT, ["-c", `core.hooksPath=${this.hooks}`, "worktree", "prune"], {
        cwd: this.dir,
        stdio: "ignore",
        env: gitEnv({}),
      });
    } catch {
      // Nothing to prune, or no clone yet.
    }
  }

  /**
   * `git push --force-with-lease` of `commit` (in the clone's objects: a worktree's commits are) to
   * `branch`, leased at `lease`, from the bare clone. Returns { ok: true } or { ok: false, lost, detail }.
   */
  async push({ branch, commit, lease }) {
    // Retried while the network or GitHub's front end fails (lib/retry.js). A push whose answer was lost
    // may have landed (curl even sends it again, and git then reports the branch moved): the remote says
    // which, before anything is recorded. `transient` when the retries ran out.
    const r = await retrying(
      async () => {
        const p = await this.run(
          this.dir,
          [
            "push",
            "--porcelain",
            `--force-with-lease=refs/heads/${branch}:${lease}`,
            this.cloneUrl,
            `${commit}:refs/heads/${branch}`,
          ],
          { allowFail: true, auth: true },
        );
        if (p.code === 0) return p;
        if ((await this.remoteHead(branch)) === commit) return { ...p, code: 0 };
        const text = `${p.stdout}\n${p.stderr}`;
        return { ...p, text, transient: gitTransient(text), log: p.stderr };
      },
      { what: `pushing ${branch}`, sleep: this.retryIo.sleep, log: this.retryIo.log },
    );
    if (r.code === 0) return { ok: true };
    const lost = /stale info|\[rejected\]/.test(r.text);
    return {
      ok: false,
      lost,
      transient: !lost && r.transient,
      detail: r.text.trim().split("\n").filter(Boolean).pop() ?? `exit ${r.code}`,
    };
  }
}

// ---- The writer table's git entries (lib/github/write.js): each reads its own guard and answers in
// the table's words.

/** `rebase` / `rebaseOnto`: in a throwaway worktree at the expected head. */
Git.prototype.rebase = async function (op, { upstreamRequired }) {
  const head = await this.fetch(op.branch);
  if (head !== op.expectedHead)
    return {
      outcome: "moved",
      head,
      detail: `${op.branch} is at ${head.slice(0, 7)}, not ${op.expectedHead.slice(0, 7)}`,
    };
  const dir = await this.tree(op.number, head);
  let onto = op.onto;
  if (!/^[0-9a-f]{40}$/.test(onto)) onto = await this.fetch(op.onto);
  else if (!(await this.has(onto))) await this.fetchRefs([onto], { allowFail: true });
  const upstream = upstreamRequired ? op.upstream : op.dropping;
  let args = ["rebase", "--quiet", onto];
  if (upstream) {
    const contains =
      (await this.run(dir, ["merge-base", "--is-ancestor", upstream, "HEAD"], { allowFail: true })).code === 0;
    if (contains) args = ["rebase", "--quiet", "--onto", onto, upstream];
    else if (upstreamRequired)
      return { outcome: "skipped", head, detail: `${op.branch} does not contain ${upstream.slice(0, 7)}` };
  }
  const r = await this.run(dir, args, { allowFail: true });
  if (r.code !== 0) {
    const files = (await this.run(dir, ["diff", "--name-only", "--diff-filter=U"], { allowFail: true })).stdout
      .split("\n")
      .filter(Boolean);
    await this.run(dir, ["rebase", "--abort"], { allowFail: true });
    return { outcome: files.length ? "conflict" : "failed", files, detail: redact(`${r.stdout}\n${r.stderr}`.trim()) };
  }
  const now = (await this.run(dir, ["rev-parse", "HEAD"])).stdout;
  if (now === head) return { outcome: "unchanged", head };
  if ((await this.run(dir, ["rev-list", "--count", `${onto}..HEAD`])).stdout === "0")
    return { outcome: "empty", head: now };
  return { outcome: "applied", head: now };
};

/** `push`: what the op before left in this pull request's worktree, leased. */
Git.prototype.pushOp = async function (op) {
  const dir = this.trees.get(op.number);
  if (!dir) return { outcome: "failed", detail: "nothing to push: no worktree for this pull request" };
  const now = (await this.run(dir, ["rev-parse", "HEAD"])).stdout;
  if (now === op.lease) return { outcome: "unchanged", head: now };
  const r = await this.push({ branch: op.branch, commit: now, lease: op.lease });
  if (r.ok) return { outcome: "applied", head: now };
  return { outcome: r.lost ? "lease-lost" : r.transient ? "transient" : "refused", detail: r.detail };
};

/**
 * `autoFix`: the commands in a worktree at the expected head (the one command runner: no token, its
 * own process group, the timeout), and whatever they changed amended onto the branch's one commit.
 * What they printed comes back redacted; a failure names the command and its exit code.
 */
Git.prototype.autoFix = async function (op) {
  const head = await this.fetch(op.branch);
  if (head !== op.expectedHead)
    return {
      outcome: "moved",
      head,
      detail: `${op.branch} is at ${head.slice(0, 7)}, not ${op.expectedHead.slice(0, 7)}`,
    };
  const dir = await this.tree(op.number, head);
  let log = "";
  const timeoutMs = (this.commandTimeoutMinutes ?? op.timeoutMinutes ?? 0) * 60_000;
  for (const command of op.commands) {
    const r = await runCommand(command, { cwd: dir, timeoutMs });
    log += r.stdout + r.stderr;
    // Ended because the worker is stopping: not the pull request's fault, so nothing is recorded
    // (the step reads it as a branch that moved, and surveys again if it goes on).
    if (r.stopped)
      return { outcome: "moved", head, detail: "the worker was stopped while the autoFix command ran; nothing fixed" };
    if (r.code !== 0 || r.timedOut) {
      const how = r.timedOut
        ? `timed out after ${Math.round(timeoutMs / 1000)} s and was killed with what it started`
        : `exit ${r.code}`;
      return { outcome: "failed", detail: redact(`${log}\n$ ${command}: ${how}`) };
    }
  }
  if (!(await this.run(dir, ["status", "--porcelain"])).stdout)
    return { outcome: "unchanged", head, detail: redact(log) };
  await this.run(dir, ["commit", "--quiet", "--no-verify", "-a", "--amend", "--no-edit"]);
  return { outcome: "applied", head: (await this.run(dir, ["rev-parse", "HEAD"])).stdout, detail: redact(log) };
};

/** Whether a rebase stopped half way in this worktree. */
export async function rebaseInProgress(g, cwd) {
  for (const dir of ["rebase-merge", "rebase-apply"]) {
    const p = (await g.run(cwd, ["rev-parse", "--path-format=absolute", "--git-path", dir])).stdout;
    if (existsSync(p)) return true;
  }
  return false;
}

// ---- The person's own git, in their checkout (open-pr, push-fixed-pr).

/** Runs git in the person's checkout; a failure throws one line naming the command, unless `allowFail`. */
export async function git(cwd, args, { allowFail = false, env = {} } = {}) {
  try {
    const { stdout, stderr } = await exec("git", args, {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", ...env },
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (e) {
    const out = {
      code: typeof e.code === "number" ? e.code : 1,
      stdout: String(e.stdout ?? "").trim(),
      stderr: redact(e.stderr ?? e.message),
    };
    if (allowFail) return out;
    throw new Error(`git ${args[0]}: ${out.stderr.trim().split("\n").filter(Boolean).pop() ?? `exit ${out.code}`}`);
  }
}

/** `git push --force-with-lease` from the person's checkout: git's own answer decides. */
export async function leasedPush(cwd, { remote = "origin", branch, commit, lease }) {
  const r = await git(
    cwd,
    [
      "push",
      "--porcelain",
      `--force-with-lease=refs/heads/${branch}:${lease}`,
      remote,
      `${commit}:refs/heads/${branch}`,
    ],
    { allowFail: true },
  );
  if (r.code === 0) return { ok: true };
  const text = `${r.stdout}\n${r.stderr}`;
  return {
    ok: false,
    lost: /stale info|\[rejected\]/.test(text),
    detail: text.trim().split("\n").filter(Boolean).pop() ?? `exit ${r.code}`,
  };
}
