// Transient is not a failure: the fault matrix. Each fault GitHub or the network can throw (a dropped
// connection, four 502s in a row, a 429, a secondary limit, a reply lost after the write was applied)
// at each step of a landing (the push, arming auto-merge, taking `skip-ci` off, writing a comment),
// on the emulator with real git and the CI simulator: every pull request that can land lands, none
// is set aside for a person, none runs CI twice, and never are two released at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeOctokit } from "../../lib/github/index.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue } from "../../lib/queue/worker.js";
import { createEngine } from "../../js/node.js";
import { landingRepo, openBoard, WORKER_OPTIONS } from "../../scripts/lib/queue-land.mjs";

const engine = createEngine();

const FAULTS = {
  "dropped connection": { kind: "drop" },
  "502 x4": { kind: "5xx", times: 4 },
  429: { kind: "429", retryAfter: 2 },
  "secondary limit": { kind: "secondary-rate-limit", retryAfter: 2 },
  "lost reply": { kind: "lost-reply" },
};
const STEPS = {
  push: { git: "receive-pack" },
  arm: { graphql: "enablePullRequestAutoMerge" },
  "skip-ci removal": { method: "DELETE", path: "/labels/skip-ci" },
};

/** The worker on the emulator without the lease (its own suite), sleeping on the emulator's clock. */
async function land(gh, stateDir, numbers, { lines, maxSteps = 250 } = {}) {
  const octokit = makeOctokit({
    token: gh.personalToken,
    baseUrl: gh.url,
    graphqlUrl: gh.graphqlUrl,
    timeScale: 0.001,
    log: (l) => lines.push(`octokit: ${l}`),
  });
  const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(stateDir, "w") });
  let steps = 0;
  const done = () => numbers.every((n) => gh.state.pull(n).state !== "open");
  await runQueue({
    gh: { octokit, owner: gh.owner, repo: gh.repo },
    g,
    engine,
    options: WORKER_OPTIONS,
    lease: null,
    sleep: async (ms) => gh.clock.advance(ms),
    log: (l) => lines.push(l),
    stopWhen: () => done() || ++steps >= maxSteps,
  });
}

/** Watches GitHub's state after every event it records: the most pull requests released at one moment. */
function releasedWatch(gh, numbers) {
  let most = 0;
  const push = gh.events.push.bind(gh.events);
  gh.events.push = (...e) => {
    const n = numbers.filter((x) => {
      const pr = gh.state.pull(x);
      return pr.state === "open" && pr.labels.includes("merge-queued") && !pr.labels.includes("skip-ci");
    }).length;
    most = Math.max(most, n);
    return push(...e);
  };
  return () => most;
}

for (const [step, match] of Object.entries(STEPS)) {
  for (const [name, fault] of Object.entries(FAULTS)) {
    // git over HTTP has no secondary limit (a 403 there is a refusal); its 429 is in the matrix.
    if (step === "push" && fault.kind === "secondary-rate-limit") continue;
    test(`${name} at the ${step}: both land, one CI run each, none set aside, never two released`, async (t) => {
      const { gh, stateDir, close } = await landingRepo({ seed: `faults-${step}-${name}` });
      t.after(close);
      const numbers = Object.values(openBoard(gh, [{ key: "a" }, { key: "b" }]));
      const most = releasedWatch(gh, numbers);
      const f = gh.inject({ ...fault, match });
      const lines = [];
      await land(gh, stateDir, numbers, { lines });
      const log = lines.join("\n");
      assert.ok(f.hits >= 1, `the fault was met (${f.hits} hits)\n${log}`);
      for (const n of numbers) {
        const pr = gh.state.pull(n);
        assert.ok(pr.merged, `#${n} landed\n${log}`);
        assert.deepEqual(pr.comments, [], `#${n}: no comment, so no set-aside\n${log}`);
        assert.equal(gh.ci.usage({ number: n }).total.runs, 1, `#${n}: released once, one CI run\n${log}`);
      }
      assert.equal(most(), 1, `never two released at once\n${log}`);
      assert.doesNotMatch(log, /set aside/, "nothing was set aside");
      assert.deepEqual(gh.validationFailures, []);
    });
  }
}

