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

/** The answer to `prflow claim <role> <machine>` (stations flow). */
export interface ClaimResult {
  /** `claim #N`, `wip-full n/w`, `queue-empty`, `fix #N` or `new-work`: one line a script can `case` on. */
  line: string;
  /** The side the answer is for (a machine of role `any` gets one of them). */
  role: "review" | "dev";
  number: number | null;
  /** The label edit that claims it (empty unless `line` is `claim #N`). */
  ops: Plan["ops"];
  why: string;
  /** Seconds to wait before reading the claim back. */
  settleSeconds: number;
  warnings: Plan["warnings"];
}

/** After the settle time: who keeps the pull request. */
export interface RaceResult {
  won: boolean;
  /** The lexicographically smallest `reviewer:*` label, if any is left. */
  winner: string | null;
  /** `claim #N` or `lost #N to reviewer:x`. */
  line: string;
  /** The loser's withdrawal (its own label removed). */
  ops: Plan["ops"];
}

/** What the validation gate's workflow should do. */
export interface GateDecision {
  /** The gate is due (approved, or every push with `stations.gate.onEveryPush`). */
  run: boolean;
  /** The validation machine must run (false for docs-only changes). */
  need: boolean;
  /** The commit the gate is about. */
  sha: string;
  ops: Plan["ops"];
  why: string;
  warnings: Plan["warnings"];
}

/** The next thing a machine should do (stations flow). Throws on a bad role, config or facts. */
export function claim(facts: Facts | string, config: Config | string, role: "review" | "dev" | "any", machine: string): ClaimResult;
/** Read-back after the settle time: the lexicographically smallest `reviewer:*` keeps it. */
export function resolveClaimRace(labels: string[], machine: string, number?: number, config?: Config | string): RaceResult;
/** The gate's classify step for one pull request. */
export function gateClassify(facts: Facts | string, config: Config | string, number: number): GateDecision;
/** The gate's report step: the machine's result for the commit it tested. */
export function gateReport(facts: Facts | string, config: Config | string, number: number, testedSha: string, result: "success" | "failure" | "cancelled" | "skipped"): GateDecision;
