// What the CLI's commands share: the options every GitHub-facing command takes, and turning them into
// the repository, the token and an Octokit pointed where GITHUB_API_URL says (GitHub, or the emulator).
import { makeOctokit, parseSlug } from "../lib/github/index.js";
import { DEFAULT_CONFIG_PATH } from "../lib/config-file.js";

import { UsageError } from "./usage.js";

export { UsageError };

/** Options of every command that talks to a repository. */
export const repoOptions = {
  repo: { type: "string" },
  config: { type: "string", default: DEFAULT_CONFIG_PATH },
  live: { type: "boolean", default: false },
  "dry-run": { type: "boolean", default: false },
  json: { type: "boolean", default: false },
};

export const REPO_USAGE = "--repo owner/name [--config FILE] [--dry-run | --live] [--json]   (token: GITHUB_TOKEN; API: GITHUB_API_URL)";

/** owner, repo, live and an Octokit from the options and the environment, or a UsageError. */
export function connect(values, env = process.env) {
  const slug = values.repo ?? env.GITHUB_REPOSITORY;
  const parsed = parseSlug(slug);
  if (!parsed) throw new UsageError(`--repo: expected owner/name, found ${JSON.stringify(slug ?? "nothing")}`);
  if (values.live && values["dry-run"]) throw new UsageError("--live and --dry-run contradict each other; pick one (a dry run is the default)");
  const token = env.GITHUB_TOKEN ?? env.GH_TOKEN;
  if (!token) throw new UsageError("no token: set GITHUB_TOKEN (read access for a dry run, write access to labels and pull requests for --live)");
  const log = (line) => console.error(line);
  const octokit = makeOctokit({ token, baseUrl: env.GITHUB_API_URL, graphqlUrl: env.GITHUB_GRAPHQL_URL, log });
  return { ...parsed, live: Boolean(values.live), octokit, log };
}
