/* tslint:disable */
/* eslint-disable */

/**
 * The decision engine under one config, validated once when it is built.
 */
export class Engine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * One decision by name, JSON text in and out.
     */
    call(name: string, input: string): string;
    /**
     * The config's problems as JSON text (`[{ path, expected, found }]`), empty when it is valid.
     */
    configErrors(): string;
    /**
     * Every decision's name, so the JS core binds one method per decision without a list of its own.
     */
    static names(): string[];
    /**
     * `new Engine(configText)`; `new Engine()` (no config file) is the preset. A bad config never
     * throws: every decision that needs it answers with its errors.
     */
    constructor(config_text?: string | null);
}

/**
 * A fresh seed for a simulation run given none, from the host's crypto: the one random thing, kept
 * out of the engine's decisions, which take the seed as an input.
 */
export function drawSeed(): number;

/**
 * The engine's version (the crate version).
 */
export function version(): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_engine_free: (a: number, b: number) => void;
    readonly drawSeed: () => [number, number, number];
    readonly engine_call: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly engine_configErrors: (a: number) => [number, number, number, number];
    readonly engine_names: () => [number, number];
    readonly engine_new: (a: number, b: number) => number;
    readonly version: () => [number, number];
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __externref_drop_slice: (a: number, b: number) => void;
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
