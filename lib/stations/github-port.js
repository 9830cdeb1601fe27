// The stations flow's I/O against GitHub (or the emulator, when GITHUB_API_URL points there): the port
// the claim loop and the station loop use, and the `setStatus` writer for the gate. Nothing here
// decides anything; every answer comes from the engine.
import { applyPlan, readFacts, WRITERS, APPLIED, WOULD } from "../github/index.js";

/**
 * The review event the station posts. Hard-wired: there is no parameter, option or config key that
 * changes it, so the station has no code path that approves. Approval is a person's.
 */
export const REVIEW_EVENT = Object.freeze("COMMENT");

/** Writes a commit status (the gate's). The status belongs to `op.sha`, which may be older than the head. */
export async function setStatus(octokit, op, { owner, repo, live }) {
  const words = `${op.context}=${op.state} on ${op.sha.slice(0, 7)}`;
  if (!live) return { status: WOULD, detail: `would set ${words}` };
  await octokit.request("POST /repos/{owner}/{repo}/statuses/{sha}", { owner, repo, sha: op.sha, state: op.state, context: op.context, description: op.description.slice(0, 140) });
  return { status: APPLIED, detail: words };
}

export const STATION_WRITERS = { ...WRITERS, setStatus };

/** The port over one repository. `live: false` turns every write into a report. */
export function githubPort(octokit, { owner, repo, live = true, log = () => {} }) {
  const params = { owner, repo };
  return {
    readFacts: (numbers) => readFacts(octokit, { owner, repo, numbers, log }),
    readLabels: async (number) => {
      const res = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/labels", { ...params, issue_number: number, per_page: 100 });
      return res.data.map((l) => l.name);
    },
    apply: async (ops, facts) => {
      const results = await applyPlan(octokit, { ops }, { owner, repo, live, log, facts, writers: STATION_WRITERS });
      for (const r of results) if (r.status === "failed") throw new Error(`#${r.number}: ${r.op} failed: ${r.detail}`);
      return results;
    },
    fetchDiff: async (number) => {
      try {
        const res = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...params, pull_number: number, headers: { accept: "application/vnd.github.diff" } });
        if (typeof res.data === "string") return res.data;
      } catch (e) {
        log(`#${number}: the diff media type failed (${e.status ?? e.message}); building the diff from the file patches`);
      }
      const files = [];
      for (let page = 1; ; page++) {
        const res = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", { ...params, pull_number: number, per_page: 100, page });
        files.push(...res.data);
        if (res.data.length < 100) break;
      }
      return files.map((f) => `diff --git a/${f.filename} b/${f.filename}\n--- a/${f.filename}\n+++ b/${f.filename}\n${f.patch ?? ""}\n`).join("");
    },
    postReview: async (number, body) => {
      if (!live) return log(`would post a ${REVIEW_EVENT} review on #${number}`);
      await octokit.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", { ...params, pull_number: number, event: REVIEW_EVENT, body });
    },
    postComment: async (number, body) => {
      if (!live) return log(`would comment ${JSON.stringify(body)} on #${number}`);
      await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...params, issue_number: number, body });
    },
  };
}
