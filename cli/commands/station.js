// `prflow station <machine>`: the review station's resident loop. Claim a pull request, give its diff
// and the review prompt to the AI command, post the answer as a COMMENT review (never an approval),
// and send `/changes` when the answer's first line starts with BLOCKING.
import { connect, repoConfig, UsageError } from "../common.js";
import { RunError } from "../../lib/run.js";
import { claimNext } from "../../lib/stations/claim.js";
import { githubPort } from "../../lib/stations/github-port.js";
import { loadPrompt, stationLoop } from "../../lib/stations/station.js";

export const summary =
  "Run a review station: claim, AI first pass as a COMMENT review, /changes on BLOCKING (stations flow).";
export const usage =
  'prflow station <machine> --repo owner/name [--ai "cmd"] [--prompt FILE] [--interval SECONDS] [--once] [--live | --dry-run] [--config FILE]   (AI command: --ai, else PRFLOW_AI, else stations.aiCommand)';
export const writes = "legacy";
export const writeNote =
  "It writes claims and COMMENT reviews; --dry-run prints the claim it would make and runs no AI.";
export const help = {
  ai: "the AI command a review runs (default: PRFLOW_AI, else stations.aiCommand)",
  prompt: "the review prompt file",
  interval: "seconds between claims when the queue is empty",
  once: "claim and review once, then stop",
};
export const examples = ['prflow station m4 --repo acme/widgets --ai "claude -p" --once --live'];
export const options = {
  repo: { type: "string" },
  config: { type: "string" },
  ai: { type: "string" },
  prompt: { type: "string" },
  interval: { type: "string", default: "300" },
  once: { type: "boolean", default: false },
};

export async function run(values, positionals) {
  const [machine, ...extra] = positionals;
  if (!machine || extra.length) throw new UsageError(`expected one machine id\nusage: ${usage}`);
  const interval = Number(values.interval);
  if (!Number.isFinite(interval) || interval < 1)
    throw new UsageError(`--interval: expected seconds (at least 1), found ${JSON.stringify(values.interval)}`);
  const { owner, repo, octokit, log } = connect({ repo: values.repo });
  const { engine, config } = await repoConfig(values, { octokit, owner, repo });
  if (values["dry-run"]) {
    const out = await claimNext({
      engine,
      role: "review",
      machine,
      port: githubPort(octokit, { owner, repo, live: false, log }),
      dryRun: true,
      log,
    }).catch((e) => {
      throw e?.status !== undefined || e?.unreachable
        ? Object.assign(e, { step: e.step ?? `station ${machine}` })
        : new RunError([e.message]);
    });
    console.log(
      values.json ? JSON.stringify({ line: out.line, dryRun: true }) : `${out.line} (dry run: nothing written)`,
    );
    return 0;
  }
  const ai = values.ai ?? process.env.PRFLOW_AI ?? config.stations?.aiCommand;
  if (!ai)
    throw new UsageError(
      'no AI command: pass --ai "claude -p" (or set PRFLOW_AI, or stations.aiCommand in the config); it gets the prompt as its argument and the diff on stdin',
    );
  let prompt;
  try {
    prompt = loadPrompt(values.prompt);
  } catch (e) {
    throw new RunError([
      `${values.prompt}: $: expected a prompt file, found ${e.code === "ENOENT" ? "no such file" : e.message}`,
    ]);
  }
  const port = githubPort(octokit, { owner, repo, live: true, log });
  try {
    const pass = await stationLoop({
      engine,
      machine,
      port,
      ai,
      prompt,
      once: values.once,
      intervalMs: interval * 1000,
      log,
    });
    if (pass) console.log(values.json ? JSON.stringify({ line: pass.line }) : pass.line);
  } catch (e) {
    if (e?.status !== undefined || e?.unreachable) throw Object.assign(e, { step: e.step ?? `station ${machine}` });
    throw new RunError([e.message]);
  }
  return 0;
}
