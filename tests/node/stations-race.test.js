// The claim race in memory: three review stations claim at once from a queue of ten, 200 rounds with
// random delays on every read and write. Labels are additive (POST adds, DELETE removes one), as on
// GitHub, and nothing orders the stations' requests. The race and what it must show: tests/node/lib/race.js.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertRace, emptyCounts, raceRound, rng } from "./lib/race.js";

const ROUNDS = 200;
const QUEUE = 10;
const STATIONS = ["m4", "m5", "m7"];
const MAX_DELAY_MS = 5; // each station call waits 0..5 ms, and so does each request inside it
const config = {
  flow: "stations",
  stations: {
    machines: {
      m1: { role: "dev" },
      m2: { role: "dev" },
      m4: { role: "review" },
      m5: { role: "review" },
      m7: { role: "any" },
    },
    reviewWip: 2,
  },
};
const LABELS = [
  "state:dev",
  "state:ready-for-review",
  "state:reviewing",
  "state:changes-requested",
  "state:win-verify",
  "state:ready-to-merge",
  "from:m1",
  "from:m2",
  ...STATIONS.map((m) => `reviewer:${m}`),
];

/** An in-memory repository with GitHub's label semantics and a random latency on every request. */
function fakeRepo(random) {
  const pulls = new Map();
  for (let n = 1; n <= QUEUE; n++) {
    pulls.set(n, {
      number: n,
      author: "bot-m1",
      createdAt: new Date(Date.UTC(2026, 0, 1, 9, n)).toISOString(),
      headSha: `sha${n}`,
      labels: [n % 2 ? "from:m1" : "from:m2", "state:ready-for-review"],
    });
  }
  const latency = () => new Promise((r) => setTimeout(r, Math.floor(random() * (MAX_DELAY_MS + 1))));
  const snapshot = () => ({
    now: "2026-01-01T12:00:00Z",
    labels: LABELS,
    pullRequests: [...pulls.values()].map((p) => ({ ...p, labels: [...p.labels] })),
  });
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

test(`claim race: ${STATIONS.length} stations, a queue of ${QUEUE}, ${ROUNDS} rounds`, async () => {
  const counts = emptyCounts();
  for (let round = 0; round < ROUNDS; round++) {
    const random = rng(round + 1);
    const { pulls, port } = fakeRepo(random);
    const portOf = Object.fromEntries(STATIONS.map((m) => [m, port]));
    await raceRound({
      config,
      portOf,
      random,
      maxDelayMs: MAX_DELAY_MS,
      numbers: [...pulls.keys()],
      labelsOf: (n) => pulls.get(n).labels,
      counts,
      round,
    });
  }
  console.log(`claim race: ${JSON.stringify(counts)}`);
  assertRace(counts, { rounds: ROUNDS, stations: STATIONS.length, queue: QUEUE, wip: config.stations.reviewWip });
});
