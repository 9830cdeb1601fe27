// Issue 13: a working day of the queue on the emulator (real git, the CI simulator, auto-merge). Forty
// pull requests arrive over the emulator's clock (a seeded draw): most pass, some fail every run, some
// are flaky (the first run fails; once set aside, their owner re-runs it, green, and ticks Retry),
// some conflict with main. The worker runs its cycles as `prflow queue` does, sleeping on the clock.
// Every one that can land lands; every set-aside pull request has exactly one owner at every step (the
// engine's owner answer is the worker, a fixer or a person, never none, and the worker moves none that
// it does not own); the figures are printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../../js/node.js";
import { ciCost, landingRepo, openPull, runWorker } from "../../scripts/lib/queue-land.mjs";
import { rng } from "../../scripts/lib/rng.mjs";

const CI_MINUTES = 10;
const COUNT = 40;

/** Forty arrivals over six hours, sorted; 4 failing, 4 flaky, 3 conflicting, the rest passing, spread by the draw. */
function day(seed = 13) {
  const r = rng(seed);
  const kinds = [...Array(4).fill("fail"), ...Array(4).fill("flaky"), ...Array(3).fill("conflict")];
  while (kinds.length < COUNT) kinds.push("pass");
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  const minutes = Array.from({ length: COUNT }, () => Math.floor(r() * 360)).sort((a, b) => a - b);
  return minutes.map((minute, i) => ({ minute, key: `d${i + 1}`, kind: kinds[i] }));
}

const OUTCOME = { pass: "pass", fail: "fail", flaky: { failFirst: 1 }, conflict: "pass" };
const SET_ASIDE = "<!-- prflow:set-aside";
// What moves a pull request: the worker may do these only to one it owns.
const MOVES = new Set(["rebase", "rebaseOnto", "push", "removeLabels", "armAutoMerge", "autoFix"]);

test("a working day: 40 pull requests arriving, some failing, flaky or conflicting; every one that can land lands and every set-aside one has one owner at every step", async (t) => {
  // Mergeability known 10 s after a move, and a poll every 5 minutes: a day of forty landings in fewer steps.
  const { gh, stateDir, close } = await landingRepo({ ciMinutes: CI_MINUTES, mergeabilitySeconds: 10 });
  t.after(close);
  const engine = createEngine();
  const start = gh.clock.now();
  const arrivals = day();
  const byNumber = new Map();
  const due = arrivals.map((a) => ({
    at: start + a.minute * 60_000,
    run: () =>
      byNumber.set(openPull(gh, { key: a.key, outcome: OUTCOME[a.kind], conflicting: a.kind === "conflict" }), a),
  }));
  const ticked = new Set();
  const problems = [];
  let ownerChecks = 0;

  // The owner of a flaky one, seeing it set aside `checks-failed`, re-runs its jobs five minutes later
  // and, once that run is green, ticks Retry (a Retry on red checks leaves it failing: it is the run
  // that was flaky, not the queue).
  const tickRetry = (n) => {
    const id = gh.state.pull(n).comments.find((c) => gh.state.comments.get(c).body.startsWith(SET_ASIDE));
    const body = gh.state.comments.get(id).body;
    gh.state.editComment(id, { body: body.replace("- [ ] Retry", "- [x] Retry") }, "agent-1");
  };
  const afterStep = (out, facts) => {
    if (!facts) return;
    // Each queued pull request's owner, as the queue's triage (and `prflow report`) names it.
    const verdicts = Object.fromEntries(
      engine.triage({ facts }).entries.map((e) => [e.number, { owner: e.owner ?? "none", code: e.ownerWhy }]),
    );
    for (const pr of facts.pullRequests) {
      const v = verdicts[pr.number];
      if (pr.comments?.some((c) => c.body.startsWith(SET_ASIDE))) {
        ownerChecks++;
        if (!v || v.owner === "none")
          problems.push(`#${pr.number} set aside at ${facts.now} has no owner: ${JSON.stringify(v)}`);
      }
    }
    for (const op of out.ops) {
      const v = verdicts[op.number];
      if (MOVES.has(op.op) && v && v.owner !== "worker")
        problems.push(`at ${facts.now} the worker's ${op.op} moved #${op.number}, owned by ${v.owner} (${v.code})`);
    }
    for (const [n, a] of byNumber) {
      if (a.kind !== "flaky" || ticked.has(n) || gh.state.pull(n).merged) continue;
      const comments = gh.state.pull(n).comments.map((id) => gh.state.comments.get(id).body);
      if (comments.some((b) => b.startsWith(`${SET_ASIDE} reason=checks-failed`))) {
        ticked.add(n);
        due.push({ at: gh.clock.now() + 5 * 60_000, run: () => gh.ci.rerun({ number: n }) });
        due.push({ at: gh.clock.now() + (6 + CI_MINUTES) * 60_000, run: () => tickRetry(n) });
      }
    }
  };
  const canLand = (a) => a.kind === "pass" || a.kind === "flaky";
  const settled = () =>
    byNumber.size === COUNT &&
    [...byNumber].every(([n, a]) =>
      canLand(a)
        ? gh.state.pull(n).merged
        : gh.state.pull(n).comments.some((id) => gh.state.comments.get(id).body.startsWith(SET_ASIDE)),
    ) &&
    gh.ci.runs.every((r) => r.status === "completed");

  const since = gh.requests.length;
  const { steps, lines } = await runWorker(gh, stateDir, {
    due,
    until: settled,
    afterStep,
    maxSteps: 3000,
    options: { pollInterval: 300 },
  });
  assert.ok(settled(), `the day did not settle in ${steps} steps\n${lines.slice(-80).join("\n")}`);
  assert.deepEqual(problems, []);
  assert.ok(ownerChecks > 0, "set-aside pull requests were seen and their owners asked");

  const landed = [...byNumber].filter(([n]) => gh.state.pull(n).merged);
  const setAside = [...byNumber].filter(([n]) => !gh.state.pull(n).merged);
  assert.deepEqual(
    landed.map(([, a]) => a.key).sort(),
    arrivals
      .filter(canLand)
      .map((a) => a.key)
      .sort(),
    "every one that can land landed",
  );
  assert.deepEqual(
    setAside.map(([, a]) => a.kind).sort(),
    arrivals
      .filter((a) => !canLand(a))
      .map((a) => a.kind)
      .sort(),
  );
  const cost = ciCost(gh, [...byNumber.keys()]);
  // A flaky one that merged on the head its re-run passed on had two runs there; every other landed on one.
  for (const [n, a] of landed)
    assert.ok(
      cost.per[n].landedHeadRuns === 1 || (a.kind === "flaky" && cost.per[n].landedHeadRuns === 2),
      `#${n} (${a.kind}): ${cost.per[n].landedHeadRuns} runs on the head that landed`,
    );

  const hours = (gh.clock.now() - start) / 3_600_000;
  const requests = gh.requests.length - since;
  console.log(
    `a working day: ${COUNT} pull requests over ${hours.toFixed(1)} h of clock, ${steps} worker steps: landed ${landed.length}, set aside ${setAside.length} ` +
      `(${setAside.map(([, a]) => a.kind).join(", ")}), CI runs ${cost.runs} (${cost.perLanded.runs.toFixed(2)} per landed, ${cost.perLanded.minutes.toFixed(1)} min), ` +
      `requests ${requests} (${(requests / hours).toFixed(0)} per hour), owner checks ${ownerChecks}`,
  );
  assert.deepEqual(gh.validationFailures, []);
});
