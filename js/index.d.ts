// The public API of the `prflow` package. Data types are generated from the engine (types.d.ts).
import type { CheckRollup, Config, Facts, Plan, SweepPlan } from "./types.js";
export type * from "./types.js";

export interface ConfigProblem {
  path: string;
  expected: string;
  found: string;
}

/** The engine's version. */
export function version(): string;
/** The plan for a snapshot. A bad config yields `configErrors` and no ops; bad facts throw. */
export function reconcile(facts: Facts | string, config?: Config | string): Plan;
/**
 * The follow-up sweep: comments for the levels due (each once per stay in a state), claim releases,
 * the board issue (only when its content changed), and `stopTheLine`. A bad config yields
 * `configErrors` and no ops; bad facts throw.
 */
export function sweep(facts: Facts | string, config?: Config | string): SweepPlan;
/** What a shell reads before the sweep: the board settings with defaults filled in, or the config's errors. */
export function followupSettings(config?: unknown): { configErrors: ConfigProblem[]; board: NonNullable<Config["followup"]>["board"] | null };
/** The rollup of a head commit's checks against the required contexts. */
export function checkRollup(checks: Facts["pullRequests"][number]["checks"], requiredContexts?: string[]): CheckRollup;
/** The JSON Schema of `.github/prflow.json`. */
export function configSchema(): object;
/** The problems in a config; empty when valid. */
export function validateConfig(config: unknown): ConfigProblem[];

/** One label as GitHub stores it (colour: six hex digits, description: at most 100 characters). */
export interface LabelSpec {
  name: string;
  color: string;
  description: string;
}

/** Every label the config uses; a bad config yields its errors and no labels. */
export function labelCatalog(config?: unknown): { configErrors: ConfigProblem[]; labels: LabelSpec[]; ownerMark: string };
