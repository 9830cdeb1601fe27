// `prflow queue`: the merge-queue worker. The engine's cycle step decides everything (queue::cycle);
// this shell only reads (the survey, one poll, how named pull requests left), runs git in throwaway
// worktrees outside the checkout and outside tmpfs, writes to GitHub with each op's guard read again
// first, and sleeps as the step says. `--once` and the resident loop are one code path: `--once`
// stops where a cycle ends.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { UsageError } from "../usage.js";
import { DEFAULT_CONFIG_PATH, loadConfig } from "../../lib/config-file.js";
import { RunError } from "../../lib/run.js";
import { graphqlRequest, makeOctokit, parseSlug, readJobLog } from "../../lib/github/index.js";
import { readBoardFacts } from "../../lib/github/read-queue.js";
import { commandEnv, git, IDENTITY, killRunning, remoteUrl, run as runProcess, splitCredentials } from "../../lib/queue/git.js";
import { applyOps as applyWrites, APPLIED, FAILED, GUARD_FAILED, UNCHANGED } from "../../lib/github/write.js";
import { githubClock, QueueLease, workerName } from "../../lib/queue/lease.js";
import { recoverStateDir, stateWorkerName } from "../../lib/queue/recovery.js";
import { apiTransient, gitTransient, retrying, waitAfter } from "../../lib/retry.js";

export const summary = "Land the merge queue one pull request at a time: rebase, push, release, watch (the worker).";
export const usage =
  "prflow queue [--repo owner/name] [--once] [--dry-run] [--active-interval SEC] [--idle-after N] [--idle-interval SEC] [--poll-interval SEC] [--watch-timeout MIN] [--no-auto-fix] [--config FILE]   (token: GH_TOKEN, GITHUB_TOKEN, then `gh auth token`)";
export const examples = ["prflow queue --repo acme/widgets", "prflow queue --once --dry-run"];
export const writes =
  "Writes: pushes rebased branches (leased), arms auto-merge, takes skip-ci off the one it releases, and writes set-aside comments. --dry-run writes nothing.";
export const help = {
  repo: "the repository, owner/name (default: origin, else package.json)",
  once: "run one cycle and exit",
  "dry-run": "survey and report, change nothing",
  "active-interval": "seconds between surveys while the list moves",
  "idle-after": "unchanged surveys before the long wait",
  "idle-interval": "seconds between surveys once it has sat still",
  "poll-interval": "seconds between polls of the watched pull request",
  "watch-timeout": "minutes before giving up on one pull request",
  "no-auto-fix": "never fix a failure that is only a fixer's diff",
};
export const options = {
  repo: { type: "string" },
  config: { type: "string", default: DEFAULT_CONFIG_PATH },
  once: { type: "boolean", default: false },
  "dry-run": { type: "boolean", default: false },
  "active-interval": { type: "string", valueName: "SEC", default: "30" },
  "idle-after": { type: "string", valueName: "N", default: "10" },
  "idle-interval": { type: "string", valueName: "SEC", default: "300" },
  "poll-interval": { type: "string", valueName: "SEC", default: "30" },
  "watch-timeout": { type: "string", valueName: "MIN", default: "90" },
  "no-auto-fix": { type: "boolean", default: false },
};

/** `[2026-09-27T21:03:04.500+09:00]`: local time, milliseconds, the offset from UTC. */
export function stamp(date = new Date()) {
  const pad = (n, w = 2) => String(Math.abs(n)).padStart(w, "0");
  const off = -date.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  return `[${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}${sign}${pad(Math.trunc(off / 60))}:${pad(off % 60)}]`;
}

/** The token: GH_TOKEN, GITHUB_TOKEN, then `gh auth token`. */
async function findToken(env) {
  if (env.GH_TOKEN) return env.GH_TOKEN;
  if (env.GITHUB_TOKEN) return env.GITHUB_TOKEN;
  try {
    return (await runProcess("gh", ["auth", "token"])).stdout.trim() || null;
  } catch {
    return null;
  }
}

