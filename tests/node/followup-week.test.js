// A simulated week of the stations flow on the emulator, swept every 30 minutes (scripts/sim-week.mjs):
// prints pings per pull request per level, writes by sweeps that changed nothing, and API requests per
// sweep, and asserts the sweep's promises on that week.
import { test } from "node:test";
import assert from "node:assert/strict";
import { report, simulateWeek } from "../../scripts/sim-week.mjs";

test("a simulated week: each level fires at most once per stay, a sweep that changed nothing writes nothing", async (t) => {
  const result = await simulateWeek({ seed: 7, days: 7 });
  for (const line of report(result)) {
    t.diagnostic(line);
    console.log(line);
  }
  const { stats, perStay, boards, validationFailures } = result;
  assert.ok(
    stats.opened > 0 && stats.sweeps.length === 5 * 48,
    "a week of pull requests, swept every 30 minutes on weekdays",
  );
  assert.ok(perStay.size > 0, "the week made the sweep ping someone");
  for (const [stay, count] of perStay) assert.equal(count, 1, `${stay}: one comment per level per stay`);
  assert.equal(
    stats.repeats.reduce((a, s) => a + s.writes, 0),
    0,
    "a sweep repeated with nothing changed writes nothing",
  );
  assert.equal(
    stats.repeats.reduce((a, s) => a + s.ops, 0),
    0,
    "and plans nothing",
  );
  assert.equal(boards, 1, "one board issue, found by its label every sweep after the first");
  assert.deepEqual(validationFailures, [], "every request matched GitHub's schemas");
});
