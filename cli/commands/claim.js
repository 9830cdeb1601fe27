// `prflow claim review|dev|any <machine>`: the next thing a machine should do, as ONE line on standard
// output that a script can `case` on: `claim #N`, `wip-full n/w`, `queue-empty`, `fix #N`, `stop-the-line`,
// `new-work`.
// Claims are written, left to settle, read back, and a lost race moves on; missing labels stop it
// before the first claim (lib/stations/claim.js).
import { connect, repoConfig, UsageError } from "../common.js";
import { RunError } from "../../lib/run.js";
import { claimNext } from "../../lib/stations/claim.js";
import { githubPort } from "../../lib/stations/github-port.js";

export const ROLES = ["review", "dev", "any"];
export const summary = "Claim the next pull request to review, or say what a dev machine should do (stations flow).";
export const usage =
  "prflow claim review|dev|any <machine> --repo owner/name [--config FILE] [--live | --dry-run] [--json]";
export const writes = "legacy";
export const writeNote = "A claim is a label on the pull request; --dry-run prints the answer and claims nothing.";
export const help = { "dry-run": "print the answer, write no claim" };
export const examples = [
  "prflow claim review m4 --live --repo acme/widgets",
  "prflow claim dev m2 --repo acme/widgets --dry-run --format json",
];
export const options = {
  repo: { type: "string" },
  config: { type: "string" },
};

export async function run(values, positionals) {
  const [role, machine, ...extra] = positionals;
  if (!ROLES.includes(role))
    throw new UsageError(
      `role: expected ${ROLES.join(", ")}, found ${role === undefined ? "none" : JSON.stringify(role)}\nusage: ${usage}`,
    );
  if (!machine || extra.length) throw new UsageError(`expected one machine id after the role\nusage: ${usage}`);
  const dryRun = values["dry-run"];
  const { owner, repo, octokit, log } = connect({ repo: values.repo });
  const { engine } = await repoConfig(values, { octokit, owner, repo });
  const port = githubPort(octokit, { owner, repo, live: !dryRun, log });
  let out;
  try {
    out = await claimNext({ engine, role, machine, port, dryRun, log });
  } catch (e) {
    if (e?.status !== undefined || e?.unreachable)
      throw Object.assign(e, { step: e.step ?? `claim ${role} ${machine}` });
    throw new RunError([e.message]);
  }
  if (values.json) console.log(JSON.stringify({ line: out.line, races: out.races, why: out.result?.why ?? null }));
  else {
    if (out.result?.why) log(out.result.why);
    console.log(out.line);
  }
  return 0;
}
