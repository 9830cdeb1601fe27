// `prflow claim review|dev|any <machine>`: the next thing a machine should do, as ONE line on standard
// output that a script can `case` on: `claim #N`, `wip-full n/w`, `queue-empty`, `fix #N`, `stop-the-line`,
// `new-work`.
// Unlike the sweeping commands this one writes by default (a station runs it in a loop); --dry-run
// only prints the answer. Claims are written, left to settle, read back, and a lost race moves on.
import { prflow } from "../engine.js";
import { connect, UsageError } from "../common.js";
import { loadConfig, DEFAULT_CONFIG_PATH } from "../../lib/config-file.js";
import { RunError } from "../../lib/run.js";
import { claimNext } from "../../lib/stations/claim.js";
import { githubPort } from "../../lib/stations/github-port.js";
import { listLabels } from "../../lib/github/index.js";

export const ROLES = ["review", "dev", "any"];
export const summary = "Claim the next pull request to review, or say what a dev machine should do (stations flow).";
export const usage = "prflow claim review|dev|any <machine> --repo owner/name [--config FILE] [--dry-run] [--json]";
export const writes = "Writes by default: a claim is a label on the pull request (a station runs this in a loop). --dry-run prints the answer and writes nothing.";
export const help = { "dry-run": "print the answer, write no claim" };
export const examples = ["prflow claim review m4 --repo acme/widgets", "prflow claim dev m2 --repo acme/widgets --dry-run --format json"];
export const options = {
  repo: { type: "string" },
  config: { type: "string", default: DEFAULT_CONFIG_PATH },
  "dry-run": { type: "boolean", default: false },
  json: { type: "boolean", default: false },
};

export async function run(values, positionals) {
  const [role, machine, ...extra] = positionals;
  if (!ROLES.includes(role)) throw new UsageError(`role: expected ${ROLES.join(", ")}, found ${JSON.stringify(role ?? "nothing")}\nusage: ${usage}`);
  if (!machine || extra.length) throw new UsageError(`expected one machine id after the role\nusage: ${usage}`);
  const dryRun = values["dry-run"];
  const { owner, repo, octokit, log } = connect({ repo: values.repo, live: !dryRun, "dry-run": false });
  const { engine, errors } = loadConfig(prflow, values.config);
  if (errors.length) throw new RunError(errors);
  await labelsOrThrow(octokit, { owner, repo, engine });
  const port = githubPort(octokit, { owner, repo, live: !dryRun, log });
  let out;
  try {
    out = await claimNext({ engine, role, machine, port, dryRun, log });
  } catch (e) {
    if (e?.status !== undefined || e?.unreachable) throw Object.assign(e, { step: e.step ?? `claim ${role} ${machine}` });
    throw new RunError([e.message]);
  }
  if (values.json) console.log(JSON.stringify({ line: out.line, races: out.races, why: out.result?.why ?? null }));
  else {
    if (out.result?.why) log(out.result.why);
    console.log(out.line);
  }
  return 0;
}

/**
 * Stops before any claim when labels the config uses are missing: a claim label that cannot be written
 * reads back as a lost race, the loop walks every candidate, and "queue-empty" would be false.
 */
async function labelsOrThrow(octokit, { owner, repo, engine }) {
  const catalog = engine.labelCatalog();
  if (catalog.configErrors?.length) return; // the engine's claim reports them
  let have;
  try {
    have = new Set((await listLabels(octokit, { owner, repo })).map((l) => l.name));
  } catch (e) {
    e.step ??= `reading the labels of ${owner}/${repo}`;
    throw e;
  }
  const missing = catalog.labels.map((l) => l.name).filter((n) => !have.has(n));
  if (!missing.length) return;
  const shown = missing.slice(0, 4).join(", ") + (missing.length > 4 ? ` and ${missing.length - 4} more` : "");
  throw new RunError([`claim: ${missing.length} label${missing.length === 1 ? "" : "s"} the config uses do${missing.length === 1 ? "es" : ""} not exist in ${owner}/${repo} (${shown}); create them with \`prflow labels --repo ${owner}/${repo} --live\`, then claim again`]);
}
