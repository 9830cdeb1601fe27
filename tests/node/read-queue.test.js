// The queue's reader fetches what the engine names (engine.queueReads), and nothing it parses itself:
// Start-After: on continuation lines, closing links to other repositories' issues, the teams
// CODEOWNERS names; a read that fails is an unknown fact the triage lists, never a silent false (issue 11).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../../js/node.js";
import { readBoardFacts, readLanded, readQueueFacts } from "../../lib/github/read-queue.js";
import { makeOctokit } from "../../lib/github/index.js";
import { startEmulator } from "../../emulator/index.js";

const engine = createEngine();

/** An Octokit stand-in: GraphQL answers from `issues` (number -> node), REST from `rest` (route ->
 *  params -> data, throwing to fail) or empty. `asked` lists the numbers read, `routes` the REST calls. */
function fakeOctokit({ closing = [], issues = {}, rest = {}, nodes = null }) {
  const asked = [];
  const routes = [];
  return {
    asked,
    routes,
    graphql: async (query) => {
      if (query.includes("QueuePulls")) {
        return {
          viewer: { login: "prflow[bot]" },
          repository: {
            defaultBranchRef: { name: "main", target: { oid: "tip" } },
            pullRequests: {
              pageInfo: { hasNextPage: false, endCursor: null },
              nodes: nodes ?? [
                {
                  number: 5,
                  isCrossRepository: false,
                  headRefOid: "h5",
                  autoMergeRequest: null,
                  commits: { totalCount: 1 },
                  files: { totalCount: 0 },
                  closingIssuesReferences: { nodes: closing },
                  reviewThreads: { totalCount: 0, nodes: [] },
                },
              ],
            },
          },
        };
      }
      const numbers = [...query.matchAll(/n(\d+): issueOrPullRequest/g)].map((m) => Number(m[1]));
      asked.push(...numbers);
      return { repository: Object.fromEntries(numbers.map((n) => [`n${n}`, issues[n] ?? null])) };
    },
    request: async (route, params) => {
      routes.push(route.includes("{team_slug}") ? `${route} ${params.org}/${params.team_slug}` : route);
      return { data: rest[route] ? rest[route](params) : [] };
    },
  };
}

const issue = (number, body = "") => ({ __typename: "Issue", number, state: "OPEN", body });

test("Start-After: on continuation lines is fetched: both numbers are read", async () => {
  const octokit = fakeOctokit({ issues: { 10: issue(10, "Start-After:\n#12\n#13"), 12: issue(12), 13: issue(13) } });
  const facts = { now: "2026-01-01T00:00:00Z", pullRequests: [{ number: 5, body: "Fixes #10" }] };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.ok(octokit.asked.includes(12) && octokit.asked.includes(13), `asked for ${octokit.asked}`);
  assert.deepEqual(
    facts.issues.map((i) => i.number).sort((a, b) => a - b),
    [10, 12, 13],
  );
});

test("a closing link to another repository's issue is not read as the local issue of that number", async () => {
  const foreign = { number: 13, state: "OPEN", body: "Start-After: #2", repository: { nameWithOwner: "other/repo" } };
  const octokit = fakeOctokit({ closing: [foreign], issues: { 13: issue(13, "local, not closed by #5") } });
  const facts = {
    now: "2026-01-01T00:00:00Z",
    pullRequests: [{ number: 5, body: "Closes other/repo#13\nand https://github.com/other/repo/issues/13" }],
  };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  // The reader passes the link on as GitHub gave it; the engine is the one that ignores it.
  assert.deepEqual(facts.pullRequests[0].closingIssues, [{ number: 13, source: "link", repository: "other/repo" }]);
  assert.deepEqual(facts.issues, []);
  assert.deepEqual(octokit.asked, []);
  const entry = engine.triage({ facts }).entries.find((e) => e.number === 5);
  assert.deepEqual(entry.declared.startAfter, []);
});

