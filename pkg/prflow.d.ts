/* tslint:disable */
/* eslint-disable */

/**
 * The rollup of a head commit's checks against the required contexts.
 */
export function checkRollup(checks: any, required_contexts: any): any;

/**
 * The JSON Schema of `.github/prflow.json`.
 */
export function configSchema(): any;

/**
 * The labels a config uses, with colour and description, for `prflow labels`: `{ configErrors, labels, ownerMark }`.
 */
export function labelCatalog(config: any): any;

/**
 * The plan for a facts snapshot under a config. A bad config yields a plan with `configErrors` and no
 * operations; bad facts throw an `Error` naming the JSON path.
 */
export function reconcile(facts: any, config: any): any;

/**
 * The same, JSON text in and out: no object conversion on either side of the boundary.
 */
export function reconcileJson(facts: string, config: string): string;

/**
 * Validates a config: the list of problems, empty when it is good.
 */
export function validateConfig(config: any): any;

/**
 * The engine's version (the crate version).
 */
export function version(): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly checkRollup: (a: any, b: any) => [number, number, number];
    readonly configSchema: () => [number, number, number];
    readonly labelCatalog: (a: any) => [number, number, number];
    readonly reconcile: (a: any, b: any) => [number, number, number];
    readonly reconcileJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly validateConfig: (a: any) => [number, number, number];
    readonly version: () => [number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