/** The repository: --repo, else `origin`, else the root package.json's repository. */
async function findRepo(values, cwd) {
  if (values.repo) return parseSlug(values.repo);
  const origin = await git(cwd, ["remote", "get-url", "origin"], { allowFail: true });
  const m = /github\.com[:/]([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(origin.stdout);
  if (m) return { owner: m[1], repo: m[2] };
  const pkg = join(cwd, "package.json");
  if (existsSync(pkg)) {
    const r = JSON.parse(readFileSync(pkg, "utf8")).repository;
    const url = typeof r === "string" ? r : r?.url;
    const p = /([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(url ?? "");
    if (p) return { owner: p[1], repo: p[2] };
  }
  return null;
}

/**
 * Git for the worker: one clone of the repository under the state directory (never the OS temp
 * directory, often a tmpfs; never inside the checkout it runs from), and a throwaway worktree per
 * pull request moved in a step, removed when the step's ops are applied or the process is stopped.
 */
export class Git {
  constructor({ cloneUrl, stateDir }) {
    // The token goes to each fetch and push, never into the clone's config (see splitCredentials).
    ({ url: this.cloneUrl, env: this.auth } = splitCredentials(cloneUrl));
    this.dir = join(stateDir, "repo.git");
    this.trees = new Map();
    this.stateDir = stateDir;
  }
  async ready() {
    if (!existsSync(this.dir)) {
      mkdirSync(this.stateDir, { recursive: true });
      await git(this.stateDir, ["init", "--quiet", "--bare", this.dir]);
    }
    await git(this.dir, ["config", "remote.origin.url", this.cloneUrl]);
    // What a killed worker left (lib/queue/recovery.js), once per process, before the first worktree.
    this.recovered ??= await recoverStateDir({ stateDir: this.stateDir, clone: this.dir });
  }
  async fetch(branch) {
    await git(this.dir, ["fetch", "--quiet", "--force", "origin", `+refs/heads/${branch}:refs/prflow/${branch}`], { env: this.auth });
    return (await git(this.dir, ["rev-parse", `refs/prflow/${branch}`])).stdout;
  }
  /**
   * Which heads are built on `tip` (the tip is an ancestor of the head), from git: one fetch of the
   * base and the named branches, then a local ancestry check each. A head git does not have (the branch
   * moved since the survey) is left out, for the caller to ask GitHub. Returns Map head sha -> boolean.
   */
  async builtOn({ tip, base, heads }) {
    const branches = [...new Set([base, ...heads.map((h) => h.branch)].filter(Boolean))];
    const refspecs = branches.map((b) => `+refs/heads/${b}:refs/prflow/${b}`);
    if (refspecs.length) await git(this.dir, ["fetch", "--quiet", "--force", "origin", ...refspecs], { allowFail: true, env: this.auth });
    const has = async (sha) => (await git(this.dir, ["cat-file", "-e", `${sha}^{commit}`], { allowFail: true })).code === 0;
    const answers = new Map();
    if (!(await has(tip))) await git(this.dir, ["fetch", "--quiet", "origin", tip], { allowFail: true, env: this.auth });
    if (!(await has(tip))) return answers;
    for (const { sha } of heads) {
      if (!(await has(sha))) continue;
      answers.set(sha, (await git(this.dir, ["merge-base", "--is-ancestor", tip, sha], { allowFail: true })).code === 0);
    }
    return answers;
  }
  async tree(number, sha) {
    await this.drop(number);
    const dir = join(this.stateDir, "worktrees", String(number));
    rmSync(dir, { recursive: true, force: true });
    await git(this.dir, ["worktree", "add", "--quiet", "--detach", dir, sha]);
    this.trees.set(number, dir);
    return dir;
  }
  async drop(number) {
    const dir = this.trees.get(number);
    if (!dir) return;
    this.trees.delete(number);
    await git(this.dir, ["worktree", "remove", "--force", dir], { allowFail: true });
    rmSync(dir, { recursive: true, force: true });
  }
  async dropAll() {
    for (const n of [...this.trees.keys()]) await this.drop(n);
    await git(this.dir, ["worktree", "prune"], { allowFail: true });
  }
  /** On the way out at once (a second signal): end what runs in the worktrees, then remove them. */
  dropAllNow() {
    killRunning();
    for (const dir of this.trees.values()) {
      try {
        execFileSync("git", ["worktree", "remove", "--force", "--force", dir], { cwd: this.dir, stdio: "ignore" });
      } catch {
        // Removed below whatever git says; prune forgets it.
      }
      rmSync(dir, { recursive: true, force: true });
    }
    this.trees.clear();
    try {
      execFileSync("git", ["worktree", "prune"], { cwd: this.dir, stdio: "ignore" });
    } catch {
      // Nothing to prune, or no clone yet.
    }
  }
}

async function rebaseIn(g, op, upstreamRequired) {
  const head = await g.fetch(op.branch);
  if (head !== op.expectedHead) return { outcome: "moved", head };
  const dir = await g.tree(op.number, head);
  let onto = op.onto;
  if (!/^[0-9a-f]{40}$/.test(onto)) onto = await g.fetch(op.onto);
  else await git(g.dir, ["fetch", "--quiet", "origin", onto], { allowFail: true, env: g.auth });
  const upstream = upstreamRequired ? op.upstream : op.dropping;
  let args = ["rebase", "--quiet", onto];
  if (upstream) {
    const contains = (await git(dir, ["merge-base", "--is-ancestor", upstream, "HEAD"], { allowFail: true })).code === 0;
    if (contains) args = ["rebase", "--quiet", "--onto", onto, upstream];
    else if (upstreamRequired) return { outcome: "skipped", head };
  }
  const r = await git(dir, args, { allowFail: true, env: IDENTITY });
  if (r.code !== 0) {
    const files = (await git(dir, ["diff", "--name-only", "--diff-filter=U"], { allowFail: true })).stdout.split("\n").filter(Boolean);
    await git(dir, ["rebase", "--abort"], { allowFail: true });
    return { outcome: files.length ? "conflict" : "failed", files, log: `${r.stdout}\n${r.stderr}`.trim() };
  }
  const now = (await git(dir, ["rev-parse", "HEAD"])).stdout;
  if (now === head) return { outcome: "unchanged", head };
  if ((await git(dir, ["rev-list", "--count", `${onto}..HEAD`])).stdout === "0") return { outcome: "empty", head: now };
  return { outcome: "done", head: now };
}

/** The branch's head on the remote, or null when it cannot be read. */
async function remoteHead(g, branch) {
  const r = await git(g.dir, ["ls-remote", g.cloneUrl, `refs/heads/${branch}`], { allowFail: true, env: g.auth });
  return r.code === 0 ? (r.stdout.split(/\s/)[0] || null) : null;
}

async function pushFrom(g, op, io = {}) {
  const dir = g.trees.get(op.number);
  if (!dir) return { outcome: "failed", log: "nothing to push: no worktree for this pull request" };
  const now = (await git(dir, ["rev-parse", "HEAD"])).stdout;
  if (now === op.lease) return { outcome: "unchanged", head: now };
  const r = await retrying(async () => {
    const p = await git(dir, ["push", "--quiet", `--force-with-lease=refs/heads/${op.branch}:${op.lease}`, g.cloneUrl, `HEAD:refs/heads/${op.branch}`], { allowFail: true, env: g.auth });
    if (p.code === 0) return p;
    // A push whose answer was lost may have landed (curl even sends it again, and git then reports the
    // branch moved): the remote says which, before anything is recorded.
    if ((await remoteHead(g, op.branch)) === now) return { ...p, code: 0 };
    return { ...p, transient: gitTransient(p.stderr), log: p.stderr };
  }, { what: `pushing #${op.number}`, sleep: io.sleep, log: io.log });
  if (r.code === 0) return { outcome: "done", head: now };
  return { outcome: /stale info/.test(r.stderr) ? "leaseLost" : r.transient ? "transient" : "refused", log: r.stderr.trim() };
}

async function autoFixIn(g, op) {
  const head = await g.fetch(op.branch);
  if (head !== op.expectedHead) return { outcome: "moved", head };
  const dir = await g.tree(op.number, head);
  let log = "";
  for (const command of op.commands) {
    try {
      const { stdout, stderr } = await runProcess("sh", ["-c", command], { cwd: dir, env: commandEnv(), maxBuffer: 64 << 20 });
      log += stdout + stderr;
    } catch (e) {
      return { outcome: "failed", log: `${log}${e.stdout ?? ""}${e.stderr ?? ""}\n$ ${command}: exit ${e.code}` };
    }
  }
  if (!(await git(dir, ["status", "--porcelain"])).stdout) return { outcome: "unchanged", head, log };
  await git(dir, ["commit", "--quiet", "-a", "--amend", "--no-edit"], { env: IDENTITY });
  return { outcome: "done", head: (await git(dir, ["rev-parse", "HEAD"])).stdout, log };
}

// The worker's GitHub writes go through the one writer table (lib/github/write.js), which reads each
// op's guard (head, base, labels still on) just before writing; its outcomes are the cycle's words.
const OUTCOMES = { [APPLIED]: "done", [UNCHANGED]: "unchanged", [GUARD_FAILED]: "guardFailed", [FAILED]: "failed" };

async function githubOp(gh, op) {
  const [r] = await applyWrites(gh.octokit, [op], { owner: gh.owner, repo: gh.repo, live: true });
  return { outcome: r.transient ? "transient" : (OUTCOMES[r.outcome] ?? "failed"), log: r.detail ?? "" };
}

/** Applies a step's ops in order and stops at the first that does not succeed; one result per op applied. */
export async function applyOps(ops, { gh, g, sleep, log }) {
  const results = [];
  try {
    for (const op of ops) {
      let r;
      try {
        if (op.op === "rebase") r = await rebaseIn(g, op, false);
        else if (op.op === "rebaseOnto") r = await rebaseIn(g, op, true);
        else if (op.op === "push") r = await pushFrom(g, op, { sleep, log });
        else if (op.op === "autoFix") r = await autoFixIn(g, op);
        else r = await githubOp(gh, op);
      } catch (e) {
        // A fetch that could not reach GitHub is transient; anything else a failure.
        r = { outcome: gitTransient(e.message) ? "transient" : "failed", log: e.message };
      }
      results.push(r);
      if (!["done", "unchanged", "skipped"].includes(r.outcome)) break;
    }
  } finally {
    await g.dropAll();
  }
  return results;
}

/** One poll of the watched pull request, read as the survey reads it. */
async function readPoll(gh, number, facts) {
  const pr = facts.pullRequests.find((p) => p.number === number);
  // GitHub's clock (the Date header the read just got), the one the watch's start was taken by: the
  // machine's own clock may be off from it, and a watch timed across two clocks ends at random.
  const now = facts.now ?? new Date().toISOString();
  if (!pr) {
    const { data } = await gh.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner: gh.owner, repo: gh.repo, pull_number: number });
    return { state: data.merged ? "MERGED" : data.state === "open" ? "OPEN" : "CLOSED", now };
  }
  return { state: "OPEN", autoMerge: Boolean(pr.autoMerge), labels: pr.labels, headSha: pr.headSha, mergeStateStatus: pr.mergeStateStatus ?? "UNKNOWN", checks: pr.checks ?? [], requiredChecks: facts.requiredChecks ?? [], unknown: (facts.unknown ?? []).filter((u) => u === "requiredChecks"), now };
}

/**
 * The job logs the step named (the failed jobs of a pull request it is setting aside): the last lines
 * of each, as many as it asked for. A log that cannot be read is that job's error, for the comment to say.
 */
export async function readJobTails(gh, named) {
  const out = [];
  for (const { jobId, lines } of named) {
    try {
      const text = await readJobLog(gh.octokit, { owner: gh.owner, repo: gh.repo, jobId });
      out.push({ jobId, log: text.replace(/\n$/, "").split("\n").slice(-lines).join("\n") });
    } catch (e) {
      out.push({ jobId, error: e.message });
    }
  }
  return out;
}

/** How the pull requests the step named left the open list. */
async function readClosed(gh, numbers, facts) {
  const open = new Set(facts.pullRequests.map((p) => p.number));
  const out = [];
  for (const n of numbers.filter((x) => !open.has(x))) {
    try {
      const { data } = await gh.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner: gh.owner, repo: gh.repo, pull_number: n });
      out.push({ number: n, merged: Boolean(data.merged), mergeCommit: data.merge_commit_sha ?? null });
    } catch {
      // Not read: the engine says so and restacks nothing on a guess.
    }
  }
  return out;
}

