// Issue 13: five queued pull requests whose Merge-After graph declares an order the numbers do not give
// land on main in that order, each with exactly one CI run: the worker rebases each under `skip-ci`
// (a skipped run, no minutes) and takes the label off once, after main last moved.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  FIVE,
  FIVE_ORDER,
  ciCost,
  landedOrder,
  landingRepo,
  openBoard,
  runWorker,
} from "../../scripts/lib/queue-land.mjs";

test("five queued pull requests with a Merge-After graph land in the declared order with exactly one CI run each", async (t) => {
  const { gh, stateDir, close } = await landingRepo();
  t.after(close);
  const numbers = openBoard(gh, FIVE);
  const all = Object.values(numbers);
  const declared = FIVE_ORDER.map((k) => numbers[k]);
  assert.notDeepEqual(
    declared,
    [...declared].sort((a, b) => a - b),
    "the graph's order is not the numbers' order",
  );

  const { lines } = await runWorker(gh, stateDir, { until: () => all.every((n) => gh.state.pull(n).merged) });
  assert.ok(
    all.every((n) => gh.state.pull(n).merged),
    `every one landed\n${lines.join("\n")}`,
  );
  assert.deepEqual(landedOrder(gh), declared, "main holds them in the declared order");

  const cost = ciCost(gh, all);
  for (const n of all) {
    assert.equal(cost.per[n].runs, 1, `#${n}: one CI run in all: ${JSON.stringify(gh.ci.usage({ number: n }))}`);
    assert.equal(cost.per[n].landedHeadRuns, 1, `#${n}: that run was on the head that landed`);
  }
  assert.equal(cost.perLanded.runs, 1);
  assert.equal(cost.perLanded.minutes, 15, "one 15-minute run per landed pull request");
  assert.deepEqual(gh.validationFailures, []);
});
