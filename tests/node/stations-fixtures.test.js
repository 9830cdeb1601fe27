// The stations fixture corpus through the Wasm module on Node: every engine call the stories of
// tests/fixtures/stations/ make (reconcile and the reconcile after applying its plan, claim, the claim
// race, the gate's classify and report), as expanded and answered natively by tests/stations_fixtures.rs,
// must get the identical answer through the Node API. The native suite checks each answer against what
// the fixture pins, so equality here carries those checks over to the Wasm.
import { createEngine } from "../../js/node.js";
import { replay } from "./lib/replay.js";

/** Each call as the Node API makes it. */
const CALLS = {
  reconcile: (a) => createEngine(a.config).reconcile({ facts: a.facts }),
  claim: (a) => createEngine(a.config).claim({ facts: a.facts, role: a.role, machine: a.machine }),
  race: (a) => createEngine(a.config).resolveClaimRace({ labels: a.labels, machine: a.machine, number: a.number }),
  gateClassify: (a) => createEngine(a.config).gateClassify({ facts: a.facts, number: a.number }),
  gateReport: (a) => createEngine(a.config).gateReport({ facts: a.facts, number: a.number, testedSha: a.tested, result: a.result }),
};

replay({
  envVar: "PRFLOW_STATIONS_DUMP",
  file: "stations-calls.json",
  min: 90,
  what: "stations calls",
  answerKey: "native",
  ask: ({ call, args }) => CALLS[call](args),
});