for (const [name, fault] of Object.entries(FAULTS)) {
  test(`${name} at the comment write: the set-aside comment is written once, in the end, and the other lands`, async (t) => {
    const { gh, stateDir, close } = await landingRepo({ seed: `faults-comment-${name}` });
    t.after(close);
    // `a` conflicts with main (a true cause, not a transient one): set aside, its comment written.
    const numbers = openBoard(gh, [{ key: "a", conflicting: true }, { key: "b" }]);
    const f = gh.inject({ ...fault, match: { method: "POST", path: /\/issues\/\d+\/comments$/ } });
    const lines = [];
    const octokit = makeOctokit({
      token: gh.personalToken,
      baseUrl: gh.url,
      graphqlUrl: gh.graphqlUrl,
      timeScale: 0.001,
    });
    const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(stateDir, "w") });
    let steps = 0;
    const comments = () => gh.state.pull(numbers.a).comments.map((id) => gh.state.comments.get(id).body);
    await runQueue({
      gh: { octokit, owner: gh.owner, repo: gh.repo },
      g,
      engine,
      options: WORKER_OPTIONS,
      lease: null,
      sleep: async (ms) => gh.clock.advance(ms),
      log: (l) => lines.push(l),
      stopWhen: () => (gh.state.pull(numbers.b).merged && comments().length >= 1 && steps > 2) || ++steps >= 250,
    });
    const log = lines.join("\n");
    assert.ok(f.hits >= 1, `the fault was met\n${log}`);
    assert.ok(gh.state.pull(numbers.b).merged, `#${numbers.b} landed\n${log}`);
    assert.equal(gh.ci.usage({ number: numbers.b }).total.runs, 1);
    const written = comments();
    assert.equal(
      written.length,
      1,
      `one set-aside comment on #${numbers.a}, not two: ${JSON.stringify(written)}\n${log}`,
    );
    assert.match(written[0], /reason=rebase-failed/);
    assert.deepEqual(gh.validationFailures, []);
  });
}

/** The worker with its lease, as it runs resident; resolves when every pull request left, or throws what ended it. */
async function resident(gh, stateDir, numbers, lines) {
  const octokit = makeOctokit({
    token: gh.personalToken,
    baseUrl: gh.url,
    graphqlUrl: gh.graphqlUrl,
    timeScale: 0.001,
    log: (l) => lines.push(`octokit: ${l}`),
  });
  const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(stateDir, "w") });
  let steps = 0;
  await runQueue({
    gh: { octokit, owner: gh.owner, repo: gh.repo },
    g,
    engine,
    options: WORKER_OPTIONS,
    sleep: async (ms) => gh.clock.advance(ms),
    log: (l) => lines.push(l),
    stopWhen: () => numbers.every((n) => gh.state.pull(n).merged) || ++steps >= 250,
  });
}

test("an hour's outage (every API and git request 502): the resident worker waits it out, says until when, and lands what is queued", async (t) => {
  const { gh, stateDir, close } = await landingRepo({ seed: "faults-outage" });
  t.after(close);
  const numbers = Object.values(openBoard(gh, [{ key: "a" }, { key: "b" }]));
  const from = gh.clock.now();
  const outage = gh.outage({ minutes: 60 });
  const lines = [];
  await resident(gh, stateDir, numbers, lines);
  const log = lines.join("\n");
  assert.ok(outage.hits >= 3, `the outage was met (${outage.hits})`);
  for (const n of numbers) {
    assert.ok(gh.state.pull(n).merged, `#${n} landed\n${log}`);
    assert.deepEqual(gh.state.pull(n).comments, []);
    assert.equal(gh.ci.usage({ number: n }).total.runs, 1);
  }
  const waits = lines.filter((l) =>
    /^GitHub failed \(.*\): waiting \d+ s for GitHub to answer again, until 2026-12-01T\d\d:\d\d:\d\dZ; then reading again/.test(
      l,
    ),
  );
  assert.ok(waits.length >= 2, `each wait said until when\n${log}`);
  assert.ok(gh.clock.now() - from >= 60 * 60_000, "it waited the hour out, on the emulator's clock");
  assert.deepEqual(gh.validationFailures, []);
});

test("the hourly rate limit spent: the resident worker waits for the reset, says so, and lands what is queued", async (t) => {
  const { gh, stateDir, close } = await landingRepo({ seed: "faults-limit" });
  t.after(close);
  const numbers = Object.values(openBoard(gh, [{ key: "a" }]));
  const from = gh.clock.now();
  gh.spendRateLimit(gh.personalToken, { resetIn: 45 * 60_000 });
  const lines = [];
  await resident(gh, stateDir, numbers, lines);
  const log = lines.join("\n");
  assert.ok(gh.state.pull(numbers[0]).merged, `landed\n${log}`);
  assert.deepEqual(gh.state.pull(numbers[0]).comments, []);
  assert.ok(
    lines.some((l) => /^GitHub failed \(.*rate limit.*\): waiting \d+ s for the rate limit to reset, until /i.test(l)),
    `it said it waits for the reset\n${log}`,
  );
  assert.ok(gh.clock.now() - from >= 45 * 60_000, "it waited for the reset");
  assert.deepEqual(gh.validationFailures, []);
});
