// The engine's JS face, shared by every host: Node (js/node.js), the browser (js/web.js), the Action.
// Each host loads the Wasm its own way and hands the instantiated module to `bind`.

/** Wraps the wasm-bindgen exports in the stable JS API. */
export function bind(wasm) {
  return {
    /** The engine's version. */
    version: () => wasm.version(),
    /**
     * The plan for a facts snapshot under a config. Facts and config may be objects or JSON text;
     * objects cross the boundary as JSON text, which is several times faster for large snapshots.
     */
    reconcile: (facts, config = {}) =>
      JSON.parse(wasm.reconcileJson(asJson(facts), asJson(config))),
    /**
     * The follow-up sweep: who to ping for how long each pull request has sat in its state, claims to
     * release, the board issue, and `stopTheLine` (dev machines open no new pull request while true).
     */
    sweep: (facts, config = {}) => JSON.parse(wasm.sweepJson(asJson(facts), asJson(config))),
    /**
     * What the dashboard draws, one row per open pull request: reconcile's state, why and blockers, the
     * sweep's owner, claimers and minutes in state, the queue's triage; plus the pick order and warnings.
     */
    dashboard: (facts, config = {}) => JSON.parse(wasm.dashboardJson(asJson(facts), asJson(config))),
    /** The board settings the sweep reads with, defaults filled in ({ configErrors, board }). */
    followupSettings: (config = {}) => JSON.parse(wasm.followupSettingsJson(asJson(config))),
    /** The rollup of a head commit's checks: { state, failing, pending, passing }. */
    checkRollup: (checks, requiredContexts = []) => wasm.checkRollup(checks, requiredContexts),
    /** The JSON Schema of `.github/prflow.json`. */
    configSchema: () => wasm.configSchema(),
    /** The problems in a config, each { path, expected, found }; empty when it is valid. */
    validateConfig: (config) => wasm.validateConfig(config),
    /** The owners CODEOWNERS gives a path (the last matching rule's); empty when unowned. */
    codeOwners: (codeownersText, path) => wasm.codeOwners(codeownersText ?? "", path),
    /** The numbers a body's `Merge-After:` / `Start-After:` trailers name: { mergeAfter, startAfter }. */
    parseTrailers: (body) => wasm.parseTrailers(body ?? ""),
    /** The issues a body closes with a closing keyword (`Fixes #12`), outside fenced code; never another repository's. */
    closingKeywords: (body) => queueCall(wasm, "closingKeywords", { body: body ?? "" }),
    /** The merge queue's triage of every open pull request: triage, owner, reason, next actor/action, order, cycles. */
    triage: (facts, config = {}) => queueCall(wasm, "triage", { facts, config }),
    /** The pull requests whose `builtOnBaseTip` triage reads: a reader asks git about these only. */
    tipReads: (facts, config = {}) => queueCall(wasm, "tipReads", { facts, config }),
    /**
     * What the queue's reader must still fetch, given the facts read so far: { issues, blockedBy, teams,
     * tips }. Read them, add them to the facts, ask again until every list is empty.
     */
    queueReads: (facts, config = {}) => JSON.parse(wasm.queueReadsJson(asJson(facts), asJson(config))),
    /** One poll of the watched pull request: { outcome, state, detail }; `continue` means poll again. */
    watchStep: (poll, state, config = {}) => queueCall(wasm, "watchStep", { poll, state, config }),
    /** Whether `by` may claim (or release) pull request `number`, and the comment to write. */
    claimPr: (facts, config, { number, by, release = false }) => queueCall(wasm, "claimPr", { facts, config, number, by, release }),
    /** After the claim comment is written and read back: did `by` win (or is the release done)? { won, holder, message } */
    claimPrReadBack: (facts, config, { number, by, release = false }) => queueCall(wasm, "claimPrReadBack", { facts, config, number, by, release }),
    /** `open-pr`: the body with its trailer, the labels, and the ops (the pull request, auto-rebase on the layer below). */
    openPr: (facts, config, request) => queueCall(wasm, "openPr", { facts, config, request }),
    /** `push-fixed-pr`: the ops before the push (skip-ci on), the leased push, the ops after (the claim resolved). */
    pushFixedPr: (facts, config, request) => queueCall(wasm, "pushFixedPr", { facts, config, request }),
    /** The fixer station's next pull request, how its worktree starts, and the claim to write. */
    fixerPick: (facts, config, name) => queueCall(wasm, "fixerPick", { facts, config, name }),
    /** The text the fixer's AI command reads on stdin. */
    fixerBrief: (pick, found) => queueCall(wasm, "fixerBrief", { pick, found }),
    /** A fixer giving up: the claim released and a comment saying why. */
    fixerGiveUp: (facts, config, { number, name, why }) => queueCall(wasm, "fixerGiveUp", { facts, config, number, name, why }),
    /** The issues `report-unowned` keeps: one per pull request whose owner is none. */
    unownedIssues: (facts, config = {}, issues = []) => queueCall(wasm, "unownedIssues", { facts, config, issues }),
    /** The yield rule: the pull request `mine` (an order key) gives its release back to, or null. */
    yieldsTo: (mine, others) => queueCall(wasm, "yieldsTo", { mine, others }),
    /** Whether a failure is only a fixer's diff, and the commands that fix it. */
    autoFix: (config, failed, commitCount) => queueCall(wasm, "autoFix", { config, failed, commitCount }),
    /** Every label the config uses, with colour and description: { configErrors, labels, ownerMark }. */
    labelCatalog: (config = {}) => wasm.labelCatalog(config),
    /** The catalogue against the repository's labels as read: { rows, ops (createLabel/updateLabel), unused }. Never deletes. */
    labelSync: (catalog, existing) => JSON.parse(wasm.labelSyncJson(JSON.stringify(catalog), JSON.stringify(existing))),
    /**
     * The stations flow's `prflow claim <role> <machine>` (role: review, dev or any):
     * { line, role, number, ops, why, settleSeconds, warnings }. `line` is one of `claim #N`,
     * `wip-full n/w`, `queue-empty`, `fix #N`, `new-work`. A bad config or bad facts throw.
     */
    claim: (facts, config, role, machine) => JSON.parse(wasm.claimJson(asJson(facts), asJson(config), role, machine)),
    /**
     * After the settle time, with the labels read back from pull request `number`: does `machine`
     * keep its claim? { won, winner, line, ops } — the loser's ops remove its own label. `tookMs`, the
     * claimer's own time from its facts read to its claim write acknowledged, withdraws a claim whose
     * window reached the settle (a rival may hold it unseen).
     */
    resolveClaimRace: (labels, machine, number = 0, config = {}, tookMs = undefined) =>
      JSON.parse(
        tookMs === undefined
          ? wasm.resolveClaimRaceJson(JSON.stringify(labels), machine, number, asJson(config))
          : wasm.resolveClaimRaceTimedJson(JSON.stringify(labels), machine, number, asJson(config), tookMs),
      ),
    /** The AI first pass's outcome on pull request `number` at `head`: { blocking, ops, why } (a COMMENT review; `/changes` when BLOCKING). */
    stationReview: (number, head, output) => JSON.parse(wasm.stationReviewJson(number, head ?? "", output ?? "")),
    /** The gate's classify step: { run, need, sha, ops, why, warnings } (docs-only passes in `ops`). */
    gateClassify: (facts, config, number) => JSON.parse(wasm.gateClassifyJson(asJson(facts), asJson(config), number)),
    /**
     * The gate's report step for the commit the validation machine tested (`result`: success, failure,
     * cancelled or skipped). When the head moved, the status goes on `testedSha` only and no label changes.
     */
    gateReport: (facts, config, number, testedSha, result) =>
      JSON.parse(wasm.gateReportJson(asJson(facts), asJson(config), number, testedSha, result)),
  };
}

// Facts and config may arrive as JSON text (the fast path for big snapshots): splice them in as is.
function queueCall(wasm, name, input) {
  const parts = Object.entries(input).map(([k, v]) => `${JSON.stringify(k)}:${typeof v === "string" && (k === "facts" || k === "config") ? v : JSON.stringify(v ?? null)}`);
  return JSON.parse(wasm.queueCallJson(name, `{${parts.join(",")}}`));
}

function asJson(value) {
  return typeof value === "string" ? value : JSON.stringify(value ?? {});
}