test("a closing link to this repository's issue is still read", async () => {
  const local = { number: 7, state: "OPEN", body: "", repository: { nameWithOwner: "Me/Here" } };
  const facts = { now: "2026-01-01T00:00:00Z", pullRequests: [{ number: 5, body: "" }] };
  const octokit = fakeOctokit({ closing: [local], issues: { 7: issue(7) } });
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.deepEqual(facts.pullRequests[0].closingIssues, [{ number: 7, source: "link", repository: "Me/Here" }]);
  assert.deepEqual(octokit.asked, [7]);
  assert.deepEqual(
    facts.issues.map((i) => i.number),
    [7],
  );
});

const MEMBERS = "GET /orgs/{org}/teams/{team_slug}/members";
const teamReads = (octokit) =>
  octokit.routes
    .filter((r) => r.startsWith(MEMBERS))
    .map((r) => r.slice(MEMBERS.length + 1))
    .sort();

test("the members read are those of the teams the engine finds in CODEOWNERS, comments left out", async () => {
  const codeowners = "# @org/commented owns nothing\n*.rs @Org/Core @alice\ndocs/ @org/docs # @org/trailing\n";
  const octokit = fakeOctokit({ rest: { [MEMBERS]: ({ team_slug }) => [{ login: `${team_slug}-lead` }] } });
  const facts = {
    now: "2026-01-01T00:00:00Z",
    requireCodeOwnerReview: true,
    codeowners,
    pullRequests: [{ number: 5, body: "" }],
  };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.deepEqual(teamReads(octokit), ["org/core", "org/docs"]);
  assert.deepEqual(facts.teamMembers, { "org/core": ["core-lead"], "org/docs": ["docs-lead"] });
});

test("no team is read while the rules do not require a code owner's review", async () => {
  const octokit = fakeOctokit({});
  const facts = { now: "2026-01-01T00:00:00Z", codeowners: "* @org/core", pullRequests: [{ number: 5, body: "" }] };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.deepEqual(teamReads(octokit), []);
});

test("a team whose members cannot be read is unknown, read once, and the triage says so", async () => {
  const octokit = fakeOctokit({
    rest: {
      [MEMBERS]: () => {
        throw Object.assign(new Error("Not Found"), { status: 404 });
      },
    },
  });
  const facts = {
    now: "2026-01-01T00:00:00Z",
    requireCodeOwnerReview: true,
    codeowners: "* @org/core",
    pullRequests: [{ number: 5, body: "" }],
  };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.deepEqual(teamReads(octokit), ["org/core"]);
  assert.ok(facts.unknown.includes("teamMembers"), JSON.stringify(facts.unknown));
  assert.ok(
    engine.triage({ facts }).warnings.some((w) => w.includes("members of a team CODEOWNERS names could not be read")),
  );
});

test("a branch the engine names is compared with the tip; a failed compare is that pull request's unknown fact", async () => {
  const queued = (n) => ({
    number: n,
    body: "",
    labels: ["merge-queued", "skip-ci"],
    baseRef: "main",
    headRef: `b${n}`,
    headSha: `h${n}`,
  });
  const node = (n) => ({
    number: n,
    isCrossRepository: false,
    headRefOid: `h${n}`,
    autoMergeRequest: null,
    commits: { totalCount: 1 },
    files: { totalCount: 0 },
    closingIssuesReferences: { nodes: [] },
    reviewThreads: { totalCount: 0, nodes: [] },
  });
  const compare = ({ basehead }) => {
    if (basehead.endsWith("h6")) throw Object.assign(new Error("Server Error"), { status: 502 });
    return { behind_by: 0 };
  };
  const octokit = fakeOctokit({
    nodes: [node(5), node(6), node(7)],
    rest: { "GET /repos/{owner}/{repo}/compare/{basehead}": compare },
  });
  const facts = { now: "2026-01-01T00:00:00Z", pullRequests: [queued(5), queued(6), { ...queued(7), labels: [] }] };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.equal(octokit.routes.filter((r) => r.includes("compare")).length, 2, "#5 and #6 once each; #7 is not queued");
  assert.equal(facts.pullRequests[0].builtOnBaseTip, true);
  assert.equal(facts.pullRequests[1].builtOnBaseTip, undefined);
  assert.ok(facts.pullRequests[1].unknown.includes("builtOnBaseTip"));
  assert.ok(
    engine
      .triage({ facts })
      .warnings.some((w) => w.startsWith("#6: whether its branch is built on the current tip could not be read")),
  );
});

