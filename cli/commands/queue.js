// `prflow queue`: the merge-queue worker. Arguments in, then lib/queue/worker.js's loop: the engine's
// cycle step decides, lib/ reads and writes (GitHub and git through the one writer table).
import { join } from "node:path";
import { UsageError } from "../usage.js";
import { makeOctokit } from "../../lib/github/index.js";
import { Git, stateDir } from "../../lib/queue/git.js";
import { findRepo, runQueue, stamp, stopSignals, stoppableSleep } from "../../lib/queue/worker.js";
import { findToken, takeTokens } from "../../lib/token.js";
import { redact } from "../../lib/redact.js";
import { plainText } from "../../lib/plain-text.js";

export { stamp };

export const summary = "Land the merge queue one pull request at a time: rebase, push, release, watch (the worker).";
export const usage =
  "prflow queue [--repo owner/name] [--once] [--active-interval SEC] [--idle-after N] [--idle-interval SEC] [--poll-interval SEC] [--watch-timeout MIN] [--command-timeout MIN] [--no-auto-fix] [--live | --dry-run] [--config FILE] [--json]   (token: GH_TOKEN, GITHUB_TOKEN, then `gh auth token`)";
export const examples = ["prflow queue --repo acme/widgets --live", "prflow queue --once --dry-run --format json"];
export const writes = "legacy";
export const writeNote =
  "It pushes rebased branches (leased), arms auto-merge, takes skip-ci off the one it releases, and writes set-aside comments. --format json prints one JSON object a line, one per event.";
export const help = {
  repo: "the repository, owner/name (default: origin, else package.json)",
  once: "run one cycle and exit",
  "dry-run": "survey and report, change nothing",
  "active-interval": "seconds between surveys while the list moves",
  "idle-after": "unchanged surveys before the long wait",
  "idle-interval": "seconds between surveys once it has sat still",
  "poll-interval": "seconds between polls of the watched pull request",
  "watch-timeout": "minutes before giving up on one pull request",
  "command-timeout":
    "minutes an autoFix command may run before it is killed with what it started (default: the config's queue.commandTimeoutMinutes)",
  "no-auto-fix": "never fix a failure that is only a fixer's diff",
};
export const options = {
  repo: { type: "string" },
  config: { type: "string" },
  once: { type: "boolean", default: false },
  "dry-run": { type: "boolean", default: false },
  "active-interval": { type: "string", valueName: "SEC", default: "30" },
  "idle-after": { type: "string", valueName: "N", default: "10" },
  "idle-interval": { type: "string", valueName: "SEC", default: "300" },
  "poll-interval": { type: "string", valueName: "SEC", default: "30" },
  "watch-timeout": { type: "string", valueName: "MIN", default: "90" },
  "command-timeout": { type: "string", valueName: "MIN" },
  "no-auto-fix": { type: "boolean", default: false },
};

function seconds(values, name) {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--${name}: expected a whole number, found ${JSON.stringify(values[name])}`);
  return n;
}

/** Minutes, fractions allowed (0.5 is thirty seconds). */
export function minutes(values, name) {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${name}: expected minutes above 0, found ${JSON.stringify(values[name])}`);
  return n;
}

export async function run(values) {
  // First, before anything runs: the token out of this process's environment (lib/token.js).
  const taken = takeTokens();
  const env = process.env;
  const slug = await findRepo(values.repo, process.cwd());
  if (!slug)
    throw new UsageError(
      `no repository: give --repo owner/name (origin is not GitHub, and package.json names none)\nusage: ${usage}`,
    );
  const token = await findToken(taken);
  if (!token) throw new UsageError("no token: set GH_TOKEN or GITHUB_TOKEN, or log in with `gh auth login`");
  // The engine is imported here, not at the top: the Action bundles runQueue from this module and loads
  // its own engine (the Wasm beside the bundle), so this module must not load pkg/ when imported.
  const { repoConfig } = await import("../common.js");
  const options = {
    dryRun: values["dry-run"],
    autoFix: !values["no-auto-fix"],
    activeInterval: seconds(values, "active-interval"),
    idleAfter: seconds(values, "idle-after"),
    idleInterval: seconds(values, "idle-interval"),
    pollInterval: seconds(values, "poll-interval"),
    watchTimeoutMinutes: seconds(values, "watch-timeout"),
  };
  const commandTimeoutMinutes =
    values["command-timeout"] === undefined ? undefined : minutes(values, "command-timeout");
  // --format json: one object a line per event, for a script to read as it comes. Either way the line is
  // redacted and its control characters shown, never obeyed.
  const say = (line) => plainText(redact(line));
  const log = values.json
    ? (line) => console.log(JSON.stringify({ at: new Date().toISOString(), event: say(line) }))
    : (line) => console.log(`${stamp()} ${say(line)}`);
  const octokit = makeOctokit({ token, baseUrl: env.GITHUB_API_URL, graphqlUrl: env.GITHUB_GRAPHQL_URL, log });
  const { engine } = await repoConfig(values, { octokit, ...slug }, log);
  const server = env.PRFLOW_GIT_URL ?? "https://github.com";
  // The one clone folder per repository, the fixer's too (lib/queue/git.js stateDir).
  const g = new Git({
    cloneUrl: `${server.replace(/\/$/, "")}/${slug.owner}/${slug.repo}.git`,
    token,
    stateDir: join(stateDir(env), `${slug.owner}-${slug.repo}`),
    commandTimeoutMinutes,
  });
  const { signal, off } = stopSignals({ g, log });
  try {
    // PRFLOW_TIME_SCALE shortens every wait, as it does the Action's (the emulator's tests; 1 on GitHub).
    const scale = Number(env.PRFLOW_TIME_SCALE) > 0 ? Number(env.PRFLOW_TIME_SCALE) : 1;
    await runQueue({
      gh: { octokit, ...slug },
      g,
      engine,
      options,
      once: values.once,
      log,
      sleep: (ms, sig) => stoppableSleep(ms * scale, sig),
      signal,
    });
  } finally {
    await g.dropAll();
    off();
  }
  return 0;
}
