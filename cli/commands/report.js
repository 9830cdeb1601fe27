// `prflow report`: every open pull request with its merge-queue triage, owner, reason and place in the
// order, from a repository (read-only) or offline from a facts file. `owner` in `--format json` is what a
// fixer session reads to choose what to repair: the same owner function the worker uses.
import { readFileSync } from "node:fs";
import { CONFIG_EITHER, UsageError } from "../usage.js";
import { connect, offlineConfig, repoConfig } from "../common.js";
import { RunError } from "../../lib/run.js";
import { reportJson, reportText, scoreboardText } from "../../lib/queue-report.js";

export const summary =
  "Show the merge queue: each pull request's triage, owner, position and estimated landing (read-only).";
export const usage =
  "prflow report (--repo owner/name | --facts FACTS.json) [--by-agent] [--config FILE] [--format text|json]";
export const examples = [
  "prflow report --repo acme/widgets",
  "prflow report --repo acme/widgets --by-agent",
  "prflow report --facts facts.json --format json",
];
export const help = {
  config: CONFIG_EITHER,
  "by-agent":
    "each agent's record instead (its from: label, else the author): opened, landed, bounced, set aside, median time to land, CI minutes per landing, flakes",
};
export const options = {
  repo: { type: "string" },
  facts: { type: "string" },
  config: { type: "string" },
  format: { type: "string", default: "text" },
  "by-agent": { type: "boolean", default: false },
};

/**
 * The engine and the queue's facts: a facts file (with --config or the folder's config), or read from
 * the repository with its own config (the shared reader plus the queue's extra facts). `reads`, given
 * the engine, is what each reading round asks (see readInput).
 */
export async function queueFacts(values, reads) {
  if (values.facts) {
    const { engine } = offlineConfig(values);
    try {
      return { engine, facts: JSON.parse(readFileSync(values.facts, "utf8")), repository: null };
    } catch (e) {
      throw new RunError([
        `${values.facts}: $: expected a JSON facts file, found ${e.code === "ENOENT" ? "no such file" : e.message}`,
      ]);
    }
  }
  // Loaded only here, so the offline path loads no reader.
  const { readBoardFacts } = await import("../../lib/github/read-queue.js");
  const { owner, repo, octokit, log } = connect({ ...values, live: false });
  const { engine } = await repoConfig(values, { octokit, owner, repo });
  const facts = await readBoardFacts(octokit, { owner, repo, engine, log, reads: reads?.(engine) });
  return { engine, facts, repository: `${owner}/${repo}`, octokit, owner, repo, log };
}

/**
 * What a read-only command of the queue's kind starts from (`report`, `status`): its options checked
 * against `usage`, the config, and the facts of `--repo` or `--facts`. With `decision` (one whose answer
 * carries the queue's `reads`, as `dashboard`'s does), a repository's reading asks it each round instead
 * of queueReads, and its last answer (on the facts returned) comes back as `answer`.
 */
export async function readInput(values, usage, decision) {
  if (!values.facts === !values.repo && !process.env.GITHUB_REPOSITORY)
    throw new UsageError(`give --repo or --facts\nusage: ${usage}`);
  if (values.facts && values.repo)
    throw new UsageError(`--repo and --facts contradict each other; pick one\nusage: ${usage}`);
  if (!["text", "json"].includes(values.format))
    throw new UsageError(`--format: expected text or json, found ${JSON.stringify(values.format)}`);
  let answer;
  const reads = decision && ((engine) => (facts) => (answer = engine[decision]({ facts })).reads);
  const { engine, facts, repository } = await queueFacts(values, reads);
  return { engine, facts, repository, answer };
}

export async function run(values) {
  const { engine, facts, repository } = await readInput(values, usage);
  const meta = { repository: repository ?? facts.repository ?? values.facts, engine: engine.version() };
  const ask = (decision) => {
    try {
      return engine[decision]({ facts });
    } catch (e) {
      throw new RunError([`${values.facts ?? repository}: ${e.message}`]);
    }
  };
  if (values["by-agent"]) {
    const board = ask("scoreboard");
    if (values.format === "json") console.log(JSON.stringify({ ...meta, ...board }, null, 2));
    else process.stdout.write(scoreboardText(board, meta));
    return 0;
  }
  const report = ask("triage");
  const lane = ask("lane");
  if (values.format === "json") console.log(JSON.stringify(reportJson(report, { ...meta, lane }), null, 2));
  else process.stdout.write(reportText(report, { ...meta, lane }));
  return 0;
}
