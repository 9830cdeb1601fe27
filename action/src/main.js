// The Action's entry: inputs and the event from the runner, then the shared run (lib/run.js), then outputs,
// the job summary and log lines. It never checks out or runs the pull request's code: it reads GitHub's
// facts through the API and writes labels and review requests, nothing else.
import { resolve } from "node:path";
import { readFileSync } from "node:fs";
import { makeOctokit, parseEvent } from "../../lib/github/index.js";
import { DEFAULT_CONFIG_PATH, loadConfig } from "../../lib/config-file.js";
import { RunError, labelsRun, parseNumbers, reconcileRun } from "../../lib/run.js";
import { sweepRun } from "../../lib/followup.js";
import { engine } from "./engine.js";
import { gateRun } from "../../lib/stations/gate-run.js";
import { appendSummary, errorCommand, getBooleanInput, getInput, readEvent, setOutput } from "./runner.js";

const MODES = ["reconcile", "labels", "sweep", "gate-classify", "gate-report"];

async function main(env = process.env) {
  const log = (line) => console.log(line);
  const mode = getInput("mode", env) || "reconcile";
  if (!MODES.includes(mode)) throw new RunError([`input mode: expected one of ${MODES.join(", ")}, found ${JSON.stringify(mode)}`]);
  const live = getBooleanInput("live", false, env);
  const configPath = getInput("config", env) || DEFAULT_CONFIG_PATH;
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const readFile = (p) => readFileSync(resolve(workspace, p), "utf8");
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? "").split("/");
  if (!owner || !repo) throw new RunError([`GITHUB_REPOSITORY: expected owner/name, found ${JSON.stringify(env.GITHUB_REPOSITORY ?? "")}`]);
  const token = getInput("token", env);
  if (!token) throw new RunError(["input token: expected a token (the default is the workflow's GITHUB_TOKEN), found nothing"]);
  const octokit = makeOctokit({ token, baseUrl: env.GITHUB_API_URL, graphqlUrl: env.GITHUB_GRAPHQL_URL, log });
  log(`prflow ${engine.version()} · ${mode} · ${owner}/${repo} · ${live ? "live" : "dry run (set live: true to write)"}`);

  if (mode === "labels") {
    const run = await labelsRun({ engine, octokit, owner, repo, configPath, readFile, live, log });
    setOutput("plan", run.results, env);
    writeCounts(run.counts, env);
    appendSummary(run.summary, env);
    failOnFailedWrites(run.results.filter((r) => r.status === "failed").map((r) => `label ${r.name}: failed: ${r.detail}`));
    return;
  }

  if (mode === "sweep") {
    const run = await sweepRun({ engine, octokit, owner, repo, configPath, readFile, live, log });
    setOutput("plan", run.plan, env);
    setOutput("stop-the-line", String(run.plan.stopTheLine), env);
    writeCounts(run.counts, env);
    appendSummary(run.summary, env);
    return;
  }

  if (mode === "gate-classify" || mode === "gate-report") {
    // The stations flow's validation gate: one pull request (the numbers input), its status and labels.
    const number = parseNumbers(getInput("numbers", env))[0];
    if (!number) throw new RunError([`input numbers: expected the pull request the gate is for, found nothing`]);
    const { config, errors } = loadConfig(engine, configPath, { readFile });
    if (errors.length) throw new RunError(errors);
    const step = mode === "gate-classify" ? "classify" : "report";
    const { decision, results } = await gateRun({ engine, octokit, owner, repo, config, step, number, sha: getInput("sha", env), result: getInput("result", env), live, log });
    for (const [k, v] of Object.entries({ run: decision.run, need: decision.need, sha: decision.sha, pr: number })) setOutput(k, String(v), env);
    setOutput("plan", decision, env);
    appendSummary(`## prflow gate ${step} · #${number}\n\n${decision.why}\n`, env);
    failOnFailedWrites(results.filter((r) => r.status === "failed").map((r) => `#${r.number}: ${r.op} failed: ${r.detail}`));
    return;
  }

  const numbersInput = getInput("numbers", env);
  const scope = numbersInput
    ? { scope: "pulls", numbers: parseNumbers(numbersInput), why: "the numbers input" }
    : parseEvent(env.GITHUB_EVENT_NAME ?? "", readEvent(env));
  const run = await reconcileRun({ engine, octokit, owner, repo, configPath, readFile, scope, live, log });
  setOutput("plan", run.plan, env);
  writeCounts(run.counts, env);
  appendSummary(run.summary, env);
  failOnFailedWrites(run.results.filter((r) => r.status === "failed").map((r) => `#${r.number}: ${r.op} failed: ${r.detail}`));
}

/**
 * A write that failed after its retries fails the run, so someone looks; the other writes were still made.
 * A 403 is most often a read-only token (a pull_request_review from a fork), which the next labeled or
 * scheduled run makes good; the annotation says so.
 */
function failOnFailedWrites(lines) {
  if (!lines.length) return;
  for (const line of lines) {
    const hint = /^#\d+: \w+ failed: 403 /.test(line) ? " (a read-only token? events from forks get one; the next scheduled run retries)" : "";
    console.log(errorCommand(`${line}${hint}`));
  }
  process.exitCode = 1;
}

function writeCounts(counts, env) {
  setOutput("ops", String(counts.ops), env);
  setOutput("writes", String(counts.writes), env);
  setOutput("warnings", String(counts.warnings), env);
}

try {
  await main();
} catch (e) {
  const lines = e instanceof RunError ? e.lines : [e.message ?? String(e)];
  for (const line of lines) console.log(errorCommand(line));
  const title = e instanceof RunError ? "## prflow stopped before writing anything" : "## prflow failed";
  appendSummary([title, "", ...lines.map((l) => `- ${l.replace(/\|/g, "\\|")}`), ""].join("\n"));
  if (!(e instanceof RunError) && e.stack) console.error(e.stack);
  process.exitCode = 1;
}
