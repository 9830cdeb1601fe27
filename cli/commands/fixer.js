// `prflow fixer <name> --ai CMD`: the resident fixer station. It takes the next set-aside pull request
// whose owner is the fixer (rebase-failed, checks-failed), claims it, reads the failed jobs' logs, gives
// the AI command the brief on stdin in a throwaway worktree (a generated branch's rebuild command
// instead, from queue.generated), pushes the commit it leaves with push-fixed-pr, or gives up with a
// comment. The engine decides.
import { connect, repoConfig, tokenOf, UsageError } from "../common.js";
import { RunError } from "../../lib/run.js";
import { remoteUrl } from "../../lib/queue/git.js";
import { fixerLoop } from "../../lib/queue/agents.js";

export const summary = "Run a fixer station: claim a set-aside pull request, let the AI (or a rebuild) fix it, push it back under skip-ci.";
export const usage = 'prflow fixer <name> --ai "cmd" [--once] [--live | --dry-run] [--interval SECONDS] --repo owner/name [--config FILE]   (AI command: --ai, else PRFLOW_AI)';
export const writes = "legacy";
export const writeNote = "It writes claims, pushes and comments; --dry-run says what it would take.";
export const help = {
  ai: "the command that fixes: run in the worktree with the brief on stdin (the set-aside comment, the failed runs and the tails of their logs, the conflicting files); leave a commit to push it, none (or exit non-zero) to give up (default: PRFLOW_AI)",
  once: "one pass, then stop",
  interval: "seconds between passes when nothing is set aside",
};
export const examples = ['prflow fixer fixer-1 --ai "claude -p" --live --repo acme/widgets', "prflow fixer fixer-1 --ai ./fix.sh --once --dry-run --repo acme/widgets"];
export const options = {
  repo: { type: "string" },
  config: { type: "string" },
  ai: { type: "string", valueName: "CMD" },
  once: { type: "boolean", default: false },
  interval: { type: "string", default: "300" },
};

export async function run(values, positionals) {
  const [name, ...extra] = positionals;
  if (!name || extra.length) throw new UsageError(`expected one fixer name\nusage: ${usage}`);
  const interval = Number(values.interval);
  if (!Number.isFinite(interval) || interval < 1) throw new UsageError(`--interval: expected seconds (at least 1), found ${JSON.stringify(values.interval)}`);
  const ai = values.ai ?? process.env.PRFLOW_AI;
  const dryRun = values["dry-run"];
  if (!ai && !dryRun) throw new UsageError('no AI command: pass --ai "claude -p" (or set PRFLOW_AI); it runs in the worktree with the brief on stdin');
  const { owner, repo, octokit, log } = connect({ repo: values.repo });
  const { engine } = await repoConfig(values, { octokit, owner, repo });
  const url = remoteUrl({ owner, repo, token: tokenOf(), serverUrl: process.env.GITHUB_SERVER_URL });
  let pass;
  try {
    pass = await fixerLoop({ engine, octokit, owner, repo, log }, { name, ai, url, dryRun, once: values.once, intervalMs: interval * 1000 });
  } catch (e) {
    if (e.step || /^git /.test(e.message)) throw new RunError([`fixer ${name}: ${e.message}`]);
    throw Object.assign(e, { step: e.step ?? `fixer ${name}` });
  }
  if (pass) console.log(values.json ? JSON.stringify(pass) : pass.line);
  return 0;
}
