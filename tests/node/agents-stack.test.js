// A stack of three opened with `prflow open-pr --base` and landed by the worker on the emulator with real
// git and the CI simulator: bottom, middle, top, each restacked onto main when its turn comes, each squash
// commit on main carrying only its own layer's files, and exactly one CI run for each head that landed
// (the pushes that restack a layer go under skip-ci and cost nothing).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeOctokit } from "../../lib/github/index.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue } from "../../lib/queue/worker.js";
import { createEngine } from "../../js/node.js";
import { gitRepo, pushBranch } from "./lib/agents.js";

const OPTIONS = {
  dryRun: false,
  autoFix: true,
  activeInterval: 30,
  idleAfter: 10,
  idleInterval: 300,
  pollInterval: 30,
};
const LAYERS = [
  { head: "agent/l1", from: "origin/main", base: null, file: "src/one.rs" },
  { head: "agent/l2", from: "agent/l1", base: "agent/l1", file: "src/two.rs" },
  { head: "agent/l3", from: "agent/l2", base: "agent/l2", file: "src/three.rs" },
];

test("open-pr --base builds a stack of three that the worker lands bottom up: each layer restacked, its squash its own files, one CI run per landed head", async (t) => {
  const { gh, work, dir, prflow } = await gitRepo(t);
  // Deleting a merged head is what has GitHub move the layer above onto main (without it the layer stays
  // based on a merged branch, and the queue leaves it to a person).
  gh.setRepoSettings({ allowAutoMerge: true, deleteBranchOnMerge: true });
  gh.setRequiredChecks(["ci", "no-skip-ci-label"], { strict: true });
  gh.ci.register({ name: "CI", jobs: [{ name: "test", minutes: 10 }], aggregate: "ci", guard: "no-skip-ci-label" });

  const opened = [];
  for (const layer of LAYERS) {
    await pushBranch(dir, layer.head, layer.from, layer.file, `${layer.head}\n`);
    const r = await prflow([
      "open-pr",
      "--title",
      `Layer ${layer.head}`,
      "--head",
      layer.head,
      ...(layer.base ? ["--base", layer.base] : []),
      "--queue",
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    opened.push(Number(/^#(\d+): opened/.exec(r.stdout)[1]));
  }
  const [bottom, middle, top] = opened;
  // main moves under the stack, so landing it takes real rebases, not only GitHub's retargeting.
  gh.moveBranch("main");

  // Waits between writes scaled down as the emulator runs the Action: the same spacing code, in milliseconds.
  const octokit = makeOctokit({
    token: gh.personalToken,
    baseUrl: gh.url,
    graphqlUrl: gh.graphqlUrl,
    timeScale: 0.001,
  });
  const lines = [];
  let steps = 0;
  await runQueue({
    gh: { octokit, owner: gh.owner, repo: gh.repo },
    g: new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(work, "worker") }),
    engine: createEngine(),
    options: OPTIONS,
    log: (l) => lines.push(l),
    // Waiting advances the emulator's clock: CI jobs finish and auto-merge fires as time passes.
    sleep: async (ms) => gh.clock.advance(ms),
    // A bound on steps, not on time: a worker that never lands the stack fails here rather than hangs.
    stopWhen: () => opened.every((n) => gh.state.pull(n).merged) || ++steps >= 150,
  });
  // On a failure, the worker's lines and how the queue reads each layer now say where it stopped.
  const report = JSON.parse((await prflow(["report", "--format", "json"])).stdout);
  const why = `\n${lines.filter((l, i) => l !== lines[i - 1]).join("\n")}\n${JSON.stringify(
    report.entries.filter((e) => opened.includes(e.number)),
    null,
    1,
  )}`;
  for (const n of opened) assert.ok(gh.state.pull(n).merged, `#${n} merged${why}`);

  const mergedOrder = gh.events
    .filter((e) => e.name === "pull_request" && e.payload.action === "closed" && e.payload.pull_request.merged)
    .map((e) => e.payload.number);
  assert.deepEqual(mergedOrder, [bottom, middle, top], "landed bottom, middle, top");

  const squashes = opened.map((n) => gh.state.pull(n).mergeCommitSha);
  assert.deepEqual(
    gh.git
      .commitsBetween(null, "main")
      .slice(-3)
      .map((c) => c.oid),
    squashes,
    "the three squash commits are main's last three, in order",
  );
  LAYERS.forEach((layer, i) => {
    const n = opened[i];
    const pr = gh.state.pull(n);
    assert.equal(pr.baseRef, "main", `#${n} was moved onto main before it landed`);
    assert.equal(pr.mergeMethod, "squash");
    // The squash against its parent on main: this layer's file and nothing of the layers below.
    const touched = gh.git
      .git(["diff-tree", "--no-commit-id", "--name-only", "-r", squashes[i]])
      .split("\n")
      .filter(Boolean);
    assert.deepEqual(touched, [layer.file], `#${n}'s squash touches only its own layer${why}`);
    // Restacked: the head that landed was built on main as it stood (the squash below, for an upper layer).
    assert.equal(
      gh.git.git(["rev-parse", `${squashes[i]}^`]),
      i === 0 ? gh.git.git(["rev-parse", `${squashes[0]}^`]) : squashes[i - 1],
    );
    assert.ok(
      gh.git.isAncestor(gh.git.git(["rev-parse", `${squashes[i]}^`]), pr.headSha),
      `#${n} landed from a head built on main's tip${why}`,
    );
  });

  for (const n of opened) {
    const { heads } = gh.ci.usage({ number: n });
    const landed = gh.state.pull(n).headSha;
    assert.equal(heads[landed]?.runs, 1, `exactly one CI run for #${n}'s landed head: ${JSON.stringify(heads)}${why}`);
    // Every other head cost nothing: a restack's push goes under skip-ci (a skipped round), and the round
    // the opening fires is cancelled the moment open-pr's skip-ci lands, before a job has run a minute.
    const spent = Object.entries(heads).filter(([sha, h]) => sha !== landed && (h.minutes > 0 || h.runs > h.cancelled));
    assert.deepEqual(spent, [], `no CI minutes on any other head of #${n}: ${JSON.stringify(heads)}`);
  }
  assert.deepEqual(gh.validationFailures, []);
});
