// The worker's failed-checks paths on the emulator, real git and the CI simulator underneath: a
// failure that is only a formatter's diff is fixed with one commit and lands (`autoFix`), a test
// failure is set aside untouched, and the set-aside comment says what failed and what it printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { queueBoard } from "./lib/queue-worker.js";

const REQUIRED = ["ci", "no-skip-ci-label"];
const CI = {
  name: "CI",
  jobs: [
    { name: "fmt", minutes: 1 },
    { name: "test", minutes: 3 },
  ],
  aggregate: "ci",
  guard: "no-skip-ci-label",
};
// The formatter rewrites one file; the aggregate and the skip-ci guard go red with any job, so they are not read.
const AUTO_FIX = {
  ignore: ["^ci$", "^no-skip-ci-label$"],
  fixers: [{ context: "^fmt$", run: "printf 'formatted\\n' > src/f.rs" }],
};

test("autoFix: a formatter-only failure is fixed with one amended commit and lands; a test failure is set aside untouched", async (t) => {
  const { gh, go, comments, log } = await queueBoard(t, {
    required: REQUIRED,
    config: { queue: { autoFix: AUTO_FIX } },
    maxSteps: 120,
  });
  gh.ci.register(CI);
  const fmt = gh.createPull({
    title: "unformatted",
    head: "agent/fmt",
    files: ["src/f.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  const released = fmt.headSha;
  const failing = gh.createPull({
    title: "broken test",
    head: "agent/test",
    files: ["src/t.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  // Built on the tip, the first is released at its own head, which fails only its formatter.
  gh.ci.setOutcome(released, { jobs: { fmt: "fail" } });
  gh.ci.setOutcome({ number: failing.number }, { jobs: { test: "fail" } });

  await go(() => gh.state.pull(fmt.number).merged);
  const landed = gh.state.pull(fmt.number);
  assert.ok(landed.merged, log());
  assert.ok(log().includes(`#${fmt.number}: only a fixer's diff: fmt: fixing it`), log());
  // The matrix ran twice, once per head: the released one failed its formatter, the fixed one passed
  // (what opening under `skip-ci` cancels and skips is not a run of the queue's).
  const ran = gh.ci.runs.filter((r) => r.number === fmt.number && !r.skipped && r.conclusion !== "cancelled");
  assert.deepEqual(
    ran.map((r) => [r.sha === released ? "released" : r.sha === landed.headSha ? "fixed" : r.sha, r.conclusion]),
    [
      ["released", "failure"],
      ["fixed", "success"],
    ],
    log(),
  );
  assert.equal(
    gh.git.commitsBetween(gh.git.mergeBase(released, landed.headSha), landed.headSha).length,
    1,
    "the fix is amended onto the one commit",
  );
  assert.equal(gh.git.show(landed.mergeCommitSha, "src/f.rs").trim(), "formatted", "what landed is the formatted file");

  // The test failure: nothing is run on it, nothing pushed after its release.
  await go(() => comments(failing.number).length > 0);
  const body = comments(failing.number)[0]?.body ?? "";
  assert.match(body, /^<!-- prflow:set-aside reason=checks-failed/, log());
  const release = log()
    .split("\n")
    .find((l) => l.startsWith(`#${failing.number} released`));
  const at = / at ([0-9a-f]{7})/.exec(release ?? "")?.[1];
  assert.ok(at, log());
  assert.equal(gh.state.pull(failing.number).headSha.slice(0, 7), at, "untouched since its release");
  assert.match(body, new RegExp(`head=${gh.state.pull(failing.number).headSha}`));
  assert.ok(log().includes(`#${failing.number}: not auto-fixed: not only a fixer's diff: test failed`), log());
  assert.deepEqual(gh.validationFailures, []);
});

test("the set-aside comment links each failed check to its run, and folds what a failed command printed (its last 60 lines) in <details>", async (t) => {
  // The fixer itself fails, loudly: a hundred lines, then exit 1.
  const loud = {
    ...AUTO_FIX,
    fixers: [{ context: "^fmt$", run: 'i=1; while [ $i -le 100 ]; do echo "fmt line $i"; i=$((i+1)); done; exit 1' }],
  };
  const { gh, go, comments, log } = await queueBoard(t, {
    required: REQUIRED,
    config: { queue: { autoFix: loud } },
    maxSteps: 120,
  });
  gh.ci.register(CI);
  const fmt = gh.createPull({
    title: "unformatted",
    head: "agent/fmt",
    files: ["src/f.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  const failing = gh.createPull({
    title: "broken test",
    head: "agent/test",
    files: ["src/t.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.ci.setOutcome({ number: fmt.number }, { jobs: { fmt: "fail" } });
  gh.ci.setOutcome({ number: failing.number }, { jobs: { test: "fail" } });

  await go(() => comments(fmt.number).length > 0);
  const printed = comments(fmt.number)[0]?.body ?? "";
  assert.match(printed, /^<!-- prflow:set-aside reason=checks-failed/, log());
  const folded = /<details><summary>[^<]*last (\d+) lines[^<]*<\/summary>([\s\S]*?)<\/details>/.exec(printed);
  assert.ok(folded, printed);
  assert.equal(folded[1], "60");
  const block = /```\n([\s\S]*)\n```/.exec(folded[2])?.[1].split("\n") ?? [];
  assert.equal(block.length, 60, folded[2]);
  assert.match(block.at(-1), /exit 1$/, "the failed command last");
  assert.ok(block.includes("fmt line 100") && block.includes("fmt line 43"), folded[2]);
  assert.ok(!block.includes("fmt line 42"), "only the last 60 lines");

  await go(() => comments(failing.number).length > 0);
  const body = comments(failing.number)[0]?.body ?? "";
  assert.match(body, /^<!-- prflow:set-aside reason=checks-failed/, log());
  // The job's page, as GitHub gives it in the check run's detailsUrl (the emulator: its workflow run).
  assert.match(
    body,
    new RegExp(`^- \\[CI / test\\]\\(https://github\\.com/${gh.owner}/${gh.repo}/actions/runs/\\d+\\)$`, "m"),
    body,
  );
  assert.ok(!/\[CI \/ fmt\]/.test(body), "only the runs that failed");
  assert.deepEqual(gh.validationFailures, []);
});

test("a checks-failed comment folds the failed job's own log: its last 60 lines, without GitHub's time stamps, under the job's name", async (t) => {
  const { gh, go, comments, log } = await queueBoard(t, { required: REQUIRED, maxSteps: 120 });
  // The test job prints a hundred lines and fails; GitHub's log adds a header and the exit line.
  const printed = Array.from({ length: 100 }, (_, i) => `test line ${i + 1}`).join("\n");
  gh.ci.register({
    ...CI,
    jobs: [
      { name: "fmt", minutes: 1 },
      { name: "test", minutes: 3, log: printed },
    ],
  });
  const failing = gh.createPull({
    title: "broken test",
    head: "agent/test",
    files: ["src/t.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.ci.setOutcome({ number: failing.number }, { jobs: { test: "fail" } });

  await go(() => comments(failing.number).length > 0);
  const body = comments(failing.number)[0]?.body ?? "";
  assert.match(body, /^<!-- prflow:set-aside reason=checks-failed/, log());
  assert.ok(
    log().includes(`#${failing.number}: reading the logs of CI / test, CI / ci to fold them in its comment`),
    log(),
  );
  const folded =
    /<details><summary>What CI \/ test printed \(last (\d+) lines\)<\/summary>\n\n```\n([\s\S]*?)\n```\n<\/details>/.exec(
      body,
    );
  assert.ok(folded, body);
  const lines = folded[2].split("\n");
  assert.equal(folded[1], "60");
  assert.equal(lines.length, 60, folded[2]);
  assert.equal(
    lines.at(-1),
    "##[error]Process completed with exit code 1.",
    "the exit line last, its time stamp dropped",
  );
  assert.equal(lines[0], "test line 42");
  assert.ok(lines.includes("test line 100") && !lines.includes("test line 41"), "only the last 60 lines");
  // The aggregate's log comes after the job's: it says only which job failed.
  assert.match(
    body,
    /<summary>What CI \/ ci printed[^<]*<\/summary>\n\n```\n[^`]*needed jobs did not pass: test/,
    body,
  );
  assert.ok(body.indexOf("What CI / test printed") < body.indexOf("What CI / ci printed"));
  assert.ok(!/What CI \/ fmt printed/.test(body), "only the jobs that failed");
  assert.deepEqual(gh.validationFailures, []);
});
