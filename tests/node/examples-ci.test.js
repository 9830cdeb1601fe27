// The CI snippet users add for the merge queue (examples/workflows/ci-skip-ci.yml), held to the emulator's
// CI model, which the queue's tests run against: for every pull_request event of a queue's day (opened
// under skip-ci, a push under it, another label, skip-ci taken off, a push after), the workflow's `if:`
// conditions, evaluated on the emulator's own webhook payloads, run the tests exactly where the model
// runs them, and write the ci-ok guard exactly where the model starts a run (pending under skip-ci).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { load } from "js-yaml";
import { startEmulator } from "../../emulator/index.js";
import { evaluate } from "./lib/gha-expr.js";
import { ROOT } from "./lib/cli.js";

const workflow = load(readFileSync(`${ROOT}examples/workflows/ci-skip-ci.yml`, "utf8"));

test("expression evaluator: the rules the snippet leans on", () => {
  const ctx = {
    github: { event: { action: "Labeled", pull_request: { labels: [{ name: "skip-ci" }, { name: "bug" }] } } },
  };
  assert.equal(evaluate("github.event.action == 'labeled'", ctx), true, "== on strings ignores case");
  assert.equal(evaluate("contains(github.event.pull_request.labels.*.name, 'skip-ci')", ctx), true);
  assert.equal(
    evaluate("!contains(github.event.pull_request.labels.*.name, 'wip') && github.event.missing == null", ctx),
    true,
  );
  assert.equal(evaluate("(false || 'x') && !true", ctx), false);
});

test("examples ci-skip-ci: the tests run where the emulator's CI model runs them, ci-ok where it starts a run", async (t) => {
  const gh = await startEmulator({ seed: "ci-snippet", git: false });
  t.after(() => gh.close());
  assert.deepEqual(
    workflow.on.pull_request.types.filter((a) => ["labeled", "unlabeled"].includes(a)),
    ["labeled", "unlabeled"],
    "label events reach it",
  );
  gh.ci.register({ name: workflow.name, jobs: [{ name: "test", minutes: 10 }], guard: "ci-ok", skipLabel: "skip-ci" });
  gh.createLabel({ name: "skip-ci", color: "ededed" });
  gh.createLabel({ name: "bug", color: "d73a4a" });
  const pr = gh.createPull({ title: "queued", labels: ["skip-ci"] });
  gh.push(pr.number, {});
  gh.addLabels(pr.number, ["bug"]);
  gh.removeLabels(pr.number, ["skip-ci"]);
  gh.advance({ minutes: 11 });
  gh.push(pr.number, {});
  gh.advance({ minutes: 11 });

  const events = gh.events.filter((e) => e.name === "pull_request");
  assert.ok(
    events.some((e) => e.action === "unlabeled" && e.payload.label.name === "skip-ci"),
    "skip-ci came off",
  );
  const runs = gh.ci.runs.filter((r) => r.event === "pull_request");
  let seen = 0;
  for (const e of events) {
    const github = { event_name: "pull_request", event: e.payload };
    const started = runs.filter(
      (r) => r.action === e.action && r.sha === e.payload.pull_request.head.sha && r.startedAt === e.at,
    );
    const testRuns = evaluate(workflow.jobs.test.if, { github });
    const okRuns = evaluate(workflow.jobs["ci-ok"].if, {
      github,
      needs: { test: { result: testRuns ? "success" : "skipped" } },
    });
    const what = `${e.action}${e.payload.label ? ` ${e.payload.label.name}` : ""}`;
    assert.equal(okRuns, started.length === 1, `${what}: ci-ok runs exactly where the model starts a run`);
    assert.equal(
      testRuns,
      started.length === 1 && !started[0].skipped,
      `${what}: the tests run exactly where the model runs them`,
    );
    seen += okRuns;
  }
  assert.ok(seen >= 4, `the day's events that start runs (${seen})`);
  const ranOn = runs.filter((r) => !r.skipped).map((r) => r.action);
  // GitHub opens a pull request before any label goes on (the labels are a second request), so `opened`
  // runs (in the model the skip-ci label's skipped run cancels it); then nothing runs until skip-ci is off.
  assert.deepEqual(ranOn, ["opened", "unlabeled", "synchronize"], "after opening, runs only once skip-ci is off");
  assert.equal(runs.find((r) => r.action === "opened").conclusion, "cancelled");
});
