// `prflow labels`: create or update every label the config uses; reports, never deletes, unused ones.
import { prflow } from "../engine.js";
import { REPO_USAGE, connect, repoConfig, repoOptions } from "../common.js";
import { labelsRun } from "../../lib/run.js";

export const summary = "Create or update every label the config uses; never deletes one.";
export const writes = "live";
export const usage = `prflow labels ${REPO_USAGE}`;
export const examples = ["prflow labels --repo acme/widgets", "prflow labels --repo acme/widgets --live"];
export const options = repoOptions;

export async function run(values) {
  const { owner, repo, live, octokit, log } = connect(values);
  const loaded = await repoConfig(values, { octokit, owner, repo });
  const result = await labelsRun({ prflow, octokit, owner, repo, loaded, live, log });
  console.log(
    values.json
      ? JSON.stringify({ results: result.results, unused: result.unused, counts: result.counts }, null, 2)
      : result.summary,
  );
  return result.results.some((r) => r.status === "failed") ? 1 : 0;
}
