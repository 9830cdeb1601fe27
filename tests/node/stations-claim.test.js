// `prflow claim`'s loop against a port where a rival always wins: the shell counts its lost races and
// the engine says when to stop (`queue-empty` after its limit), so the loop ends without a bound of
// its own; and a won race hands the station the pull request's number as a field, not as a line.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createEngine } from "../../js/node.js";
import { claimNext } from "../../lib/stations/claim.js";

const engine = createEngine({ flow: "stations", stations: { machines: { m4: { role: "review" } }, settleSeconds: 0 } });
const pull = (number) => ({
  number,
  author: "bot-m1",
  createdAt: "2026-01-01T09:00:00Z",
  headSha: `sha${number}`,
  labels: ["from:m1", "state:ready-for-review"],
});

/** A port whose board always holds one waiting pull request, and whose read-back shows `rival` too, if any. */
function port({ rival }) {
  let reads = 0;
  return {
    reads: () => reads,
    readFacts: async () => {
      reads += 1;
      assert.ok(reads <= 50, "the claim loop must stop by itself");
      return {
        now: "2026-01-01T12:00:00Z",
        labels: ["state:ready-for-review", "state:reviewing", "reviewer:m4", "reviewer:m1"],
        pullRequests: [pull(reads)],
      };
    },
    readLabels: async () => ["state:reviewing", "reviewer:m4", ...(rival ? [rival] : [])],
    apply: async (ops) => ops.map(() => ({ outcome: "applied" })),
  };
}

test("a machine that loses every race stops when the engine answers queue-empty, after 20 losses", async () => {
  const p = port({ rival: "reviewer:m1" });
  const out = await claimNext({ engine, role: "review", machine: "m4", port: p, sleep: async () => {} });
  assert.equal(out.line, "queue-empty");
  assert.equal(out.claimed, null);
  assert.equal(out.races.length, 20);
  assert.match(out.races[0], /^lost #1 to reviewer:m1$/);
  assert.equal(p.reads(), 21, "twenty lost claims, then the answer that stops");
});

test("a won race names the claimed pull request as a number", async () => {
  const out = await claimNext({
    engine,
    role: "review",
    machine: "m4",
    port: port({ rival: null }),
    sleep: async () => {},
  });
  assert.deepEqual([out.line, out.claimed, out.races], ["claim #1", 1, []]);
});
