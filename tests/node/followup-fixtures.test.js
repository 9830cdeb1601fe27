// The follow-up fixtures through the Wasm module on Node: every sweep of every step of
// tests/fixtures/followup/, as run natively by tests/followup_fixtures.rs, must give the identical plan
// (comments, releases, the board, stop-the-line) through `sweep` from js/node.js.
import { createEngine } from "../../js/node.js";
import { replay } from "./lib/replay.js";

replay({
  envVar: "PRFLOW_FOLLOWUP_DUMP",
  file: "followup-plans.json",
  min: 20,
  what: "follow-up plans",
  answerKey: "plan",
  ask: ({ facts, config }) => createEngine(config).sweep({ facts }),
});
