// `prflow sweep`: the scheduled follow-up from a terminal: ping by time in state, release stale claims,
// rewrite the board, and say whether the line is stopped. A dry run unless --live.
import { prflow } from "../engine.js";
import { REPO_USAGE, connect, repoConfig, repoOptions } from "../common.js";
import { sweepRun } from "../../lib/followup.js";

export const summary = "Follow up on pull requests by time in state and rewrite the board.";
export const writes = "live";
export const usage = `prflow sweep ${REPO_USAGE}`;
export const examples = ["prflow sweep --repo acme/widgets", "prflow sweep --repo acme/widgets --live"];
export const options = { ...repoOptions, markdown: { type: "boolean", default: false } };

export async function run(values) {
  const { owner, repo, live, octokit, log } = connect(values);
  const loaded = await repoConfig(values, { octokit, owner, repo });
  const result = await sweepRun({ prflow, octokit, owner, repo, loaded, live, log });
  console.log(
    values.json
      ? JSON.stringify(
          { stopTheLine: result.plan.stopTheLine, plan: result.plan, results: result.results, counts: result.counts },
          null,
          2,
        )
      : values.markdown
        ? result.summary
        : [
            `${owner}/${repo}: ${live ? "live" : "dry run: nothing was written (--live writes)"}; the line is ${result.plan.stopTheLine ? "STOPPED" : "open"}`,
            ...(result.lines.length ? result.lines : ["nothing to do"]),
          ].join("\n"),
  );
  return result.results.some((r) => r.outcome === "failed") ? 1 : 0;
}
