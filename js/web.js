// Browser adapter: the page awaits `load()` once, then builds engines exactly as Node does.
import init, * as wasm from "../pkg/prflow.js";
import { bind } from "./core.js";

/**
 * Fetches and instantiates the Wasm: from `source` (a URL, or the Wasm's bytes already fetched, as the
 * dashboard page does), by default next to pkg/prflow.js. Resolves to `{ version, createEngine }`.
 */
export async function load(source) {
  await init(source === undefined ? undefined : { module_or_path: source });
  return bind(wasm);
}
