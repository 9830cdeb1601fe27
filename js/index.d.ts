// The public API of the `prflow` package. Data types are generated from the engine (types.d.ts).
import type {
  AutoFix, CheckRollup, FixerPick, OpenPrDecision, PushFixedDecision, ClaimDecision, ClaimReadBack, Config, DashboardView, Facts, LabelSync, Plan, QueueReads, QueueReport, ReviewOutcome, SweepPlan, Trailers, UnownedIssue, WatchPoll, WatchState, WatchStep,
} from "./types.js";
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
/** What `prflow labels` writes: the catalogue against the repository's labels as read. Never deletes. */
export function labelSync(catalog: { labels: LabelSpec[]; ownerMark: string }, existing: { name: string; color: string; description?: string | null }[]): LabelSync;

/** The owners CODEOWNERS gives `path` (the last matching rule's, GitHub's rules); empty when unowned. */
export function codeOwners(codeownersText: string, path: string): string[];
/** The numbers `Merge-After:` and `Start-After:` name in a body, outside fenced code blocks. */
export function parseTrailers(body: string): Trailers;
/** The issues a body closes with a closing keyword (`Fixes #12`), outside fenced code; never another repository's. */
export function closingKeywords(body: string): number[];
/** The merge queue's triage: every open pull request's class, owner, reason, next actor/action, place; the order and cycles. */
export function triage(facts: Facts | string, config?: Config | string): QueueReport;
/** The numbers of the pull requests whose `builtOnBaseTip` triage reads (the version pull request, queued work under skip-ci; never a fork). */
export function tipReads(facts: Facts | string, config?: Config | string): number[];
/** What the queue's reader must still fetch given the facts so far; ask again after adding them until every list is empty. */
export function queueReads(facts: Facts | string, config?: Config | string): QueueReads;
/** One poll of the watched pull request: the outcome by the README's table (`continue` to poll again). */
export function watchStep(poll: WatchPoll, state: WatchState, config?: Config | string): WatchStep;
/** Whether `by` may claim (or release) a set-aside pull request, and the comment to write. */
export function claimPr(facts: Facts | string, config: Config | string, request: { number: number; by: string; release?: boolean }): ClaimDecision;
/** After the claim comment is written and the comments read again: did `by` win (or is the release done)? */
export function claimPrReadBack(facts: Facts | string, config: Config | string, request: { number: number; by: string; release?: boolean }): ClaimReadBack;
/** `open-pr`: the body with its Merge-After: trailer, the labels (skip-ci, auto-rebase on a layer, merge-queued with --queue, from:<machine>) and the ops. */
export function openPr(facts: Facts | string, config: Config | string, request: { title: string; body?: string; head: string; base?: string | null; queue?: boolean; draft?: boolean; machine?: string | null }): OpenPrDecision;
/** `push-fixed-pr`: skip-ci on before the push, the push leased at the claimed head, the claim resolved after. */
export function pushFixedPr(facts: Facts | string, config: Config | string, request: { number: number; by: string; commit: string }): PushFixedDecision;
/** The fixer station's next set-aside pull request (its owner the fixer), how its worktree starts, and the claim to write. */
export function fixerPick(facts: Facts | string, config: Config | string, name: string): FixerPick;
/** The text the fixer's AI command reads on stdin. */
export function fixerBrief(pick: FixerPick, found: { worktree: string; conflictingFiles?: string[]; logs?: { name: string; tail: string }[] }): string;
/** A fixer giving up: the claim released and a comment saying why. */
export function fixerGiveUp(facts: Facts | string, config: Config | string, request: { number: number; name: string; why: string }): Plan["ops"];
/** The AI first pass's outcome on pull request `number` at `head`: a COMMENT review, and `/changes` when the output's first line starts with BLOCKING. */
export function stationReview(number: number, head: string, output: string): ReviewOutcome;
/** The issues `report-unowned` keeps, one per pull request whose owner is none, found again by a hidden line. */
export function unownedIssues(facts: Facts | string, config?: Config | string, issues?: { number: number; open: boolean; body: string }[]): UnownedIssue[];
/** Whether failed contexts are only a fixer's diff under `queue.autoFix`, and the commands that fix them. */
export function autoFix(config: Config | string, failed: string[], commitCount: number | null): AutoFix;
/** A candidate's place in the pick order, as the engine keys it. */
export interface OrderKey {
  number: number;
  priority: "high" | "normal" | "low";
  dirty: boolean;
  version: boolean;
  demoted: boolean;
}
/** The yield rule: after releasing `mine`, the worker-owned pull request released in the same moment that comes first in the pick order, or null. */
export function yieldsTo(mine: OrderKey, others: { key: OrderKey; workerOwned: boolean; releasedAtSurvey: boolean }[]): number | null;

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

/** The dashboard: reconcile, the follow-up sweep's rows and the queue's triage, per open pull request. Bad facts throw. */
export function dashboard(facts: Facts | string, config?: Config | string): DashboardView;
