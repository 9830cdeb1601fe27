// The bundled Action's `mode: queue` on the emulator with real git, run as a workflow step runs it: given
// the workflow's GITHUB_TOKEN it refuses before sending a single request; given a personal token it runs
// one cycle of the worker (the same runQueue as `prflow queue --once`): rebase, push, arm, release, watch
// until the pull request lands, then stop. A second run takes up the first run's set-aside comment. Also:
// the demo's queue (the README's main command) and the example workflow's triggers, group and token.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load as loadYaml } from "js-yaml";
import { setup } from "./lib/setup.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** What the emulator received that changes the repository: REST writes, git pushes and GraphQL mutations (named by GitHub's verbs). */
const writes = (gh) =>
  gh.requests.filter((r) =>
    r.path === "/graphql"
      ? /^(add|remove|update|enable|disable|create|delete|merge|close|reopen|mark|convert|request|resolve|minimize|submit)[A-Z]/.test(
          r.operation ?? "",
        )
      : r.method !== "GET" &&
        r.operation !== "git upload-pack" &&
        !(r.refs?.length && r.refs.every((ref) => ref.startsWith("refs/prflow/"))),
  );

/** A repository on git with CI and auto-merge, and `run`: one run of the Action in queue mode. */
async function queueRepo(t) {
  // No config file in the workspace: the bot-panel preset, whose queue section is the defaults.
  const { gh, dir: workspace } = await setup(t, { git: true, dir: "action-queue" });
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(["ci", "no-skip-ci-label"], { strict: true });
  gh.ci.register({ name: "CI", jobs: [{ name: "test", minutes: 10 }], aggregate: "ci", guard: "no-skip-ci-label" });
  /**
   * One run of the Action. The Action waits in real time (scaled by the runner's PRFLOW_TIME_SCALE), the
   * emulator's CI on its own clock: the clock moves a minute every few milliseconds while the run lasts,
   * as GitHub's time passes while a real run polls.
   */
  const run = async (inputs, { event = "workflow_dispatch" } = {}) => {
    const ticker = setInterval(() => gh.clock.advance({ minutes: 1 }), 5);
    try {
      return await gh.runAction({
        actionPath: ROOT,
        event,
        payload: {},
        workspace,
        inputs: { mode: "queue", live: "true", ...inputs },
      });
    } finally {
      clearInterval(ticker);
    }
  };
  return { gh, run };
}

