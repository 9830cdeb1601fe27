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
import { applyOps } from "../github/write.js";
import { killCommands } from "../command.js";
import { git } from "./git.js";
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
    return await applyOps(gh.octokit, ops, { owner: gh.owner, repo: gh.repo, live: true, git: g, halt: true });
  } finally {
    await g.dropAll();
  }
}

const SUCCEEDED = new Set(["applied", "unchanged"]);

/**
 * The loop: survey or poll as the last step asked, call the step, apply its ops, wait. `stopWhen(out,
 * facts)` ends it early (tests; `facts` are what the step was given), and `resume` (what it returned)
 * goes on from there; `signal.stop` is set by the first SIGINT/SIGTERM.
 */
export async function runQueue({ gh, g, engine, options, once = false, log, sleep, signal = { stop: false }, stopWhen = () => false, resume = null }) {
  await g.ready();
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
  for (;;) {
    let movedLayers = [];
    if (wait.kind === "survey" || wait.kind === "sleep") {
      await sleep((wait.afterSeconds ?? wait.seconds ?? 0) * 1000, signal);
      facts = await readBoardFacts(gh.octokit, { owner: gh.owner, repo: gh.repo, engine, log: () => {}, tips: (q) => g.builtOn(q) });
      if (first) movedLayers = await readMovedLayers(gh, facts, log);
      first = false;
      closed = await readClosed(gh, [...new Set([...reads, ...movedLayers.map((l) => l.parent)])], facts);
      poll = null;
    } else if (wait.kind === "poll") {
      await sleep(wait.afterSeconds * 1000, signal);
      facts = await readBoardFacts(gh.octokit, { owner: gh.owner, repo: gh.repo, engine, log: () => {}, tips: (q) => g.builtOn(q) });
      poll = { ...(await readPoll(gh, wait.number, facts)), stopRequested: signal.stop };
    }
    const out = engine.cycleStep({ facts, state, results, poll, closed, movedLayers, jobLogs, options, stop: signal.stop });
    if (out.configErrors) throw new RunError(out.configErrors.map((e) => `config: ${e.path}: expected ${e.expected}, found ${e.found}`));
    for (const line of out.log) log(line);
    results = out.ops.length ? await applyStep(out.ops, { gh, g }) : [];
    jobLogs = out.jobLogs?.length ? await readJobTails(gh, out.jobLogs) : [];
    for (const r of results) if (!SUCCEEDED.has(r.outcome)) log(`${r.op} #${r.number}: ${r.outcome}${r.detail ? `: ${String(r.detail).split("\n").at(-1)}` : ""}`);
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
