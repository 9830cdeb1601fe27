// The merge queue's fixture corpus through the Wasm module on Node: every case of tests/fixtures/queue/,
// as expanded and answered natively by tests/queue_fixtures.rs, must get the identical answer from the
// engine's one call entry.
import { createEngine } from "../../js/node.js";
import { replay } from "./lib/replay.js";

replay({
  envVar: "PRFLOW_QUEUE_DUMP",
  file: "queue-answers.json",
  min: 200,
  what: "queue answers",
  answerKey: "output",
  ask: ({ config, call, input }) => createEngine(config).call(call, input),
});
