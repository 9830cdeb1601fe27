// Loads `.github/prflow.json` for the Action and the CLI: a missing file is the preset, a bad one is a
// list of lines `FILE: $.path: expected X, found Y` that the caller prints before writing anything.
import { readFileSync } from "node:fs";
import { checkConfigText, formatProblem } from "./config-text.js";

export { DEFAULT_CONFIG_PATH, formatProblem } from "./config-text.js";

/**
 * Reads and validates the config at `path` with the engine's own validator.
 * Returns { config, source, errors }: `source` is the file or "preset"; `errors` are printable lines.
 */
export function loadConfig(engine, path, { readFile = (p) => readFileSync(p, "utf8") } = {}) {
  let text;
  try {
    text = readFile(path);
  } catch (e) {
    if (e.code === "ENOENT") return { config: {}, source: "preset", errors: [] };
    return { config: null, source: path, errors: [`${path}: $: expected a readable file, found ${e.code ?? e.message}`] };
  }
  const { config, problems } = checkConfigText(engine, text);
  return { config, source: path, errors: problems.map((p) => formatProblem(path, p)) };
}