/**
 * The first survey has no last one to say which layers GitHub moved onto the default branch, so the
 * timelines say it: for each pull request onto it, the branch it was last moved off, and the pull
 * request that merged from that branch, at which head. A read that fails gives none (1a restacks
 * nothing on a guess) and says so.
 */
export async function readMovedLayers(gh, facts, log = () => {}) {
  const main = facts.defaultBranch ?? "main";
  const onMain = facts.pullRequests.filter((p) => p.baseRef === main && !p.isFork);
  const moved = [];
  try {
    for (let i = 0; i < onMain.length; i += 50) {
      const chunk = onMain.slice(i, i + 50);
      const fields = chunk.map((p) => `p${p.number}: pullRequest(number: ${p.number}) { timelineItems(itemTypes: [BASE_REF_CHANGED_EVENT], last: 1) { nodes { ... on BaseRefChangedEvent { previousRefName currentRefName } } } }`);
      const { data, errors } = await graphqlRequest(gh.octokit, `query prflowMovedLayers($owner: String!, $repo: String!) { repository(owner: $owner, name: $repo) { ${fields.join(" ")} } }`, { owner: gh.owner, repo: gh.repo });
      if (errors.length || !data?.repository) throw new Error(errors[0]?.message ?? "no repository");
      for (const p of chunk) {
        const e = data.repository[`p${p.number}`]?.timelineItems?.nodes?.at(-1);
        if (e?.previousRefName && e.currentRefName === main) moved.push({ number: p.number, from: e.previousRefName });
      }
    }
    const branches = [...new Set(moved.map((m) => m.from))];
    const merged = new Map();
    for (let i = 0; i < branches.length; i += 50) {
      const chunk = branches.slice(i, i + 50);
      const vars = chunk.map((_, j) => `$b${j}: String!`).join(", ");
      const fields = chunk.map((_, j) => `b${j}: pullRequests(headRefName: $b${j}, states: [MERGED], last: 1) { nodes { number headRefOid } }`);
      const variables = { owner: gh.owner, repo: gh.repo, ...Object.fromEntries(chunk.map((b, j) => [`b${j}`, b])) };
      const { data, errors } = await graphqlRequest(gh.octokit, `query prflowMergedFrom($owner: String!, $repo: String!, ${vars}) { repository(owner: $owner, name: $repo) { ${fields.join(" ")} } }`, variables);
      if (errors.length || !data?.repository) throw new Error(errors[0]?.message ?? "no repository");
      chunk.forEach((b, j) => {
        const pr = data.repository[`b${j}`]?.nodes?.at(-1);
        if (pr) merged.set(b, pr);
      });
    }
    return moved.filter((m) => merged.has(m.from)).map((m) => ({ number: m.number, parent: merged.get(m.from).number, parentHead: merged.get(m.from).headRefOid }));
  } catch (e) {
    log(`the timelines could not be read (${e.message}): no layer GitHub moved is restacked on this first survey`);
    return [];
  }
}

