// The `prflow` package for Node. Every data type, and the engine's methods, are generated from the
// engine's Rust types into types.d.ts (scripts/gen-types.mjs); nothing is declared by hand here.
import type { Config, Engine } from "./types.js";
export type * from "./types.js";

/** The engine's version. */
export function version(): string;
/** A fresh simulation seed from the host's crypto, for a `simReview` / `simQueue` run given none. */
export function drawSeed(): number;
/** The engine under one config: its text, an object, or nothing for the preset. A bad config never throws. */
export function createEngine(config?: string | Config | null): Engine;
