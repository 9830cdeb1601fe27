// The Action's `mode: queue`: one cycle of the merge-queue worker per run, through the same loop as
// `prflow queue --once` (lib/queue/worker.js). Nothing is kept between runs but the worker's own
// comments on the pull requests (set-aside records and claims), which the next run's cycle takes up.
import { join } from "node:path";
import { tmpdir } from "node:os";
import { RunError } from "../../lib/run.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue, stopSignals, stoppableSleep } from "../../lib/queue/worker.js";
import { logLine, summaryText } from "../../lib/redact.js";

/**
 * Why the token cannot run the queue, or null. The workflow's GITHUB_TOKEN is refused: GitHub starts no
 * workflow run for its writes, so taking `skip-ci` off with it would start no CI and the released pull
 * request would wait for checks that never come. `workflowToken` is the `workflow-token` input, whose
 * default is `${{ github.token }}`; GITHUB_TOKEN in the environment is the same token when the workflow
 * passes it down.
 */
export function workflowTokenRefusal(token, { workflowToken = "", envToken = "" } = {}) {
  if (token !== workflowToken && token !== envToken) return null;
  return [
    "input token: mode queue needs a GitHub App installation token or a personal access token, and it was given the workflow's GITHUB_TOKEN.",
    "GitHub starts no workflow run for GITHUB_TOKEN's writes, so taking `skip-ci` off with it would start no CI and the released pull request would wait for checks that never run.",
    "Give `token: ${{ steps.app-token.outputs.token }}` from actions/create-github-app-token (an App with contents, pull requests and issues write), or `token: ${{ secrets.PRFLOW_QUEUE_TOKEN }}` holding a personal access token (see examples/workflows/prflow-queue.yml).",
    "Nothing was read or written.",
  ].join(" ");
}

/**
 * One cycle: survey, act on exactly one pull request (or watch the one in flight until its watch ends),
 * remember in comments. `live: false` is the worker's dry run; the other options are the CLI's defaults
 * (the engine's), but for the watch timeout the workflow's job must outlast. Waits are scaled by PRFLOW_TIME_SCALE
 * (the emulator's tests); the runner's cancel signals finish the step in hand, as the CLI's do. Every
 * line is printed through `logLine` (redacted, no workflow command of its own).
 */
export async function queueRun({
  engine,
  octokit,
  owner,
  repo,
  token,
  live,
  env,
  watchTimeoutMinutes,
  commandTimeoutMinutes,
  log,
}) {
  const server = (env.GITHUB_SERVER_URL || "https://github.com").replace(/\/+$/, "");
  if (!/^https?:\/\//.test(server))
    throw new RunError([`GITHUB_SERVER_URL: expected an http(s) URL, found ${JSON.stringify(server)}`]);
  // RUNNER_TEMP: on disk on GitHub's runners (not a tmpfs) and outside the workspace checkout.
  const g = new Git({
    cloneUrl: `${server}/${owner}/${repo}.git`,
    token,
    stateDir: join(env.RUNNER_TEMP || tmpdir(), "prflow-queue", `${owner}-${repo}`),
    commandTimeoutMinutes,
  });
  const scale = Number(env.PRFLOW_TIME_SCALE) > 0 ? Number(env.PRFLOW_TIME_SCALE) : 1;
  const sleep = (ms, signal) => stoppableSleep(ms * scale, signal);
  const lines = [];
  const record = (line) => {
    lines.push(line);
    log(logLine(line));
  };
  const { signal, off } = stopSignals({ g, log: record });
  try {
    const { state, wait } = await runQueue({
      gh: { octokit, owner, repo },
      g,
      engine,
      options: { dryRun: !live, ...(watchTimeoutMinutes === undefined ? {} : { watchTimeoutMinutes }) },
      once: true,
      log: record,
      sleep,
      signal,
    });
    return { lines, state, wait };
  } finally {
    await g.dropAll();
    off();
  }
}

/** The job summary of one cycle: what it did and why, one line each, as text (no HTML of its own). */
export function queueSummary({ lines, state }, { owner, repo, live }) {
  const acted = state.actedOn ?? [];
  return [
    `## prflow queue · ${summaryText(owner)}/${summaryText(repo)} · ${live ? "live" : "dry run"}`,
    "",
    acted.length ? `Acted on ${acted.map((n) => `#${n}`).join(", ")}.` : "Acted on no pull request.",
    "",
    ...lines.map((l) => `- ${summaryText(l)}`),
    "",
  ].join("\n");
}
