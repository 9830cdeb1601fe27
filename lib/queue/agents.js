// The agents' side of the merge queue, shell half: open-pr, push-fixed-pr, claim-pr (the claim written
// and read back), and the fixer station's pass. Every decision is the engine's (openPr, pushFixedPr, claimPr,
// fixerPick, fixerBrief, fixerGiveUp); this reads GitHub, runs git and the AI command, and writes
// through the one writer table.
import { join } from "node:path";
import { applyOps, readJobLog } from "../github/index.js";
import { readBoardFacts, restPages } from "../github/read-queue.js";
import { runCommand } from "../command.js";
import { redact } from "../redact.js";
import { Git, leasedPush, rebaseInProgress, stateDir } from "./git.js";

export { runCommand };

/** A step's failure as one line: `<step>: <what>`. The CLI prints it as is. */
export class StepError extends Error {
  constructor(step, message) {
    super(`${step}: ${message}`);
    this.step = step;
  }
}

const notWritten = (results) => results.find((r) => r.outcome === "failed" || r.outcome === "guard-failed");

/** The repository's facts as the queue reads them, with `number`'s comments read again by REST (ids, every author, fresh). */
export async function readFactsFor(ctx, number) {
  const facts = await readBoardFacts(ctx.octokit, {
    owner: ctx.owner,
    repo: ctx.repo,
    engine: ctx.engine,
    log: ctx.log,
  });
  if (number != null) await refreshComments(ctx, facts, number);
  return facts;
}

async function refreshComments({ octokit, owner, repo }, facts, number) {
  const pr = facts.pullRequests.find((p) => p.number === number);
  if (!pr) return;
  const comments = await restPages(octokit, "GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
    owner,
    repo,
    issue_number: number,
  });
  pr.comments = comments.map((c) => ({
    id: c.id,
    author: c.user?.login ?? "",
    body: c.body ?? "",
    createdAt: c.created_at,
  }));
}

/** `prflow open-pr`: the engine's decision, applied unless `dryRun`. Returns { decision, results, number }. */
export async function openPullRequest(ctx, request, { dryRun = false } = {}) {
  const facts = await readFactsFor(ctx, null);
  const decision = ctx.engine.openPr({ facts, request });
  if (!decision.ok) throw new StepError("open-pr", decision.message);
  const results = await applyOps(ctx.octokit, decision.ops, {
    owner: ctx.owner,
    repo: ctx.repo,
    live: !dryRun,
    log: ctx.log,
  });
  const failed = notWritten(results);
  if (failed) throw new StepError(`open-pr ${failed.op}`, failed.detail);
  return { decision, results, number: results[0]?.created ?? null };
}

/**
 * `prflow claim-pr`: the engine's claim (or release) on `number` for `by`, written and read back unless
 * `dryRun`. Returns { decision, written, back }: `written` false when the engine refused or on a dry run;
 * `back` is writeClaim's read-back when it was written.
 */
export async function claimPullRequest(ctx, { number, by, release = false, dryRun = false }) {
  const facts = await readFactsFor(ctx, number);
  const decision = ctx.engine.claimPr({ facts, number, by, release });
  if (!decision.ok || dryRun) return { decision, written: false, back: null };
  return { decision, written: true, back: await writeClaim(ctx, facts, number, by, decision.ops, { release }) };
}

/**
 * Writes a claim (or its release) and reads it back: the engine says who holds it. Returns the read-back
 * ({ won, holder, message }); a write that did not land is `won: false` with its detail.
 */
export async function writeClaim(ctx, facts, number, by, ops, { release = false } = {}) {
  const results = await applyOps(ctx.octokit, ops, { owner: ctx.owner, repo: ctx.repo, live: true, log: ctx.log });
  const failed = notWritten(results);
  if (failed)
    return {
      won: false,
      holder: null,
      message: `#${number}: the claim comment was not written (${failed.outcome}: ${failed.detail})`,
    };
  await refreshComments(ctx, facts, number);
  return ctx.engine.claimPrReadBack({ facts, number, by, release });
}

/**
 * `prflow push-fixed-pr`: skip-ci on (guarded), the leased push of `commit` from `cwd`, then the claim
 * resolved. A lost lease writes nothing more. Returns { decision, pushed, results }.
 */
