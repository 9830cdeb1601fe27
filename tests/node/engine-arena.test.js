// The Action's and the CLI's Wasm allocates a decision's memory from an arena started over by the next
// call (src/arena.rs, issue 16). What that must never do: hand a later call memory something still
// reads (an engine built once answers as a fresh one, call after call, errors between), or keep
// growing (the arena's chunks are reused, so a board asked again takes no new memory).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../../js/node.js";
import { wasmMemory } from "../../pkg/prflow.js";
import { config, snapshot } from "../../scripts/lib/bench-snapshot.mjs";

test("one engine answers call after call as a fresh engine does, and reuses its memory", () => {
  const configText = JSON.stringify(config);
  const engine = createEngine(configText);
  // Two boards of different sizes (the larger past the arena's first chunks), and a request that fails.
  const small = JSON.stringify({ facts: snapshot(50) });
  const large = JSON.stringify({ facts: snapshot(3000) });
  const want = { small: createEngine(configText).callText("reconcile", small), large: createEngine(configText).callText("reconcile", large) };
  const round = () => {
    assert.equal(engine.callText("reconcile", large), want.large);
    assert.throws(() => engine.callText("reconcile", `{"facts":{"now":"never"}}`), /reconcile \$\.facts\.now/);
    assert.equal(engine.callText("reconcile", small), want.small);
    // The dashboard reads the same facts while the plan above was already handed out.
    assert.equal(engine.callText("dashboard", small), createEngine(configText).callText("dashboard", small));
  };
  round();
  round();
  const settled = wasmMemory().buffer.byteLength;
  for (let i = 0; i < 3; i++) round();
  assert.equal(wasmMemory().buffer.byteLength, settled, "the same calls again took new memory");
});
