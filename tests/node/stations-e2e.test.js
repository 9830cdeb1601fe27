// The stations flow on the emulator, through the same shells a team would run: one pull request's
// whole life (opened by a dev machine, claimed, bounced by the AI pass, fixed, /ready, approved by a
// person, gated, ready to merge); a docs-only pull request passing the gate without the validation
// machine; a push during validation leaving the new head without a passing status. The pr-state
// workflow is played by `settle()`: read facts, reconcile, apply (what the Action does on each event).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../../js/node.js";
import { makeOctokit, readFacts } from "../../lib/github/index.js";
import { githubPort, REVIEW_EVENT } from "../../lib/stations/github-port.js";
import { claimNext } from "../../lib/stations/claim.js";
import { stationPass } from "../../lib/stations/station.js";
import { stationsConfig } from "./lib/team.js";
import { setup } from "./lib/setup.js";

const config = stationsConfig({ settleSeconds: 0 });
const engine = createEngine(config);
const OWNER = "acme";
const REPO = "widgets";
const TOKENS = {
  "agent-m1": "ghp_agentM1token000000000000000000000000",
  "review-bot": "ghp_reviewBotToken00000000000000000000000",
};
// A fake AI: prints a canned first pass, reading (and ignoring) the diff on stdin.
const BOUNCING_AI = `cat >/dev/null; printf 'BLOCKING: the new parser path has no test\\nsrc/parse.rs: add a case for empty input\\n'; true`;

/** The team's repository, a port per machine, and `settle`: the pr-state workflow run until it converges. */
async function team(t) {
  const { gh } = await setup(t, {
    owner: OWNER,
    repo: REPO,
    seed: "stations",
    tokens: TOKENS,
    users: { alice: "MEMBER" },
    config,
  });
  const octokit = (token) => makeOctokit({ token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
  const app = octokit(gh.appToken);
  const port = (login) => githubPort(octokit(TOKENS[login] ?? gh.appToken), { owner: OWNER, repo: REPO, live: true });
  /** The pr-state workflow: recompute every open pull request from facts, apply, until nothing changes. */
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      const facts = await readFacts(app, { owner: OWNER, repo: REPO });
      const plan = engine.reconcile({ facts });
      assert.deepEqual(plan.configErrors, []);
      if (!plan.ops.length) return plan;
      await githubPort(app, { owner: OWNER, repo: REPO }).apply(plan.ops, facts);
      gh.clock.advance({ seconds: 5 });
    }
    assert.fail("reconcile did not converge in three runs");
  };
  const labels = (n) => [...gh.state.pull(n).labels].sort();
  const stateOf = (n) => labels(n).filter((l) => l.startsWith("state:"));
  const tick = () => gh.clock.advance({ minutes: 1 });
  return { gh, app, port, settle, labels, stateOf, tick };
}

test("e2e: one pull request's whole life, and the station never approves", async (t) => {
  const { gh, port, settle, stateOf, labels, tick } = await team(t);
  const dev = port("agent-m1");
  // The dev machine asks what to do, and opens a pull request.
  assert.equal((await claimNext({ engine, role: "dev", machine: "m1", port: dev })).line, "new-work");
  const pr = gh.createPull({ author: "agent-m1", labels: ["from:m1"], files: ["src/parse.rs"] });
  tick();
  await settle();
  assert.deepEqual(stateOf(pr.number), ["state:ready-for-review"], "opened -> ready-for-review");

  // The station claims it and the AI first pass bounces it.
  tick();
  const pass = await stationPass({
    engine,
    machine: "m4",
    port: port("review-bot"),
    ai: BOUNCING_AI,
    prompt: "review",
    settleMs: 0,
  });
  assert.equal(pass.line, `claim #${pr.number}`);
  assert.equal(pass.blocking, true);
  tick();
  await settle();
  assert.deepEqual(stateOf(pr.number), ["state:changes-requested"], "/changes from the station -> changes-requested");
  assert.ok(labels(pr.number).includes("reviewer:m4"), "the claim stays for the next round");

  // The dev machine is told to fix it, pushes twice (no re-queue), then says /ready.
  assert.equal((await claimNext({ engine, role: "dev", machine: "m1", port: dev })).line, `fix #${pr.number}`);
  tick();
  gh.push(pr.number, { by: "agent-m1" });
  tick();
  gh.push(pr.number, { by: "agent-m1" });
  tick();
  await settle();
  assert.deepEqual(
    stateOf(pr.number),
    ["state:changes-requested"],
    "pushes while changes are requested do not re-queue",
  );
  gh.comment(pr.number, { author: "agent-m1", body: "/ready" });
  tick();
  await settle();
  assert.deepEqual(stateOf(pr.number), ["state:reviewing"], "/ready -> back to the same reviewer");

  // A person approves; the gate classifies (code: needs the machine), the machine passes.
  gh.review(pr.number, { author: "alice", state: "APPROVED" });
  tick();
  await settle();
  assert.deepEqual(stateOf(pr.number), ["state:win-verify"], "a person's approval -> the gate");
  const gate = port("win-box");
  let facts = await gate.readFacts([pr.number]);
  const classify = engine.gateClassify({ facts, number: pr.number });
  assert.equal(classify.need, true, classify.why);
  await gate.apply(classify.ops, facts);
  tick();
  facts = await gate.readFacts([pr.number]);
  const report = engine.gateReport({ facts, number: pr.number, testedSha: classify.sha, result: "success" });
  await gate.apply(report.ops, facts);
  tick();
  const final = await settle();
  assert.deepEqual(stateOf(pr.number), ["state:ready-to-merge"], "the gate's success on the head -> ready-to-merge");
  assert.equal(final.ops.length, 0, "a converged board plans nothing");

  // The record: every review the station submitted was a COMMENT.
  const stationReviews = gh.state.pull(pr.number).reviews.filter((r) => r.author === "review-bot");
  assert.ok(stationReviews.length >= 1);
  assert.deepEqual([...new Set(stationReviews.map((r) => r.state))], ["COMMENTED"]);
  const reviewPosts = gh.requests.filter((r) => r.method === "POST" && /\/pulls\/\d+\/reviews$/.test(r.path));
  assert.ok(
    reviewPosts.every((r) => r.login === "review-bot"),
    "only the station posted reviews over the API",
  );
  assert.equal(REVIEW_EVENT, "COMMENT");
  assert.deepEqual(gh.validationFailures, []);
  console.log(`e2e: ${gh.counts().total} requests; station reviews: ${stationReviews.map((r) => r.state).join(", ")}`);
});