/**
 * The loop: survey or poll as the last step asked, call the step, apply its ops, wait. `stopWhen(out,
 * facts)` ends it early (tests; `facts` are what the step was given), and `resume` (what it returned)
 * goes on from there; `signal.stop` is set by the first SIGINT/SIGTERM.
 */
export async function runQueue({ gh, g, engine, options, once = false, log, sleep: sleepFor, signal = { stop: false }, stopWhen = () => false, resume = null, lease = undefined }) {
  await g.ready();
  for (const line of g.recovered ?? []) log(`on start: ${line}`);
  if (g.recovered) g.recovered = [];
  // One worker per repository (lib/queue/lease.js): a dry run writes nothing and needs no lease.
  const clock = githubClock(gh.octokit);
  const sleep = async (ms, sig) => (clock.slept(ms), sleepFor(ms, sig));
  lease = lease === undefined ? (options.dryRun ? null : new QueueLease({ g, engine, log, me: stateWorkerName(g.stateDir, workerName) })) : lease;
  try {
    return await cycles({ gh, g, engine, options, once, log, sleep, signal, stopWhen, resume, lease, clock });
  } finally {
    if (lease) await (async () => lease.release(await clock.now()))().catch((e) => log(`the queue's lease was not released (${e.message}): it expires by itself`));
  }
}