export async function pushFixed(ctx, { number, by, commit, cwd, remote = "origin", dryRun = false, g = null }) {
  const facts = await readFactsFor(ctx, number);
  const decision = ctx.engine.pushFixedPr({ facts, request: { number, by, commit } });
  if (!decision.ok) throw new StepError(`push-fixed-pr #${number}`, decision.message);
  if (dryRun) {
    const results = await applyOps(ctx.octokit, [...decision.before, ...decision.after], {
      owner: ctx.owner,
      repo: ctx.repo,
      live: false,
    });
    return { decision, pushed: false, results };
  }
  const before = await applyOps(ctx.octokit, decision.before, {
    owner: ctx.owner,
    repo: ctx.repo,
    live: true,
    log: ctx.log,
  });
  const stopped = notWritten(before);
  if (stopped)
    throw new StepError(
      `push-fixed-pr #${number}: ${stopped.op}`,
      `${stopped.outcome}: ${stopped.detail}; nothing pushed`,
    );
  const { branch, lease } = decision.push;
  // The fixer pushes through prflow's own clone (lib/queue/git.js); a person from their checkout.
  const push = g ? await g.push({ branch, commit, lease }) : await leasedPush(cwd, { remote, branch, commit, lease });
  if (!push.ok) {
    const why = push.lost
      ? `the lease at ${lease.slice(0, 7)} was lost: ${branch} moved since it was read`
      : push.detail;
    throw new StepError(`push-fixed-pr #${number}: push`, `${why}; nothing else written`);
  }
  const after = await applyOps(ctx.octokit, decision.after, {
    owner: ctx.owner,
    repo: ctx.repo,
    live: true,
    log: ctx.log,
  });
  const unreleased = notWritten(after);
  if (unreleased)
    ctx.log(
      `#${number}: pushed; the claim comment was not rewritten (${unreleased.outcome}: ${unreleased.detail}); the moved head ends the claim anyway`,
    );
  return { decision, pushed: true, results: [...before, ...after] };
}

const tail = (text, lines = 20) => String(text).trimEnd().split("\n").slice(-lines).join("\n");

/**
 * One pass of `prflow fixer NAME`: pick, claim (read back), check the branch out in a throwaway worktree,
 * read the logs of the failed jobs the engine names, run the AI (or the generated branch's rebuild) command with the brief on stdin while renewing the
 * claim, then push the commit it left with push-fixed-pr or give up with a comment. Returns
 * { line, number, outcome } with outcome `queue-empty`, `dry-run`, `lost-race`, `pushed`, `moved`, `gave-up`.
 */
export async function fixerPass(
  ctx,
  { name, ai, url, token, dryRun = false, renewMs, commandTimeoutMinutes, env = process.env },
) {
  const { pick, claimed } = await claimNextFix(ctx, name, { dryRun });
  const number = pick.number;
  if (number == null) return { line: pick.message, number: null, outcome: "queue-empty" };
  if (dryRun) return { line: `${pick.message} (dry run: nothing claimed)`, number, outcome: "dry-run" };
  if (!claimed.won) return { line: claimed.message, number, outcome: "lost-race" };
  ctx.log(`#${number}: claimed by ${name}; ${pick.message}`);

  // The one clone folder and credentials rule of lib/queue/git.js: the token in memory, given to the
  // git processes that fetch and push only; the command gets none (lib/command.js).
  const g = new Git({
    cloneUrl: url,
    token,
    stateDir: join(stateDir(env), `${ctx.owner}-${ctx.repo}`),
    commandTimeoutMinutes,
  });
  await g.ready();
  await g.fetchAll();
  const baseRef = `refs/prflow/${pick.base}`;
  const start = pick.start === "base" ? baseRef : pick.head;
  if (!(await g.has(start === baseRef ? baseRef : pick.head))) await g.fetchRefs([pick.head], { allowFail: true });
  const key = `fixer-${number}`;
  const treePath = await g.tree(key, start, {
    path: join(stateDir(env), "fixers", name, `pr-${number}-${Date.now()}`),
  });
  try {
    const found = { worktree: treePath, conflictingFiles: [], logs: await readFailedLogs(ctx, pick.failedChecks) };
    if (pick.start === "rebase") {
      const r = await g.run(treePath, ["rebase", baseRef], { allowFail: true });
      if (r.code !== 0)
        found.conflictingFiles = (await g.run(treePath, ["diff", "--name-only", "--diff-filter=U"])).stdout
          .split("\n")
          .filter(Boolean);
    }
    const baseTip = (await g.run(g.dir, ["rev-parse", baseRef])).stdout;
    const brief = ctx.engine.fixerBrief({ pick, found });
    const command = pick.rebuild ?? ai;
    const what = pick.rebuild ? "rebuild" : "AI";
    const minutes = commandTimeoutMinutes ?? pick.commandTimeoutMinutes ?? 0;
    const renewal = renewEvery(ctx, { number, name, ms: renewMs ?? pick.claimMinutes * 30_000 });
    let ran;
    try {
      const who = {
        GIT_AUTHOR_NAME: env.GIT_AUTHOR_NAME ?? name,
        GIT_AUTHOR_EMAIL: env.GIT_AUTHOR_EMAIL ?? `${name}@prflow.invalid`,
        GIT_COMMITTER_NAME: env.GIT_COMMITTER_NAME ?? name,
        GIT_COMMITTER_EMAIL: env.GIT_COMMITTER_EMAIL ?? `${name}@prflow.invalid`,
        GIT_EDITOR: "true",
      };
      ran = await runCommand(command, {
        cwd: treePath,
        input: brief,
        timeoutMs: minutes * 60_000,
        env: {
          ...who,
          PRFLOW_PR: String(number),
          PRFLOW_BRANCH: pick.branch,
          PRFLOW_BASE: pick.base,
          PRFLOW_WORKTREE: treePath,
        },
      });
    } finally {
      renewal.stop();
    }
    const head = (await g.run(treePath, ["rev-parse", "HEAD"])).stdout;
    // What failed and its exit code, in words; what the command printed goes to the comment only redacted.
    const why = ran.timedOut
      ? `the ${what} command ran past its ${minutes} minute${minutes === 1 ? "" : "s"} and was killed with what it started`
      : ran.stopped
        ? `the ${what} command was ended: the station was stopped`
        : ran.code !== 0
          ? `the ${what} command exited ${ran.code}`
          : (await rebaseInProgress(g, treePath))
            ? "the rebase was left unfinished"
            : head === pick.head || head === baseTip
              ? "the command left no commit"
              : null;
    if (!why) {
      await pushFixed(ctx, { number, by: name, commit: head, cwd: treePath, g });
      return {
        line: `#${number}: fix ${head.slice(0, 7)} pushed under skip-ci; the worker has it again`,
        number,
        outcome: "pushed",
      };
    }
    // A rebuild may push (or start the workflow that pushes) by itself: a moved head is its answer.
    const now = await readFactsFor(ctx, number);
    const moved = now.pullRequests.find((p) => p.number === number);
    if (moved && moved.headSha !== pick.head)
      return {
        line: `#${number}: the branch moved to ${moved.headSha.slice(0, 7)} while the command ran; the claim ends with it`,
        number,
        outcome: "moved",
      };
    const output = ran.code !== 0 || ran.timedOut ? redact(tail(ran.stderr.trim() ? ran.stderr : ran.stdout, 20)) : "";
    const ops = ctx.engine.fixerGiveUp({ facts: now, number, name, why, output });
    const results = await applyOps(ctx.octokit, ops, { owner: ctx.owner, repo: ctx.repo, live: true, log: ctx.log });
    const failed = notWritten(results);
    if (failed) ctx.log(`#${number}: giving up was not all written (${failed.op} ${failed.outcome}: ${failed.detail})`);
    return { line: `#${number}: gave up: ${why}`, number, outcome: "gave-up" };
  } finally {
    await g.dropAll();
  }
}

