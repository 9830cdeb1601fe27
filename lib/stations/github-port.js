// The stations flow's I/O against GitHub (or the emulator, when GITHUB_API_URL points there): the port
// the claim loop, the station loop and the gate use. Nothing here decides anything; every answer comes
// from the engine, and every write goes through the one writer table (lib/github/write.js).
import { applyOps, listLabels, readFacts, REVIEW_EVENT } from "../github/index.js";

/**
 * The review event the station posts: the writer table's, hard-wired there. There is no parameter,
 * option or config key that changes it, so the station has no code path that approves.
 */
export { REVIEW_EVENT };

/** The port over one repository. `live: false` turns every write into a report. */
export function githubPort(octokit, { owner, repo, live = true, log = () => {} }) {
  const params = { owner, repo };
  return {
    slug: `${owner}/${repo}`,
    repoLabels: async () => {
      try {
        return (await listLabels(octokit, params)).map((l) => l.name);
      } catch (e) {
        e.step ??= `reading the labels of ${owner}/${repo}`;
        throw e;
      }
    },
    readFacts: (numbers) => readFacts(octokit, { owner, repo, numbers, log }),
    readLabels: async (number) => {
      const res = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/labels", {
        ...params,
        issue_number: number,
        per_page: 100,
      });
      return res.data.map((l) => l.name);
    },
    // A guard that failed is an answer, not an error: the read-back or the next pass sees what moved.
    apply: async (ops) => {
      const results = await applyOps(octokit, ops, { owner, repo, live, log });
      for (const r of results) if (r.outcome === "failed") throw new Error(`#${r.number}: ${r.op} failed: ${r.detail}`);
      return results;
    },
    fetchDiff: async (number) => {
      try {
        const res = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
          ...params,
          pull_number: number,
          headers: { accept: "application/vnd.github.diff" },
        });
        if (typeof res.data === "string") return res.data;
      } catch (e) {
        log(
          `#${number}: the diff media type failed (${e.status ?? e.message}); building the diff from the file patches`,
        );
      }
      const files = [];
      for (let page = 1; ; page++) {
        const res = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
          ...params,
          pull_number: number,
          per_page: 100,
          page,
        });
        files.push(...res.data);
        if (res.data.length < 100) break;
      }
      return files
        .map(
          (f) =>
            `diff --git a/${f.filename} b/${f.filename}\n--- a/${f.filename}\n+++ b/${f.filename}\n${f.patch ?? ""}\n`,
        )
        .join("");
    },
  };
}
