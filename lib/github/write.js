//! The one writer table: every write prflow makes to GitHub goes through `applyOps`, one entry per op
//! kind of the engine's vocabulary (src/plan.rs `Op`). For each op it checks the op's guard against a
//! fresh read (the head it expects, the labels that must still be on or off, the comment it edits and
//! the marker that comment must still carry), applies it, and reports
//! `{ op, number, outcome, detail }` with outcome:
//!   "applied"       written,
//!   "unchanged"     nothing to write (the comment already says it, the label is already gone),
//!   "dry-run"       not live: `detail` says what it would do, and nothing is read or written,
//!   "guard-failed"  what the op expects no longer holds: not written; later ops on the same pull
//!                   request in this batch are not written either (they were decided on the same read),
//!   "failed"        GitHub refused or failed (the error in words); later ops still run. `transient`
//!                   says GitHub or the network failed past the client's retries (lib/retry.js).
//! The git ops (rebase, rebaseOnto, push, autoFix) are entries of the same table, applied through the
//! git port the caller gives (lib/queue/git.js); their guard is their own (the head they expect, the
//! push's lease, which git checks), and they add the words only git can say: "empty" (nothing left
//! after a rebase), "skipped" (a layer with nothing to restack), "conflict", "moved" (the branch is
//! not at the head expected), "lease-lost" (someone pushed first), "refused" (the remote said no),
//! "transient" (a push the network or GitHub's front end failed, past lib/retry.js's retries).
//! The queue's engine reads these words as they are (src/flows/queue/cycle.rs `Outcome`).
//! A guard-failed op is not retried here: the next run reads the pull request as it now is and decides
//! again, so what moved is what the next decision sees. Nothing is remembered in between.
//!
//! Label edits add (`POST /issues/{n}/labels`) and remove (`DELETE /issues/{n}/labels/{name}`) named
//! labels only. Nothing here replaces a whole label set, so a label a person adds while prflow edits
//! the same pull request survives.

import { apiTransient, gitTransient } from "../retry.js";

/** The review event a station posts. Hard-wired: no op can carry another, so nothing here approves. */
export const REVIEW_EVENT = Object.freeze("COMMENT");

export const APPLIED = "applied";
export const UNCHANGED = "unchanged";
export const DRY_RUN = "dry-run";
export const GUARD_FAILED = "guard-failed";
export const FAILED = "failed";
export const EMPTY = "empty";
export const SKIPPED = "skipped";
export const CONFLICT = "conflict";
export const MOVED = "moved";
export const LEASE_LOST = "lease-lost";
export const REFUSED = "refused";
/** A git op the network failed past its retries (lib/retry.js); a GitHub write says `failed` with `transient`. */
export const TRANSIENT = "transient";

/**
 * Op kind → { describe(op): words for a dry run, apply(octokit, op, ctx): { outcome, detail } }.
 * `ctx.fresh` is the guard's fresh read of the pull request or issue ({ head, labels, nodeId }), when the op has a guard.
 */
