// A simulated week of the stations flow on the GitHub emulator, swept every 30 minutes by the real
// follow-up run (lib/followup.js → engine → emulator over HTTP), to measure what the sweep costs and
// to check its promises on a realistic flow rather than on hand-made fixtures:
//   - pings per pull request per level, per stay in a state (must never exceed one),
//   - writes by a sweep that changed nothing (each sweep is repeated at once; the repeat must write 0),
//   - API requests per sweep (min / median / max).
// Dev machines m1–m3 open pull requests in working hours (and stop while the sweep says stop-the-line);
// review stations m4/m5 claim under a WIP limit of 2, sometimes forget a claim; humans approve or bounce;
// the Windows gate sometimes sits offline; approved pull requests are merged.
// Run: node scripts/sim-week.mjs [--seed N] [--days N] [--json]
import { startEmulator, makeClock } from "../emulator/index.js";
import { makeOctokit } from "../lib/github/index.js";
import { sweepRun } from "../lib/followup.js";
import * as prflow from "../js/node.js";
import { rng } from "./lib/rng.mjs";

export const STATES = {
  queue: "state:ready-for-review",
  reviewing: "state:reviewing",
  bounced: "state:changes-requested",
  gate: "state:win-verify",
  ready: "state:ready-to-merge",
};
const DEV = ["m1", "m2", "m3"];
const STATIONS = ["m4", "m5"];
const HUMANS = ["alice", "bob", "carol"];
const WIP = 2;
const TICK_MIN = 5;

export const CONFIG = {
  followup: {
    people: {
      humans: HUMANS,
      onDuty: "alice",
      machineOwners: { m1: "alice", m2: "bob", m3: "carol", m4: "alice", m5: "bob", m6: "carol" },
      gateOwner: "carol",
      reviewers: ["alice", "bob"],
    },
    workingHours: {
      enabled: true,
      zone: "UTC",
      days: ["mon", "tue", "wed", "thu", "fri"],
      start: "09:00",
      end: "18:00",
    },
  },
};

const MARKER = /^<!-- prflow:followup state=(\S+) since=(\S+) level=(\d+) -->/;

