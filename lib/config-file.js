// Loads `.github/prflow.json` for the Action and the CLI: a missing file is the preset, a bad one is a
// list of lines `FILE: $.path: expected X, found Y` that the caller prints before writing anything.
import { readFileSync } from "node:fs";

/** Where the config lives when nobody says otherwise. */
export const DEFAULT_CONFIG_PATH = ".github/prflow.json";

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
  let config;
  try {
    config = JSON.parse(text);
  } catch (e) {
    return { config: null, source: path, errors: [`${path}: $: expected JSON, found a syntax error (${e.message})`] };
  }
  const problems = engine.validateConfig(config);
  return { config: problems.length ? null : config, source: path, errors: problems.map((p) => formatProblem(path, p)) };
}

/** One config problem as a line a person can act on. */
export function formatProblem(file, { path, expected, found }) {
  return `${file}: ${path}: expected ${expected}, found ${found}`;
}
