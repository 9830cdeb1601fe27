// The worker's set-aside and failure paths on the emulator, real git and the CI simulator underneath:
// a real conflict set aside with its comment and retried by its box, a lease lost to someone else's
// push, the version pull request held and never rebased, and green-but-not-merging picked last.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Git } from "../../lib/queue/git.js";
import { asleep, queueBoard } from "./lib/queue-worker.js";

const short = (sha) => sha.slice(0, 7);

test("a real conflict is set aside with its comment; ticking Retry tries it again; a push rewrites the comment as one resolved line", async (t) => {
  const { gh, go, comments, asAlice, log } = await queueBoard(t);
  const pr = gh.createPull({
    title: "clash",
    head: "agent/clash",
    files: ["src/c.rs"],
    labels: ["merge-queued", "skip-ci"],
    conflicting: true,
  });
  const n = pr.number;
  const head = pr.headSha;

  await go(asleep);
  assert.equal(comments(n).length, 1, log());
  const body = comments(n)[0].body;
  const lines = body.trimEnd().split("\n");
  assert.match(
    lines[0],
    new RegExp(`^<!-- prflow:set-aside reason=rebase-failed head=${head} base=${gh.git.tip("main")}`),
    body,
  );
  assert.match(body, /`src\/c\.rs`/, "the conflicting file is named");
  assert.match(
    body,
    /\nOnce fixed, it takes its place in the lane again: \d+(st|nd|rd|th) of \d+[.,]/,
    "it says where it stands once fixed",
  );
  assert.match(lines.at(-1), /^- \[ \] Retry/, "the Retry box is the last line");
  assert.equal(gh.state.pull(n).headSha, head, "nothing was pushed");

  // Standing: the next cycles do not try the same head on the same base again.
  const idle = await go(asleep);
  assert.ok(!idle.log.some((l) => l.startsWith(`#${n} picked`)), idle.log.join("\n"));

  // A person ticks the box, as GitHub's task list does: the comment's body is edited.
  await asAlice.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", {
    owner: gh.owner,
    repo: gh.repo,
    comment_id: comments(n)[0].id,
    body: body.replace("- [ ] Retry", "- [x] Retry"),
  });
  const retried = await go(asleep);
  assert.ok(
    retried.log.includes(`#${n}: the Retry box was ticked: its record is dropped and it is tried again`),
    retried.log.join("\n"),
  );
  assert.ok(
    retried.log.some((l) => l.startsWith(`#${n} picked`)),
    "tried again",
  );
  assert.equal(comments(n).length, 1, "one comment, edited in place");
  assert.match(
    comments(n)[0].body,
    /^<!-- prflow:set-aside reason=rebase-failed/,
    `it failed again and says so again\n${retried.log.join("\n")}`,
  );
  assert.match(comments(n)[0].body.trimEnd().split("\n").at(-1), /^- \[ \] Retry/, "with a fresh box");

  // The author pushes a head built on main's tip: the set-aside no longer applies.
  gh.push(n, { by: "alice", rebase: true });
  const moved = gh.state.pull(n).headSha;
  await go((out) => out.log.some((l) => l.startsWith(`#${n}: resolved:`)));
  const resolved = comments(n);
  assert.equal(resolved.length, 1, log());
  assert.doesNotMatch(resolved[0].body, /\n/, `one line: ${resolved[0].body}`);
  assert.match(
    resolved[0].body,
    new RegExp(
      `^<!-- prflow:resolved was=set-aside .*head=${head} reason=rebase-failed --> Resolved: the head moved\\.$`,
    ),
    resolved[0].body,
  );
  assert.notEqual(moved, head);
  assert.deepEqual(gh.validationFailures, []);
});

