// The claim race: three review stations claim at once from a queue of ten, 200 rounds with random
// delays on every read and write. Labels are additive (POST adds, DELETE removes one), as on GitHub,
// and nothing orders the stations' requests. Pins: no pull request ends with two claims, no station
// exceeds its WIP limit, no station believes it holds a pull request it does not, nothing is lost.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as engine from "../../js/node.js";
import { claimNext } from "../../lib/stations/claim.js";

const ROUNDS = 200;
const QUEUE = 10;
const STATIONS = ["m4", "m5", "m7"];
const MAX_DELAY_MS = 5; // each read and each write waits 0..5 ms
const SETTLE_MS = 25; // longer than any skew between two writes that read the same facts (2 × 5 ms + margin)
const config = {
  flow: "stations",
  stations: {
    machines: { m1: { role: "dev" }, m2: { role: "dev" }, m4: { role: "review" }, m5: { role: "review" }, m7: { role: "any" } },
    reviewWip: 2,
  },
};
const LABELS = ["state:dev", "state:ready-for-review", "state:reviewing", "state:changes-requested", "state:win-verify", "state:ready-to-merge", "from:m1", "from:m2", ...STATIONS.map((m) => `reviewer:${m}`)];

/** A seeded generator, so a failing round can be replayed. */
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** An in-memory repository with GitHub's label semantics and a random latency on every request. */
function fakeRepo(random) {
  const pulls = new Map();
  for (let n = 1; n <= QUEUE; n++) {
    pulls.set(n, { number: n, author: "bot-m1", createdAt: new Date(Date.UTC(2026, 0, 1, 9, n)).toISOString(), headSha: `sha${n}`, labels: [n % 2 ? "from:m1" : "from:m2", "state:ready-for-review"] });
  }
  const latency = () => new Promise((r) => setTimeout(r, Math.floor(random() * (MAX_DELAY_MS + 1))));
  const snapshot = () => ({ now: "2026-01-01T12:00:00Z", labels: LABELS, pullRequests: [...pulls.values()].map((p) => ({ ...p, labels: [...p.labels] })) });
  return {
    pulls,
    port: {
      readFacts: async () => (await latency(), snapshot()),
      readLabels: async (n) => (await latency(), [...pulls.get(n).labels]),
      apply: async (ops) => {
        for (const op of ops) {
          assert.equal(op.op, "editLabels", "a claim writes labels only");
          await latency();
          const p = pulls.get(op.number);
          for (const { label } of op.add) if (!p.labels.includes(label)) p.labels.push(label);
          for (const { label } of op.remove) p.labels = p.labels.filter((l) => l !== label);
        }
      },
    },
  };
}

async function station(machine, port, random, held) {
  await new Promise((r) => setTimeout(r, Math.floor(random() * 10)));
  let lost = 0;
  for (;;) {
    const { line, races } = await claimNext({ engine, config, role: "review", machine, port, settleMs: SETTLE_MS });
    lost += races.length;
    const m = /^claim #(\d+)$/.exec(line);
    if (!m) return { last: line, lost };
    held.push(Number(m[1]));
  }
}

test(`claim race: ${STATIONS.length} stations, a queue of ${QUEUE}, ${ROUNDS} rounds`, async () => {
  const counts = { rounds: 0, claims: 0, lostRaces: 0, doubleClaims: 0, overWip: 0, phantom: 0, lostFromQueue: 0, leftInQueue: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const random = rng(round + 1);
    const { pulls, port } = fakeRepo(random);
    const held = Object.fromEntries(STATIONS.map((m) => [m, []]));
    const results = await Promise.all(STATIONS.map((m) => station(m, port, random, held[m])));
    counts.rounds++;
    for (const r of results) counts.lostRaces += r.lost;
    for (const m of STATIONS) {
      counts.claims += held[m].length;
      if (held[m].length > config.stations.reviewWip) counts.overWip++;
      for (const n of held[m]) if (!pulls.get(n).labels.includes(`reviewer:${m}`)) counts.phantom++;
    }
    for (const p of pulls.values()) {
      const claims = p.labels.filter((l) => l.startsWith("reviewer:"));
      if (claims.length > 1) counts.doubleClaims++;
      const states = p.labels.filter((l) => l.startsWith("state:"));
      if (claims.length === 1 && !(states.length === 1 && states[0] === "state:reviewing")) counts.lostFromQueue++;
      if (claims.length === 0 && !(states.length === 1 && states[0] === "state:ready-for-review")) counts.lostFromQueue++;
      if (claims.length === 0) counts.leftInQueue++;
    }
    // Every station stopped at its WIP limit, since the queue (10) outlasts three stations' WIP (6).
    for (const r of results) assert.equal(r.last, `wip-full ${config.stations.reviewWip}/${config.stations.reviewWip}`, `round ${round}`);
  }
  console.log(`claim race: ${JSON.stringify(counts)}`);
  assert.equal(counts.doubleClaims, 0, "no pull request ends with two claims");
  assert.equal(counts.overWip, 0, "no station exceeds its WIP limit");
  assert.equal(counts.phantom, 0, "no station holds a pull request without its label");
  assert.equal(counts.lostFromQueue, 0, "every pull request is either claimed once (reviewing) or still in the queue");
  assert.equal(counts.claims, ROUNDS * STATIONS.length * config.stations.reviewWip, "each station claimed exactly its WIP each round");
  assert.equal(counts.leftInQueue, ROUNDS * (QUEUE - STATIONS.length * config.stations.reviewWip), "the rest stays in the queue");
});
