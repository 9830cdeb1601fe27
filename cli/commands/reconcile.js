// `prflow reconcile`: the Action's reconcile mode from a terminal, on every open pull request or some.
import { prflow } from "../engine.js";
import { REPO_USAGE, connect, repoConfig, repoOptions } from "../common.js";
import { parseNumbers, reconcileRun } from "../../lib/run.js";
import { boardText } from "../../lib/summary.js";
import { terminalWidth } from "../usage.js";

export const summary = "Label pull requests from their facts.";
export const writes = "live";
export const usage = `prflow reconcile ${REPO_USAGE} [--numbers 12,14] [--markdown]`;
export const examples = [
  "prflow reconcile --repo acme/widgets",
  "prflow reconcile --repo acme/widgets --numbers 12,14 --live",
];
export const options = { ...repoOptions, numbers: { type: "string" }, markdown: { type: "boolean", default: false } };

export async function run(values) {
  const { owner, repo, live, octokit, log } = connect(values);
  const scope = values.numbers
    ? { scope: "pulls", numbers: parseNumbers(values.numbers), why: "--numbers" }
    : { scope: "all", why: "the command line" };
  const loaded = await repoConfig(values, { octokit, owner, repo });
  const result = await reconcileRun({ prflow, octokit, owner, repo, loaded, scope, live, log });
  if (values.json)
    console.log(JSON.stringify({ plan: result.plan, results: result.results, counts: result.counts }, null, 2));
  else if (values.markdown) console.log(result.summary);
  else {
    console.log(`${owner}/${repo}: ${live ? "live" : "dry run: nothing was written (--live writes)"}\n`);
    console.log(boardText(result.plan, result.results, { live, width: terminalWidth() }));
  }
  return result.results.some((r) => r.outcome === "failed") ? 1 : 0;
}
