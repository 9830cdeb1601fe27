/* tslint:disable */
/* eslint-disable */

/**
 * The rollup of a head commit's checks against the required contexts.
 */
export function checkRollup(checks: any, required_contexts: any): any;

/**
 * The stations flow's `prflow claim <role> <machine>`: `{ line, role, number, ops, why, settleSeconds, warnings }`.
 */
export function claimJson(facts: string, config: string, role: string, machine: string): string;

/**
 * `codeOwners(codeownersText, path)`: the owners of that path (the last matching rule's), empty when unowned.
 */
export function codeOwners(codeowners: string, path: string): string[];

/**
 * The JSON Schema of `.github/prflow.json`.
 */
export function configSchema(): any;

/**
 * What the dashboard page draws: one row per open pull request (reconcile's state and why, the
 * sweep's time in state, owner and claimers, the queue's triage), JSON text in and out.
 */
export function dashboardJson(facts: string, config: string): string;

/**
 * The follow-up section with its defaults filled in (the board label to read, the effective levels),
 * or the config's errors. JSON text in and out, like the sweep: one serializer for all these types.
 */
export function followupSettingsJson(config: string): string;

/**
 * The gate's classify step for one pull request: `{ run, need, sha, ops, why, warnings }`.
 */
export function gateClassifyJson(facts: string, config: string, number: number): string;

/**
 * The gate's report step: the validation machine's `result` for `testedSha`.
 */
export function gateReportJson(facts: string, config: string, number: number, tested_sha: string, result: string): string;

/**
 * The labels a config uses, with colour and description, for `prflow labels`: `{ configErrors, labels, ownerMark }`.
 */
export function labelCatalog(config: any): any;

/**
 * What `prflow labels` writes: `labelSyncJson(catalog, existing)` with the catalogue `labelCatalog`
 * answered and the repository's labels as read: `{ rows, ops, unused }`.
 */
export function labelSyncJson(catalog: string, existing: string): string;

/**
 * `parseTrailers(body)`: `{ mergeAfter, startAfter }`, the numbers each trailer names outside fenced code.
 */
export function parseTrailers(body: string): any;

/**
 * The merge queue's decisions by name (`triage`, `watchStep`, `claimPr`, `unownedIssues`, `autoFix`,
 * ...), JSON text in and out; js/core.js gives each its own JS name. Bad input throws, naming the path.
 */
export function queueCallJson(name: string, input: string): string;

/**
 * `queueReads(facts, config)`: what the queue's reader must still fetch ({ issues, blockedBy, teams,
 * tips }), JSON text in and out. Temporary beside `queueCallJson` until the one request vocabulary
 * carries it (H-core, issue 11).
 */
export function queueReadsJson(facts: string, config: string): string;

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
 * After the settle time: does `machine` keep pull request `number`, given the labels read back (JSON text).
 */
export function resolveClaimRaceJson(labels: string, machine: string, number: number, config: string): string;

/**
 * `resolveClaimRaceJson`, told the claimer's window in milliseconds (its facts read to its claim write
 * acknowledged): a window not shorter than the settle withdraws the claim.
 */
export function resolveClaimRaceTimedJson(labels: string, machine: string, number: number, config: string, took_ms: number): string;

/**
 * The AI first pass's outcome for pull request `number` at `head`: `{ blocking, ops, why }` (the
 * COMMENT review, and `/changes` when the output's first line starts with BLOCKING).
 */
export function stationReviewJson(number: number, head: string, output: string): string;

/**
 * The follow-up sweep, JSON text in and out: comments, claim releases, the board, and `stopTheLine`.
 */
export function sweepJson(facts: string, config: string): string;

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
    readonly claimJson: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => [number, number, number, number];
    readonly codeOwners: (a: number, b: number, c: number, d: number) => [number, number];
    readonly configSchema: () => [number, number, number];
    readonly dashboardJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly followupSettingsJson: (a: number, b: number) => [number, number, number, number];
    readonly gateClassifyJson: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly gateReportJson: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number) => [number, number, number, number];
    readonly labelCatalog: (a: any) => [number, number, number];
    readonly labelSyncJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly parseTrailers: (a: number, b: number) => [number, number, number];
    readonly queueCallJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly queueReadsJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly reconcile: (a: any, b: any) => [number, number, number];
    readonly reconcileJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly resolveClaimRaceJson: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
    readonly resolveClaimRaceTimedJson: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => [number, number, number, number];
    readonly stationReviewJson: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly sweepJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly validateConfig: (a: any) => [number, number, number];
    readonly version: () => [number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
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
