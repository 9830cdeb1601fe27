// The Action's entry: inputs and the event from the runner, then the shared run (lib/run.js), then outputs,
// the job summary and log lines. Its label modes never check out or run the pull request's code: they read
// GitHub's facts through the API and write labels and review requests, nothing else. `mode: queue` is the
// merge-queue worker (action/src/queue.js): it rebases and pushes branches with git, and runs the config's
// autoFix commands on a fixer-only failure. `mode: page` reads and writes nothing on GitHub: it copies
// the built dashboard page into a folder of the workspace, for actions/upload-pages-artifact.
import { resolve } from "node:path";
import { cpSync, existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { makeOctokit, parseEvent } from "../../lib/github/index.js";
import { DEFAULT_CONFIG_PATH, loadConfig } from "../../lib/config-file.js";
import {
  NOT_ATTEMPTED,
  RunError,
  describeFailure,
  labelsRun,
  parseNumbers,
  reconcileRun,
  rateLimitReset,
} from "../../lib/run.js";
import { sweepRun } from "../../lib/followup.js";
import { prflow } from "./engine.js";
import { gateRun } from "../../lib/stations/gate-run.js";
import { queueRun, queueSummary, workflowTokenRefusal } from "./queue.js";
import { takeTokens } from "../../lib/token.js";
import {
  appendSummary,
  boundedPlan,
  errorCommand,
  getBooleanInput,
  getInput,
  groupedLog,
  readEvent,
  setOutput,
  warningAnnotations,
} from "./runner.js";

const MODES = ["reconcile", "labels", "sweep", "gate-classify", "gate-report", "queue", "page"];

/** The built page, committed beside the Action (page/dist), so a repository hosts it without a fork. */
const PAGE_DIST = new URL("../../page/dist/", import.meta.url);

const log = groupedLog();

async function main(env = process.env) {
  const mode = getInput("mode", env) || "reconcile";
  // The queue runs the pull request's code (autoFix): the token leaves this process's environment
  // first, the kernel's copy included (lib/token.js), and is kept in memory only.
  const taken = mode === "queue" ? takeTokens(env) : null;
  const input = (name) =>
    taken ? (taken[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim() : getInput(name, env);
  if (!MODES.includes(mode))
    throw new RunError([`input mode: expected one of ${MODES.join(", ")}, found ${JSON.stringify(mode)}`]);
  const live = getBooleanInput("live", false, env);
  const configPath = getInput("config", env) || DEFAULT_CONFIG_PATH;
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  if (mode === "page") return writePage(resolve(workspace, getInput("page-dir", env) || "_site"), env);
  const readFile = (p) => readFileSync(resolve(workspace, p), "utf8");
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? "").split("/");
  if (!owner || !repo)
    throw new RunError([
      `GITHUB_REPOSITORY: expected owner/name, found ${JSON.stringify(env.GITHUB_REPOSITORY ?? "")}`,
    ]);
  const token = input("token");
  if (!token)
    throw new RunError(["input token: expected a token (the default is the workflow's GITHUB_TOKEN), found nothing"]);
  if (mode === "queue") {
    // Before any read: a queue run on GITHUB_TOKEN would release pull requests whose CI never starts.
    const refusal = workflowTokenRefusal(token, {
      workflowToken: input("workflow-token"),
      envToken: taken.GITHUB_TOKEN ?? "",
    });
    if (refusal) throw new RunError([refusal]);
    console.log(`::add-mask::${token}`);
  }
  const octokit = makeOctokit({ token, baseUrl: env.GITHUB_API_URL, graphqlUrl: env.GITHUB_GRAPHQL_URL, log });
  log(
    `prflow ${prflow.version()} · ${mode} · ${owner}/${repo} · ${live ? "live" : "dry run (set live: true to write)"}`,
  );

  if (mode === "labels") {
    const run = await labelsRun({ prflow, octokit, owner, repo, configPath, readFile, live, log });
    log.end();
    setOutput("plan", run.results, env);
    writeCounts(run.counts, env);
    appendSummary(run.summary, env);
    failOnFailedWrites(
      run.results.filter((r) => r.status === "failed").map((r) => `label ${r.name}: failed: ${r.detail}`),
    );
    return;
  }

  if (mode === "sweep") {
    const run = await sweepRun({ prflow, octokit, owner, repo, configPath, readFile, live, log });
    log.end();
    annotate(run.plan.warnings ?? []);
    setPlanOutput(run.plan, run.counts, env);
    setOutput("stop-the-line", String(run.plan.stopTheLine), env);
    writeCounts(run.counts, env);
    appendSummary(run.summary, env);
    return;
  }

  if (mode === "queue") {
    const { engine, errors } = loadConfig(prflow, configPath, { readFile });
    if (errors.length) throw new RunError(errors);
    log.end();
    const watchTimeout = getInput("watch-timeout", env);
    if (watchTimeout && !/^\d+$/.test(watchTimeout))
      throw new RunError([`input watch-timeout: expected whole minutes, found ${JSON.stringify(watchTimeout)}`]);
    const commandTimeout = getInput("command-timeout", env);
    if (commandTimeout && !(Number(commandTimeout) > 0))
      throw new RunError([`input command-timeout: expected minutes above 0, found ${JSON.stringify(commandTimeout)}`]);
    const run = await queueRun({
      engine,
      octokit,
      owner,
      repo,
      token,
      live,
      env,
      watchTimeoutMinutes: watchTimeout ? Number(watchTimeout) : undefined,
      commandTimeoutMinutes: commandTimeout ? Number(commandTimeout) : undefined,
      log: (line) => console.log(line),
    });
    setOutput("acted", (run.state.actedOn ?? []).join(","), env);
    setOutput("wait", run.wait, env);
    appendSummary(queueSummary(run, { owner, repo, live }), env);
    return;
  }

  if (mode === "gate-classify" || mode === "gate-report") {
    // The stations flow's validation gate: one pull request (the numbers input), its status and labels.
    const number = parseNumbers(getInput("numbers", env))[0];
    if (!number) throw new RunError([`input numbers: expected the pull request the gate is for, found nothing`]);
    const { engine, errors } = loadConfig(prflow, configPath, { readFile });
    if (errors.length) throw new RunError(errors);
    const step = mode === "gate-classify" ? "classify" : "report";
    const { decision, results } = await gateRun({
      engine,
      octokit,
      owner,
      repo,
      step,
      number,
      sha: getInput("sha", env),
      result: getInput("result", env),
      live,
      log,
    });
    log.end();
    for (const [k, v] of Object.entries({ run: decision.run, need: decision.need, sha: decision.sha, pr: number }))
      setOutput(k, String(v), env);
    setOutput("plan", decision, env);
    appendSummary(`## prflow gate ${step} · #${number}\n\n${decision.why}\n`, env);
    failOnFailedWrites(
      results.filter((r) => r.outcome === "failed").map((r) => `#${r.number}: ${r.op} failed: ${r.detail}`),
    );
    return;
  }

  const numbersInput = getInput("numbers", env);
  const scope = numbersInput
    ? { scope: "pulls", numbers: parseNumbers(numbersInput), why: "the numbers input" }
    : parseEvent(env.GITHUB_EVENT_NAME ?? "", readEvent(env));
  const run = await reconcileRun({ prflow, octokit, owner, repo, configPath, readFile, scope, live, log });
  log.end();
  annotate(run.plan.warnings);
  const note = setPlanOutput(run.plan, run.counts, env);
  writeCounts(run.counts, env);
  appendSummary(note ? `${run.summary}\n> **The plan output is cut:** ${note}.\n` : run.summary, env);
  failOnFailedWrites(
    run.results.filter((r) => r.outcome === "failed").map((r) => `#${r.number}: ${r.op} failed: ${r.detail}`),
  );
}

/**
 * Copies the page (its HTML, script and Wasm) into `dir`. The page holds no secret: it reads GitHub from
 * the visitor's browser with the visitor's token, so the folder can be published as it is.
 */
function writePage(dir, env) {
  const from = fileURLToPath(PAGE_DIST);
  if (!existsSync(from))
    throw new RunError([
      `mode page: the built page is missing beside the Action (${from}); use a released tag or a commit of main, which carry page/dist`,
    ]);
  cpSync(from, dir, { recursive: true });
  const files = readdirSync(dir);
  log(`page: ${files.length} files written to ${dir} (${files.join(", ")})`);
  log.end();
  setOutput("page-dir", dir, env);
  const repo = env.GITHUB_REPOSITORY ?? "OWNER/REPO";
  appendSummary(
    `## prflow page\n\nWritten to \`${dir}\` for actions/upload-pages-artifact. Open it as \`https://${repo.split("/")[0]}.github.io/${repo.split("/")[1] ?? "REPO"}/?repo=${repo}\`.\n`,
    env,
  );
}

/** One `::warning::` per kind of warning, with its count (a board without its labels gave one per pull request and label). */
function annotate(warnings) {
  for (const line of warningAnnotations(warnings)) console.log(line);
}

/** The `plan` output, kept under GitHub's output limit; returns the note when it had to be cut. */
function setPlanOutput(plan, counts, env) {
  const { value, note } = boundedPlan(plan, counts);
  setOutput("plan", value, env);
  if (note) console.log(`plan output: ${note}`);
  return note;
}

/**
 * A write that failed after its retries fails the run, so someone looks; the other writes were still made
 * (unless a rate limit stopped them). A 403 that is not a rate limit is most often a read-only token (a
 * pull_request_review from a fork), which the next labeled or scheduled run makes good; the annotation says so.
 */
function failOnFailedWrites(all) {
  if (!all.length) return;
  const skipped = all.filter((l) => l.includes(NOT_ATTEMPTED));
  const lines = all.filter((l) => !l.includes(NOT_ATTEMPTED));
  if (skipped.length)
    console.log(
      errorCommand(
        `writing: ${skipped.length} write${skipped.length === 1 ? "" : "s"} not attempted: ${skipped[0].slice(skipped[0].indexOf(NOT_ATTEMPTED) + "not attempted: ".length)}; the next scheduled run makes them`,
      ),
    );
  for (const line of lines) {
    const limited = /rate limit/i.test(line);
    const hint =
      !limited && /^#\d+: \w+ failed: 403 /.test(line)
        ? " (the token cannot write here: events from forks get a read-only one; the next scheduled run retries)"
        : "";
    console.log(errorCommand(`writing: ${line}${hint}`));
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
  log.end();
  const lines = describeFailure(e);
  for (const line of lines) console.log(errorCommand(line));
  const title =
    e instanceof RunError || rateLimitReset(e) !== undefined
      ? "## prflow stopped before writing anything"
      : "## prflow failed";
  appendSummary([title, "", ...lines.map((l) => `- ${l.replace(/\|/g, "\\|")}`), ""].join("\n"));
  // The stack is for debugging prflow itself: shown when the run is re-run with debug logging.
  if (!(e instanceof RunError) && e?.stack && process.env.RUNNER_DEBUG === "1") console.error(e.stack);
  process.exitCode = 1;
}
