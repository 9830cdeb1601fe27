// The claim race, shared by the in-memory race (stations-race.test.js) and the one on the emulator
// (stations-race-emulator.test.js): stations that claim at once through their GitHub ports, the settle
// time the protocol assumes, and the counts both tests print and pin.
import assert from "node:assert/strict";
import { createEngine } from "../../../js/node.js";
import { claimNext } from "../../../lib/stations/claim.js";

/** A seeded generator, so a failing round can be replayed. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * The settle time, as the protocol assumes it: it outlasts every rival's race window, from the start of
 * its facts read to its claim write landing (on GitHub: seconds against a fraction of one). A fixed
 * wall-clock settle in a test holds that only while the machine is idle enough (on this shared machine an
 * emulator window was once seen at 405 ms, past a 200 ms settle); so the tests' settle ends when every
 * rival whose window opened before this station's write landed has closed it, by writing or by deciding
 * not to claim. The interleavings stay as free as the random delays make them, and no result depends on load.
 */
export class RaceWindows {
  constructor() {
    this.tick = 0;
    this.open = new Map(); // station -> tick its facts read started
    this.openedAt = new Map();
    this.written = new Map(); // station -> tick its last claim write landed
    this.waited = 0; // settles that had to wait for a rival's open window: the contested ones
    this.slowestMs = 0;
  }
  opened(m) {
    this.open.set(m, ++this.tick);
    this.openedAt.set(m, performance.now());
  }
  closed(m, wrote) {
    if (!this.open.has(m)) return;
    this.open.delete(m);
    if (!wrote) return;
    this.written.set(m, ++this.tick);
    this.slowestMs = Math.max(this.slowestMs, performance.now() - this.openedAt.get(m));
  }
  async settle(m) {
    const mine = this.written.get(m);
    const blocking = () => [...this.open].some(([rival, since]) => rival !== m && since < mine);
    if (blocking()) this.waited++;
    while (blocking()) await new Promise((r) => setTimeout(r, 1));
  }
}

/** Station `m`'s port with a random delay of 0..maxDelayMs before every call, its race window tracked. */
function jittered(port, m, random, windows, maxDelayMs) {
  const wait = () => new Promise((r) => setTimeout(r, Math.floor(random() * (maxDelayMs + 1))));
  const timed = {
    readFacts: (...a) => (windows.opened(m), port.readFacts(...a)),
    apply: async (...a) => {
      const out = await port.apply(...a);
      windows.closed(m, true);
      return out;
    },
  };
  return Object.fromEntries(
    Object.entries(port).map(([k, f]) => [k, async (...a) => (await wait(), (timed[k] ?? f)(...a))]),
  );
}

export const emptyCounts = () => ({
  rounds: 0,
  claims: 0,
  lostRaces: 0,
  doubleClaims: 0,
  overWip: 0,
  phantom: 0,
  lostFromQueue: 0,
  leftInQueue: 0,
  contestedSettles: 0,
  slowestWindowMs: 0,
});

/**
 * One round: every station of `portOf` claims review work until it is refused, all at once. Then the
 * queue's labels (`labelsOf(n)` for each of `numbers`) are counted into `counts`.
 */
export async function raceRound({ config, portOf, random, maxDelayMs, numbers, labelsOf, counts, round }) {
  const windows = new RaceWindows();
  const stations = Object.keys(portOf);
  const wip = config.stations?.reviewWip ?? 2;
  const results = await Promise.all(
    stations.map(async (m) => {
      const port = jittered(portOf[m], m, random, windows, maxDelayMs);
      const held = [];
      let lost = 0;
      for (;;) {
        const { line, races } = await claimNext({
          engine: createEngine(config),
          role: "review",
          machine: m,
          port,
          sleep: () => windows.settle(m),
        });
        lost += races.length;
        const hit = /^claim #(\d+)$/.exec(line);
        // An answer without a claim wrote nothing: its window closes without a write.
        if (!hit) return (windows.closed(m, false), { m, line, lost, held });
        held.push(Number(hit[1]));
      }
    }),
  );
  counts.rounds++;
  counts.contestedSettles += windows.waited;
  counts.slowestWindowMs = Math.max(counts.slowestWindowMs, Math.round(windows.slowestMs));
  for (const { m, lost, held } of results) {
    counts.lostRaces += lost;
    counts.claims += held.length;
    if (held.length > wip) counts.overWip++;
    for (const n of held) if (!labelsOf(n).includes(`reviewer:${m}`)) counts.phantom++;
  }
  for (const n of numbers) {
    const labels = labelsOf(n);
    const claims = labels.filter((l) => l.startsWith("reviewer:"));
    const states = labels.filter((l) => l.startsWith("state:"));
    if (claims.length > 1) counts.doubleClaims++;
    if (claims.length === 1 && states.join() !== "state:reviewing") counts.lostFromQueue++;
    if (claims.length === 0 && states.join() !== "state:ready-for-review") counts.lostFromQueue++;
    if (claims.length === 0) counts.leftInQueue++;
  }
  // The queue outlasts the stations' WIP, so every station stops at its limit.
  for (const r of results)
    assert.equal(r.line, `wip-full ${wip}/${wip}`, `round ${round}: ${r.m} stops at its WIP limit`);
}

/** What every race must show after `rounds` rounds of `stations` on a queue of `queue`. */
export function assertRace(counts, { rounds, stations, queue, wip = 2 }) {
  assert.equal(counts.rounds, rounds);
  assert.ok(
    counts.lostRaces > 0 && counts.contestedSettles > 0,
    "the stations did race: some claims were contested and lost",
  );
  assert.equal(counts.doubleClaims, 0, "no pull request ends with two claims");
  assert.equal(counts.overWip, 0, "no station exceeds its WIP limit");
  assert.equal(counts.phantom, 0, "no station holds a pull request without its label");
  assert.equal(counts.lostFromQueue, 0, "every pull request is either claimed once (reviewing) or still in the queue");
  assert.equal(counts.claims, rounds * stations * wip, "each station claimed exactly its WIP each round");
  assert.equal(counts.leftInQueue, rounds * (queue - stations * wip), "the rest stays in the queue");
}