export const WRITERS = {
  editLabels: {
    describe: (op) => `would ${labelWords(op)}`,
    async apply(octokit, op, { params }) {
      const add = op.add.map((c) => c.label);
      const remove = op.remove.map((c) => c.label);
      if (!add.length && !remove.length) return { outcome: UNCHANGED, detail: "no label to change" };
      if (add.length)
        await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", {
          ...params,
          issue_number: op.number,
          labels: add,
        });
      const gone = [];
      for (const name of remove) {
        try {
          await octokit.request("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", {
            ...params,
            issue_number: op.number,
            name,
          });
        } catch (e) {
          // Already gone: the pull request is as the op wants it.
          if (e.status !== 404) throw e;
          gone.push(name);
        }
      }
      if (!add.length && gone.length === remove.length)
        return { outcome: UNCHANGED, detail: `${gone.join(", ")} already removed` };
      return {
        outcome: APPLIED,
        detail: labelWords(op) + (gone.length ? ` (${gone.join(", ")} already removed)` : ""),
      };
    },
  },
  requestReviewers: {
    describe: (op) => `would request ${op.reviewers.join(", ")}`,
    async apply(octokit, op, { params }) {
      const teams = op.reviewers.filter((r) => r.includes("/")).map((r) => r.split("/").pop());
      const users = op.reviewers.filter((r) => !r.includes("/"));
      if (!teams.length && !users.length) return { outcome: UNCHANGED, detail: "nobody to request" };
      const body = { ...params, pull_number: op.number };
      if (users.length) body.reviewers = users;
      if (teams.length) body.team_reviewers = teams;
      await octokit.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers", body);
      return { outcome: APPLIED, detail: `requested ${op.reviewers.join(", ")}` };
    },
  },
  upsertComment: {
    describe: (op) => (op.commentId == null ? "would comment" : `would update comment ${op.commentId}`),
    async apply(octokit, op, { params }) {
      if (op.commentId == null) {
        const res = await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
          ...params,
          issue_number: op.number,
          body: op.body,
        });
        return { outcome: APPLIED, detail: `commented (${res.data.id})` };
      }
      // The comment's guard: it still exists and still starts with the marker it was chosen by.
      let current;
      try {
        current = (
          await octokit.request("GET /repos/{owner}/{repo}/issues/comments/{comment_id}", {
            ...params,
            comment_id: op.commentId,
            request: { ...GUARD_READ },
          })
        ).data;
      } catch (e) {
        if (e.status === 404) return { outcome: GUARD_FAILED, detail: `comment ${op.commentId} is gone` };
        throw e;
      }
      const body = current.body ?? "";
      if (!body.startsWith(op.marker))
        return { outcome: GUARD_FAILED, detail: `comment ${op.commentId} no longer starts with ${op.marker}` };
      if (body === op.body) return { outcome: UNCHANGED, detail: "the comment already says this" };
      await octokit.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", {
        ...params,
        comment_id: op.commentId,
        body: op.body,
      });
      return { outcome: APPLIED, detail: `updated comment ${op.commentId}` };
    },
  },
  comment: {
    describe: (op) => `would comment ${JSON.stringify(op.body.slice(0, 60))}`,
    async apply(octokit, op, { params }) {
      const res = await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...params,
        issue_number: op.number,
        body: op.body,
      });
      return { outcome: APPLIED, detail: `commented (${res.data.id})` };
    },
  },
  postReview: {
    describe: () => `would post a ${REVIEW_EVENT} review`,
    async apply(octokit, op, { params }) {
      const body = { ...params, pull_number: op.number, event: REVIEW_EVENT, body: op.body };
      if (op.guard?.head) body.commit_id = op.guard.head;
      await octokit.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", body);
      return { outcome: APPLIED, detail: `posted a ${REVIEW_EVENT} review` };
    },
  },
  upsertBoard: {
    describe: (op) =>
      op.number == null ? `would open the board issue with ${op.label}` : `would rewrite the board #${op.number}`,
    async apply(octokit, op, { params }) {
      if (op.number == null) {
        // Creating an issue with a label the repository lacks creates the label too.
        const res = await octokit.request("POST /repos/{owner}/{repo}/issues", {
          ...params,
          title: op.title,
          body: op.body,
          labels: [op.label],
        });
        return { outcome: APPLIED, detail: `opened the board as #${res.data.number}` };
      }
      await octokit.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
        ...params,
        issue_number: op.number,
        body: op.body,
      });
      return { outcome: APPLIED, detail: `rewrote the board #${op.number}` };
    },
  },
  createIssue: {
    describe: (op) => `would open an issue: ${op.title}`,
    async apply(octokit, op, { params }) {
      const body = { ...params, title: op.title, body: op.body };
      if (op.labels?.length) body.labels = op.labels;
      const res = await octokit.request("POST /repos/{owner}/{repo}/issues", body);
      return { outcome: APPLIED, detail: `opened #${res.data.number}`, created: res.data.number };
    },
  },
  editIssue: {
    describe: (op) => `would edit #${op.number}${op.state ? ` (${op.state})` : ""}`,
    async apply(octokit, op, { params }) {
      // Title, body and state only: an edit that sent `labels` would replace the set.
      const body = { ...params, issue_number: op.number };
      for (const k of ["title", "body", "state"]) if (op[k] != null) body[k] = op[k];
      await octokit.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", body);
      return { outcome: APPLIED, detail: `edited #${op.number}${op.state ? ` (${op.state})` : ""}` };
    },
  },
  setStatus: {
    describe: (op) => `would set ${statusWords(op)}`,
    // A commit status (the stations flow's gate). It belongs to `op.sha`, which may be older than the head.
    async apply(octokit, op, { params }) {
      await octokit.request("POST /repos/{owner}/{repo}/statuses/{sha}", {
        ...params,
        sha: op.sha,
        state: op.state,
        context: op.context,
        description: op.description.slice(0, 140),
      });
      return { outcome: APPLIED, detail: statusWords(op) };
    },
  },
  armAutoMerge: {
    describe: (op) => `would arm auto-merge (${op.method.toLowerCase()}) at ${short(op.guard?.head)}`,
    async apply(octokit, op, { fresh }) {
      // GitHub checks the head again itself (expectedHeadOid): a push between our read and this write fails there too.
      await octokit.graphql(
        "mutation($id: ID!, $mergeMethod: PullRequestMergeMethod!, $head: GitObjectID!) { enablePullRequestAutoMerge(input: { pullRequestId: $id, mergeMethod: $mergeMethod, expectedHeadOid: $head }) { clientMutationId } }",
        { id: fresh.nodeId, mergeMethod: op.method, head: op.guard.head },
      );
      return { outcome: APPLIED, detail: `armed auto-merge (${op.method.toLowerCase()}) at ${short(op.guard.head)}` };
    },
  },
  disarmAutoMerge: {
    describe: () => "would disarm auto-merge",
    async apply(octokit, op, { fresh }) {
      await octokit.graphql(
        "mutation($id: ID!) { disablePullRequestAutoMerge(input: { pullRequestId: $id }) { clientMutationId } }",
        { id: fresh.nodeId },
      );
      return { outcome: APPLIED, detail: "disarmed auto-merge" };
    },
  },
  createPullRequest: {
    describe: (op) =>
      `would open a pull request from ${op.head} onto ${op.base}${op.labels?.length ? ` with ${op.labels.join(", ")}` : ""}`,
    // The labels right after the pull request: GitHub's create endpoint takes none. Opening fires one
    // round of checks; the skip-ci label the engine puts here is what cancels it.
    async apply(octokit, op, { params }) {
      const res = await octokit.request("POST /repos/{owner}/{repo}/pulls", {
        ...params,
        title: op.title,
        body: op.body,
        head: op.head,
        base: op.base,
        draft: Boolean(op.draft),
      });
      const number = res.data.number;
      if (op.labels?.length) {
        try {
          await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", {
            ...params,
            issue_number: number,
            labels: op.labels,
          });
        } catch (e) {
          return {
            outcome: FAILED,
            detail: `opened #${number} but its labels were not put on (${e.status ?? ""} ${String(e.message).split("\n")[0]})`,
            created: number,
          };
        }
      }
      return {
        outcome: APPLIED,
        detail: `opened #${number}${op.labels?.length ? ` with ${op.labels.join(", ")}` : ""}`,
        created: number,
      };
    },
  },
  createLabel: {
    describe: (op) => `would create the label ${op.name}`,
    async apply(octokit, op, { params }) {
      await octokit.request("POST /repos/{owner}/{repo}/labels", {
        ...params,
        name: op.name,
        color: op.color,
        description: op.description,
      });
      return { outcome: APPLIED, detail: `created ${op.name}` };
    },
  },
  updateLabel: {
    describe: (op) => `would update the label ${op.name}`,
    async apply(octokit, op, { params }) {
      await octokit.request("PATCH /repos/{owner}/{repo}/labels/{name}", {
        ...params,
        name: op.name,
        new_name: op.newName,
        color: op.color,
        description: op.description,
      });
      return { outcome: APPLIED, detail: `updated ${op.name}` };
    },
  },
  // ---- git, through the port `git` (lib/queue/git.js `Git`), which reads its own guard.
  rebase: {
    describe: (op) =>
      `would rebase ${op.branch} onto ${op.onto}${op.dropping ? ` (dropping ${short(op.dropping)})` : ""} at ${short(op.expectedHead)}`,
    ownGuard: true,
    apply: (_octokit, op, { git }) => needGit(git, op) ?? git.rebase(op, { upstreamRequired: false }),
  },
  rebaseOnto: {
    describe: (op) =>
      `would restack ${op.branch} onto ${op.onto} from ${short(op.upstream)} at ${short(op.expectedHead)}`,
    ownGuard: true,
    apply: (_octokit, op, { git }) => needGit(git, op) ?? git.rebase(op, { upstreamRequired: true }),
  },
  push: {
    describe: (op) => `would push ${op.branch}, leased at ${short(op.lease)}`,
    ownGuard: true,
    apply: (_octokit, op, { git }) => needGit(git, op) ?? git.pushOp(op),
  },
  autoFix: {
    describe: (op) =>
      `would run ${op.commands.length} autoFix command${op.commands.length === 1 ? "" : "s"} on ${op.branch} at ${short(op.expectedHead)}`,
    ownGuard: true,
    apply: (_octokit, op, { git }) => needGit(git, op) ?? git.autoFix(op),
  },
};

