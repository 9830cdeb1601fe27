// The queue past serial, side by side in one run: the worker's serial (a chain of one), its chains of a
// fixed size and its adaptive chains, on the goal workload (8 pull requests every 15 minutes around the
// clock, CI uniform in 15-25 minutes, 5% of runs flaky) at 5% and at 20% broken, each policy asking the
// engine's queue decisions (the simulation's worker policies). Prints the figures and each goal met or
// not; exits 1 when a goal is missed, so a change that loses one shows.
//   node scripts/bench-queue-batch.mjs [--seed N] [--seeds N] [--days N] [--batch N] [--speculate K] [--json]
import { parseArgs } from "node:util";
import * as prflow from "../js/node.js";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "1" },
    seeds: { type: "string", default: "3" },
    days: { type: "string", default: "7" },
    batch: { type: "string", default: "8" },
    speculate: { type: "string", default: "1" },
    json: { type: "boolean", default: false },
  },
});
const engine = prflow.createEngine();
const POLICIES = ["chainSerial", "chainBatch", "chainAdaptive"];
const workload = (failureRate) => ({
  seed: Number(values.seed),
  seeds: Number(values.seeds),
  days: Number(values.days),
  dayHours: 24,
  burst: { size: 8, everyMinutes: 15 },
  ciRange: { min: 15, max: 25 },
  failureRate,
  flakeRate: 0.05,
  batchSize: Number(values.batch),
  speculate: Number(values.speculate),
  policies: POLICIES,
  sweepCiMinutes: [],
  sweepFailureRate: [],
  sweepFlakeRate: [],
});

const runs = [0.05, 0.2].map((failureRate) => {
  const report = engine.simQueue(workload(failureRate));
  return { failureRate, policies: Object.fromEntries(report.policies.map((o) => [o.policy, o])) };
});

const [five, twenty] = runs;
const serial = five.policies.chainSerial;
const goals = [];
for (const policy of ["chainBatch", "chainAdaptive"]) {
  const o = five.policies[policy];
  goals.push({
    policy,
    goal: "landed/day >= 160 and >= 2.5x serial",
    met: o.landedPerDay >= 160 && o.landedPerDay >= 2.5 * serial.landedPerDay,
    value: `${o.landedPerDay} (${(o.landedPerDay / serial.landedPerDay).toFixed(2)}x serial)`,
  });
  goals.push({ policy, goal: "CI runs per landed <= 0.45", met: o.ciRunsPerLanded <= 0.45, value: o.ciRunsPerLanded });
  goals.push({
    policy,
    goal: "false ejections per 100 landed <= 0.2",
    met: o.falseEjectionsPer100 <= 0.2,
    value: o.falseEjectionsPer100,
  });
  const t = twenty.policies[policy];
  goals.push({
    policy,
    goal: "at 20% broken, landed/day >= serial's",
    met: t.landedPerDay >= twenty.policies.chainSerial.landedPerDay,
    value: `${t.landedPerDay} vs ${twenty.policies.chainSerial.landedPerDay}`,
  });
}

if (values.json) {
  console.log(JSON.stringify({ params: workload(0.05), runs, goals }, null, 2));
} else {
  const name = {
    chainSerial: "serial (chain of one)",
    chainBatch: `chains of ${values.batch}`,
    chainAdaptive: `adaptive, up to ${values.batch}`,
  };
  console.log(
    `queue batches: 8 pull requests every 15 min, CI 15-25 min, 5% of runs flaky; ${values.seeds} seeds x ${values.days} days of 24 h, seed ${values.seed}, speculate ${values.speculate}`,
  );
  console.log(
    `${"broken".padEnd(8)}${"policy".padEnd(24)}${["landed/day", "runs/landed", "false/100", "p50 wait", "p95 wait"].map((h) => h.padStart(12)).join("")}`,
  );
  for (const r of runs) {
    for (const p of POLICIES) {
      const o = r.policies[p];
      const cells = [
        o.landedPerDay.toFixed(2),
        o.ciRunsPerLanded.toFixed(2),
        o.falseEjectionsPer100.toFixed(2),
        o.p50WaitMinutes.toFixed(0),
        o.p95WaitMinutes.toFixed(0),
      ];
      console.log(
        `${`${r.failureRate * 100}%`.padEnd(8)}${name[p].padEnd(24)}${cells.map((c) => c.padStart(12)).join("")}`,
      );
    }
  }
  console.log(
    "(runs/landed counts every run the queue causes, re-runs included; false/100: good pull requests set aside per 100 landed; waits in minutes from queued to landed)",
  );
  for (const g of goals) console.log(`${g.met ? "met    " : "MISSED "} ${name[g.policy]}: ${g.goal}: ${g.value}`);
}
if (goals.some((g) => !g.met)) process.exitCode = 1;
