// The claim race on the emulator, through the real GitHub layer (GraphQL facts, REST label writes and
// reads, each station with its own token): three stations claim at once from a queue of ten, with a
// random delay before every read and write, round after round. No pull request may end with two
// claims, no station may exceed its WIP limit, no station may believe it holds a pull request whose
// label says otherwise, and every pull request is either claimed once or still in the queue.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as engine from "../../js/node.js";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit } from "../../lib/github/index.js";
import { githubPort } from "../../lib/stations/github-port.js";
import { claimNext } from "../../lib/stations/claim.js";

// 200 rounds take about ten minutes on the emulator (every request is validated against GitHub's
// schemas), so the suite runs 30; PRFLOW_RACE_ROUNDS=200 runs the full count. The same race
// with 200 rounds runs in every suite against an in-memory GitHub (stations-race.test.js).
const ROUNDS = Number(process.env.PRFLOW_RACE_ROUNDS ?? 30);
const QUEUE = 10;
const STATIONS = ["m4", "m5", "m7"];
const MAX_DELAY_MS = 8;
const SETTLE_MS = 60;
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

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** The GitHub port with a random delay before every call, so the stations' requests interleave freely. */
function jittered(port, random) {
  const wait = () => new Promise((r) => setTimeout(r, Math.floor(random() * (MAX_DELAY_MS + 1))));
  return Object.fromEntries(Object.entries(port).map(([k, f]) => [k, async (...a) => (await wait(), f(...a))]));
}

test(`claim race on the emulator: ${STATIONS.length} stations, a queue of ${QUEUE}, ${ROUNDS} rounds`, async () => {
  const gh = await startEmulator({ owner: "acme", repo: "widgets", seed: "race" });
  try {
    for (const l of engine.labelCatalog(config).labels) gh.createLabel(l);
    const ports = Object.fromEntries(
      STATIONS.map((m, i) => {
        const token = `ghp_station${m}token${"0".repeat(24 + i)}`.slice(0, 40);
        gh.registerToken(token, `station-${m}`);
        const octokit = makeOctokit({ token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
        return [m, githubPort(octokit, { owner: "acme", repo: "widgets", live: true })];
      }),
    );
    const counts = { rounds: 0, claims: 0, lostRaces: 0, doubleClaims: 0, overWip: 0, phantom: 0, lostFromQueue: 0, leftInQueue: 0 };
    let open = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const n of open) gh.closePull(n);
      open = [];
      for (let i = 0; i < QUEUE; i++) {
        open.push(gh.createPull({ author: i % 2 ? "agent-m1" : "agent-m2", labels: [i % 2 ? "from:m1" : "from:m2", "state:ready-for-review"] }).number);
        gh.clock.advance({ seconds: 1 });
      }
      // Each claim reads the whole board (one GraphQL sweep); an hour per round keeps every station
      // inside GitHub's 5,000 GraphQL points an hour, as stations that poll every few minutes are.
      gh.clock.advance({ hours: 1 });
      const random = rng(round + 1);
      const held = Object.fromEntries(STATIONS.map((m) => [m, []]));
      const results = await Promise.all(
        STATIONS.map(async (m) => {
          const port = jittered(ports[m], random);
          let lost = 0;
          for (;;) {
            const { line, races } = await claimNext({ engine, config, role: "review", machine: m, port, settleMs: SETTLE_MS });
            lost += races.length;
            const hit = /^claim #(\d+)$/.exec(line);
            if (!hit) return { line, lost };
            held[m].push(Number(hit[1]));
          }
        }),
      );
      counts.rounds++;
      for (const r of results) counts.lostRaces += r.lost;
      for (const m of STATIONS) {
        counts.claims += held[m].length;
        if (held[m].length > 2) counts.overWip++;
        for (const n of held[m]) if (!gh.state.pull(n).labels.includes(`reviewer:${m}`)) counts.phantom++;
      }
      for (const n of open) {
        const labels = gh.state.pull(n).labels;
        const claims = labels.filter((l) => l.startsWith("reviewer:"));
        const states = labels.filter((l) => l.startsWith("state:"));
        if (claims.length > 1) counts.doubleClaims++;
        if (claims.length === 1 && states.join() !== "state:reviewing") counts.lostFromQueue++;
        if (claims.length === 0 && states.join() !== "state:ready-for-review") counts.lostFromQueue++;
        if (claims.length === 0) counts.leftInQueue++;
      }
      for (const r of results) assert.equal(r.line, "wip-full 2/2", `round ${round}: every station stops at its WIP limit`);
    }
    const c = gh.counts();
    console.log(`claim race (emulator): ${JSON.stringify(counts)}; requests ${c.total} (graphql ${c.graphql}, rest ${c.rest})`);
    assert.equal(counts.doubleClaims, 0, "no pull request ends with two claims");
    assert.equal(counts.overWip, 0, "no station exceeds its WIP limit");
    assert.equal(counts.phantom, 0, "no station holds a pull request without its label");
    assert.equal(counts.lostFromQueue, 0, "every pull request is claimed once or still queued");
    assert.equal(counts.claims, ROUNDS * STATIONS.length * 2);
    assert.equal(counts.leftInQueue, ROUNDS * (QUEUE - STATIONS.length * 2));
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await gh.close();
  }
});