function needGit(git, op) {
  return git ? null : { outcome: FAILED, detail: `no git here: only the queue worker applies ${op.op}` };
}

const GIT_OPS = new Set(["rebase", "rebaseOnto", "push", "autoFix"]);

/** Outcomes after which the next op of a halting batch still runs. */
const GOES_ON = new Set([APPLIED, UNCHANGED, SKIPPED, DRY_RUN]);

/**
 * Marks a guard's read as part of its write (Octokit passes `request` options through to its hooks), so
 * a run that stopped writing after a rate limit stops these reads too (lib/run.js).
 */
export const GUARD_READ = Object.freeze({ prflowGuard: true });

/** Ops that need the pull request's GraphQL id, read with the guard. */
const NEEDS_PULL = new Set(["armAutoMerge", "disarmAutoMerge"]);

/**
 * Applies `ops` in order through the table. Returns one result per op, in order. `git` is the git port
 * (the queue worker's, the fixer's). With `halt`, the batch stops at the first op that is not applied,
 * unchanged or skipped (the queue's step: its ops build on each other), and returns the results so far.
 */
export async function applyOps(octokit, ops, { owner, repo, live = false, log = () => {}, git, halt = false } = {}) {
  const params = { owner, repo };
  const stopped = new Map();
  const results = [];
  for (const op of ops ?? []) {
    const base = { op: op.op, number: op.number ?? null };
    const r = await applyOne(octokit, op, { params, live, git, stopped });
    // A git op's own guard failing (moved, lease-lost) voids the later ops on that pull request too.
    if ((r.outcome === GUARD_FAILED || r.outcome === MOVED || r.outcome === LEASE_LOST) && op.number)
      stopped.set(op.number, stopped.get(op.number) ?? r.detail);
    if (r.outcome === GUARD_FAILED || r.outcome === FAILED) log(`#${op.number}: ${op.op} ${r.outcome}: ${r.detail}`);
    results.push({ ...base, ...r });
    if (halt && !GOES_ON.has(r.outcome)) break;
  }
  return results;
}

