// What the queue worker reads beside the survey (lib/github/read-queue.js): one poll of the watched
// pull request, how named pull requests left the open list, the layers GitHub moved (the first
// survey's timelines), and the job logs a set-aside comment folds, redacted before they reach the engine.
import { graphqlRequest, readJobLog } from "../github/index.js";
import { redact } from "../redact.js";

/** One poll of the watched pull request, read as the survey reads it. */
export async function readPoll(gh, number, facts) {
  const pr = facts.pullRequests.find((p) => p.number === number);
  // GitHub's clock (the Date header the read just got), the one the watch's start was taken by: the
  // machine's own clock may be off from it, and a watch timed across two clocks ends at random.
  const now = facts.now ?? new Date().toISOString();
  if (!pr) {
    const { data } = await gh.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
      owner: gh.owner,
      repo: gh.repo,
      pull_number: number,
    });
    return { state: data.merged ? "MERGED" : data.state === "open" ? "OPEN" : "CLOSED", now };
  }
  return {
    state: "OPEN",
    autoMerge: Boolean(pr.autoMerge),
    labels: pr.labels,
    headSha: pr.headSha,
    mergeStateStatus: pr.mergeStateStatus ?? "UNKNOWN",
    checks: pr.checks ?? [],
    requiredChecks: facts.requiredChecks ?? [],
    unknown: (facts.unknown ?? []).filter((u) => u === "requiredChecks"),
    now,
  };
}

/**
 * The job logs the step named (the failed jobs of a pull request it is setting aside): the last lines
 * of each, as many as it asked for, redacted. A log that cannot be read is that job's error.
 */
export async function readJobTails(gh, named) {
  const out = [];
  for (const { jobId, lines } of named) {
    try {
      const text = await readJobLog(gh.octokit, { owner: gh.owner, repo: gh.repo, jobId });
      out.push({ jobId, log: redact(text.replace(/\n$/, "").split("\n").slice(-lines).join("\n")) });
    } catch (e) {
      out.push({ jobId, error: redact(e.message) });
    }
  }
  return out;
}

/** How the pull requests the step named left the open list. */
export async function readClosed(gh, numbers, facts) {
  const open = new Set(facts.pullRequests.map((p) => p.number));
  const out = [];
  for (const n of numbers.filter((x) => !open.has(x))) {
    try {
      const { data } = await gh.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
        owner: gh.owner,
        repo: gh.repo,
        pull_number: n,
      });
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
      const fields = chunk.map(
        (p) =>
          `p${p.number}: pullRequest(number: ${p.number}) { timelineItems(itemTypes: [BASE_REF_CHANGED_EVENT], last: 1) { nodes { ... on BaseRefChangedEvent { previousRefName currentRefName } } } }`,
      );
      const { data, errors } = await graphqlRequest(
        gh.octokit,
        `query prflowMovedLayers($owner: String!, $repo: String!) { repository(owner: $owner, name: $repo) { ${fields.join(" ")} } }`,
        { owner: gh.owner, repo: gh.repo },
      );
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
      const fields = chunk.map(
        (_, j) => `b${j}: pullRequests(headRefName: $b${j}, states: [MERGED], last: 1) { nodes { number headRefOid } }`,
      );
      const variables = { owner: gh.owner, repo: gh.repo, ...Object.fromEntries(chunk.map((b, j) => [`b${j}`, b])) };
      const { data, errors } = await graphqlRequest(
        gh.octokit,
        `query prflowMergedFrom($owner: String!, $repo: String!, ${vars}) { repository(owner: $owner, name: $repo) { ${fields.join(" ")} } }`,
        variables,
      );
      if (errors.length || !data?.repository) throw new Error(errors[0]?.message ?? "no repository");
      chunk.forEach((b, j) => {
        const pr = data.repository[`b${j}`]?.nodes?.at(-1);
        if (pr) merged.set(b, pr);
      });
    }
    return moved
      .filter((m) => merged.has(m.from))
      .map((m) => ({ number: m.number, parent: merged.get(m.from).number, parentHead: merged.get(m.from).headRefOid }));
  } catch (e) {
    log(`the timelines could not be read (${e.message}): no layer GitHub moved is restacked on this first survey`);
    return [];
  }
}