test("a tip and head compared once are not compared again on the next survey; a new tip is", async () => {
  const queued = (n) => ({
    number: n,
    body: "",
    labels: ["merge-queued", "skip-ci"],
    baseRef: "main",
    headRef: `b${n}`,
    headSha: `h${n}`,
  });
  const node = (n) => ({
    number: n,
    isCrossRepository: false,
    headRefOid: `h${n}`,
    autoMergeRequest: null,
    commits: { totalCount: 1 },
    files: { totalCount: 0 },
    closingIssuesReferences: { nodes: [] },
    reviewThreads: { totalCount: 0, nodes: [] },
  });
  const octokit = fakeOctokit({
    nodes: [node(5), node(6)],
    rest: {
      "GET /repos/{owner}/{repo}/compare/{basehead}": ({ basehead }) => ({
        behind_by: basehead.endsWith("h6") ? 2 : 0,
      }),
    },
  });
  const survey = async (tip) => {
    const facts = { now: "2026-01-01T00:00:00Z", baseTipSha: tip, pullRequests: [queued(5), queued(6)] };
    await readQueueFacts(octokit, { owner: "me", repo: "tips-once", engine, facts });
    return facts.pullRequests.map((p) => p.builtOnBaseTip);
  };
  const compares = () => octokit.routes.filter((r) => r.includes("compare")).length;
  assert.deepEqual(await survey("t1"), [true, false]);
  assert.equal(compares(), 2);
  assert.deepEqual(await survey("t1"), [true, false], "the same answers, remembered");
  assert.equal(compares(), 2, "nothing asked again");
  await survey("t2");
  assert.equal(compares(), 4, "main moved: both asked again");
});

test("a failed issue read is unknown, not asked again, and no Start-After: is inherited", async () => {
  const octokit = fakeOctokit({});
  octokit.graphql = ((inner) => async (query, vars) => {
    if (query.includes("QueueNumbers")) {
      octokit.asked.push("numbers");
      throw new Error("Something went wrong");
    }
    return inner(query, vars);
  })(octokit.graphql);
  const facts = { now: "2026-01-01T00:00:00Z", pullRequests: [{ number: 5, body: "Fixes #10" }] };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.deepEqual(octokit.asked, ["numbers"]);
  assert.ok(facts.unknown.includes("issues"));
});