/** `applyOps(plan.ops)`: every flow's answer carries its writes in `ops`. */
export function applyPlan(octokit, plan, options) {
  return applyOps(octokit, plan.ops, options);
}

async function applyOne(octokit, op, { params, live, git, stopped }) {
  const writer = Object.hasOwn(WRITERS, op.op) ? WRITERS[op.op] : null;
  if (!writer) return { outcome: FAILED, detail: `prflow has no writer for "${op.op}"` };
  if (!live) return { outcome: DRY_RUN, detail: writer.describe(op) + guardWords(op.guard) };
  if (op.number && stopped.has(op.number))
    return {
      outcome: GUARD_FAILED,
      detail: `not applied: an earlier write to #${op.number} failed its guard (${stopped.get(op.number)})`,
    };
  try {
    let fresh = null;
    if (!writer.ownGuard && (hasGuard(op.guard) || NEEDS_PULL.has(op.op))) {
      fresh = await freshRead(octokit, op, params);
      const broken = guardBroken(op.guard ?? {}, fresh);
      if (broken) return { outcome: GUARD_FAILED, detail: broken };
    }
    return await writer.apply(octokit, op, { params, fresh, git });
  } catch (e) {
    // `transient`: past the client's retries, and maybe applied (a lost reply): the caller re-reads.
    // A git op's fetch that could not reach GitHub throws too: git's words say it was the network.
    return {
      outcome: FAILED,
      detail: `${e.status ? `${e.status} ` : ""}${String(e.message).split("\n")[0]}`,
      transient: apiTransient(e) || (Boolean(git) && GIT_OPS.has(op.op) && gitTransient(e.message)),
    };
  }
}

