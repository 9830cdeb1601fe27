// What the CLI's commands share: the options every GitHub-facing command takes, turning them into the
// repository, the token and an Octokit pointed where GITHUB_API_URL says (GitHub, or the emulator), and
// the config a command decides with: the repository's own, unless --config names a local file.
import { existsSync } from "node:fs";
import { makeOctokit, parseSlug } from "../lib/github/index.js";
import { DEFAULT_CONFIG_PATH, loadConfig, readRepoConfig } from "../lib/config-file.js";
import { RunError } from "../lib/run.js";
import { prflow } from "./engine.js";

import { UsageError } from "./usage.js";

export { UsageError };

/** Options of every command that talks to a repository and writes only with --live. */
export const repoOptions = {
  repo: { type: "string" },
  config: { type: "string" },
};

export const REPO_USAGE = "--repo owner/name [--config FILE] [--live] [--json]";

/** The token, in gh's order: GH_TOKEN, then GITHUB_TOKEN. */
export function tokenOf(env = process.env) {
  return env.GH_TOKEN || env.GITHUB_TOKEN || undefined;
}

/** owner, repo, live and an Octokit from the options and the environment, or a UsageError. */
export function connect(values, env = process.env) {
  const slug = values.repo ?? env.GITHUB_REPOSITORY;
  const parsed = parseSlug(slug);
  if (!parsed)
    throw new UsageError(`--repo: expected owner/name, found ${slug === undefined ? "none" : JSON.stringify(slug)}`);
  if (values.live && values["dry-run"])
    throw new UsageError("--live and --dry-run contradict each other; pick one (a dry run is the default)");
  const token = tokenOf(env);
  if (!token)
    throw new UsageError(
      "no token: set GH_TOKEN or GITHUB_TOKEN (read access for a dry run, write access to labels and pull requests for --live)",
    );
  const log = (line) => console.error(line);
  const octokit = makeOctokit({ token, baseUrl: env.GITHUB_API_URL, graphqlUrl: env.GITHUB_GRAPHQL_URL, log });
  return { ...parsed, live: Boolean(values.live), octokit, log };
}

/** A --config FILE that exists, loaded and said on stderr; a missing one stops the run. */
function localFile(path, why, log) {
  if (!existsSync(path)) {
    throw new RunError([`--config ${path}: no such file; name an existing file, or leave --config out for ${why}`]);
  }
  const loaded = loadConfig(prflow, path);
  log(`config: ${path} (--config, a local file)`);
  return loaded;
}

/**
 * The config a command that reads a repository decides with, said on stderr: --config FILE when given
 * (to try an edit before pushing it), else the repository's own `.github/prflow.json` on its default
 * branch, or the preset when it has none. A local `.github/prflow.json` is never read in its place;
 * when one is here, the line says how to use it. Throws a RunError listing a bad config's problems.
 */
export async function repoConfig(values, { octokit, owner, repo }, log = (line) => console.error(line)) {
  const loaded =
    values.config !== undefined
      ? localFile(values.config, `the repository's ${DEFAULT_CONFIG_PATH}`, log)
      : await readRepoConfig(prflow, octokit, { owner, repo });
  if (loaded.said) {
    const here = existsSync(DEFAULT_CONFIG_PATH)
      ? ` (the ${DEFAULT_CONFIG_PATH} in this folder is not read; --config ${DEFAULT_CONFIG_PATH} tries it)`
      : "";
    log(`${loaded.said}${here}`);
  }
  if (loaded.errors.length) throw new RunError(loaded.errors);
  return loaded;
}

/**
 * The config of a command that reads no repository (a facts file): --config FILE, else
 * `.github/prflow.json` in this folder when there is one, else the preset; said on stderr.
 */
export function offlineConfig(values, log = (line) => console.error(line)) {
  let loaded;
  if (values.config !== undefined)
    loaded = localFile(
      values.config,
      `${DEFAULT_CONFIG_PATH} here (or the ${prflow.createEngine().flow()} preset)`,
      log,
    );
  else {
    loaded = loadConfig(prflow, DEFAULT_CONFIG_PATH);
    log(
      loaded.source === "preset"
        ? `config: no ${DEFAULT_CONFIG_PATH} here: the ${loaded.engine.flow()} preset`
        : `config: ${DEFAULT_CONFIG_PATH} (this folder)`,
    );
  }
  if (loaded.errors.length) throw new RunError(loaded.errors);
  return loaded;
}
