// The config's text judged by the engine itself, with no file system: shared by the Action and the CLI
// (lib/config-file.js reads the file) and the dashboard page (it reads the file through the API).

/** Where the config lives when nobody says otherwise. */
export const DEFAULT_CONFIG_PATH = ".github/prflow.json";

/**
 * Builds the engine from config text (`prflow` is js/node.js or a loaded js/web.js). Returns
 * { engine, config, problems }: `problems` as the engine words them ({ path, expected, found }, every
 * one of them); `config` is the parsed object, null unless there are none. The engine is returned
 * either way: under a bad config it answers every decision with those problems and writes nothing.
 */
export function checkConfigText(prflow, text) {
  const engine = prflow.createEngine(text);
  const problems = engine.configErrors();
  return { engine, config: problems.length ? null : JSON.parse(text), problems };
}

/** One config problem as a line a person can act on. */
export function formatProblem(file, { path, expected, found }) {
  return `${file}: ${path}: expected ${expected}, found ${found}`;
}
