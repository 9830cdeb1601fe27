// The config's text judged by the engine's own validator, with no file system: shared by the Action and
// the CLI (lib/config-file.js reads the file) and the dashboard page (it reads the file through the API).

/** Where the config lives when nobody says otherwise. */
export const DEFAULT_CONFIG_PATH = ".github/prflow.json";

/**
 * Parses and validates config text. Returns { config, problems }: `problems` as the engine words them
 * ({ path, expected, found }, a syntax error at `$`); `config` is null unless there are none.
 */
export function checkConfigText(engine, text) {
  let config;
  try {
    config = JSON.parse(text);
  } catch (e) {
    return { config: null, problems: [{ path: "$", expected: "JSON", found: `a syntax error (${e.message})` }] };
  }
  // Only an object is a config. The engine takes null as "no config" (the preset) and a string as
  // JSON text, so a file holding `null` or a JSON string would silently be the preset or be decoded
  // twice: judged here, on the file's own value.
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    return { config: null, problems: [{ path: "$", expected: "a JSON object", found: kindOf(config) }] };
  }
  const problems = engine.validateConfig(config);
  return { config: problems.length ? null : config, problems };
}

function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return { string: "a string", number: "a number", boolean: "a boolean" }[typeof value] ?? typeof value;
}

/** One config problem as a line a person can act on. */
export function formatProblem(file, { path, expected, found }) {
  return `${file}: ${path}: expected ${expected}, found ${found}`;
}
