// The merge-queue worker's loop, shared by `prflow queue` and the Action's `mode: queue`: the engine's
// cycle step decides everything (queue::cycle); this reads (the survey, one poll, how named pull
// requests left), applies the step's ops through the one writer table (GitHub writes and git ops
// alike, lib/github/write.js, with the git port of lib/queue/git.js), and sleeps as the step says.
// `once` and the resident loop are one code path: `once` stops where a cycle ends.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RunError } from "../run.js";
import { parseSlug } from "../github/index.js";
import { readBoardFacts } from "../github/read-queue.js";
import { applyOps, FAILED, TRANSIENT } from "../github/write.js";
import { killCommands } from "../command.js";
import { git } from "./git.js";
import { githubClock, QueueLease, workerName } from "./lease.js";
import { stateWorkerName } from "./recovery.js";
import { apiTransient, gitTransient, waitAfter } from "../retry.js";
import { readClosed, readJobTails, readMovedLayers, readPoll } from "./reads.js";

export { readJobTails, readMovedLayers };

/** `[2026-09-27T21:03:04.500+09:00]`: local time, milliseconds, the offset from UTC. */
export function stamp(date = new Date()) {
  const pad = (n, w = 2) => String(Math.abs(n)).padStart(w, "0");
  const off = -date.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  return `[${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}${sign}${pad(Math.trunc(off / 60))}:${pad(off % 60)}]`;
}

