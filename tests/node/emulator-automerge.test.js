// Auto-merge waits for what the ruleset's pull_request rule asks (approvals, code owners, resolved
// conversations) as well as the checks, and GitHub's native stacks refuse it in GitHub's words.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { startEmulator, MERGEABILITY_DELAY_MS } from "../../emulator/index.js";

const enable = `mutation arm($id: ID!) { enablePullRequestAutoMerge(input: { pullRequestId: $id, mergeMethod: SQUASH }) { pullRequest { number } } }`;
const graphql = (gh, query, variables) =>
  fetch(gh.graphqlUrl, {
    method: "POST",
    headers: { authorization: `token ${gh.personalToken}`, "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  }).then((r) => r.json());

async function armed(t, rule, { files = ["src/a.rs"], prepare = () => {} } = {}) {
  const gh = await startEmulator();
  t.after(() => gh.close());
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(["test"]);
  gh.setPullRequestRule(rule);
  gh.user("alice", { association: "MEMBER" });
  gh.user("bob", { association: "MEMBER" });
  gh.user("outsider");
  prepare(gh);
  const pr = gh.createPull({ title: "p", files });
  gh.advance(MERGEABILITY_DELAY_MS);
  const r = await graphql(gh, enable, { id: pr.nodeId });
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  gh.checkRun({ number: pr.number, name: "test" });
  return { gh, pr };
}

describe("auto-merge waits for the pull_request rule", () => {
  test("approvals: only a reviewer with write access counts; merges at the approval that completes the count", async (t) => {
    const { gh, pr } = await armed(t, { required_approving_review_count: 2 });
    assert.equal(pr.merged, false, "checks green, no approval");
    assert.equal(gh.state.mergeStateStatus(pr), "BLOCKED");
    gh.review(pr.number, { author: "alice" });
    gh.review(pr.number, { author: "outsider" });
    gh.review(pr.number, { author: pr.author });
    assert.equal(pr.merged, false, "one write-access approval of two; an outsider's and the author's do not count");
    assert.deepEqual(gh.state.reviewRequirements(pr), [
      "At least 2 approving reviews are required by reviewers with write access.",
    ]);
    gh.review(pr.number, { author: "bob" });
    assert.equal(pr.merged, true);
    assert.deepEqual(gh.validationFailures, []);
  });

  test("stale approvals are dismissed on push when the rule says so", async (t) => {
    const { gh, pr } = await armed(t, { required_approving_review_count: 1, dismiss_stale_reviews_on_push: true });
    gh.setRequiredChecks(["test", "later"]); // holds it while alice approves the first head
    gh.review(pr.number, { author: "alice" });
    gh.push(pr.number);
    gh.checkRun({ number: pr.number, name: "test" });
    gh.checkRun({ number: pr.number, name: "later" });
    assert.equal(pr.merged, false, "the approval was for the old head");
    gh.review(pr.number, { author: "alice" });
    assert.equal(pr.merged, true);
  });

  test("code owners: a changed file's owner (a user, or a team's member) must approve", async (t) => {
    const prepare = (gh) => {
      gh.setFile(".github/CODEOWNERS", "* @acme\n/src/ @acme/core\n*.md @bob\n");
      gh.state.teamMembers = { core: ["alice"] };
    };
    const { gh, pr } = await armed(
      t,
      { require_code_owner_review: true },
      { files: ["src/a.rs", "docs/x.md"], prepare },
    );
    assert.equal(pr.merged, false);
    assert.deepEqual(
      gh.state.reviewRequirements(pr),
      ["Waiting on code owner review from @bob, @acme/core."],
      "owners in the order of the changed files, by path (docs/ before src/)",
    );
    gh.review(pr.number, { author: "bob" });
    assert.equal(pr.merged, false, "docs/x.md is owned; src/ still waits on core");
    gh.review(pr.number, { author: "alice" });
    assert.equal(pr.merged, true, "alice is in core");
    assert.deepEqual(gh.validationFailures, []);
  });

  test("conversations: every review thread resolved when the rule requires it", async (t) => {
    const gh = await startEmulator();
    t.after(() => gh.close());
    gh.setRepoSettings({ allowAutoMerge: true });
    gh.setRequiredChecks(["test"]);
    gh.setPullRequestRule({ required_review_thread_resolution: true });
    const pr = gh.createPull({ title: "p" });
    gh.reviewThread(pr.number, { author: "alice", body: "why?" });
    gh.reviewThread(pr.number, { author: "alice", body: "and this?" });
    gh.state.enableAutoMerge(pr.number, { method: "squash" });
    gh.checkRun({ number: pr.number, name: "test" });
    gh.advance(MERGEABILITY_DELAY_MS);
    assert.equal(pr.merged, false);
    const merge = await fetch(`${gh.url}/repos/acme/widgets/pulls/${pr.number}/merge`, {
      method: "PUT",
      headers: { authorization: `token ${gh.personalToken}`, "content-type": "application/json" },
      body: JSON.stringify({ merge_method: "squash" }),
    });
    assert.equal(merge.status, 405, "a merge by hand is refused too");
    assert.match((await merge.json()).message, /All comments must be resolved/);
    gh.resolveThread(pr.number, 0);
    assert.equal(pr.merged, false, "one conversation still open");
    gh.resolveThread(pr.number, 1);
    assert.equal(pr.merged, true);
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("GitHub's native stacks", () => {
  test("auto-merge is refused on a stacked pull request, in GitHub's words, before and after the layer below merges", async (t) => {
    const gh = await startEmulator();
    t.after(() => gh.close());
    gh.setRepoSettings({ allowAutoMerge: true, deleteBranchOnMerge: true });
    gh.setRequiredChecks(["test"]);
    const lower = gh.createPull({ title: "lower", head: "stack/lower" });
    const upper = gh.createPull({ title: "upper", base: "stack/lower", head: "stack/upper" });
    const plain = gh.createPull({ title: "plain", base: "stack/lower", head: "plain/upper" });
    gh.createStack([lower.number, upper.number]);
    const refused = await graphql(gh, enable, { id: upper.nodeId });
    assert.equal(refused.errors[0].message, "Auto-merge is not supported for stacked pull requests");
    assert.equal(upper.autoMerge ?? null, null);
    const onPlain = await graphql(gh, enable, { id: plain.nodeId });
    assert.match(
      onPlain.errors[0].message,
      /clean status/,
      "a pull request merely based on another branch is no native stack",
    );
    gh.checkRun({ number: lower.number, name: "test" });
    gh.merge(lower.number, { method: "squash" });
    assert.equal(upper.baseRef, "main", "retargeted");
    const after = await graphql(gh, enable, { id: upper.nodeId });
    assert.equal(
      after.errors[0].message,
      "Auto-merge is not supported for stacked pull requests",
      "still in the stack after the layer below merged",
    );
    assert.deepEqual(gh.validationFailures, []);
  });

  test("a pull request with auto-merge armed cannot join a stack", async (t) => {
    const gh = await startEmulator();
    t.after(() => gh.close());
    gh.setRepoSettings({ allowAutoMerge: true });
    gh.setRequiredChecks(["test"]);
    const a = gh.createPull({ title: "a" });
    const b = gh.createPull({ title: "b", base: a.headRef });
    gh.state.enableAutoMerge(a.number, { method: "squash" });
    assert.throws(() => gh.createStack([a.number, b.number]), /cannot be added to a stack: it has auto-merge enabled/);
  });
});

describe("timeline and webhooks for all of it", () => {
  test("merged, auto-merge enabled/disabled, base ref changed, force push, labels, closed: in the timeline and as webhooks shaped like GitHub's", async (t) => {
    const gh = await startEmulator();
    t.after(() => gh.close());
    gh.ci.register({
      name: "CI",
      jobs: [{ name: "test", minutes: 5 }],
      aggregate: "ci-ok",
      guard: "no-skip-ci-label",
      branches: ["main"],
    });
    gh.setRepoSettings({ allowAutoMerge: true, deleteBranchOnMerge: true });
    gh.setRequiredChecks(["ci-ok", "no-skip-ci-label"]);
    const lower = gh.createPull({ title: "lower", head: "stack/lower", labels: ["skip-ci"] });
    // A draft: nothing is required on stack/lower, so only being a draft keeps it from merging at once.
    const upper = gh.createPull({ title: "upper", base: "stack/lower", head: "stack/upper", draft: true });
    gh.push(upper.number, { force: true });
    gh.state.enableAutoMerge(upper.number, { method: "squash" });
    gh.state.enableAutoMerge(lower.number, { method: "squash" });
    gh.removeLabels(lower.number, ["skip-ci"]);
    gh.runUntilIdle();
    assert.equal(lower.merged, true, "CI went green: auto-merge landed it");
    assert.equal(upper.baseRef, "main");
    const q = `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { timelineItems(first: 50) { nodes {
      __typename
      ... on MergedEvent { mergeRefName }
      ... on AutoMergeEnabledEvent { enabler { login } }
      ... on AutoMergeDisabledEvent { reasonCode disabler { login } }
      ... on BaseRefChangedEvent { previousRefName currentRefName }
      ... on HeadRefForcePushedEvent { beforeCommit { oid } afterCommit { oid } }
      ... on LabeledEvent { label { name } }
      ... on UnlabeledEvent { label { name } }
      ... on ClosedEvent { url }
    } } } } }`;
    const types = async (n) =>
      (await graphql(gh, q, { n })).data.repository.pullRequest.timelineItems.nodes.map((x) => x.__typename);
    const lowerTypes = await types(lower.number);
    for (const type of [
      "LabeledEvent",
      "UnlabeledEvent",
      "AutoMergeEnabledEvent",
      "MergedEvent",
      "ClosedEvent",
      "HeadRefDeletedEvent",
    ])
      assert.ok(lowerTypes.includes(type), `${type} in ${lowerTypes}`);
    const upperTimeline = (await graphql(gh, q, { n: upper.number })).data.repository.pullRequest.timelineItems.nodes;
    assert.deepEqual(upperTimeline.find((x) => x.__typename === "HeadRefForcePushedEvent").afterCommit, {
      oid: upper.headSha,
    });
    assert.deepEqual(
      upperTimeline.find((x) => x.__typename === "AutoMergeDisabledEvent").reasonCode,
      "BASE_BRANCH_CHANGED",
    );
    assert.deepEqual(
      upperTimeline.find((x) => x.__typename === "BaseRefChangedEvent"),
      { __typename: "BaseRefChangedEvent", previousRefName: "stack/lower", currentRefName: "main" },
    );
    const sent = new Set(gh.events.map((e) => `${e.name}${e.action ? `.${e.action}` : ""}`));
    for (const name of [
      "push",
      "pull_request.synchronize",
      "pull_request.labeled",
      "pull_request.unlabeled",
      "pull_request.closed",
      "pull_request.auto_merge_enabled",
      "pull_request.auto_merge_disabled",
      "pull_request.edited",
      "check_suite.completed",
      "check_run.created",
      "check_run.completed",
    ]) {
      assert.ok(sent.has(name), `${name} sent`);
    }
    const push = gh.events.find((e) => e.name === "push" && e.payload.ref === "refs/heads/main");
    assert.equal(push.payload.head_commit.id, lower.mergeCommitSha);
    assert.equal(gh.ci.runs.filter((r) => r.event === "push").length, 1, "the base's push ran the workflow on main");
    // Every payload carried every field of GitHub's own payload for the same event and action (emulator/webhooks.js).
    assert.deepEqual(gh.validationFailures, []);
  });
});
