// The merge queue's cycle fixtures through the Wasm module on Node: every step of
// tests/fixtures/queue-cycle/, with the state the native run threaded into it, must get the identical
// answer from the Wasm export the shells call (`cycleStep` through the queue's one entry point).
import "../../js/node.js"; // initialises the module below
import { queueCallJson } from "../../pkg/prflow.js";
import { replay } from "./lib/replay.js";

replay({
  envVar: "PRFLOW_QUEUE_CYCLE_DUMP",
  file: "queue-cycle-answers.json",
  min: 200,
  what: "queue cycle steps",
  answerKey: "output",
  ask: ({ call, input }) => JSON.parse(queueCallJson(call, JSON.stringify(input))),
  errorMessage: ({ call, error }) => `${call}: ${error}`,
});
