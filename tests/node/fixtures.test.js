// The whole fixture corpus through the Wasm module on Node: every case of tests/fixtures/reconcile/, as
// expanded and planned natively by tests/fixtures.rs (PRFLOW_FIXTURE_DUMP), must give the identical plan
// through the engine from js/node.js. One engine, two builds, one answer.
import { createEngine } from "../../js/node.js";
import { replay } from "./lib/replay.js";

replay({
  envVar: "PRFLOW_FIXTURE_DUMP",
  file: "fixture-plans.json",
  min: 150,
  what: "reconcile plans",
  answerKey: "plan",
  ask: ({ facts, config }) => createEngine(config).reconcile({ facts }),
});
