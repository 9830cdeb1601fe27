// The merge queue's fixture corpus through the Wasm module on Node: every case of tests/fixtures/queue/,
// as expanded and answered natively by tests/queue_fixtures.rs, must get the identical answer from the
// Wasm export every JS name of the queue goes through.
import "../../js/node.js"; // initialises the module below
import { queueCallJson } from "../../pkg/prflow.js";
import { replay } from "./lib/replay.js";

replay({
  envVar: "PRFLOW_QUEUE_DUMP",
  file: "queue-answers.json",
  min: 200,
  what: "queue answers",
  answerKey: "output",
  ask: ({ call, input }) => JSON.parse(queueCallJson(call, JSON.stringify(input))),
  errorMessage: ({ call, error }) => `${call}: ${error}`,
});