const hasGuard = (g) => Boolean(g && (g.head || g.base || g.labelsOn?.length || g.labelsOff?.length));

/** One cheap read of what the guard names: the pull request (head, labels, id) or, without a head, the issue's labels. */
async function freshRead(octokit, op, params) {
  if (op.guard?.head || op.guard?.base || NEEDS_PULL.has(op.op)) {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
      ...params,
      pull_number: op.number,
      request: { ...GUARD_READ },
    });
    return {
      head: data.head?.sha ?? null,
      base: data.base?.ref ?? null,
      labels: (data.labels ?? []).map((l) => l.name),
      nodeId: data.node_id,
    };
  }
  const { data } = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}", {
    ...params,
    issue_number: op.number,
    request: { ...GUARD_READ },
  });
  return {
    head: null,
    labels: (data.labels ?? []).map((l) => (typeof l === "string" ? l : l.name)),
    nodeId: data.node_id,
  };
}

/** What no longer holds, in words, or null. Label names compare as GitHub compares them: without case. */
export function guardBroken(guard, fresh) {
  if (guard.head && fresh.head !== guard.head)
    return `the head moved from ${short(guard.head)} to ${short(fresh.head)}`;
  if (guard.base && fresh.base !== guard.base) return `it was retargeted from ${guard.base} to ${fresh.base}`;
  const on = new Set(fresh.labels.map((l) => l.toLowerCase()));
  const off = (guard.labelsOn ?? []).filter((l) => !on.has(l.toLowerCase()));
  if (off.length) return `${off.join(", ")} ${off.length === 1 ? "was" : "were"} taken off`;
  const put = (guard.labelsOff ?? []).filter((l) => on.has(l.toLowerCase()));
  if (put.length) return `${put.join(", ")} ${put.length === 1 ? "was" : "were"} put on`;
  return null;
}

function guardWords(guard) {
  const parts = [];
  if (guard?.head) parts.push(`the head is still ${short(guard.head)}`);
  if (guard?.base) parts.push(`it is still based on ${guard.base}`);
  if (guard?.labelsOn?.length) parts.push(`${guard.labelsOn.join(", ")} still on`);
  if (guard?.labelsOff?.length) parts.push(`${guard.labelsOff.join(", ")} still off`);
  return parts.length ? ` (if ${parts.join(" and ")})` : "";
}

function labelWords(op) {
  return [...op.add.map((c) => `+${c.label}`), ...op.remove.map((c) => `-${c.label}`)].join(" ");
}

function statusWords(op) {
  return `${op.context}=${op.state} on ${op.sha.slice(0, 7)}`;
}

function short(sha) {
  return sha ? String(sha).slice(0, 7) : "nothing";
}
