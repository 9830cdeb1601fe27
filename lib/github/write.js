//! Applies a plan (src/plan.rs) to GitHub, op by op, and reports each: `{ op, number, status, detail }`
//! with status "applied", "would" (dry run), "skipped" (nothing to write) or "failed" (the error in
//! words; later ops still run). Without `live` nothing is written.
//!
//! A label edit is ONE request per pull request, so the board never shows a half-applied edit and a
//! webhook consumer never sees a removal without its addition:
//! - only additions: `POST /issues/{n}/labels` (adds; a label someone set meanwhile survives),
//! - only one removal: `DELETE /issues/{n}/labels/{name}` (removes just that one),
//! - anything else: `PATCH /issues/{n}` with the full new list (current labels from the facts, or read
//!   just before when no facts are given). It replaces the set, so a label a person added between our
//!   read and this write would be lost; the two forms above avoid that whenever one request can.

/** Op name → writer. Later issues add theirs here (upsertComment, setStatus, updateIssue, armAutoMerge). */
export const WRITERS = {
  editLabels,
  requestReviewers,
  setStatus,
};

export const APPLIED = "applied";
export const WOULD = "would";
export const SKIPPED = "skipped";
export const FAILED = "failed";

/**
 * Applies `plan.ops` in order. `facts` (optional) gives each pull request's current labels so a label edit
 * needs no read. Returns one result per op, in plan order.
 */
export async function applyPlan(octokit, plan, { owner, repo, live = false, log = () => {}, facts, writers = WRITERS } = {}) {
  const current = new Map((facts?.pullRequests ?? []).map((p) => [p.number, p.labels]));
  const results = [];
  for (const op of plan.ops ?? []) {
    const writer = writers[op.op];
    const base = { op: op.op, number: op.number ?? null };
    if (!writer) {
      results.push({ ...base, status: SKIPPED, detail: `prflow has no writer for "${op.op}" yet` });
      continue;
    }
    try {
      const r = await writer(octokit, op, { owner, repo, live, log, currentLabels: current.get(op.number) });
      results.push({ ...base, ...r });
    } catch (e) {
      const detail = `${e.status ? `${e.status} ` : ""}${e.message}`;
      log(`#${op.number}: ${op.op} failed: ${detail}`);
      results.push({ ...base, status: FAILED, detail });
    }
  }
  return results;
}

/** The labels a pull request should carry after `op`, given what it carries now. */
export function labelsAfter(currentLabels, op) {
  const remove = new Set(op.remove.map((c) => c.label.toLowerCase()));
  const next = currentLabels.filter((l) => !remove.has(l.toLowerCase()));
  for (const { label } of op.add) if (!next.some((l) => l.toLowerCase() === label.toLowerCase())) next.push(label);
  return next;
}

async function editLabels(octokit, op, { owner, repo, live, currentLabels }) {
  const add = op.add.map((c) => c.label);
  const remove = op.remove.map((c) => c.label);
  const words = [...add.map((l) => `+${l}`), ...remove.map((l) => `-${l}`)].join(" ");
  if (!add.length && !remove.length) return { status: SKIPPED, detail: "no label to change" };
  const params = { owner, repo, issue_number: op.number };
  if (!remove.length) {
    if (!live) return { status: WOULD, detail: `would add ${add.join(", ")} (POST labels)` };
    await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", { ...params, labels: add });
    return { status: APPLIED, detail: words };
  }
  if (!add.length && remove.length === 1) {
    if (!live) return { status: WOULD, detail: `would remove ${remove[0]} (DELETE label)` };
    try {
      await octokit.request("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", { ...params, name: remove[0] });
    } catch (e) {
      // Already gone: the pull request is as the plan wants it.
      if (e.status === 404) return { status: SKIPPED, detail: `${remove[0]} was already removed` };
      throw e;
    }
    return { status: APPLIED, detail: words };
  }
  if (!live) return { status: WOULD, detail: `would set labels in one edit: ${words}` };
  let labels = currentLabels;
  if (!labels) {
    const res = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/labels", { ...params, per_page: 100 });
    labels = res.data.map((l) => l.name);
  }
  await octokit.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", { ...params, labels: labelsAfter(labels, op) });
  return { status: APPLIED, detail: words };
}

async function requestReviewers(octokit, op, { owner, repo, live }) {
  const teams = op.reviewers.filter((r) => r.includes("/")).map((r) => r.split("/").pop());
  const users = op.reviewers.filter((r) => !r.includes("/"));
  if (!teams.length && !users.length) return { status: SKIPPED, detail: "nobody to request" };
  if (!live) return { status: WOULD, detail: `would request ${op.reviewers.join(", ")}` };
  const body = { owner, repo, pull_number: op.number };
  if (users.length) body.reviewers = users;
  if (teams.length) body.team_reviewers = teams;
  await octokit.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers", body);
  return { status: APPLIED, detail: `requested ${op.reviewers.join(", ")}` };
}

/** A commit status (the stations flow's gate). It belongs to `op.sha`, which may be older than the head. */
async function setStatus(octokit, op, { owner, repo, live }) {
  const words = `${op.context}=${op.state} on ${op.sha.slice(0, 7)}`;
  if (!live) return { status: WOULD, detail: `would set ${words}` };
  await octokit.request("POST /repos/{owner}/{repo}/statuses/{sha}", { owner, repo, sha: op.sha, state: op.state, context: op.context, description: op.description.slice(0, 140) });
  return { status: APPLIED, detail: words };
}
