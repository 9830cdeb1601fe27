// `prflow push-fixed-pr <n> --by NAME`: a fixer pushes its fix. `skip-ci` goes on before the push (so
// only the worker decides when the matrix runs), the push is leased against the head the claim was made
// at (a lost lease is one line and nothing else is written), then the claim is resolved, handing the
// pull request back to the worker. The engine's `pushFixedPr` decides the sequence; this runs git.
import { connect, repoConfig, UsageError } from "../common.js";
import { RunError } from "../../lib/run.js";
import { git } from "../../lib/queue/git.js";
import { pushFixed } from "../../lib/queue/agents.js";

export const summary =
  "Push a fixer's fix to a claimed pull request under skip-ci, leased, then release the claim to the worker.";
export const usage =
  "prflow push-fixed-pr <number> --by NAME [--commit REF] [--remote NAME] [--live | --dry-run] --repo owner/name [--config FILE]   (run in the fix's checkout)";
export const writes = "legacy";
export const writeNote = "It writes skip-ci, the push and the claim comment.";
export const help = {
  by: "the claimant's name, as claim-pr wrote it (required)",
  commit: "the commit carrying the fix (default: HEAD of the checkout here)",
  remote: "the git remote to push to",
};
export const examples = [
  "prflow push-fixed-pr 12 --by fixer-1 --live --repo acme/widgets",
  "prflow push-fixed-pr 12 --by fixer-1 --dry-run --repo acme/widgets",
];
export const options = {
  repo: { type: "string" },
  config: { type: "string" },
  by: { type: "string", valueName: "NAME" },
  commit: { type: "string", valueName: "REF" },
  remote: { type: "string", default: "origin", valueName: "NAME" },
};

export async function run(values, positionals) {
  if (positionals.length !== 1 || !/^\d+$/.test(positionals[0]))
    throw new UsageError(`expected one pull request number\nusage: ${usage}`);
  if (!values.by) throw new UsageError(`--by: the claimant's name is required\nusage: ${usage}`);
  const number = Number(positionals[0]);
  const cwd = process.cwd();
  const rev = await git(cwd, ["rev-parse", "--verify", "--quiet", `${values.commit ?? "HEAD"}^{commit}`], {
    allowFail: true,
  });
  if (rev.code !== 0)
    throw new RunError([
      `push-fixed-pr #${number}: commit: ${values.commit ?? "HEAD"} is not a commit here; run it in the fix's checkout or name one with --commit`,
    ]);
  const dryRun = values["dry-run"];
  const { owner, repo, octokit, log } = connect({ repo: values.repo });
  const { engine } = await repoConfig(values, { octokit, owner, repo });
  let out;
  try {
    out = await pushFixed(
      { engine, octokit, owner, repo, log },
      { number, by: values.by, commit: rev.stdout, cwd, remote: values.remote, dryRun },
    );
  } catch (e) {
    if (e.step) throw new RunError([e.message]);
    throw Object.assign(e, { step: e.step ?? `push-fixed-pr #${number}` });
  }
  const line = dryRun
    ? `${out.decision.message} (dry run: nothing written)`
    : `#${number}: pushed ${rev.stdout.slice(0, 7)} under skip-ci; the claim by ${values.by} is released`;
  console.log(
    values.json ? JSON.stringify({ ...out.decision, pushed: out.pushed, results: out.results }, null, 2) : line,
  );
  return 0;
}