test("a push by someone else between the survey and the worker's push loses the lease: nothing recorded, and the next survey works from the new head", async (t) => {
  let race = null;
  // The hook sits between the fetch (which still sees the surveyed head) and the leased push.
  class RacingGit extends Git {
    async tree(number, sha) {
      const dir = await super.tree(number, sha);
      if (race && !race.done) {
        race.done = true;
        race.run();
      }
      return dir;
    }
  }
  const { gh, go, comments, log } = await queueBoard(t, { makeGit: (a) => new RacingGit(a) });
  const pr = gh.createPull({
    title: "one",
    head: "agent/one",
    files: ["src/a.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  const n = pr.number;
  const surveyed = pr.headSha;
  gh.moveBranch("main");
  let theirs = null;
  race = {
    run: () => {
      gh.push(n, { by: "alice" });
      theirs = gh.state.pull(n).headSha;
    },
  };

  const out = await go((o) => o.wait.kind === "poll");
  assert.ok(race.done && theirs && theirs !== surveyed);
  assert.ok(
    out.log.includes(`#${n}: the push lost its lease: someone else is moving it; nothing recorded, surveying again`),
    log(),
  );
  assert.ok(!out.log.some((l) => l.includes("set aside")), "no set-aside");
  assert.equal(comments(n).length, 0, "no comment");
  assert.deepEqual(out.state.records ?? [], [], "no record");
  const picks = out.log.filter((l) => l.startsWith(`#${n} picked`));
  assert.equal(picks.length, 2, picks.join("\n"));
  assert.match(picks[0], new RegExp(`leased against ${short(surveyed)}$`));
  assert.match(picks[1], new RegExp(`leased against ${short(theirs)}$`), "the next survey saw their head");
  const landed = gh.state.pull(n);
  assert.notEqual(landed.headSha, theirs, "then rebased and pushed");
  assert.ok(gh.git.isAncestor(gh.git.tip("main"), landed.headSha), "built on main's tip");
  assert.ok(!landed.labels.includes("skip-ci"), "and released");
  assert.deepEqual(gh.validationFailures, []);
});

// Pushes of branches (the queue's lease is a ref of its own, pushed as the worker runs).
const pushesBy = (gh, since) =>
  gh.requests
    .slice(since)
    .filter(
      (r) =>
        r.operation === "git receive-pack" &&
        r.method === "POST" &&
        !r.refs?.every((ref) => ref.startsWith("refs/prflow/")),
    );

test("the version pull request is never rebased: blocks-release holds it (a draft included), an old build waits for the release workflow, and it is released as it is", async (t) => {
  const { gh, go, log } = await queueBoard(t);
  const version = gh.createPull({
    title: "Version Packages",
    head: "changeset-release/main",
    author: "github-actions",
    files: ["CHANGELOG.md"],
    labels: ["merge-queued", "skip-ci"],
  });
  const v = version.number;
  const blocker = gh.createPull({
    title: "must ship",
    head: "agent/ship",
    draft: true,
    files: ["src/s.rs"],
    labels: ["blocks-release"],
  });
  const since = gh.requests.length;

  const held = await go(asleep);
  assert.ok(
    held.log.some((l) => l.includes(`the release is held by #${blocker.number}`)),
    held.log.join("\n"),
  );
  assert.ok(!held.log.some((l) => l.startsWith(`#${v} picked`)), "not picked while a draft blocks the release");
  assert.equal(gh.state.pull(v).headSha, version.headSha);
  assert.ok(gh.state.pull(v).labels.includes("skip-ci"));

  // The blocker closes; meanwhile main moved, and the release workflow has not rebuilt the branch.
  gh.closePull(blocker.number);
  gh.moveBranch("main");
  const stale = await go(asleep);
  assert.ok(!stale.log.some((l) => l.startsWith(`#${v} picked`)), stale.log.join("\n"));
  assert.equal(gh.state.pull(v).headSha, version.headSha, "not rebased onto the new tip");

  // The release workflow rebuilds it from the tip: now it is released, as it is.
  gh.push(v, { by: "github-actions", rebase: true });
  const rebuilt = gh.state.pull(v).headSha;
  const out = await go((o) => o.wait.kind === "poll");
  assert.ok(
    out.log.some((l) => l.startsWith(`#${v} picked: the version pull request is never rebased`)),
    log(),
  );
  assert.equal(gh.state.pull(v).headSha, rebuilt, "the head is the release workflow's");
  assert.ok(!gh.state.pull(v).labels.includes("skip-ci"), "released");
  assert.deepEqual(pushesBy(gh, since), [], "the worker pushed nothing");
  assert.deepEqual(gh.validationFailures, []);
});

test("green and not merging is set aside `not-merging` and picked last, past main moving, until someone else pushes", async (t) => {
  const { gh, go, comments, log } = await queueBoard(t, { required: ["ci", "no-skip-ci-label"], maxSteps: 80 });
  gh.ci.register({ name: "CI", jobs: [{ name: "test", minutes: 2 }], aggregate: "ci", guard: "no-skip-ci-label" });
  // An approval the queue does not read holds the merge: green, armed, and never merging.
  gh.setPullRequestRule({ required_approving_review_count: 1 });
  const a = gh.createPull({
    title: "held",
    head: "agent/held",
    files: ["src/h.rs"],
    labels: ["merge-queued", "skip-ci"],
  }).number;

  await go(() => comments(a).length > 0);
  assert.match(comments(a)[0]?.body ?? "", /^<!-- prflow:set-aside reason=not-merging/, log());
  assert.ok(log().includes(`#${a} is picked last from now on, until someone else pushes`));

  // Another arrives, approved; main moves, which clears the record but not the demotion. The first
  // is still unapproved, so GitHub reads it BLOCKED, not BEHIND (what holds it outranks being behind):
  // git says it is behind, so it is a candidate, picked last, and not watched again as in flight.
  const b = gh.createPull({
    title: "approved",
    head: "agent/ok",
    files: ["src/o.rs"],
    labels: ["merge-queued", "skip-ci"],
  }).number;
  gh.review(b, { author: "alice", state: "APPROVED" });
  gh.moveBranch("main");
  const second = await go((o) => o.wait.kind === "poll");
  assert.equal(gh.state.mergeStateStatus(gh.state.pull(a)), "BLOCKED", "GitHub does not say BEHIND");
  assert.ok(!gh.git.isAncestor(gh.git.tip("main"), gh.state.pull(a).headSha), "while git says it is behind");
  assert.ok(
    second.log.some((l) => l.startsWith(`#${a}: resolved:`)),
    second.log.join("\n"),
  );
  assert.ok(
    second.log.some((l) => l.startsWith(`#${b} picked: first of #${b}, #${a}`)),
    second.log.join("\n"),
  );
  assert.ok(!second.log.some((l) => l.startsWith(`#${a} is in flight`)), second.log.join("\n"));
  await go(() => gh.state.pull(b).merged);
  assert.ok(gh.state.pull(b).merged, log());

  // Someone else pushes the demoted one, under `skip-ci` as the fixer does: it goes back to its
  // place by number.
  gh.addLabels(a, ["skip-ci"], { by: "alice" });
  gh.push(a, { by: "alice", rebase: true });
  const c = gh.createPull({
    title: "later",
    head: "agent/later",
    files: ["src/l.rs"],
    labels: ["merge-queued", "skip-ci"],
  }).number;
  const third = await go((o) => o.wait.kind === "poll");
  assert.ok(
    third.log.some((l) => l.startsWith(`#${a} picked: first of #${a}, #${c}`)),
    third.log.join("\n"),
  );
  assert.deepEqual(gh.validationFailures, []);
});

test("1a on a run's first survey: the timeline says which branch a layer was moved off, and the layer is restacked off the merged layer's commits", async (t) => {
  const { gh, go, log } = await queueBoard(t, { required: [] });
  gh.setRepoSettings({ deleteBranchOnMerge: true });
  const low = gh.createPull({ title: "low", head: "agent/low", files: ["src/l.rs"] });
  const up = gh.createPull({ title: "up", head: "agent/up", base: "agent/low", files: ["src/u.rs"] });
  const lowHead = low.headSha;
  // The layer below merges (squash) before this run starts: GitHub moves the layer onto main, still
  // carrying the merged layer's commit, so its diff shows that layer's change as its own.
  gh.merge(low.number, { method: "squash" });
  const squash = gh.state.pull(low.number).mergeCommitSha;
  assert.equal(gh.state.pull(up.number).baseRef, "main");
  assert.equal(
    gh.git.commitsBetween(gh.git.tip("main"), gh.state.pull(up.number).headSha).length,
    2,
    "before: the merged layer's commit and its own",
  );

  const out = await go(asleep);
  const now = gh.state.pull(up.number).headSha;
  assert.ok(
    out.log.some(
      (l) => l.startsWith(`#${up.number} restacked`) && l.includes(`#${low.number} merged as ${short(squash)}`),
    ),
    log(),
  );
  assert.deepEqual(
    gh.git.commitsBetween(squash, now).map((c) => c.message ?? c.oid).length,
    1,
    "after: its own commit alone, on the squash commit",
  );
  assert.ok(gh.git.isAncestor(squash, now));
  assert.ok(!gh.git.isAncestor(lowHead, now), "the merged layer's commit is gone from it");
  assert.deepEqual(gh.validationFailures, []);
});
