// What landing a queue costs in CI (issue 13): the same board of queued pull requests with a Merge-After
// graph, landed on the emulator (real git, the CI simulator, auto-merge) once by the worker (one released
// at a time under `skip-ci`) and once by "update every branch whenever main moves" (every branch runs CI,
// and runs again each time main moves); prints CI runs and CI minutes per landed pull request for both,
// and the ratio. Counts, not timings: the machine's speed changes nothing printed but the wall time.
//   node scripts/bench-queue-ci.mjs [--prs N] [--ci-minutes M]     (default: the five of the queue-land suite, 15-minute CI)
import { parseArgs } from "node:util";
import { FIVE, ciCost, landedOrder, landingRepo, openBoard, runWorker, updateEveryBranch } from "./lib/queue-land.mjs";

const { values } = parseArgs({ options: { prs: { type: "string" }, "ci-minutes": { type: "string", default: "15" } } });
const ciMinutes = Number(values["ci-minutes"]);

/** The suite's five, or a board of N: each waits for the one two before it, so two chains interleave. */
function board(n) {
  if (!n) return FIVE;
  return Array.from({ length: n }, (_, i) => ({ key: `p${i + 1}`, after: i >= 2 ? [`p${i - 1}`] : [] }));
}

async function land(policy) {
  const { gh, stateDir, close } = await landingRepo({ ciMinutes });
  try {
    const numbers = openBoard(
      gh,
      board(Number(values.prs ?? 0)),
      policy === "worker" ? {} : { labels: ["merge-queued"], asPerson: true },
    );
    const all = Object.values(numbers);
    const start = gh.clock.now();
    const t0 = performance.now();
    if (policy === "worker")
      await runWorker(gh, stateDir, {
        until: () => all.every((n) => gh.state.pull(n).state !== "open"),
        maxSteps: 100 * all.length,
      });
    else updateEveryBranch(gh, all);
    const cost = ciCost(gh, all);
    return {
      policy,
      ...cost,
      prs: all.length,
      order: landedOrder(gh),
      hours: (gh.clock.now() - start) / 3_600_000,
      wallSeconds: (performance.now() - t0) / 1000,
      failures: gh.validationFailures.length,
    };
  } finally {
    await close();
  }
}

const fixed = (x, d = 2) => x.toFixed(d);
const worker = await land("worker");
const every = await land("update-every-branch");
console.log(
  `queue CI cost: ${worker.prs} queued pull requests with a Merge-After graph, ${ciMinutes}-minute CI, on the emulator (real git)`,
);
console.log("policy                 landed  CI runs  CI minutes  runs/landed  minutes/landed  hours to land all");
for (const r of [worker, every]) {
  console.log(
    `${r.policy.padEnd(22)} ${String(r.landed).padStart(6)}  ${String(r.runs).padStart(7)}  ${fixed(r.minutes, 0).padStart(10)}  ${fixed(r.perLanded.runs).padStart(11)}  ${fixed(r.perLanded.minutes, 1).padStart(14)}  ${fixed(r.hours).padStart(17)}`,
  );
}
console.log(
  `update-every-branch / worker: ${fixed(every.perLanded.runs / worker.perLanded.runs)}x the CI runs and ${fixed(every.perLanded.minutes / worker.perLanded.minutes)}x the CI minutes per landed pull request`,
);
console.log(
  `landed in the declared order: worker ${worker.order.join(" ")}, update-every-branch ${every.order.join(" ")}`,
);
if (worker.landed !== worker.prs || every.landed !== every.prs || worker.failures || every.failures) {
  console.error(
    `not every pull request landed, or the emulator recorded validation failures: ${JSON.stringify({ worker, every })}`,
  );
  process.exitCode = 1;
}
