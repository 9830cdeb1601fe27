// The stations fixture corpus through the Wasm module on Node: every engine call the stories of
// tests/fixtures/stations/ make (reconcile and the reconcile after applying its plan, claim, the claim
// race, the gate's classify and report), as expanded and answered natively by tests/stations_fixtures.rs,
// must get the identical answer through the Node API. The native suite checks each answer against what
// the fixture pins, so equality here carries those checks over to the Wasm.
import * as engine from "../../js/node.js";
import { replay } from "./lib/replay.js";

/** Each call as the Node API makes it. */
const CALLS = {
  reconcile: (a) => engine.reconcile(a.facts, a.config),
  claim: (a) => engine.claim(a.facts, a.config, a.role, a.machine),
  race: (a) => engine.resolveClaimRace(a.labels, a.machine, a.number, a.config),
  gateClassify: (a) => engine.gateClassify(a.facts, a.config, a.number),
  gateReport: (a) => engine.gateReport(a.facts, a.config, a.number, a.tested, a.result),
};

replay({
  envVar: "PRFLOW_STATIONS_DUMP",
  file: "stations-calls.json",
  min: 90,
  what: "stations calls",
  answerKey: "native",
  ask: ({ call, args }) => CALLS[call](args),
});
