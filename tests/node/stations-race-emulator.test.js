// The claim race on the emulator, through the real GitHub layer (GraphQL facts, REST label writes and
// reads, each station with its own token): three stations claim at once from a queue of ten, with a
// random delay before every read and write, round after round. The race and what it must show (no
// double claim, no station over its WIP limit, nothing lost from the queue): tests/node/lib/race.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../../js/node.js";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit } from "../../lib/github/index.js";
import { githubPort } from "../../lib/stations/github-port.js";
import { assertRace, emptyCounts, raceRound, rng } from "./lib/race.js";

// The 200 rounds, run as independent lanes: each lane is its own emulator (its own repository,
// clock and three stations) and runs its rounds one after another; the lanes run side by side, so their
// waits (the random delays, the timer hops of Octokit's retry and throttling limiters) overlap.
const ROUNDS = Number(process.env.PRFLOW_RACE_ROUNDS ?? 200);
const LANES = 3;
const QUEUE = 10;
const STATIONS = ["m4", "m5", "m7"];
const MAX_DELAY_MS = 40;
const config = {
  flow: "stations",
  stations: {
    machines: {
      m1: { role: "dev", logins: ["agent-m1"] },
      m2: { role: "dev", logins: ["agent-m2"] },
      m4: { role: "review", logins: ["station-m4"] },
      m5: { role: "review", logins: ["station-m5"] },
      m7: { role: "any", logins: ["station-m7"] },
    },
  },
};

test(`claim race on the emulator: ${STATIONS.length} stations, a queue of ${QUEUE}, ${ROUNDS} rounds in ${LANES} lanes`, async () => {
  const counts = emptyCounts();
  const requests = { total: 0, graphql: 0, rest: 0 };
  const validationFailures = [];
  const lanes = Array.from({ length: LANES }, (_, lane) =>
    Array.from({ length: ROUNDS }, (_, r) => r).filter((r) => r % LANES === lane),
  );
  await Promise.all(lanes.map((rounds) => raceLane(rounds, counts, requests, validationFailures)));
  console.log(
    `claim race (emulator): ${JSON.stringify(counts)}; requests ${requests.total} (graphql ${requests.graphql}, rest ${requests.rest})`,
  );
  assertRace(counts, { rounds: ROUNDS, stations: STATIONS.length, queue: QUEUE });
  assert.deepEqual(validationFailures, []);
});

/** One lane: its own emulator and three stations, racing the given rounds one after another. */
async function raceLane(roundNumbers, counts, requests, validationFailures) {
  const gh = await startEmulator({ owner: "acme", repo: "widgets", seed: "race" });
  try {
    for (const l of createEngine(config).labelCatalog().labels) gh.createLabel(l);
    const portOf = Object.fromEntries(
      STATIONS.map((m, i) => {
        const token = `ghp_station${m}token${"0".repeat(24 + i)}`.slice(0, 40);
        gh.registerToken(token, `station-${m}`);
        const octokit = makeOctokit({ token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
        return [m, githubPort(octokit, { owner: "acme", repo: "widgets", live: true })];
      }),
    );
    let open = [];
    for (const round of roundNumbers) {
      for (const n of open) gh.closePull(n);
      open = [];
      for (let i = 0; i < QUEUE; i++) {
        open.push(
          gh.createPull({
            author: i % 2 ? "agent-m1" : "agent-m2",
            labels: [i % 2 ? "from:m1" : "from:m2", "state:ready-for-review"],
          }).number,
        );
        gh.clock.advance({ seconds: 1 });
      }
      // Each claim reads the whole board (one GraphQL sweep); an hour per round keeps every station
      // inside GitHub's 5,000 GraphQL points an hour, as stations that poll every few minutes are.
      gh.clock.advance({ hours: 1 });
      await raceRound({
        config,
        portOf,
        random: rng(round + 1),
        maxDelayMs: MAX_DELAY_MS,
        numbers: open,
        labelsOf: (n) => gh.state.pull(n).labels,
        counts,
        round,
      });
    }
    const c = gh.counts();
    requests.total += c.total;
    requests.graphql += c.graphql;
    requests.rest += c.rest;
    validationFailures.push(...gh.validationFailures);
  } finally {
    await gh.close();
  }
}
