// `prflow claim-pr <n> --by <name> [--release]`: a fixer's claim on a set-aside pull request, so the
// worker leaves it alone while the fix is made. The engine decides whether the claim is allowed (the
// owner must be the fixer; another claimant's claim refuses it), the comment op, and after the read-back
// who won (`claimPrReadBack`); lib/queue/agents.js writes it through the writer table and reads it back,
// as for the fixer; this parses the command line and reports.
import { connect, repoConfig, UsageError } from "../common.js";
import { RunError } from "../../lib/run.js";
import { claimPullRequest } from "../../lib/queue/agents.js";

export const summary = "Claim (or --release) a set-aside pull request for a fixer, so the queue leaves it alone.";
export const usage =
  "prflow claim-pr <number> --by <name> [--release] [--live | --dry-run] --repo owner/name [--config FILE] [--json]";
export const writes = "legacy";
export const writeNote = "It writes the claim comment and reads it back.";
export const help = {
  by: "who claims it: a person's or machine's name (required)",
  release: "give the claim back instead of taking it",
};
export const examples = [
  "prflow claim-pr 12 --by alice --live --repo acme/widgets",
  "prflow claim-pr 12 --by alice --release --live --repo acme/widgets",
];
export const options = {
  repo: { type: "string" },
  by: { type: "string", valueName: "NAME" },
  release: { type: "boolean", default: false },
  config: { type: "string" },
};

export async function run(values, positionals) {
  if (positionals.length !== 1 || !/^\d+$/.test(positionals[0]))
    throw new UsageError(`expected one pull request number\nusage: ${usage}`);
  if (!values.by) throw new UsageError(`--by: the claimant's name is required\nusage: ${usage}`);
  const number = Number(positionals[0]);
  const dryRun = values["dry-run"];
  const { owner, repo, octokit, log } = connect({ repo: values.repo });
  const { engine } = await repoConfig(values, { octokit, owner, repo });
  const { decision, written, back } = await claimPullRequest(
    { engine, octokit, owner, repo, log },
    { number, by: values.by, release: values.release, dryRun },
  );
  const say = (result) => console.log(values.json ? JSON.stringify(result, null, 2) : result.message);
  if (!decision.ok) {
    // A refusal is an error line like every other (`prflow: ...` on stderr, exit 1); --json keeps the
    // whole answer on stdout for a machine.
    if (!values.json) throw new RunError([decision.message]);
    say({ ...decision, written: false });
    return 1;
  }
  if (!written) {
    say({ ...decision, message: `${decision.message} (dry run: nothing written)`, written: false });
    return 0;
  }
  if (!back.won) throw new RunError([back.message]);
  log(`#${number}: ${decision.code} written and read back`);
  say({ ...decision, written: true });
  return 0;
}
