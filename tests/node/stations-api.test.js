// The stations decisions of the JS API (claim, resolveClaimRace, gateClassify, gateReport): answers as
// plain objects, bad input as a thrown Error that names what was wrong, a bad config as the answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../../js/node.js";

const config = { flow: "stations", stations: { machines: { m1: { role: "dev" }, m4: { role: "review" } } } };
const pr = (number, extra = {}) => ({
  number,
  author: "agent-m1",
  createdAt: `2026-01-01T10:0${number}:00Z`,
  headSha: `sha${number}`,
  labels: ["from:m1"],
  files: ["src/a.rs"],
  ...extra,
});
const engine = createEngine(config);
const facts = (pulls) => ({
  now: "2026-01-01T12:00:00Z",
  labels: ["state:reviewing", "reviewer:m4", "state:ready-for-review", "state:win-verify", "state:ready-to-merge"],
  pullRequests: pulls,
});

const answers = [
  {
    rule: "claim review answers one line and the claiming edit",
    call: () => engine.claim({ facts: facts([pr(1), pr(2)]), role: "review", machine: "m4" }),
    expect: { line: "claim #1", role: "review", number: 1, settleSeconds: 3 },
  },
  {
    rule: "claim dev answers new-work",
    call: () => engine.claim({ facts: facts([]), role: "dev", machine: "m1" }),
    expect: { line: "new-work", role: "dev", number: null },
  },
  {
    rule: "claim accepts facts as JSON text",
    call: () =>
      createEngine(JSON.stringify(config)).claim({
        facts: JSON.stringify(facts([pr(1)])),
        role: "review",
        machine: "m4",
      }),
    expect: { line: "claim #1" },
  },
  {
    rule: "resolveClaimRace: the smallest keeps it",
    call: () => engine.resolveClaimRace({ labels: ["reviewer:m5", "reviewer:m4"], machine: "m5", number: 7 }),
    expect: { won: false, winner: "reviewer:m4", line: "lost #7 to reviewer:m4" },
  },
  {
    rule: "gateClassify: not approved is not due",
    call: () => engine.gateClassify({ facts: facts([pr(1)]), number: 1 }),
    expect: { run: false, need: false, sha: "sha1" },
  },
  {
    rule: "gateReport: head moved writes on the tested commit",
    call: () => engine.gateReport({ facts: facts([pr(1)]), number: 1, testedSha: "old", result: "failure" }),
    expect: { run: true, sha: "old" },
  },
];
for (const c of answers) {
  test(`stations api: ${c.rule}`, () => {
    const got = c.call();
    for (const [k, v] of Object.entries(c.expect)) assert.deepEqual(got[k], v, `${k} in ${JSON.stringify(got)}`);
  });
}

test("stations api: the claim edit only adds (a rival's label is never erased)", () => {
  const r = engine.claim({
    facts: facts([pr(1, { labels: ["from:m1", "state:ready-for-review"] })]),
    role: "review",
    machine: "m4",
  });
  assert.deepEqual(
    r.ops.map((o) => [o.op, o.add.map((c) => c.label), o.remove]),
    [["editLabels", ["reviewer:m4", "state:reviewing"], []]],
  );
});

test("stations api: the claim names the head it read, and the AI's BLOCKING answer becomes a COMMENT review and /changes on that head", () => {
  const claimed = engine.claim({
    facts: facts([pr(1, { labels: ["from:m1", "state:ready-for-review"] })]),
    role: "review",
    machine: "m4",
  });
  assert.equal(claimed.head, "sha1");
  const bounce = engine.stationReview({ number: 1, head: claimed.head, output: "BLOCKING: no test\nadd one" });
  assert.equal(bounce.blocking, true);
  assert.deepEqual(
    bounce.ops.map((o) => [o.op, o.body, o.guard]),
    [
      ["postReview", "BLOCKING: no test\nadd one", { head: "sha1" }],
      ["comment", "/changes", { head: "sha1" }],
    ],
  );
  assert.ok(
    bounce.ops.every((o) => !("event" in o)),
    "no op can name a review event: the writer's is COMMENT",
  );
  const pass = engine.stationReview({ number: 1, head: "sha1", output: "Looks fine.\nBLOCKING is not the first line" });
  assert.deepEqual([pass.blocking, pass.ops.map((o) => o.op)], [false, ["postReview"]]);
});

const errors = [
  {
    rule: "an unknown role names the role",
    call: () => engine.claim({ facts: facts([]), role: "boss", machine: "m4" }),
    message: /role: expected review, dev or any, found "boss"/,
  },
  {
    rule: "bad facts name the JSON path",
    call: () =>
      engine.claim({
        facts: { now: "2026-01-01T00:00:00Z", pullRequests: [{ number: "x" }] },
        role: "review",
        machine: "m4",
      }),
    message: /claim \$\.facts\.pullRequests\[0\]\.number/,
  },
  {
    rule: "a pull request not in the facts",
    call: () => engine.gateClassify({ facts: facts([]), number: 9 }),
    message: /pull request #9 is not among the facts/,
  },
  {
    rule: "an unknown gate result",
    call: () => engine.gateReport({ facts: facts([pr(1)]), number: 1, testedSha: "sha1", result: "green" }),
    message: /result: expected success, failure, cancelled or skipped, found "green"/,
  },
  {
    rule: "labels must be strings",
    call: () => engine.resolveClaimRace({ labels: [1], machine: "m4", number: 1 }),
    message: /labels/,
  },
];
for (const c of errors) {
  test(`stations api errors: ${c.rule}`, () => {
    assert.throws(c.call, (e) => e instanceof Error && c.message.test(e.message));
  });
}

test("stations api: a bad config is the answer, not a throw: every decision that needs it names each problem's JSON path", () => {
  const bad = createEngine({ flow: "stations", stations: { reviewWip: 0, machines: { m4: { role: "boss" } } } });
  const paths = bad.configErrors().map((e) => e.path);
  assert.ok(paths.includes("$.stations.reviewWip"), paths.join(", "));
  for (const answer of [
    bad.claim({ facts: facts([]), role: "review", machine: "m4" }),
    bad.gateClassify({ facts: facts([pr(1)]), number: 1 }),
    bad.resolveClaimRace({ labels: [], machine: "m4" }),
  ]) {
    assert.deepEqual(answer, { configErrors: bad.configErrors() }, "the config's errors and nothing to write");
  }
});
