// `prflow station <machine>`: the review station's resident loop. Claim a pull request, give its diff
// and the review prompt to the AI command, post the answer as a COMMENT review (never an approval),
// and send `/changes` when the answer's first line starts with BLOCKING.
import { prflow } from "../engine.js";
import { connect, UsageError } from "../common.js";
import { loadConfig, DEFAULT_CONFIG_PATH } from "../../lib/config-file.js";
import { RunError } from "../../lib/run.js";
import { githubPort } from "../../lib/stations/github-port.js";
import { loadPrompt, stationLoop } from "../../lib/stations/station.js";

export const summary = "Run a review station: claim, AI first pass as a COMMENT review, /changes on BLOCKING (stations flow).";
export const usage = 'prflow station <machine> --repo owner/name [--ai "cmd"] [--prompt FILE] [--interval SECONDS] [--once] [--config FILE]   (AI command: --ai, else PRFLOW_AI, else stations.aiCommand)';
export const help = { ai: "the AI command a review runs (default: PRFLOW_AI, else stations.aiCommand)", prompt: "the review prompt file", interval: "seconds between claims when the queue is empty", once: "claim and review once, then stop" };
export const examples = ['prflow station m4 --repo acme/widgets --ai "claude -p" --once'];
export const options = {
  repo: { type: "string" },
  config: { type: "string", default: DEFAULT_CONFIG_PATH },
  ai: { type: "string" },
  prompt: { type: "string" },
  interval: { type: "string", default: "300" },
  once: { type: "boolean", default: false },
};

export async function run(values, positionals) {
  const [machine, ...extra] = positionals;
  if (!machine || extra.length) throw new UsageError(`expected one machine id\nusage: ${usage}`);
  const interval = Number(values.interval);
  if (!Number.isFinite(interval) || interval < 1) throw new UsageError(`--interval: expected seconds (at least 1), found ${JSON.stringify(values.interval)}`);
  const { owner, repo, octokit, log } = connect({ repo: values.repo, live: true, "dry-run": false });
  const { engine, config, errors } = loadConfig(prflow, values.config);
  if (errors.length) throw new RunError(errors);
  const ai = values.ai ?? process.env.PRFLOW_AI ?? config.stations?.aiCommand;
  if (!ai) throw new UsageError('no AI command: pass --ai "claude -p" (or set PRFLOW_AI, or stations.aiCommand in the config); it gets the prompt as its argument and the diff on stdin');
  let prompt;
  try {
    prompt = loadPrompt(values.prompt);
  } catch (e) {
    throw new RunError([`${values.prompt}: $: expected a prompt file, found ${e.code === "ENOENT" ? "no such file" : e.message}`]);
  }
  const port = githubPort(octokit, { owner, repo, live: true, log });
  try {
    const pass = await stationLoop({ engine, machine, port, ai, prompt, once: values.once, intervalMs: interval * 1000, log });
    if (pass) console.log(values.json ? JSON.stringify({ line: pass.line }) : pass.line);
  } catch (e) {
    if (e?.status !== undefined || e?.unreachable) throw Object.assign(e, { step: e.step ?? `station ${machine}` });
    throw new RunError([e.message]);
  }
  return 0;
}