test("e2e: a docs-only pull request passes the gate without the validation machine", async (t) => {
  const { gh, port, settle, stateOf, tick } = await team(t);
  const pr = gh.createPull({ author: "agent-m1", labels: ["from:m1"], files: ["docs/guide.md", "README.md"] });
  tick();
  await settle();
  gh.review(pr.number, { author: "alice", state: "APPROVED" });
  tick();
  const gate = port("win-box");
  const facts = await gate.readFacts([pr.number]);
  const classify = engine.gateClassify({ facts, number: pr.number });
  assert.equal(classify.run, true);
  assert.equal(classify.need, false, "docs-only: the validation machine is not needed");
  await gate.apply(classify.ops, facts);
  tick();
  await settle();
  assert.deepEqual(stateOf(pr.number), ["state:ready-to-merge"]);
  const statuses = gh.state.statusesFor(gh.state.pull(pr.number).headSha);
  assert.equal(
    statuses.find((s) => s.context === "win-verify")?.state,
    "success",
    "the gate's own status, written at classify",
  );
  assert.deepEqual(gh.validationFailures, []);
});

test("e2e: a push during validation leaves the new head's gate pending", async (t) => {
  const { gh, port, settle, stateOf, tick } = await team(t);
  const pr = gh.createPull({ author: "agent-m1", labels: ["from:m1"], files: ["src/win/path.rs"] });
  tick();
  await settle();
  gh.review(pr.number, { author: "alice", state: "APPROVED" });
  tick();
  await settle();
  const gate = port("win-box");
  let facts = await gate.readFacts([pr.number]);
  const classify = engine.gateClassify({ facts, number: pr.number });
  assert.equal(classify.need, true);
  await gate.apply(classify.ops, facts);
  const tested = classify.sha;
  // The author pushes while the machine is validating.
  tick();
  gh.push(pr.number, { by: "agent-m1" });
  tick();
  facts = await gate.readFacts([pr.number]);
  const report = engine.gateReport({ facts, number: pr.number, testedSha: tested, result: "success" });
  assert.ok(
    report.ops.every((o) => o.op === "setStatus" && o.sha === tested),
    "only a status, on the tested commit",
  );
  await gate.apply(report.ops, facts);
  tick();
  await settle();
  const head = gh.state.pull(pr.number).headSha;
  assert.notEqual(head, tested);
  const gateOn = (sha) => gh.state.statusesFor(sha).find((x) => x.context === "win-verify")?.state ?? "none";
  assert.equal(gateOn(tested), "success", "the result is recorded on the commit that was tested");
  assert.notEqual(gateOn(head), "success", "the new head has no passing gate: the required check stays pending");
  assert.deepEqual(stateOf(pr.number), ["state:ready-for-review"], "the push voided the approval");
  assert.deepEqual(gh.validationFailures, []);
});
