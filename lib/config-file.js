// Loads `.github/prflow.json` for the Action and the CLI: a missing file is the preset, a bad one is a
// list of lines `FILE: $.path: expected X, found Y` that the caller prints before writing anything.
// The CLI reads the repository's own file through the API (readRepoConfig), as the page does, so a
// command run from any folder decides with the config the repository's workflows use.
import { readFileSync } from "node:fs";
import { checkConfigText, formatProblem, DEFAULT_CONFIG_PATH } from "./config-text.js";

export { DEFAULT_CONFIG_PATH, formatProblem } from "./config-text.js";

/**
 * Reads the config at `path` and builds the engine from it (`prflow`: js/node.js or the Action's copy).
 * Returns { engine, config, source, errors }: `source` is the file or "preset"; `errors` are printable
 * lines; `engine` is null only when the file could not be read at all.
 */
export function loadConfig(prflow, path, { readFile = (p) => readFileSync(p, "utf8") } = {}) {
  let text;
  try {
    text = readFile(path);
  } catch (e) {
    if (e.code === "ENOENT") return { engine: prflow.createEngine(), config: {}, source: "preset", errors: [] };
    return {
      engine: null,
      config: null,
      source: path,
      errors: [`${path}: $: expected a readable file, found ${e.code ?? e.message}`],
    };
  }
  const { engine, config, problems } = checkConfigText(prflow, text);
  return { engine, config, source: path, errors: problems.map((p) => formatProblem(path, p)) };
}

/**
 * The repository's own config: `.github/prflow.json` on its default branch, through the contents API
 * (no `ref`, so GitHub answers from the default branch). Returns loadConfig's answer plus `said`, the
 * line that names what was used: `source` is `owner/repo:path`, or "preset" when the repository has none
 * (a 404); any other failure is thrown with its step named, never taken for "no config".
 */
export async function readRepoConfig(prflow, octokit, { owner, repo, path = DEFAULT_CONFIG_PATH }) {
  const where = `${owner}/${repo}:${path}`;
  let text;
  try {
    const res = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { owner, repo, path });
    text = Buffer.from(res.data.content ?? "", "base64").toString("utf8");
  } catch (e) {
    if (e?.status !== 404) {
      if (e && typeof e === "object") e.step ??= `reading ${path} of ${owner}/${repo}`;
      throw e;
    }
    const preset = loadConfig(prflow, where, {
      readFile: () => {
        throw Object.assign(new Error("none"), { code: "ENOENT" });
      },
    });
    return {
      ...preset,
      said: `config: ${owner}/${repo} has no ${path} on its default branch: the ${preset.engine.flow()} preset`,
    };
  }
  return {
    ...loadConfig(prflow, where, { readFile: () => text }),
    said: `config: ${path} of ${owner}/${repo} (its default branch)`,
  };
}
