// The stations flow's I/O against GitHub (or the emulator, when GITHUB_API_URL points there): the port
// the claim loop, the station loop and the gate use (the gate's `setStatus` writer is in lib/github). Nothing here
// decides anything; every answer comes from the engine.
import { applyPlan, readFacts, WRITERS } from "../github/index.js";

/**
 * The review event the station posts. Hard-wired: there is no parameter, option or config key that
 * changes it, so the station has no code path that approves. Approval is a person's.
 */
export const REVIEW_EVENT = Object.freeze("COMMENT");

/** The writers the stations shells use: the shared ones (setStatus included). */
export const STATION_WRITERS = WRITERS;

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
