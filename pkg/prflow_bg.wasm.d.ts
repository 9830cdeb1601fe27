/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const checkRollup: (a: any, b: any) => [number, number, number];
export const claimJson: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => [number, number, number, number];
export const codeOwners: (a: number, b: number, c: number, d: number) => [number, number];
export const configSchema: () => [number, number, number];
export const dashboardJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
export const followupSettingsJson: (a: number, b: number) => [number, number, number, number];
export const gateClassifyJson: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
export const gateReportJson: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number) => [number, number, number, number];
export const labelCatalog: (a: any) => [number, number, number];
export const parseTrailers: (a: number, b: number) => [number, number, number];
export const queueCallJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
export const reconcile: (a: any, b: any) => [number, number, number];
export const reconcileJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
export const resolveClaimRaceJson: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
export const sweepJson: (a: number, b: number, c: number, d: number) => [number, number, number, number];
export const validateConfig: (a: any) => [number, number, number];
export const version: () => [number, number];
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_exn_store: (a: number) => void;
export const __externref_table_alloc: () => number;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __externref_table_dealloc: (a: number) => void;
export const __externref_drop_slice: (a: number, b: number) => void;
export const __wbindgen_start: () => void;
