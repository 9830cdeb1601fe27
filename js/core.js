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
    /** The board settings the sweep reads with, defaults filled in ({ configErrors, board }). */
    followupSettings: (config = {}) => JSON.parse(wasm.followupSettingsJson(asJson(config))),
    /** The rollup of a head commit's checks: { state, failing, pending, passing }. */
    checkRollup: (checks, requiredContexts = []) => wasm.checkRollup(checks, requiredContexts),
    /** The JSON Schema of `.github/prflow.json`. */
    configSchema: () => wasm.configSchema(),
    /** The problems in a config, each { path, expected, found }; empty when it is valid. */
    validateConfig: (config) => wasm.validateConfig(config),
    /** Every label the config uses, with colour and description: { configErrors, labels, ownerMark }. */
    labelCatalog: (config = {}) => wasm.labelCatalog(config),
  };
}

function asJson(value) {
  return typeof value === "string" ? value : JSON.stringify(value ?? {});
}
