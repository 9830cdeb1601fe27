// `prflow report`: every open pull request with its merge-queue triage, owner, reason and place in the
// order, from a repository (read-only) or offline from a facts file. `owner` in `--format json` is what a
// fixer session reads to choose what to repair: the same owner function the worker uses.
import { readFileSync } from "node:fs";
import { prflow } from "../engine.js";
import { UsageError } from "../usage.js";
import { DEFAULT_CONFIG_PATH, loadConfig } from "../../lib/config-file.js";
import { RunError } from "../../lib/run.js";
import { reportJson, reportText, scoreboardText } from "../../lib/queue-report.js";

export const summary = "Show the merge queue: each pull request's triage, owner, position and estimated landing (read-only).";
export const usage = "prflow report (--repo owner/name | --facts FACTS.json) [--by-agent] [--config FILE] [--format text|json]   (token: GITHUB_TOKEN; API: GITHUB_API_URL)";
export const examples = ["prflow report --repo acme/widgets", "prflow report --repo acme/widgets --by-agent", "prflow report --facts facts.json --format json"];
export const help = {
  "by-agent": "each agent's record instead (its from: label, else the author): opened, landed, bounced, set aside, median time to land, CI minutes per landing, flakes",
};
export const options = {
  repo: { type: "string" },
  facts: { type: "string" },
  config: { type: "string", default: DEFAULT_CONFIG_PATH },
  format: { type: "string", default: "text" },
  "by-agent": { type: "boolean", default: false },
};

/** The queue's facts: a file, or read from the repository (the shared reader plus the queue's extra facts). */
export async function queueFacts(values, engine, reads) {
  if (values.facts) {
    try {
      return { facts: JSON.parse(readFileSync(values.facts, "utf8")), repository: null };
    } catch (e) {
      throw new RunError([`${values.facts}: $: expected a JSON facts file, found ${e.code === "ENOENT" ? "no such file" : e.message}`]);
    }
  }
  // Loaded only here, so the offline path works without a network client.
  const { connect } = await import("../common.js");
  const { readBoardFacts } = await import("../../lib/github/read-queue.js");
  const { owner, repo, octokit, log } = connect({ ...values, live: false });
  const facts = await readBoardFacts(octokit, { owner, repo, engine, log, reads });
  return { facts, repository: `${owner}/${repo}`, octokit, owner, repo, log };
}

export function loadConfigOrThrow(path) {
  const { engine, errors } = loadConfig(prflow, path);
  if (errors.length) throw new RunError(errors);
  return engine;
}

/**
 * What a read-only command of the queue's kind starts from (`report`, `status`): its options checked
 * against `usage`, the config, and the facts of `--repo` or `--facts`. With `decision` (one whose answer
 * carries the queue's `reads`, as `dashboard`'s does), a repository's reading asks it each round instead
 * of queueReads, and its last answer (on the facts returned) comes back as `answer`.
 */
export async function readInput(values, usage, decision) {
  if (!values.facts === !values.repo && !process.env.GITHUB_REPOSITORY) throw new UsageError(`give --repo or --facts\nusage: ${usage}`);
  if (values.facts && values.repo) throw new UsageError(`--repo and --facts contradict each other; pick one\nusage: ${usage}`);
  if (!["text", "json"].includes(values.format)) throw new UsageError(`--format: expected text or json, found ${JSON.stringify(values.format)}`);
  const engine = loadConfigOrThrow(values.config);
  let answer;
  const reads = decision && ((facts) => (answer = engine[decision]({ facts })).reads);
  const { facts, repository } = await queueFacts(values, engine, reads);
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