/**
 * The logs of the failed jobs the engine names (`logJobId`), for the brief: each one's text, or one line
 * saying why it could not be read, so the AI knows a log is missing rather than that nothing failed.
 */
export async function readFailedLogs(ctx, failedChecks = []) {
  const logs = [];
  for (const c of failedChecks) {
    if (c.logJobId == null) continue;
    const name = c.workflow ? `${c.workflow} / ${c.name}` : c.name;
    try {
      logs.push({
        name,
        tail: redact(await readJobLog(ctx.octokit, { owner: ctx.owner, repo: ctx.repo, jobId: c.logJobId })),
      });
    } catch (e) {
      ctx.log(`${name}: the log of job ${c.logJobId} could not be read (${e.status ?? ""} ${e.message})`);
      logs.push({ name, tail: `(the log of job ${c.logJobId} could not be read: ${e.status ?? "no answer"})` });
    }
  }
  return logs;
}

/**
 * The fixer's pick and its claim, written and read back: { pick, claimed } (`claimed` null when there
 * was nothing to pick or on a dry run). Two fixers racing here: exactly one reads itself back as holder.
 */
export async function claimNextFix(ctx, name, { dryRun = false } = {}) {
  const facts = await readFactsFor(ctx, null);
  const pick = ctx.engine.fixerPick({ facts, name });
  if (pick.number == null || dryRun) return { pick, claimed: null };
  // The claim decision was made on the board's comments; read-back needs this pull request's, by REST.
  await refreshComments(ctx, facts, pick.number);
  return { pick, claimed: await writeClaim(ctx, facts, pick.number, name, pick.claimOps) };
}

/** Renews the claim every `ms` while the command runs (the engine's `renew`: the same comment, a new time). */
function renewEvery(ctx, { number, name, ms }) {
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const facts = await readFactsFor(ctx, number);
      const renew = ctx.engine.claimPr({ facts, number, by: name });
      if (renew.ok)
        await applyOps(ctx.octokit, renew.ops, { owner: ctx.owner, repo: ctx.repo, live: true, log: ctx.log });
      else ctx.log(`#${number}: the claim could not be renewed: ${renew.message}`);
    } catch (e) {
      ctx.log(`#${number}: the claim could not be renewed: ${e.message}`);
    } finally {
      busy = false;
    }
  }, ms);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}

/** The resident loop: a pass, then `intervalMs` when there was nothing to do. `once` stops after one pass. */
export async function fixerLoop(
  ctx,
  {
    once = false,
    intervalMs = 300_000,
    sleep = (ms) => new Promise((r) => setTimeout(r, ms)),
    signal = { stop: false },
    ...pass
  },
) {
  for (;;) {
    let result;
    try {
      result = await fixerPass(ctx, pass);
    } catch (e) {
      if (once) throw e;
      ctx.log(`fixer pass failed: ${e.message}`);
      result = { line: "error", number: null, outcome: "error" };
    }
    if (once || signal.stop) return result;
    ctx.log(result.line);
    if (result.outcome === "queue-empty" || result.outcome === "error") await sleep(intervalMs);
  }
}