test("action queue: the workflow's GITHUB_TOKEN is refused before any request, saying which token to give", async (t) => {
  const { gh, run } = await queueRepo(t);
  const pr = gh.createPull({
    title: "one",
    head: "agent/one",
    files: ["src/a.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.moveBranch("main");
  gh.reset();
  for (const inputs of [{}, { token: gh.appToken }]) {
    const r = await run(inputs);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /::error::input token: mode queue needs a GitHub App installation token or a personal access token/,
    );
    assert.match(r.stdout, /starts no workflow run for GITHUB_TOKEN's writes/);
    assert.match(r.stdout, /actions\/create-github-app-token/);
    assert.match(r.summary, /stopped before writing anything/);
  }
  assert.equal(
    gh.requests.length,
    0,
    `no request at all: ${JSON.stringify(gh.requests.map((r) => `${r.method} ${r.path}`))}`,
  );
  assert.equal(writes(gh).length, 0);
  assert.deepEqual([...gh.state.pull(pr.number).labels].sort(), ["merge-queued", "skip-ci"], "untouched");
});

test("action queue: with a personal token one run lands the queued pull request behind main, with one CI run, and stops", async (t) => {
  const { gh, run } = await queueRepo(t);
  const pr = gh.createPull({
    title: "one",
    head: "agent/one",
    files: ["src/a.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  const before = pr.headSha;
  gh.moveBranch("main");
  gh.reset();
  const r = await run({ token: gh.personalToken });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const after = gh.state.pull(pr.number);
  assert.ok(after.merged, `merged in the run:\n${r.stdout}`);
  assert.notEqual(after.headSha, before, "the branch was rebased and pushed");
  assert.equal(
    gh.ci.usage({ number: pr.number }).heads[after.headSha]?.runs,
    1,
    "exactly one CI run, started by taking skip-ci off",
  );
  assert.match(r.stdout, new RegExp(`#${pr.number} released`));
  assert.equal(r.outputs.acted, String(pr.number));
  assert.deepEqual(
    JSON.parse(r.outputs.wait),
    { kind: "sleep", seconds: 0 },
    "one cycle: the run stops where the watch ends",
  );
  assert.match(r.summary, /## prflow queue · acme\/widgets · live/);
  assert.deepEqual(
    [...new Set(writes(gh).map((q) => `${q.method} ${q.operation}`))].sort(),
    [
      "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
      "POST enablePullRequestAutoMerge",
      "POST git receive-pack",
    ],
    "pushed, armed, took skip-ci off",
  );
  assert.deepEqual(
    [...new Set(gh.requests.filter((q) => q.token).map((q) => q.tokenKind))],
    ["personal"],
    "every request on the token given",
  );
  assert.deepEqual(gh.validationFailures, []);
});

test("action queue: a conflict is set aside with its comment; the next run takes the comment up and tries nothing; live: false writes nothing", async (t) => {
  const { gh, run } = await queueRepo(t);
  const bad = gh.createPull({
    title: "clash",
    head: "agent/clash",
    files: ["src/c.rs"],
    labels: ["merge-queued", "skip-ci"],
    conflicting: true,
  });
  const badHead = bad.headSha;
  const first = await run({ token: gh.personalToken });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const comments = () => gh.state.pull(bad.number).comments.map((id) => gh.state.comments.get(id).body);
  assert.equal(comments().length, 1, first.stdout);
  assert.match(comments()[0], /^<!-- prflow:set-aside reason=rebase-failed/);
  assert.match(comments()[0], /src\/c\.rs/);
  assert.equal(gh.state.pull(bad.number).headSha, badHead, "not pushed");

  // The second run is a new process: it knows the set-aside only from the comment the first one wrote.
  gh.reset();
  const second = await run({ token: gh.personalToken });
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(second.stdout, new RegExp(`#${bad.number}: a set-aside comment from an earlier run still stands`));
  assert.equal(writes(gh).length, 0, "nothing written again");
  assert.equal(comments().length, 1);

  // main stays put (moving it would resolve the set-aside): the new one is up to date, to arm and release.
  const ok = gh.createPull({
    title: "fine",
    head: "agent/fine",
    files: ["src/d.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.reset();
  const dry = await run({ token: gh.personalToken, live: "false" });
  assert.equal(dry.code, 0, dry.stdout + dry.stderr);
  assert.match(dry.stdout, new RegExp(`dry run: would .*#${ok.number}`));
  assert.equal(writes(gh).length, 0, "a dry run writes nothing");
  assert.equal(gh.state.pull(ok.number).headSha, ok.headSha, "and pushes nothing");
  assert.deepEqual(gh.validationFailures, []);
});

test("the demo's queue (scripts/lib/demo-queue.mjs): the stack and the Merge-After graph land in their order, one CI run each; the conflict is set aside", async () => {
  const { runQueueDemo } = await import("../../scripts/lib/demo-queue.mjs");
  const lines = [];
  const { order, setAside, landable } = await runQueueDemo({ print: (l) => lines.push(l) });
  const text = lines.join("\n");
  assert.deepEqual([...order].sort(), [...landable].sort(), text);
  const [parser, fast, docs, changelog] = landable;
  const at = (n) => order.indexOf(n);
  assert.ok(at(parser) < at(fast), "the stack lands bottom up");
  assert.ok(at(parser) < at(docs), "Merge-After: the parser first");
  assert.ok(at(changelog) > at(docs) && at(changelog) > at(fast), "Merge-After: #docs, #fast before the changelog");
  assert.ok(setAside, text);
  assert.match(text, /restacked to [0-9a-f]+: carried along with #\d+, the layer below/);
  assert.match(text, /- `src\/config\.rs`/);
  assert.match(text, /- \[ \] Retry/);
  for (const n of order) assert.match(text, new RegExp(`#${n} .*: 1 CI run on the head that merged`));
  assert.doesNotMatch(text, /did not match GitHub's descriptions/);
});

test("examples/workflows/prflow-queue.yml: the queue's events and a schedule, one group never cancelled, never the workflow's token", () => {
  const wf = loadYaml(readFileSync(join(ROOT, "examples/workflows/prflow-queue.yml"), "utf8"));
  assert.deepEqual(wf.on.pull_request.types, ["labeled", "synchronize", "closed"]);
  assert.deepEqual(wf.on.check_suite.types, ["completed"]);
  assert.deepEqual(wf.on.workflow_run.types, ["completed"]);
  assert.deepEqual(wf.on.push.branches, ["main"]);
  assert.ok(wf.on.schedule.length >= 1 && "workflow_dispatch" in wf.on);
  assert.equal(
    wf.concurrency.group,
    "prflow-queue-${{ github.repository }}",
    "one group for the repository, whatever the event",
  );
  assert.equal(wf.concurrency["cancel-in-progress"], false);
  const steps = wf.jobs.queue.steps;
  const queue = steps.find((s) => s.with?.mode === "queue");
  assert.ok(queue, "a step runs mode: queue");
  assert.doesNotMatch(queue.with.token, /github\.token|secrets\.GITHUB_TOKEN/);
  assert.match(queue.with.token, /steps\.app-token\.outputs\.token/);
  assert.ok(
    steps.some((s) => /^actions\/create-github-app-token@[0-9a-f]{40}$/.test(s.uses ?? "")),
    "the App token step, pinned by SHA",
  );
});
