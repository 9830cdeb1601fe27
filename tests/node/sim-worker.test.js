// Issue 19: the queue simulation checked against the worker. One small board of arrivals (minutes
// from the start of the day, one broken pull request) is given to `prflow sim queue` (serial: one
// released at a time, the `skip-ci` token) and replayed on the emulator, each pull request opened at
// its minute and the worker landing them with real git and the CI simulator: CI runs and CI minutes
// per landed pull request, and how many land and how many are set aside, come out the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ciCost, landingRepo, openPull, runWorker } from "../../scripts/lib/queue-land.mjs";
import { runCli } from "./lib/cli.js";

const CI_MINUTES = 15;
// Two at once, one while the first runs, the broken one while the queue is busy, two after it is idle.
const ARRIVALS = [
  { minute: 0, broken: false },
  { minute: 2, broken: false },
  { minute: 20, broken: false },
  { minute: 25, broken: true },
  { minute: 110, broken: false },
  { minute: 150, broken: false },
];

const setAside = (gh, n) =>
  gh.state.pull(n).comments.some((id) => gh.state.comments.get(id).body.startsWith("<!-- prflow:set-aside"));

test("the queue simulation and the worker on the emulator give the same CI runs and minutes per landed pull request for the same arrivals", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "prflow-sim-worker-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const params = {
    seed: 1,
    seeds: 1,
    days: 1,
    dayHours: 8,
    ciMinutes: CI_MINUTES,
    flakeRate: 0,
    policies: ["serial"],
    sweepCiMinutes: [],
    sweepFailureRate: [],
    sweepFlakeRate: [],
    arrivals: ARRIVALS,
  };
  writeFileSync(join(dir, "board.json"), JSON.stringify(params));
  const sim = await runCli(["sim", "queue", "--params", join(dir, "board.json"), "--format", "json"]);
  assert.equal(sim.code, 0, sim.stderr);
  const [serial] = JSON.parse(sim.stdout).policies;
  assert.equal(serial.policy, "serial");

  const { gh, stateDir, close } = await landingRepo({ ciMinutes: CI_MINUTES });
  t.after(close);
  const start = gh.clock.now();
  const numbers = [];
  const due = ARRIVALS.map((a, i) => ({
    at: start + a.minute * 60_000,
    run: () => numbers.push(openPull(gh, { key: `p${i}`, outcome: a.broken ? "fail" : "pass" })),
  }));
  const done = () =>
    numbers.length === ARRIVALS.length &&
    numbers.every(
      (n) => gh.state.pull(n).merged || (setAside(gh, n) && gh.ci.runs.every((r) => r.status === "completed")),
    );
  const { lines } = await runWorker(gh, stateDir, { due, until: done, maxSteps: 600 });
  assert.ok(done(), lines.join("\n"));

  const worker = ciCost(gh, numbers);
  const setAsideCount = numbers.filter((n) => !gh.state.pull(n).merged && setAside(gh, n)).length;
  const perDay = (x) => x / params.days;
  assert.deepEqual(
    {
      landed: perDay(worker.landed),
      setAside: perDay(setAsideCount),
      runsPerLanding: Math.round(worker.perLanded.runs * 100) / 100,
      minutesPerLanding: Math.round(worker.perLanded.minutes * 10) / 10,
    },
    {
      landed: serial.landingsPerDay,
      setAside: serial.setAsidePerDay,
      runsPerLanding: serial.runsPerLanding,
      minutesPerLanding: serial.minutesPerLanding,
    },
    `worker ${JSON.stringify(worker)}\nsim ${JSON.stringify(serial)}`,
  );
  assert.equal(
    serial.runsPerLanding,
    1.2,
    "six runs for five landings: the broken one's run is the only one not landed",
  );
  assert.deepEqual(gh.validationFailures, []);
});
