// The emulator on real git: clones and pushes over smart HTTP (git http-backend) with GitHub's token
// form, leases and conflicts decided by git, state that follows the refs after a push, merges that put
// real commits on the base, and the layer above retargeted when a merged branch is deleted.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { join } from "node:path";
import { MERGEABILITY_DELAY_MS } from "../../emulator/index.js";
import { setup } from "./lib/setup.js";
import { git as gitAs } from "./lib/agents.js";

/** git as a developer's machine runs it, with the work folder as HOME (no user config either). */
const git = (cwd, args, { allowFail = false } = {}) => gitAs(cwd, args, { allowFail, home: cwd });

/** An emulator on git and a folder to clone it into, both gone when the test ends. */
const onGit = (t) => setup(t, { git: true, dir: "emu-git-test" });
async function clone(gh, work, token = gh.personalToken, name = "clone") {
  await git(work, ["clone", "--quiet", gh.cloneUrl(token), name]);
  return join(work, name);
}
async function commitFile(dir, path, text, message = `edit ${path}`) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
  await git(dir, ["add", path]);
  await git(dir, ["commit", "--quiet", "-m", message]);
  return (await git(dir, ["rev-parse", "HEAD"])).stdout;
}
const REST = (gh, method, path, body, token = gh.personalToken) =>
  fetch(`${gh.url}${path}`, {
    method,
    headers: { authorization: `token ${token}`, "content-type": "application/json" },
    body: body && JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe("smart HTTP, as github.com serves it", () => {
  test("a clone sees the seeded branches; a push with a bad or missing token is refused (401) and moves nothing", async (t) => {
    const { gh, dir: work } = await onGit(t);
    const pr = gh.createPull({ title: "one", head: "agent/one", files: ["src/a.rs"] });
    const dir = await clone(gh, work);
    await git(dir, ["fetch", "--quiet", "origin", "agent/one"]);
    assert.equal(
      (await git(dir, ["rev-parse", "FETCH_HEAD"])).stdout,
      pr.headSha,
      "the pull request's head is a real commit",
    );
    await git(dir, ["checkout", "--quiet", "-b", "agent/one", "FETCH_HEAD"]);
    await commitFile(dir, "src/a.rs", "mine\n");
    const bad = await git(dir, ["push", gh.cloneUrl("ghp_notAToken"), "agent/one"], { allowFail: true });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /Authentication failed|401/);
    const anonymous = await git(dir, ["push", `${gh.url}/${gh.owner}/${gh.repo}.git`, "agent/one"], {
      allowFail: true,
    });
    assert.notEqual(anonymous.code, 0);
    assert.equal(gh.git.tip("agent/one"), pr.headSha, "git's ref did not move");
    assert.equal(gh.state.pull(pr.number).headSha, pr.headSha);
    assert.ok(gh.requests.some((r) => r.status === 401 && r.operation === "git receive-pack"));
    assert.deepEqual(gh.validationFailures, []);
  });

  test("a push moves the pull request's head: committed events and a synchronize webhook; a personal token's push starts runs, GITHUB_TOKEN's does not", async (t) => {
    const { gh, dir: work } = await onGit(t);
    const pr = gh.createPull({ title: "one", head: "agent/one", files: ["src/a.rs"] });
    const before = pr.headSha;
    const dir = await clone(gh, work);
    await git(dir, ["checkout", "--quiet", "agent/one"]);
    const sha = await commitFile(dir, "src/b.rs", "new file\n");
    await git(dir, ["push", "--quiet", "origin", "agent/one"]);
    assert.equal(gh.state.pull(pr.number).headSha, sha, "the head is the branch's tip");
    assert.deepEqual(
      gh.state.pull(pr.number).files.sort(),
      ["src/a.rs", "src/b.rs"],
      "changed files from git diff base...head",
    );
    const sync = gh.events.filter((e) => e.name === "pull_request" && e.action === "synchronize");
    assert.equal(sync.length, 1);
    assert.equal(sync[0].payload.before, before);
    assert.equal(sync[0].payload.after, sha);
    assert.equal(sync[0].startsRuns, true);
    assert.ok(pr.timeline.some((e) => e.type === "PullRequestCommit" && e.commit.oid === sha));
    assert.ok(!pr.timeline.some((e) => e.type === "HeadRefForcePushedEvent"));

    // The same push with the workflow's token: recorded, but it starts no runs (GITHUB_TOKEN rule).
    const app = await clone(gh, work, gh.appToken, "app");
    await git(app, ["checkout", "--quiet", "agent/one"]);
    await commitFile(app, "src/c.rs", "bot\n");
    await git(app, ["push", "--quiet", "origin", "agent/one"]);
    const last = gh.events.filter((e) => e.name === "pull_request" && e.action === "synchronize").at(-1);
    assert.equal(last.startsRuns, false);
    assert.equal(last.actor, "github-actions[bot]");
    assert.deepEqual(gh.validationFailures, []);
  });

  test("--force-with-lease loses its lease when the branch moved: git's own rejection; a lease that holds force-pushes and records head_ref_force_pushed", async (t) => {
    const { gh, dir: work } = await onGit(t);
    const pr = gh.createPull({ title: "one", head: "agent/one", files: ["src/a.rs"] });
    const leased = pr.headSha;
    const dir = await clone(gh, work);
    await git(dir, ["checkout", "--quiet", "agent/one"]);
    gh.push(pr.number, { by: "agent-2" }); // someone else moves the branch on the server
    const moved = gh.state.pull(pr.number).headSha;
    await git(dir, ["commit", "--quiet", "--amend", "-m", "rewritten"]);
    const lost = await git(dir, ["push", `--force-with-lease=agent/one:${leased}`, "origin", "agent/one"], {
      allowFail: true,
    });
    assert.notEqual(lost.code, 0);
    assert.match(lost.stderr, /stale info/, "git's own rejection text");
    assert.equal(gh.git.tip("agent/one"), moved);

    const held = await git(dir, ["push", `--force-with-lease=agent/one:${moved}`, "origin", "agent/one"], {
      allowFail: true,
    });
    assert.equal(held.code, 0, held.stderr);
    const now = (await git(dir, ["rev-parse", "HEAD"])).stdout;
    assert.equal(gh.state.pull(pr.number).headSha, now);
    const forced = pr.timeline.filter((e) => e.type === "HeadRefForcePushedEvent");
    assert.deepEqual(
      forced.map((e) => [e.before, e.after]),
      [[moved, now]],
    );
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("mergeability from git", () => {
  test("a conflict is DIRTY because git merge-tree says so; the same files changed compatibly are CLEAN", async (t) => {
    const { gh, dir: work } = await onGit(t);
    const a = gh.createPull({ title: "a", head: "agent/a", files: ["src/shared.rs"] });
    const b = gh.createPull({ title: "b", head: "agent/b", files: ["src/other.rs"] });
    // The base moves with a commit that writes src/shared.rs differently: a real conflict with `a` only.
    const dir = await clone(gh, work);
    await commitFile(dir, "src/shared.rs", "main's own version\n");
    await git(dir, ["push", "--quiet", "origin", "main"]);
    assert.equal(gh.state.mergeStateStatus(a), "UNKNOWN", "GitHub recomputes in the background after the base moves");
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    assert.equal(gh.state.mergeable(a), "CONFLICTING");
    assert.equal(gh.state.mergeStateStatus(a), "DIRTY");
    assert.equal(gh.git.mergeTree(gh.git.tip("main"), a.headSha).clean, false);
    assert.equal(gh.state.mergeStateStatus(b), "CLEAN");
    const r = await REST(gh, "GET", `/repos/acme/widgets/pulls/${a.number}`);
    assert.equal(r.body.mergeable, false);
    assert.equal(r.body.mergeable_state, "dirty");
    assert.deepEqual(gh.validationFailures, []);
  });

  test("BEHIND when strict and the base tip is not an ancestor of the head; compare answers from git", async (t) => {
    const { gh } = await onGit(t);
    gh.setRequiredChecks(["test"], { strict: true });
    const pr = gh.createPull({ title: "a", head: "agent/a", files: ["src/a.rs"], commits: 2 });
    gh.checkRun({ number: pr.number, name: "test" });
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    assert.equal(gh.state.mergeStateStatus(pr), "CLEAN");
    const oldBase = gh.git.tip("main");
    gh.moveBranch("main");
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    assert.equal(gh.state.mergeStateStatus(pr), "BEHIND");
    const c = await REST(gh, "GET", `/repos/acme/widgets/compare/main...agent/a`);
    assert.equal(c.status, 200);
    assert.equal(c.body.status, "diverged");
    assert.equal(c.body.ahead_by, 2);
    assert.equal(c.body.behind_by, 1);
    assert.equal(c.body.merge_base_commit.sha, oldBase);
    assert.deepEqual(
      c.body.commits.map((x) => x.sha),
      pr.commits.map((x) => x.oid),
    );
    assert.deepEqual(
      c.body.files.map((f) => f.filename),
      ["src/a.rs"],
    );
    // A rebase onto the tip: up to date again, CLEAN once checks are green on the new head.
    gh.push(pr.number, { rebase: true });
    gh.checkRun({ number: pr.number, name: "test" });
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    assert.equal(gh.state.mergeStateStatus(pr), "CLEAN");
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("merging", () => {
  test("a squash merge puts one commit on the base, closes the pull request as merged and retargets the layer above", async (t) => {
    const { gh } = await onGit(t);
    gh.setRepoSettings({ deleteBranchOnMerge: true });
    const lower = gh.createPull({ title: "lower", head: "stack/lower", files: ["src/lower.rs"], commits: 3 });
    const upper = gh.createPull({ title: "upper", base: "stack/lower", head: "stack/upper", files: ["src/upper.rs"] });
    assert.deepEqual(upper.files, ["src/upper.rs"], "the upper layer's diff is against its base branch");
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    const mainBefore = gh.git.tip("main");
    const r = await REST(gh, "PUT", `/repos/acme/widgets/pulls/${lower.number}/merge`, {
      merge_method: "squash",
      sha: lower.headSha,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.merged, true);
    const main = gh.git.tip("main");
    assert.equal(r.body.sha, main);
    assert.deepEqual(
      gh.git.commitsBetween(mainBefore, main).map((c) => c.oid),
      [main],
      "exactly one commit on the base",
    );
    assert.equal(gh.git.git(["rev-parse", `${main}^`]), mainBefore, "its one parent is the old base");
    assert.equal(gh.git.show(main, "src/lower.rs"), gh.git.show(lower.headSha, "src/lower.rs"));
    const got = await REST(gh, "GET", `/repos/acme/widgets/pulls/${lower.number}`);
    assert.equal(got.body.merged, true);
    assert.equal(got.body.state, "closed");
    assert.equal(got.body.merged_at, gh.clock.iso());
    assert.equal(got.body.merge_commit_sha, main);
    assert.equal(gh.git.tip("stack/lower"), null, "delete_branch_on_merge deleted the head branch");
    // The layer above now targets main, with the timeline event GitHub records.
    assert.equal(upper.baseRef, "main");
    const changed = upper.timeline.filter((e) => e.type === "BaseRefChangedEvent");
    assert.deepEqual(
      changed.map((e) => [e.previousRefName, e.currentRefName]),
      [["stack/lower", "main"]],
    );
    const edited = gh.events.find(
      (e) => e.name === "pull_request" && e.action === "edited" && e.payload.number === upper.number,
    );
    assert.equal(edited.payload.changes.base.ref.from, "stack/lower");
    assert.equal(edited.payload.pull_request.base.ref, "main");
    const closed = gh.events.find((e) => e.name === "pull_request" && e.action === "closed");
    assert.equal(closed.payload.pull_request.merged, true);
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    assert.equal(gh.state.mergeStateStatus(upper), "CLEAN", "the layer above merges cleanly onto the squash");
    const q = await REST(gh, "POST", "/graphql", {
      query: `{ repository(owner: "acme", name: "widgets") { pullRequest(number: ${upper.number}) { baseRefName timelineItems(first: 20, itemTypes: [BASE_REF_CHANGED_EVENT]) { nodes { ... on BaseRefChangedEvent { previousRefName currentRefName } } } } } }`,
    });
    assert.deepEqual(q.body.data.repository.pullRequest.timelineItems.nodes, [
      { previousRefName: "stack/lower", currentRefName: "main" },
    ]);
    assert.equal(q.body.data.repository.pullRequest.baseRefName, "main");
    assert.deepEqual(gh.validationFailures, []);
  });

  test("merge refusals: a conflict (405), a moved head (409), a method the repository does not allow (405), a missing required check (405)", async (t) => {
    const { gh } = await onGit(t);
    const c = gh.createPull({ title: "c", head: "agent/c", files: ["src/c.rs"], conflicting: true });
    const ok = gh.createPull({ title: "ok", head: "agent/ok", files: ["src/ok.rs"] });
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    const conflict = await REST(gh, "PUT", `/repos/acme/widgets/pulls/${c.number}/merge`, { merge_method: "squash" });
    assert.equal(conflict.status, 405);
    assert.equal(conflict.body.message, "Pull Request is not mergeable");
    const moved = await REST(gh, "PUT", `/repos/acme/widgets/pulls/${ok.number}/merge`, { sha: "0".repeat(40) });
    assert.equal(moved.status, 409);
    gh.setRepoSettings({ allowRebaseMerge: false });
    const rebase = await REST(gh, "PUT", `/repos/acme/widgets/pulls/${ok.number}/merge`, { merge_method: "rebase" });
    assert.equal(rebase.status, 405);
    assert.match(rebase.body.message, /Rebase merges are not allowed/);
    gh.setRequiredChecks(["test"]);
    const blocked = await REST(gh, "PUT", `/repos/acme/widgets/pulls/${ok.number}/merge`, { merge_method: "merge" });
    assert.equal(blocked.status, 405);
    assert.match(blocked.body.message, /Required status check "test" is expected/);
    gh.checkRun({ number: ok.number, name: "test" });
    const merged = await REST(gh, "PUT", `/repos/acme/widgets/pulls/${ok.number}/merge`, { merge_method: "merge" });
    assert.equal(merged.status, 200);
    assert.equal(
      gh.git.git(["rev-list", "--parents", "-n", "1", "main"]).split(" ").length,
      3,
      "a merge commit has two parents",
    );
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("seeding on git", () => {
  test("the seeded board is real commits: heads are branch tips, changed files are git's, and every pull request reads as on the model", async (t) => {
    const { seedBoard } = await import("../../scripts/lib/seed-emulator.mjs");
    const { gh: model } = await setup(t, { git: false });
    const { gh } = await onGit(t);
    const board = seedBoard(gh, 20);
    seedBoard(model, 20);
    for (const { number } of board) {
      const pr = gh.state.pull(number);
      assert.equal(gh.git.tip(pr.headRef), pr.headSha, `#${number}: the head is its branch's tip`);
      assert.deepEqual(
        pr.files,
        gh.git.changedFiles("main", pr.headRef),
        `#${number}: files from git diff base...head`,
      );
      assert.deepEqual(
        [...pr.files].sort(),
        [...model.state.pull(number).files].sort(),
        `#${number}: the same files as the model`,
      );
      assert.equal(
        gh.state.mergeStateStatus(pr),
        model.state.mergeStateStatus(model.state.pull(number)),
        `#${number}: the same merge state`,
      );
    }
    const dirty = board.filter(({ number }) => gh.state.mergeable(gh.state.pull(number)) === "CONFLICTING");
    assert.ok(dirty.length >= 2);
    for (const { number } of dirty)
      assert.equal(gh.git.mergeTree(gh.git.tip("main"), gh.state.pull(number).headSha).clean, false, "git says so");
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("answers the emulator gives without asking git", () => {
  // Seeding hashes commits in JS and answers merge bases, commits, files and ancestry from the trees it
  // kept; this holds those answers to git's own, on a board whose base moved under its pull requests.
  test("merge base, commits, changed files, ancestry and mergeability equal git's on a seeded board", async (t) => {
    const { seedBoard } = await import("../../scripts/lib/seed-emulator.mjs");
    const { gh } = await onGit(t);
    seedBoard(gh, 40);
    gh.createPull({ title: "nested", files: ["a/b/c.txt", "a/b.txt", "a.txt", "z/y"], commits: 3 });
    gh.moveBranch("main", { files: { "a.txt": "main's own a.txt\n" } });
    gh.clock.advance({ minutes: 5 }); // past GitHub's UNKNOWN after the base moved
    assert.ok(gh.git.pending.length > 40, "seeding ran no git: its commits wait for one fast-import");
    const raw = (args) => gh.git.git(args, { allowFail: true }) ?? "";
    const lines = (text) => text.split("\n").filter(Boolean);
    const main = gh.git.tip("main");
    let moved = 0;
    for (const pr of [...gh.state.pulls.values()].filter((p) => p.isPull)) {
      const head = pr.headSha;
      const ours = {
        base: gh.git.mergeBase(main, head),
        log: gh.git.commitsBetween(main, head).map((c) => c.oid),
        files: gh.git.changedFiles(main, head),
        ancestor: gh.git.isAncestor(main, head),
        mergeable: gh.state.mergeable(pr),
      };
      const gits = {
        base: raw(["merge-base", main, head]),
        log: lines(raw(["log", "--reverse", "--format=%H", `${main}..${head}`])),
        files: lines(raw(["diff", "--name-only", `${main}...${head}`])),
        ancestor: gh.git.git(["merge-base", "--is-ancestor", main, head], { allowFail: true }) !== null,
        mergeable: gh.git.mergeTree(main, head).clean ? "MERGEABLE" : "CONFLICTING",
      };
      assert.deepEqual(ours, gits, `#${pr.number}`);
      if (ours.base !== main) moved++;
    }
    assert.ok(moved > 10, "most pull requests are behind main: the answers are not all the trivial ones");
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("seeding a queue on git, as the queue's report test does", () => {
  test("only the pull request seeded conflicting is DIRTY: the default file is on main (no add/add), and #1 and #26 edit different lines", async (t) => {
    const { gh } = await onGit(t);
    const prs = Array.from({ length: 25 }, (_, i) => gh.createPull({ title: `p${i + 1}` }));
    const conflict = gh.createPull({ title: "conflicts per GitHub", conflicting: true });
    assert.equal(conflict.number, 26);
    gh.advance(MERGEABILITY_DELAY_MS);
    assert.equal(gh.state.mergeStateStatus(conflict), "DIRTY");
    const dirty = prs.filter((p) => gh.state.mergeable(p) !== "MERGEABLE").map((p) => p.number);
    assert.deepEqual(dirty, [], "each earlier pull request still merges with the moved main");
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("helpers on git", () => {
  test("push({ files }) is a commit after which the pull request's diff is those files (a dropped file goes back to the base's text)", async (t) => {
    const { gh } = await onGit(t);
    const pr = gh.createPull({ title: "a", head: "agent/a", files: ["src/one.rs", "src/two.rs"] });
    gh.push(pr.number, { files: ["src/two.rs", "src/three.rs"] });
    assert.deepEqual(pr.files, ["src/three.rs", "src/two.rs"]);
    assert.deepEqual(gh.git.changedFiles("main", "agent/a"), pr.files);
    assert.equal(gh.git.show("agent/a", "src/one.rs"), null, "a file the base never had is deleted again");
    assert.equal(pr.commits.length, 2);
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("GraphQL mergePullRequest", () => {
  test("squashes as REST does, judged by GitHub's schema; a stale expectedHeadOid is refused", async (t) => {
    const { gh } = await onGit(t);
    const pr = gh.createPull({ title: "via graphql", head: "agent/g", files: ["src/g.rs"], commits: 2 });
    const mutation = `mutation merge($id: ID!, $oid: GitObjectID) { mergePullRequest(input: { pullRequestId: $id, mergeMethod: SQUASH, expectedHeadOid: $oid }) { pullRequest { number merged mergedAt state } } }`;
    const stale = await REST(gh, "POST", "/graphql", {
      query: mutation,
      variables: { id: pr.nodeId, oid: "0".repeat(40) },
    });
    assert.equal(stale.body.errors[0].type, "UNPROCESSABLE");
    assert.match(stale.body.errors[0].message, /Head branch was modified/);
    assert.equal(pr.merged, false);
    const before = gh.git.tip("main");
    const r = await REST(gh, "POST", "/graphql", { query: mutation, variables: { id: pr.nodeId, oid: pr.headSha } });
    assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
    assert.deepEqual(r.body.data.mergePullRequest.pullRequest, {
      number: pr.number,
      merged: true,
      mergedAt: gh.clock.iso(),
      state: "MERGED",
    });
    assert.equal(gh.git.commitsBetween(before, "main").length, 1, "one squash commit");
    const closed = gh.events.find((e) => e.name === "pull_request" && e.action === "closed");
    assert.equal(closed.startsRuns, true, "a personal token's merge starts runs");
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("auto-merge", () => {
  const enable = `mutation arm($id: ID!) { enablePullRequestAutoMerge(input: { pullRequestId: $id, mergeMethod: SQUASH }) { pullRequest { autoMergeRequest { mergeMethod enabledBy { login } } } } }`;

  test("merges when the last required check goes green on an up-to-date head, and not before", async (t) => {
    const { gh } = await onGit(t);
    gh.setRepoSettings({ allowAutoMerge: true });
    gh.setRequiredChecks(["test", "lint"], { strict: true });
    const pr = gh.createPull({ title: "armed", head: "agent/armed", files: ["src/armed.rs"] });
    const r = await REST(gh, "POST", "/graphql", { query: enable, variables: { id: pr.nodeId } });
    assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
    assert.deepEqual(r.body.data.enablePullRequestAutoMerge.pullRequest.autoMergeRequest, {
      mergeMethod: "SQUASH",
      enabledBy: { login: gh.owner },
    });
    gh.checkRun({ number: pr.number, name: "test" });
    assert.equal(pr.merged, false, "one required check still missing");
    gh.moveBranch("main"); // the head is no longer up to date
    gh.checkRun({ number: pr.number, name: "lint" });
    assert.equal(pr.merged, false, "strict: not on the base's tip");
    gh.push(pr.number, { rebase: true });
    gh.checkRun({ number: pr.number, name: "test" });
    assert.equal(pr.merged, false, "the new head needs every required check again");
    const before = gh.git.tip("main");
    gh.checkRun({ number: pr.number, name: "lint" });
    assert.equal(pr.merged, true, "the last required check went green on an up-to-date head");
    assert.equal(pr.mergedBy, gh.owner, "merged as the one who armed it");
    assert.equal(gh.git.commitsBetween(before, "main").length, 1, "squashed");
    assert.ok(pr.timeline.some((e) => e.type === "AutoMergeEnabledEvent"));
    assert.deepEqual(gh.validationFailures, []);
  });

  test("refused where GitHub refuses it (not allowed; already clean) and disarmed when the base changes", async (t) => {
    const { gh } = await onGit(t);
    const clean = gh.createPull({ title: "clean", head: "agent/clean", files: ["src/clean.rs"] });
    const off = await REST(gh, "POST", "/graphql", { query: enable, variables: { id: clean.nodeId } });
    assert.match(off.body.errors[0].message, /Auto merge is not allowed for this repository/);
    gh.setRepoSettings({ allowAutoMerge: true, deleteBranchOnMerge: true });
    const now = await REST(gh, "POST", "/graphql", { query: enable, variables: { id: clean.nodeId } });
    assert.match(now.body.errors[0].message, /clean status/);
    const lower = gh.createPull({ title: "lower", head: "stack/lower", files: ["src/lower.rs"] });
    const upper = gh.createPull({ title: "upper", base: "stack/lower", head: "stack/upper", files: ["src/upper.rs"] });
    // Armed while it still waited on something (nothing is required of stack/lower, so arm it in the state).
    upper.autoMerge = { method: "squash", enabledBy: gh.owner, enabledAt: gh.clock.iso() };
    gh.merge(lower.number, { method: "squash" });
    assert.equal(upper.baseRef, "main");
    assert.equal(upper.autoMerge, null, "disarmed when its base changed");
    const disabled = gh.events.find((e) => e.name === "pull_request" && e.action === "auto_merge_disabled");
    assert.equal(disabled.payload.reason, "BASE_BRANCH_CHANGED");
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("push rules", () => {
  test("a ruleset refuses a force push and a deletion of main in GitHub's words (GH013), and GET rules lists them", async (t) => {
    const { gh, dir: work } = await onGit(t);
    gh.setPushRules("main", { nonFastForward: true, deletion: true });
    const dir = await clone(gh, work);
    const tip = gh.git.tip("main");
    await commitFile(dir, "x.txt", "x\n");
    await git(dir, ["push", "--quiet", "origin", "main"]);
    assert.notEqual(gh.git.tip("main"), tip, "a fast-forward is allowed");
    const ff = gh.git.tip("main");
    await git(dir, ["commit", "--quiet", "--amend", "-m", "rewritten"]);
    const forced = await git(dir, ["push", "--force", "origin", "main"], { allowFail: true });
    assert.notEqual(forced.code, 0);
    assert.match(forced.stderr, /GH013: Repository rule violations found for refs\/heads\/main/);
    assert.match(forced.stderr, /Cannot force-push to this branch/);
    const deleted = await git(dir, ["push", "origin", ":main"], { allowFail: true });
    assert.match(deleted.stderr, /Cannot delete this branch/);
    assert.equal(gh.git.tip("main"), ff);
    const rules = await REST(gh, "GET", "/repos/acme/widgets/rules/branches/main");
    assert.deepEqual(
      rules.body.map((r) => r.type),
      ["non_fast_forward", "deletion"],
    );
    assert.deepEqual(gh.validationFailures, []);
  });
});