export async function simulateWeek({ seed = 7, days = 7, start = "2026-01-05T00:00:00Z", log = () => {} } = {}) {
  const rand = rng(seed);
  const between = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const clock = makeClock(start);
  const gh = await startEmulator({ seed: `week-${seed}`, clock });
  try {
    for (const h of HUMANS) gh.user(h, { association: "MEMBER" });
    for (const name of [
      ...Object.values(STATES),
      "state:dev",
      ...DEV.map((m) => `from:${m}`),
      ...STATIONS.map((m) => `reviewer:${m}`),
      "flow:board",
    ]) {
      gh.createLabel({ name, color: "ededed" });
    }
    const octokit = makeOctokit({ token: gh.appToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
    const readFile = () => JSON.stringify(CONFIG);
    const sweep = () =>
      sweepRun({
        prflow,
        octokit,
        owner: gh.state.owner,
        repo: gh.state.repo,
        configPath: ".github/prflow.json",
        readFile,
        live: true,
      });

    const working = (ms) => {
      const d = new Date(ms);
      const day = d.getUTCDay();
      const h = d.getUTCHours();
      return day >= 1 && day <= 5 && h >= 9 && h < 18;
    };
    const sim = new Map(); // number -> { machine, state, due, forgotten }
    const stateOf = (n) => gh.state.pull(n).labels.find((l) => l.startsWith("state:"));
    const stats = { opened: 0, merged: 0, blockedOpenings: 0, sweeps: [], repeats: [], stopSweeps: 0, releases: 0 };
    let stopTheLine = false;
    let serial = 0;
    const end = Date.parse(start) + days * 86_400_000;

    for (let t = Date.parse(start); t < end; t += TICK_MIN * 60_000) {
      clock.set(t);
      const minute = new Date(t).getUTCMinutes();
      if (working(t)) {
        // Dev machines: a new pull request now and then, unless the sweep said stop the line.
        for (const m of DEV) {
          if (rand() >= 0.06) continue;
          if (stopTheLine) {
            stats.blockedOpenings++;
            continue;
          }
          const pr = gh.createPull({
            title: `Change ${++serial} from ${m}`,
            author: `agent-${m}`,
            head: `${m}/change-${serial}`,
          });
          gh.addLabels(pr.number, [`from:${m}`, STATES.queue], { by: `agent-${m}` });
          sim.set(pr.number, { machine: m, state: STATES.queue, due: null });
          stats.opened++;
        }
        // Follow every open pull request's labels: the sweep may have moved one (a released claim).
        for (const [n, p] of sim) {
          const now = stateOf(n);
          if (now !== p.state) Object.assign(p, { state: now, due: null });
        }
        // Stations pull work under their WIP limit: oldest first, never their own machine's.
        for (const st of STATIONS) {
          if (rand() >= 0.35) continue;
          const held = [...sim.keys()].filter(
            (n) => gh.state.pull(n).labels.includes(`reviewer:${st}`) && stateOf(n) === STATES.reviewing,
          ).length;
          if (held >= WIP) continue;
          const next = [...sim.keys()]
            .sort((a, b) => a - b)
            .find(
              (n) => stateOf(n) === STATES.queue && !gh.state.pull(n).labels.some((l) => l.startsWith("reviewer:")),
            );
          if (next === undefined) continue;
          gh.removeLabels(next, [STATES.queue], { by: `station-${st}` });
          gh.addLabels(next, [STATES.reviewing, `reviewer:${st}`], { by: `station-${st}` });
          Object.assign(sim.get(next), { state: STATES.reviewing, due: null });
        }
        for (const [n, p] of [...sim]) {
          if (p.due === null) {
            const wait = {
              [STATES.reviewing]: () => (rand() < 0.06 ? Infinity : between(15, 150)), // a forgotten claim now and then
              [STATES.bounced]: () => between(20, 240),
              [STATES.gate]: () => (rand() < 0.08 ? between(150, 300) : between(10, 60)), // the Windows box offline
              [STATES.ready]: () => between(5, 90),
            }[p.state];
            p.due = wait ? t + wait() * 60_000 : Infinity;
          }
          if (t < p.due) continue;
          const pr = gh.state.pull(n);
          const claim = pr.labels.find((l) => l.startsWith("reviewer:"));
          const human = HUMANS[between(0, HUMANS.length - 1)];
          if (p.state === STATES.reviewing) {
            if (rand() < 0.3) {
              gh.review(n, { author: human, state: "CHANGES_REQUESTED", body: "Please add a test." });
              gh.removeLabels(n, [STATES.reviewing], { by: claim ? `station-${claim.slice(9)}` : human });
              gh.addLabels(n, [STATES.bounced], { by: human });
            } else {
              gh.review(n, { author: human, state: "APPROVED", body: "" });
              gh.removeLabels(n, [STATES.reviewing], { by: human });
              gh.addLabels(n, [STATES.gate], { by: human });
            }
          } else if (p.state === STATES.bounced) {
            gh.push(n, { by: `agent-${p.machine}` });
            gh.comment(n, { author: `agent-${p.machine}`, body: "/ready" });
            gh.removeLabels(n, [STATES.bounced], { by: `agent-${p.machine}` });
            gh.addLabels(n, [claim ? STATES.reviewing : STATES.queue], { by: `agent-${p.machine}` });
          } else if (p.state === STATES.gate) {
            gh.removeLabels(n, [STATES.gate], { by: "win-runner" });
            gh.addLabels(n, [STATES.ready], { by: "win-runner" });
          } else if (p.state === STATES.ready) {
            gh.closePull(n, { by: human });
            sim.delete(n);
            stats.merged++;
            continue;
          }
          Object.assign(p, { state: stateOf(n), due: null });
        }
      }
      // The example workflow's schedule: :07 and :37, Monday to Friday (UTC).
      const weekday = new Date(t).getUTCDay() >= 1 && new Date(t).getUTCDay() <= 5;
      if (weekday && (minute === 5 || minute === 35)) {
        clock.set(t + 2 * 60_000);
        const before = gh.requests.length;
        const run = await sweep();
        const c = gh.counts({ since: before });
        const applied = (op) =>
          run.plan.ops.filter((o, i) => o.op === op && run.results[i]?.status === "applied").length;
        stats.sweeps.push({
          at: clock.iso(),
          requests: c.total,
          reads: c.reads,
          writes: c.writes,
          ops: run.plan.ops.length,
          open: run.plan.pulls.length,
          comments: applied("upsertComment"),
          labels: applied("editLabels"),
          board: applied("upsertBoard"),
        });
        stats.releases += run.plan.ops.filter((o) => o.op === "editLabels").length;
        stopTheLine = run.plan.stopTheLine;
        if (stopTheLine) stats.stopSweeps++;
        // The same sweep again at once: nothing changed in between, so it must write nothing.
        const again = gh.requests.length;
        const repeat = await sweep();
        const r = gh.counts({ since: again });
        stats.repeats.push({ at: clock.iso(), writes: r.writes, ops: repeat.plan.ops.length });
        clock.set(t);
      }
    }

    // Every follow-up comment the tool wrote, grouped per pull request, level and stay.
    const perStay = new Map(); // "#n state@level since" -> count
    const perLevel = new Map(); // "#n" -> { "state@level": count }
    for (const c of gh.state.comments.values()) {
      const m = MARKER.exec(c.body);
      if (!m || !/github-actions/.test(c.author)) continue;
      const [, state, since, level] = m;
      const stay = `#${c.issueNumber} ${state}@${level} ${since}`;
      perStay.set(stay, (perStay.get(stay) ?? 0) + 1);
      const row = perLevel.get(c.issueNumber) ?? {};
      row[`${state.replace("state:", "")}@${level}`] = (row[`${state.replace("state:", "")}@${level}`] ?? 0) + 1;
      perLevel.set(c.issueNumber, row);
    }
    const boards = [...gh.state.pulls.values()].filter((p) => !p.isPull && p.labels.includes("flow:board"));
    return { stats, perStay, perLevel, boards: boards.length, validationFailures: gh.validationFailures };
  } finally {
    gh.server.closeAllConnections?.();
    await new Promise((resolve) => gh.server.close(resolve));
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
};

/** The week in words and numbers. */
export function report({ stats, perStay, perLevel, boards }) {
  const lines = [];
  const req = stats.sweeps.map((s) => s.requests);
  const maxPerStay = Math.max(0, ...perStay.values());
  lines.push(
    `week: ${stats.opened} pull requests opened, ${stats.merged} merged, ${stats.sweeps.length} sweeps (+${stats.repeats.length} immediate repeats), board issues: ${boards}`,
  );
  lines.push(
    `API requests per sweep: min ${Math.min(...req)}, median ${median(req)}, max ${Math.max(...req)} (reads ${Math.min(...stats.sweeps.map((s) => s.reads))}–${Math.max(...stats.sweeps.map((s) => s.reads))}); total over the week ${req.reduce((a, b) => a + b, 0)}`,
  );
  const sum = (k) => stats.sweeps.reduce((a, s) => a + s[k], 0);
  lines.push(
    `writes by sweeps: ${sum("writes")} in total (comments ${sum("comments")}, claim releases ${sum("labels")}, board ${sum("board")}); sweeps that wrote nothing: ${stats.sweeps.filter((s) => s.writes === 0).length} of ${stats.sweeps.length}`,
  );
  lines.push(`open pull requests at a sweep: max ${Math.max(...stats.sweeps.map((s) => s.open))}`);
  lines.push(
    `writes by repeat sweeps (nothing changed since the previous sweep): ${stats.repeats.reduce((a, s) => a + s.writes, 0)}`,
  );
  lines.push(
    `stop-the-line: on in ${stats.stopSweeps} sweeps; openings held back by it: ${stats.blockedOpenings}; claims released: ${stats.releases}`,
  );
  lines.push(
    `pings per pull request per level (count over the week; a level may fire again only in a new stay), max per stay: ${maxPerStay}`,
  );
  const totals = {};
  for (const [n, row] of [...perLevel].sort((a, b) => a[0] - b[0])) {
    lines.push(
      `  #${n}: ${Object.entries(row)
        .map(([k, v]) => `${k}×${v}`)
        .join(" ")}`,
    );
    for (const [k, v] of Object.entries(row)) totals[k] = (totals[k] ?? 0) + v;
  }
  lines.push(
    `pings per level over the week: ${Object.entries(totals)
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")}`,
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name, d) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
  const result = await simulateWeek({ seed: opt("--seed", 7), days: opt("--days", 7) });
  for (const line of report(result)) console.log(line);
  if (result.validationFailures.length)
    console.log(`emulator validation failures: ${result.validationFailures.length}`);
}
