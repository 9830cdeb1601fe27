// The `prflow/web` entry: the same engine, loaded in a browser. Types are generated (types.d.ts).
import type { Config, Engine } from "./types.js";
export type * from "./types.js";

/** Fetches and instantiates the Wasm (from `source`, by default next to pkg/prflow.js). */
export function load(source?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<{
  version(): string;
  drawSeed(): number;
  createEngine(config?: string | Config | null): Engine;
}>;