/** The repository: `slug` (owner/name), else `origin` of the checkout in `cwd`, else its package.json's repository. */
export async function findRepo(slug, cwd) {
  if (slug) return parseSlug(slug);
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

/** Applies a step's ops in order through the writer table, stopping at the first that does not succeed. */
export async function applyStep(ops, { gh, g }) {
  try {
    const results = await applyOps(gh.octokit, ops, { owner: gh.owner, repo: gh.repo, live: true, git: g, halt: true });
    // A GitHub write that failed past the client's retries is `transient` to the engine (never a set-aside).
    // The flag becomes the word; the engine reads the words only.
    return results.map(({ transient, ...r }) => (r.outcome === FAILED && transient ? { ...r, outcome: TRANSIENT } : r));
  } finally {
    await g.dropAll();
  }
}

const SUCCEEDED = new Set(["applied", "unchanged"]);

/**
 * The loop: survey or poll as the last step asked, call the step, apply its ops, wait. `stopWhen(out,
 * facts)` ends it early (tests; `facts` are what the step was given), and `resume` (what it returned)
 * goes on from there; `signal.stop` is set by the first SIGINT/SIGTERM. `lease` is the queue's lease
 * (lib/queue/lease.js; by default one is made for a live run, null holds none).
 */
export async function runQueue({
  gh,
  g,
  engine,
  options,
  once = false,
  log,
  sleep: sleepFor,
  signal = { stop: false },
  stopWhen = () => false,
  resume = null,
  lease = undefined,
}) {
  await g.ready();
  for (const line of g.recovered ?? []) log(`on start: ${line}`);
  if (g.recovered) g.recovered = [];
  // One worker per repository (lib/queue/lease.js): a dry run writes nothing and needs no lease.
  const clock = githubClock(gh.octokit);
  const sleep = async (ms, sig) => (clock.slept(ms), sleepFor(ms, sig));
  // A push's retries wait on the same clock and say so in the same log.
  g.retryIo = { sleep: (ms) => sleep(ms, signal), log };
  lease =
    lease === undefined
      ? options.dryRun
        ? null
        : new QueueLease({ g, engine, log, me: stateWorkerName(g.stateDir, workerName) })
      : lease;
  try {
    return await cycles({ gh, g, engine, options, once, log, sleep, signal, stopWhen, resume, lease, clock });
  } finally {
    if (lease)
      await (async () => lease.release(await clock.now()))().catch((e) =>
        log(`the queue's lease was not released (${e.message}): it expires by itself`),
      );
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
  // again where it was. One cycle (`once`, the Action) fails instead, and the next run starts over.
  let failures = 0;
  const waitOut = async (e) => {
    if (once || !(apiTransient(e) || gitTransient(e?.message))) throw e;
    failures++;
    const w = waitAfter(e, failures);
    const known = clock.estimate();
    const until = known
      ? new Date(Date.parse(known) + w.seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z")
      : w.until;
    log(
      `GitHub failed (${String(e?.message ?? e).split("\n")[0]}): waiting ${w.seconds} s for ${w.why}, until ${until}; then reading again (${failures} in a row)`,
    );
    await sleep(w.seconds * 1000, signal);
    // A poll is asked again as it was; anything else is a survey, the state kept.
    wait = wait.kind === "poll" ? { ...wait, afterSeconds: 0 } : { kind: "survey", afterSeconds: 0 };
  };
  const leaseHeld = () => ({ state, wait: { kind: "leaseHeld" }, reads, results: [], jobLogs: [], facts });
  // The board as the step reads it; a survey also reads the recent landings (the lane's estimates in a
  // set-aside comment), a poll does not.
  const readBoard = (landed) =>
    readBoardFacts(gh.octokit, {
      owner: gh.owner,
      repo: gh.repo,
      engine,
      log: () => {},
      tips: (q) => g.builtOn(q),
      landed,
    });
  for (;;) {
    let movedLayers = [];
    try {
      if (wait.kind === "survey" || wait.kind === "sleep") {
        await sleep((wait.afterSeconds ?? wait.seconds ?? 0) * 1000, signal);
        if (!(await leased({ lease, clock, sleep, signal, once }))) {
          if (once || signal.stop) return leaseHeld();
          wait = { kind: "survey", afterSeconds: 0 };
          continue;
        }
        facts = await readBoard(true);
        if (first) movedLayers = await readMovedLayers(gh, facts, log);
        first = false;
        closed = await readClosed(gh, [...new Set([...reads, ...movedLayers.map((l) => l.parent)])], facts);
        poll = null;
      } else if (wait.kind === "poll") {
        await sleep(wait.afterSeconds * 1000, signal);
        if (!(await leased({ lease, clock, sleep, signal, once }))) {
          // Another worker took over while this one watched: it watches from its own survey.
          if (once || signal.stop) return leaseHeld();
          wait = { kind: "survey", afterSeconds: 0 };
          continue;
        }
        facts = await readBoard(false);
        poll = { ...(await readPoll(gh, wait.number, facts)), stopRequested: signal.stop };
      }
    } catch (e) {
      await waitOut(e);
      if (signal.stop) return { state, wait: { kind: "stop" }, reads, results, jobLogs, facts };
      continue;
    }
    failures = 0;
    const out = engine.cycleStep({
      facts,
      state,
      results,
      poll,
      closed,
      movedLayers,
      jobLogs,
      options,
      stop: signal.stop,
    });
    if (out.configErrors)
      throw new RunError(out.configErrors.map((e) => `config: ${e.path}: expected ${e.expected}, found ${e.found}`));
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
    if (!mayWrite) {
      // Another worker holds the queue now: what this step remembered is about a queue it no longer moves.
      if (once || signal.stop) return leaseHeld();
      ({ state, wait, results } = { state: {}, wait: { kind: "survey", afterSeconds: 0 }, results: [] });
      continue;
    }
    results = out.ops.length ? await applyStep(out.ops, { gh, g }) : [];
    jobLogs = out.jobLogs?.length ? await readJobTails(gh, out.jobLogs) : [];
    for (const r of results)
      if (!SUCCEEDED.has(r.outcome))
        log(`${r.op} #${r.number}: ${r.outcome}${r.detail ? `: ${String(r.detail).split("\n").at(-1)}` : ""}`);
    ({ state, wait, reads } = out);
    if (wait.kind === "stop" || stopWhen(out, facts) || (once && wait.kind === "sleep"))
      return { state, wait, reads, results, jobLogs, facts };
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

/**
 * SIGINT/SIGTERM for a worker: the first finishes the step in hand (and ends any command running, with
 * its group: a command is not a step to wait for), the second exits at once with no worktree left.
 * Returns { signal, off }.
 */
export function stopSignals({ g, log }) {
  const signal = { stop: false };
  const onSignal = () => {
    killCommands();
    if (signal.stop) {
      g.dropAllNow();
      process.exit(130);
    }
    signal.stop = true;
    log("stop requested: finishing this step (a second signal exits at once)");
    signal.wake?.();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal,
    off: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
