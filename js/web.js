// Browser adapter: the page awaits `load()` once, then calls the same API as Node.
import init, * as wasm from "../pkg/prflow.js";
import { bind } from "./core.js";

/** Fetches and instantiates the Wasm (from `url`, default next to pkg/prflow.js). */
export async function load(url) {
  await init(url === undefined ? undefined : { module_or_path: url });
  return bind(wasm);
}