/** A board read against the emulator: a code owner's review required, CODEOWNERS naming a team. */
async function boardRead(t, faults = []) {
  const gh = await startEmulator({ owner: "acme", repo: "widgets" });
  t.after(() => gh.close());
  gh.setRequiredChecks(["ci"]);
  gh.setPullRequestRule({ require_code_owner_review: true });
  gh.createPull({ title: "queued", labels: ["merge-queued"] });
  for (const f of faults) gh.inject(f);
  const octokit = makeOctokit({ token: gh.appToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
  const facts = await readBoardFacts(octokit, { owner: "acme", repo: "widgets", engine });
  const rulesReads = gh.requests.filter((r) => r.path.includes("/rules/branches/")).length;
  return { gh, facts, rulesReads };
}

test("a board read reads the recent landings, each with its merged head's CI runs and their times, in one query", async (t) => {
  const gh = await startEmulator();
  t.after(() => gh.close());
  const pr = gh.createPull({ title: "landed one", author: "agent-rig", labels: ["from:m1"] });
  gh.checkRun({
    number: pr.number,
    name: "test",
    workflow: "ci",
    startedAt: "2026-01-01T00:00:00Z",
    completedAt: "2026-01-01T00:12:00Z",
  });
  gh.merge(pr.number);
  gh.createPull({ title: "open one" });
  const octokit = makeOctokit({ token: gh.appToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 });
  const facts = await readBoardFacts(octokit, { owner: "acme", repo: "widgets", engine });
  assert.deepEqual(
    facts.landed.map((l) => [l.number, l.title, l.author, l.labels]),
    [[pr.number, "landed one", "agent-rig", ["from:m1"]]],
  );
  assert.ok(facts.landed[0].mergedAt, "with when it landed");
  assert.deepEqual(
    facts.landed[0].checks.map((c) => [c.name, c.workflow, c.startedAt, c.completedAt]),
    [["test", "ci", "2026-01-01T00:00:00Z", "2026-01-01T00:12:00Z"]],
  );
  assert.ok(!facts.unknown.includes("landed"));
  assert.equal(engine.lane({ facts }).ciMinutes, 12, "the estimate is timed by that run");
  assert.deepEqual(gh.validationFailures, []);
});

test("recent landings that cannot be read are unknown, and the lane makes no estimate", async () => {
  const facts = { now: "2026-01-01T00:00:00Z", unknown: [], pullRequests: [] };
  await readLanded(
    {
      graphql: async () => {
        throw new Error("Something went wrong");
      },
    },
    { owner: "me", repo: "here", facts },
  );
  assert.deepEqual(facts.unknown, ["landed"]);
  assert.match(engine.lane({ facts }).basis, /could not be read/);
});

test("a board read asks the default branch's rules once, for the required checks and the review rule alike", async (t) => {
  const { gh, facts, rulesReads } = await boardRead(t);
  assert.equal(rulesReads, 1, "read.js and the queue's reader each read them before");
  assert.deepEqual([facts.requiredChecks, facts.requireCodeOwnerReview, facts.unknown], [["ci"], true, []]);
  assert.deepEqual(gh.validationFailures, []);
});

test("rules that cannot be read are unknown for both readings, and the triage says so", async (t) => {
  const { facts } = await boardRead(t, [{ kind: "5xx", status: 503, match: { path: "/rules/branches/" }, times: 20 }]);
  assert.ok(facts.unknown.includes("rules") && facts.unknown.includes("requiredChecks"), JSON.stringify(facts.unknown));
  assert.equal(facts.requireCodeOwnerReview, undefined, "not read as 'not required'");
  assert.ok(
    engine.triage({ facts }).warnings.some((w) => w.startsWith("the default branch's rules could not be read")),
  );
});

test("a whole-board question's reads drive the loop: its last answer names nothing and saw every read", async () => {
  // The page and `prflow status` ask `dashboard` each round (its `reads` are queueReads'); stood in
  // for here by queueReads' answer inside a view, so the loop is tested on its own.
  const octokit = fakeOctokit({ issues: { 10: issue(10, "Start-After: #12"), 12: issue(12) } });
  const facts = { now: "2026-01-01T00:00:00Z", pullRequests: [{ number: 5, body: "Fixes #10" }] };
  const answers = [];
  const ask = (f) => {
    const view = { reads: engine.queueReads({ facts: f }), issuesSeen: f.issues.map((i) => i.number) };
    answers.push(view);
    return view.reads;
  };
  const dashboardOnly = { queueReads: () => assert.fail("queueReads is not asked beside the board's own question") };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine: dashboardOnly, facts, reads: ask });
  assert.deepEqual(
    answers.map((a) => a.reads.issues),
    [[10], [12], []],
    "each round's reads are read, then asked again",
  );
  assert.deepEqual(
    answers.at(-1).issuesSeen.sort((a, b) => a - b),
    [10, 12],
    "the last answer is on the facts with everything read",
  );
});