/**
 * Holds the lease before a read that may lead to writes: true when held; else says who holds it and
 * sleeps as the lease answers (false), or, for one cycle, returns false at once.
 */
async function leased({ lease, clock, sleep, signal, once }) {
  if (!lease) return true;
  const l = await lease.ensure(await clock.now());
  if (l.held) return true;
  if (!once) await sleep(l.waitSeconds * 1000, signal);
  return false;
}

async function cycles({ gh, g, engine, options, once, log, sleep, signal, stopWhen, resume, lease, clock }) {
  // A test resumes where an earlier call stopped (memory-only state such as demotions, a watch in
  // progress); a process starts empty, with a survey.
  let state = resume?.state ?? {};
  let facts = resume?.facts ?? null;
  let results = resume?.results ?? [];
  let jobLogs = resume?.jobLogs ?? [];
  let poll = null;
  let closed = [];
  let reads = resume?.reads ?? [];
  let wait = resume?.wait ?? { kind: "survey", afterSeconds: 0 };
  // The first survey of a process reads the timelines for the layers GitHub moved (1a has no last survey).
  let first = !resume;
  // GitHub failing (an outage, a spent rate limit, dropped connections past the client's retries) never
  // ends the resident worker: it waits (back-off, or until the limit resets), says until when, and reads
  // again where it was. One cycle (--once, the Action) fails instead, and the next run starts over.
  let failures = 0;
  const waitOut = async (e) => {
    if (once || !(apiTransient(e) || gitTransient(e?.message))) throw e;
    failures++;
    const w = waitAfter(e, failures);
    const known = clock.estimate();
    const until = known ? new Date(Date.parse(known) + w.seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z") : w.until;
    log(`GitHub failed (${String(e?.message ?? e).split("\n")[0]}): waiting ${w.seconds} s for ${w.why}, until ${until}; then reading again (${failures} in a row)`);
    await sleep(w.seconds * 1000, signal);
    // A poll is asked again as it was; anything else is a survey, the state kept.
    wait = wait.kind === "poll" ? { ...wait, afterSeconds: 0 } : { kind: "survey", afterSeconds: 0 };
  };
  for (;;) {
    let movedLayers = [];
    try {
      if (wait.kind === "survey" || wait.kind === "sleep") {
        await sleep((wait.afterSeconds ?? wait.seconds ?? 0) * 1000, signal);
        if (!(await leased({ lease, clock, sleep, signal, once }))) {
          if (once || signal.stop) return { state, wait: { kind: "leaseHeld" }, reads, results: [], jobLogs: [], facts };
          wait = { kind: "survey", afterSeconds: 0 };
          continue;
        }
        facts = await readBoardFacts(gh.octokit, { owner: gh.owner, repo: gh.repo, engine, log: () => {}, tips: (q) => g.builtOn(q) });
        if (first) movedLayers = await readMovedLayers(gh, facts, log);
        first = false;
        closed = await readClosed(gh, [...new Set([...reads, ...movedLayers.map((l) => l.parent)])], facts);
        poll = null;
      } else if (wait.kind === "poll") {
        await sleep(wait.afterSeconds * 1000, signal);
        if (!(await leased({ lease, clock, sleep, signal, once }))) {
          // Another worker took over while this one watched: it watches from its own survey.
          if (once || signal.stop) return { state, wait: { kind: "leaseHeld" }, reads, results: [], jobLogs: [], facts };
          wait = { kind: "survey", afterSeconds: 0 };
          continue;
        }
        facts = await readBoardFacts(gh.octokit, { owner: gh.owner, repo: gh.repo, engine, log: () => {}, tips: (q) => g.builtOn(q) });
        poll = { ...(await readPoll(gh, wait.number, facts)), stopRequested: signal.stop };
      }
    } catch (e) {
      await waitOut(e);
      if (signal.stop) return { state, wait: { kind: "stop" }, reads, results, jobLogs, facts };
      continue;
    }
    failures = 0;
    const out = engine.cycleStep({ facts, state, results, poll, closed, movedLayers, jobLogs, options, stop: signal.stop });
    if (out.configErrors) throw new RunError(out.configErrors.map((e) => `config: ${e.path}: expected ${e.expected}, found ${e.found}`));
    for (const line of out.log) log(line);
    // The lease again just before the first write: the survey may have taken long (retries, an outage).
    let mayWrite;
    try {
      mayWrite = !out.ops.length || (await leased({ lease, clock, sleep: async () => {}, signal, once: true }));
    } catch (e) {
      // Not written: the step is decided again on the next read, from the state before it.
      await waitOut(e);
      if (signal.stop) return { state, wait: { kind: "stop" }, reads, results, jobLogs, facts };
      continue;
    }
    results = out.ops.length && mayWrite ? await applyOps(out.ops, { gh, g, sleep, log }) : [];
    if (!mayWrite) {
      // Another worker holds the queue now: what this step remembered is about a queue it no longer moves.
      if (once || signal.stop) return { state, wait: { kind: "leaseHeld" }, reads, results: [], jobLogs: [], facts };
      ({ state, wait, results } = { state: {}, wait: { kind: "survey", afterSeconds: 0 }, results: [] });
      continue;
    }
    jobLogs = out.jobLogs?.length ? await readJobTails(gh, out.jobLogs) : [];
    for (const [i, r] of results.entries()) if (!["done", "unchanged"].includes(r.outcome)) log(`${out.ops[i].op} #${out.ops[i].number}: ${r.outcome}${r.log ? `: ${r.log.split("\n").at(-1)}` : ""}`);
    ({ state, wait, reads } = out);
    if (wait.kind === "stop" || stopWhen(out, facts) || (once && wait.kind === "sleep")) return { state, wait, reads, results, jobLogs, facts };
  }
}

/** A sleep the first stop signal cuts short. */
export function stoppableSleep(ms, signal) {
  return new Promise((resolve) => {
    if (!ms || signal.stop) return resolve();
    const t = setTimeout(resolve, ms);
    signal.wake = () => {
      clearTimeout(t);
      resolve();
    };
  });
}

function seconds(values, name) {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name}: expected a whole number, found ${JSON.stringify(values[name])}`);
  return n;
}

export async function run(values) {
  const env = process.env;
  const slug = await findRepo(values, process.cwd());
  if (!slug) throw new UsageError(`no repository: give --repo owner/name (origin is not GitHub, and package.json names none)\nusage: ${usage}`);
  const token = await findToken(env);
  if (!token) throw new UsageError("no token: set GH_TOKEN or GITHUB_TOKEN, or log in with `gh auth login`");
  // The engine is imported here, not at the top: the Action bundles runQueue from this module and loads
  // its own engine (the Wasm beside the bundle), so this module must not load pkg/ when imported.
  const { prflow } = await import("../engine.js");
  const { engine, errors } = loadConfig(prflow, values.config);
  if (errors.length) throw new RunError(errors);
  const options = {
    dryRun: values["dry-run"],
    autoFix: !values["no-auto-fix"],
    activeInterval: seconds(values, "active-interval"),
    idleAfter: seconds(values, "idle-after"),
    idleInterval: seconds(values, "idle-interval"),
    pollInterval: seconds(values, "poll-interval"),
    watchTimeoutMinutes: seconds(values, "watch-timeout"),
  };
  const log = (line) => console.log(`${stamp()} ${line}`);
  const octokit = makeOctokit({ token, baseUrl: env.GITHUB_API_URL, graphqlUrl: env.GITHUB_GRAPHQL_URL, log });
  const server = env.PRFLOW_GIT_URL ?? "https://github.com";
  const cloneUrl = remoteUrl({ owner: slug.owner, repo: slug.repo, token, serverUrl: server });
  const stateDir = join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "prflow", `${slug.owner}-${slug.repo}`);
  const g = new Git({ cloneUrl, stateDir });
  const signal = { stop: false };
  const onSignal = () => {
    if (signal.stop) {
      // At once, but not half-done: no worktree left behind, and nothing pushes after this.
      g.dropAllNow();
      process.exit(130);
    }
    signal.stop = true;
    log("stop requested: finishing this step (a second signal exits at once)");
    signal.wake?.();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    // PRFLOW_TIME_SCALE shortens every wait, as it does the Action's (the emulator's tests; 1 on GitHub).
    const scale = Number(env.PRFLOW_TIME_SCALE) > 0 ? Number(env.PRFLOW_TIME_SCALE) : 1;
    await runQueue({ gh: { octokit, ...slug }, g, engine, options, once: values.once, log, sleep: (ms, sig) => stoppableSleep(ms * scale, sig), signal });
  } finally {
    await g.dropAll();
  }
  return 0;
}
