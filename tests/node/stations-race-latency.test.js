// The claim race with the real settle (the config's 3 s) under latency and a secondary rate limit's
// retry-after, on a virtual clock so 200 rounds take no wall time (issue 15, item 4). A write held back
// by retry-after can land after a rival has read back and kept the pull request; before the rule that a
// claimer whose own window reached the settle withdraws, that left two claimers. No oracle waits for
// rivals here: each station sleeps exactly the settle the engine names.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createEngine } from "../../js/node.js";
import { claimNext } from "../../lib/stations/claim.js";
import { rng } from "./lib/race.js";

const ROUNDS = 200;
const QUEUE = 2;
const STATIONS = ["m4", "m5", "m7"];
const config = {
  flow: "stations",
  stations: {
    machines: { m1: { role: "dev" }, m4: { role: "review" }, m5: { role: "review" }, m7: { role: "review" } },
    reviewWip: 1,
  },
};
const engine = createEngine(config);
const LABELS = [
  "state:dev",
  "state:ready-for-review",
  "state:reviewing",
  "state:changes-requested",
  "state:win-verify",
  "state:ready-to-merge",
  "from:m1",
  ...STATIONS.map((m) => `reviewer:${m}`),
];

/** Time that passes only when every task waits on it: timers fire in order, each after the microtasks settle. */
class VirtualClock {
  now = 0;
  timers = [];
  seq = 0;
  sleep = (ms) =>
    new Promise((resolve) => this.timers.push({ at: this.now + Math.max(0, ms), seq: this.seq++, resolve }));
  async run(promise) {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (done) return promise;
      assert.ok(this.timers.length, "every task waits on nothing: a deadlock");
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const t = this.timers.shift();
      this.now = t.at;
      t.resolve();
    }
  }
}

/**
 * A repository with GitHub's label semantics: a request travels 20..400 ms to the server, takes
 * effect there at once, and 20..400 ms back; a write is refused with a secondary rate limit one time
 * in four, and the client (as prflow's, honouring retry-after) waits 1..5 s and sends it again.
 */
function repo(clock, random) {
  const pulls = new Map();
  for (let n = 1; n <= QUEUE; n++) {
    pulls.set(n, {
      number: n,
      author: "bot-m1",
      createdAt: new Date(Date.UTC(2026, 0, 1, 9, n)).toISOString(),
      headSha: `sha${n}`,
      labels: ["from:m1", "state:ready-for-review"],
    });
  }
  const trip = () => clock.sleep(20 + Math.floor(random() * 381));
  const snapshot = () => ({
    now: "2026-01-01T12:00:00Z",
    labels: LABELS,
    pullRequests: [...pulls.values()].map((p) => ({ ...p, labels: [...p.labels] })),
  });
  let retryAfters = 0;
  const port = {
    readFacts: async () => {
      await trip();
      const facts = snapshot();
      await trip();
      return facts;
    },
    readLabels: async (n) => {
      await trip();
      const labels = [...pulls.get(n).labels];
      await trip();
      return labels;
    },
    apply: async (ops) => {
      for (const op of ops) {
        await trip();
        while (random() < 0.25) {
          retryAfters++;
          await trip(); // the 403 comes back
          await clock.sleep(1000 * (1 + Math.floor(random() * 5)));
          await trip();
        }
        const p = pulls.get(op.number);
        for (const { label } of op.add) if (!p.labels.includes(label)) p.labels.push(label);
        for (const { label } of op.remove) p.labels = p.labels.filter((l) => l !== label);
        await trip();
      }
    },
  };
  return { pulls, port, retryAfters: () => retryAfters };
}

/** 200 rounds of three stations claiming at once (each starts within 0..1 s); the counts of what they held. */
async function race({ timed }) {
  const counts = { rounds: 0, held: 0, doubleClaims: 0, strayLabels: 0, slowWithdrawals: 0, retryAfters: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const clock = new VirtualClock();
    const random = rng(round + 1);
    const { pulls, port, retryAfters } = repo(clock, random);
    const results = await clock.run(
      Promise.all(
        STATIONS.map(async (m) => {
          await clock.sleep(Math.floor(random() * 1000));
          const out = await claimNext({
            engine: timed ? engine : untimed,
            role: "review",
            machine: m,
            port,
            sleep: clock.sleep,
            now: () => clock.now,
          });
          return { m, ...out };
        }),
      ),
    );
    counts.rounds++;
    counts.retryAfters += retryAfters();
    for (const r of results) counts.slowWithdrawals += r.races.filter((l) => /slow claim/.test(l)).length;
    for (const [n, p] of pulls) {
      const holders = results.filter((r) => r.line === `claim #${n}`).map((r) => r.m);
      counts.held += holders.length ? 1 : 0;
      if (holders.length > 1) counts.doubleClaims++;
      const labelled = p.labels.filter((l) => l.startsWith("reviewer:")).map((l) => l.slice("reviewer:".length));
      if (labelled.join() !== holders.join()) counts.strayLabels++;
    }
  }
  return counts;
}

// The engine as it was: the window is not told, so only the smallest label decides.
const untimed = { ...engine, resolveClaimRace: ({ tookMs, ...request }) => engine.resolveClaimRace(request) };

test(`claim race at the real settle with latency and retry-after: ${ROUNDS} rounds, no double claim`, async (t) => {
  const counts = await race({ timed: true });
  t.diagnostic(`claim race with retry-after: ${JSON.stringify(counts)}`);
  assert.equal(counts.doubleClaims, 0, "one claimer per pull request");
  assert.equal(counts.strayLabels, 0, "the claim labels name exactly who holds each pull request");
  assert.ok(counts.retryAfters > ROUNDS, "retry-after was honoured often");
  assert.ok(counts.slowWithdrawals > 0, "slow claims withdrew");
  assert.ok(counts.held >= ROUNDS, `most pull requests were claimed: ${counts.held} of ${ROUNDS * QUEUE}`);
});

test("without the withdrawal of slow claims the same rounds double-claim (what the rule prevents)", async (t) => {
  const counts = await race({ timed: false });
  t.diagnostic(`untimed: ${JSON.stringify(counts)}`);
  assert.ok(counts.doubleClaims > 0, "retry-after past the settle leaves two claimers");
});
