// The worker (`runQueue`) on the emulator with real git, for the queue suites: one board, a step
// cap so a loop that never reaches what a test waits for fails instead of hanging, the worker's log,
// and readers for what a person sees on GitHub (the comments, the branch heads).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../../emulator/index.js";
import { makeOctokit } from "../../../lib/github/index.js";
import { Git } from "../../../lib/queue/git.js";
import { runQueue } from "../../../lib/queue/worker.js";
import { createEngine } from "../../../js/node.js";

export const OPTIONS = {
  dryRun: false,
  autoFix: true,
  activeInterval: 30,
  idleAfter: 10,
  idleInterval: 300,
  pollInterval: 30,
};

/**
 * A board: `required` checks (strict), auto-merge allowed, a person `alice` who can write. `config`
 * is the engine's config (an object). `makeGit(args)` may return a `Git` subclass (a test's hook).
 */
export async function queueBoard(t, { required = ["ci"], config, makeGit = (a) => new Git(a), maxSteps = 60 } = {}) {
  const gh = await startEmulator({ git: true });
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(required, { strict: true });
  gh.user("alice", { association: "MEMBER" });
  gh.registerToken("ghp_alicePersonalToken0000000000000000", "alice");
  const stateDir = mkdtempSync(join(tmpdir(), "prflow-queue-aside-"));
  t.after(async () => {
    await gh.close();
    rmSync(stateDir, { recursive: true, force: true });
  });
  const octokit = makeOctokit({ token: gh.personalToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl });
  const g = makeGit({ cloneUrl: gh.cloneUrl(), stateDir });
  const engine = createEngine(config ? JSON.stringify(config) : undefined);
  const lines = [];
  let resume = null;
  // Waiting advances the emulator's clock, so CI, mergeability and auto-merge move as time passes.
  const sleep = async (ms) => gh.clock.advance(ms);
  /** Runs the worker until `until(out)` after a step (or the cap); the next call goes on from there, as one process. */
  const go = async (until, { options = {} } = {}) => {
    let steps = 0;
    const from = lines.length;
    const out = await runQueue({
      gh: { octokit, owner: gh.owner, repo: gh.repo },
      g,
      engine,
      options: { ...OPTIONS, ...options },
      log: (l) => lines.push(l),
      sleep,
      resume,
      stopWhen: (o) => until(o) || ++steps >= maxSteps,
    });
    resume = out.wait.kind === "stop" ? null : out;
    return { ...out, steps, log: lines.slice(from) };
  };
  /** The bodies of the comments on pull request `n`, oldest first. */
  const comments = (n) => gh.state.pull(n).comments.map((id) => gh.state.comments.get(id));
  const asAlice = makeOctokit({
    token: "ghp_alicePersonalToken0000000000000000",
    baseUrl: gh.url,
    graphqlUrl: gh.graphqlUrl,
  });
  return { gh, g, go, lines, stateDir, octokit, asAlice, comments, log: () => lines.join("\n") };
}

/** A log line of a step that ended a cycle asleep: nothing left to do. */
export const asleep = (out) => out.wait.kind === "sleep";
