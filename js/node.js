// Node adapter: loads the Wasm synchronously at import, so `import { reconcile } from "prflow"` needs no init.
import { readFileSync } from "node:fs";
import * as wasm from "../pkg/prflow.js";
import { bind } from "./core.js";

wasm.initSync({ module: readFileSync(new URL("../pkg/prflow_bg.wasm", import.meta.url)) });

export const {
  version, reconcile, sweep, dashboard, followupSettings, checkRollup, configSchema, validateConfig, labelCatalog, labelSync,
  claim, resolveClaimRace, gateClassify, gateReport, stationReview,
  codeOwners, parseTrailers, closingKeywords, triage, tipReads, queueReads, watchStep, claimPr, claimPrReadBack, unownedIssues, autoFix, yieldsTo,
  openPr, pushFixedPr, fixerPick, fixerBrief, fixerGiveUp,
} = bind(wasm);
