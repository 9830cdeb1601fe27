// Loads `.github/prflow.json` for the Action and the CLI: a missing file is the preset, a bad one is a
// list of lines `FILE: $.path: expected X, found Y` that the caller prints before writing anything.
import { readFileSync } from "node:fs";
import { checkConfigText, formatProblem } from "./config-text.js";

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
    return { engine: null, config: null, source: path, errors: [`${path}: $: expected a readable file, found ${e.code ?? e.message}`] };
  }
  const { engine, config, problems } = checkConfigText(prflow, text);
  return { engine, config, source: path, errors: problems.map((p) => formatProblem(path, p)) };
}
