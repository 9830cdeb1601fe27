// `prflow fixer <name> --ai CMD`: the resident fixer station. It takes the next set-aside pull request
// whose owner is the fixer (rebase-failed, checks-failed), claims it, reads the failed jobs' logs, gives
// the AI command the brief on stdin in a throwaway worktree (a generated branch's rebuild command
// instead, from queue.generated), pushes the commit it leaves with push-fixed-pr, or gives up with a
// comment. The engine decides.
import { connect, repoConfig, UsageError } from "../common.js";
import { RunError } from "../../lib/run.js";
import { fixerLoop } from "../../lib/queue/agents.js";
import { takeTokens } from "../../lib/token.js";
import { killCommands } from "../../lib/command.js";
import { minutes } from "./queue.js";

export const summary =
  "Run a fixer station: claim a set-aside pull request, let the AI (or a rebuild) fix it, push it back under skip-ci.";
export const usage =
  'prflow fixer <name> --ai "cmd" [--once] [--live | --dry-run] [--interval SECONDS] [--command-timeout MIN] --repo owner/name [--config FILE]   (AI command: --ai, else PRFLOW_AI)';
export const writes = "legacy";
export const writeNote = "It writes claims, pushes and comments; --dry-run says what it would take.";
export const help = {
  ai: "the command that fixes: run in the worktree with the brief on stdin (the set-aside comment, the failed runs and the tails of their logs, the conflicting files); leave a commit to push it, none (or exit non-zero) to give up (default: PRFLOW_AI)",
  once: "one pass, then stop",
  interval: "seconds between passes when nothing is set aside",
  "command-timeout":
    "minutes the AI or rebuild command may run before it is killed with what it started (default: the config's queue.commandTimeoutMinutes)",
};
export const examples = [
  'prflow fixer fixer-1 --ai "claude -p" --live --repo acme/widgets',
  "prflow fixer fixer-1 --ai ./fix.sh --once --dry-run --repo acme/widgets",
];
export const options = {
  repo: { type: "string" },
  config: { type: "string" },
  ai: { type: "string", valueName: "CMD" },
  once: { type: "boolean", default: false },
  interval: { type: "string", default: "300" },
  "command-timeout": { type: "string", valueName: "MIN" },
};

export async function run(values, positionals) {
  // First: the token out of this process's environment (lib/token.js); the AI command runs later.
  const taken = takeTokens();
  const [name, ...extra] = positionals;
  if (!name || extra.length) throw new UsageError(`expected one fixer name\nusage: ${usage}`);
  const interval = Number(values.interval);
  if (!Number.isFinite(interval) || interval < 1)
    throw new UsageError(`--interval: expected seconds (at least 1), found ${JSON.stringify(values.interval)}`);
  const ai = values.ai ?? process.env.PRFLOW_AI;
  const dryRun = values["dry-run"];
  if (!ai && !dryRun)
    throw new UsageError(
      'no AI command: pass --ai "claude -p" (or set PRFLOW_AI); it runs in the worktree with the brief on stdin',
    );
  const token = taken.GH_TOKEN ?? taken.GITHUB_TOKEN ?? taken.PRFLOW_TOKEN;
  const { owner, repo, octokit, log } = connect({ repo: values.repo }, { ...process.env, GITHUB_TOKEN: token });
  const { engine } = await repoConfig(values, { octokit, owner, repo });
  const url = `${(process.env.GITHUB_SERVER_URL ?? "https://github.com").replace(/\/$/, "")}/${owner}/${repo}.git`;
  const commandTimeoutMinutes =
    values["command-timeout"] === undefined ? undefined : minutes(values, "command-timeout");
  // A stop ends the command running now with its whole group (no orphan), lets the pass say so on the
  // pull request, and ends the loop; a second stop exits at once.
  const signal = { stop: false };
  const onSignal = () => {
    killCommands();
    if (signal.stop) process.exit(130);
    signal.stop = true;
    log(`fixer ${name}: stop requested: ending the command, then this pass`);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let pass;
  try {
    pass = await fixerLoop(
      { engine, octokit, owner, repo, log },
      { name, ai, url, token, dryRun, commandTimeoutMinutes, once: values.once, intervalMs: interval * 1000, signal },
    );
  } catch (e) {
    if (e.step || /^git /.test(e.message)) throw new RunError([`fixer ${name}: ${e.message}`]);
    throw Object.assign(e, { step: e.step ?? `fixer ${name}` });
  }
  if (pass) console.log(values.json ? JSON.stringify(pass) : pass.line);
  return 0;
}
