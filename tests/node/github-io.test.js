// lib/github against the emulator: readFacts reproduces the seeded repository as a valid Facts document
// (nested pagination included) in ceil(N/PULL_PAGE) (100) GraphQL pages + 1 REST read; the writer table writes exactly
// the ops, adds and removes named labels only, and checks each op's guard; syncLabels upserts and never
// deletes; faults are retried.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { startEmulator, MERGEABILITY_DELAY_MS } from "../../emulator/index.js";
import { makeOctokit, readFacts, applyOps, applyPlan, syncLabels, PULL_PAGE } from "../../lib/github/index.js";
import { createEngine } from "../../js/node.js";

const OWNER = "acme";
const REPO = "widgets";
const factsSchema = JSON.parse(readFileSync(new URL("../../schema/facts.schema.json", import.meta.url), "utf8"));
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat("uint64", { type: "number", validate: (n) => Number.isInteger(n) && n >= 0 });
const validateFacts = ajv.compile(factsSchema);

function assertValidFacts(facts) {
  const ok = validateFacts(JSON.parse(JSON.stringify(facts)));
  assert.ok(ok, `facts match schema/facts.schema.json: ${JSON.stringify(validateFacts.errors?.slice(0, 3))}`);
}

const octokitFor = (gh, log = () => {}, token = gh.appToken) =>
  makeOctokit({ token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, log, timeScale: 0.001 });

describe("makeOctokit points where the runner says", () => {
  const cases = [
    {
      rule: "github.com: the runner's two URLs",
      given: { baseUrl: "https://api.github.com", graphqlUrl: "https://api.github.com/graphql" },
      rest: "https://api.github.com",
      graphql: "https://api.github.com/graphql",
    },
    {
      rule: "GitHub Enterprise Server: /api/v3 → /api/graphql when no GraphQL URL is given",
      given: { baseUrl: "https://ghe.example/api/v3" },
      rest: "https://ghe.example/api/v3",
      graphql: "https://ghe.example/api/graphql",
    },
    {
      rule: "an explicit GraphQL URL wins",
      given: { baseUrl: "http://127.0.0.1:9/", graphqlUrl: "http://127.0.0.1:9/gql" },
      rest: "http://127.0.0.1:9",
      graphql: "http://127.0.0.1:9/gql",
    },
  ];
  for (const c of cases) {
    test(c.rule, () => {
      const o = makeOctokit({ token: "t", ...c.given });
      assert.deepEqual(
        { rest: o.request.endpoint.DEFAULTS.baseUrl, graphql: o.prflowGraphqlUrl },
        { rest: c.rest, graphql: c.graphql },
      );
    });
  }
});

describe("readFacts reproduces the seeded repository", () => {
  let gh;
  let facts;
  let seeded;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    gh.clock.set("2026-01-05T09:00:00Z");
    gh.user("maintainer", { association: "MEMBER" });
    for (const name of ["state:needs-human", "state:addressing", "blocker:checks"])
      gh.createLabel({ name, color: "0e8a16", description: `prflow: ${name}` });
    gh.setRequiredChecks(["test"]);
    gh.setFile("CODEOWNERS", "*.rs @acme/core\n");
    // Three pull requests, each exercising different facts.
    const a = gh.createPull({
      title: "Add parser",
      body: "Merge-After: #2",
      author: "agent-1",
      files: ["src/parser.rs", "README.md"],
      labels: ["state:needs-human"],
    });
    gh.review(a.number, { author: "alice", state: "CHANGES_REQUESTED", body: "fix it" });
    gh.clock.advance({ minutes: 1 });
    gh.push(a.number, { files: ["src/parser.rs"] });
    gh.comment(a.number, { author: "maintainer", body: "/ready" });
    gh.comment(a.number, { author: "github-actions[bot]", body: "<!-- prflow:claim key=1 -->" });
    gh.checkRun({ number: a.number, name: "test", workflow: "CI", status: "COMPLETED", conclusion: "FAILURE" });
    gh.status({ number: a.number, context: "ci/legacy", state: "error" });
    gh.requestReviewers(a.number, { reviewers: ["bob"], teams: ["core"] });
    const b = gh.createPull({ title: "Draft thing", author: "agent-2", draft: true, conflicting: true });
    gh.status({ number: b.number, context: "lint", state: "pending" });
    gh.markReady(b.number, { by: "agent-2" });
    gh.push(b.number, { force: true });
    const c = gh.createPull({ title: "Closed one", author: "agent-3" });
    gh.closePull(c.number);
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    seeded = { a: gh.state.pull(a.number), b: gh.state.pull(b.number) };
    facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
  });
  after(() => gh.close());

  test("the document validates against schema/facts.schema.json", () => assertValidFacts(facts));

  test("repository facts: viewer, default branch, labels, required checks, CODEOWNERS, GitHub's clock", () => {
    assert.deepEqual(
      {
        repository: facts.repository,
        now: facts.now,
        viewer: facts.viewer,
        defaultBranch: facts.defaultBranch,
        labels: facts.labels,
        requiredChecks: facts.requiredChecks,
        codeowners: facts.codeowners,
        unknown: facts.unknown,
      },
      {
        repository: "acme/widgets",
        now: "2026-01-05T09:02:00Z",
        viewer: "github-actions[bot]",
        defaultBranch: "main",
        labels: ["blocker:checks", "state:addressing", "state:needs-human"],
        requiredChecks: ["test"],
        codeowners: "*.rs @acme/core\n",
        unknown: [],
      },
    );
  });

  test("only open pull requests, by number", () => {
    assert.deepEqual(
      facts.pullRequests.map((p) => p.number),
      [seeded.a.number, seeded.b.number],
    );
  });

  test("pull request A: reviews bound to the old head, checks and statuses in one shape, comments with write access", () => {
    const a = facts.pullRequests[0];
    assert.deepEqual(
      {
        title: a.title,
        body: a.body,
        author: a.author,
        files: a.files,
        labels: a.labels,
        reviewRequests: a.reviewRequests,
        headSha: a.headSha,
        mergeable: a.mergeable,
        mergeStateStatus: a.mergeStateStatus,
        unknown: a.unknown,
      },
      {
        title: "Add parser",
        body: "Merge-After: #2",
        author: "agent-1",
        files: ["src/parser.rs"],
        labels: ["state:needs-human"],
        reviewRequests: ["bob", "acme/core"],
        headSha: seeded.a.headSha,
        mergeable: "MERGEABLE",
        mergeStateStatus: "BLOCKED",
        unknown: [],
      },
    );
    assert.deepEqual(
      a.reviews.map((r) => [r.author, r.state, r.commit === seeded.a.commits[0].oid, r.body]),
      [["alice", "CHANGES_REQUESTED", true, "fix it"]],
    );
    assert.deepEqual(
      a.checks.map(({ id, url, ...c }) => ({ ...c, hasId: id !== null, url })),
      [
        {
          name: "test",
          workflow: "CI",
          status: "COMPLETED",
          conclusion: "FAILURE",
          startedAt: "2026-01-05T09:01:00Z",
          completedAt: "2026-01-05T09:01:00Z",
          hasId: true,
          url: a.checks[0].url,
        },
        {
          name: "ci/legacy",
          workflow: null,
          status: "COMPLETED",
          conclusion: "ERROR",
          startedAt: "2026-01-05T09:01:00Z",
          completedAt: "2026-01-05T09:01:00Z",
          hasId: false,
          url: undefined,
        },
      ],
    );
    assert.match(
      a.checks[0].url,
      /^https:\/\/github\.com\/acme\/widgets\/actions\/runs\/\d+$/,
      "a check run's page (detailsUrl); a status without a target_url has none",
    );
    assert.deepEqual(
      a.comments.map((c) => [c.author, c.body, c.authorAssociation]),
      [
        ["maintainer", "/ready", "MEMBER"],
        ["github-actions[bot]", "<!-- prflow:claim key=1 -->", "CONTRIBUTOR"],
      ],
    );
  });

  test("pull request A: the timeline in GitHub's order with actor, time and label", () => {
    assert.deepEqual(facts.pullRequests[0].timeline, [
      { kind: "committed", at: "2026-01-05T09:00:00Z", actor: "agent-1", label: null },
      { kind: "labeled", at: "2026-01-05T09:00:00Z", actor: "agent-1", label: "state:needs-human" },
      { kind: "reviewed", at: "2026-01-05T09:00:00Z", actor: "alice", label: null },
      { kind: "committed", at: "2026-01-05T09:01:00Z", actor: "agent-1", label: null },
      { kind: "commented", at: "2026-01-05T09:01:00Z", actor: "maintainer", label: null },
      { kind: "commented", at: "2026-01-05T09:01:00Z", actor: "github-actions[bot]", label: null },
      { kind: "review_requested", at: "2026-01-05T09:01:00Z", actor: "agent-1", label: null },
      { kind: "review_requested", at: "2026-01-05T09:01:00Z", actor: "agent-1", label: null },
    ]);
  });

  test("pull request B: conflicting, pending status, ready-for-review and force-push events", () => {
    const b = facts.pullRequests[1];
    assert.deepEqual(
      {
        isDraft: b.isDraft,
        mergeable: b.mergeable,
        mergeStateStatus: b.mergeStateStatus,
        checks: b.checks.map((c) => [c.name, c.status, c.conclusion]),
        kinds: b.timeline.map((e) => e.kind),
      },
      {
        isDraft: false,
        mergeable: "CONFLICTING",
        mergeStateStatus: "DIRTY",
        checks: [],
        kinds: ["committed", "ready_for_review", "head_ref_force_pushed"],
      },
    );
  });

  test("a status set before a force push stays on the old commit", () => {
    assert.ok(gh.state.statuses.some((s) => s.context === "lint" && s.sha !== seeded.b.headSha));
  });

  test("the read spent one GraphQL page and one REST read, with no validation failure", () => {
    assert.deepEqual(facts.stats, { graphql: 1, rest: 1, followUps: 0 });
    assert.deepEqual(gh.validationFailures, []);
  });

  test("numbers: reads only those, skipping closed ones", async () => {
    const some = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO, numbers: [seeded.b.number, 3] });
    assertValidFacts(some);
    assert.deepEqual(
      some.pullRequests.map((p) => p.number),
      [seeded.b.number],
    );
    assert.deepEqual(some.stats, { graphql: 1, rest: 1, followUps: 0 });
  });

  test("mergeable reads UNKNOWN right after the base moves", async () => {
    gh.moveBranch("main");
    const f = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO, numbers: [seeded.a.number] });
    assert.equal(f.pullRequests[0].mergeable, "UNKNOWN");
    gh.clock.advance(MERGEABILITY_DELAY_MS);
  });
});

describe("nested pagination: a list longer than its page is followed for that pull request only", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
  });
  after(() => gh.close());

  test("230 files and 130 reviews on one pull request, 2 quiet ones beside it", async () => {
    const big = gh.createPull({ title: "big", files: Array.from({ length: 230 }, (_, i) => `src/f${i}.rs`) });
    for (let i = 0; i < 130; i++) gh.review(big.number, { author: `r${i}`, state: "COMMENTED" });
    gh.createPull({ title: "q1" });
    gh.createPull({ title: "q2" });
    const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
    assertValidFacts(facts);
    const p = facts.pullRequests[0];
    assert.deepEqual(
      [p.files.length, new Set(p.files).size, p.reviews.length, p.timeline.length],
      [230, 230, 130, 131],
    );
    assert.deepEqual(p.files.slice(0, 2), ["src/f0.rs", "src/f1.rs"]);
    // Page 1 holds 100 files, 50 reviews, 100 timeline items; then rounds of 100 for what still overflows:
    // files 200 / reviews 130 / timeline 131 (round 1), files 230 (round 2).
    assert.deepEqual(facts.stats, { graphql: 3, rest: 1, followUps: 2 });
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("nested pagination is batched across pull requests", () => {
  test("30 pull requests with 150 files each: 1 page + 2 follow-up queries (20 and 10 pull requests), not 30", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      for (let i = 0; i < 30; i++)
        gh.createPull({ title: `wide ${i}`, files: Array.from({ length: 150 }, (_, j) => `pkg${i}/f${j}.rs`) });
      const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
      assert.ok(
        facts.pullRequests.every((p) => p.files.length === 150 && p.files[149] === `pkg${p.number - 1}/f99.rs`),
        "files by path, as git and GitHub list them",
      );
      assert.deepEqual(facts.stats, { graphql: 3, rest: 1, followUps: 2 });
      assert.deepEqual(gh.validationFailures, []);
    } finally {
      await gh.close();
    }
  });
});

describe("nested pagination of the other lists", () => {
  test("120 checks, 60 labels, 60 comments and 30 review requests on one pull request are all read", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      const pr = gh.createPull({ title: "busy" });
      for (let i = 0; i < 120; i++) gh.checkRun({ number: pr.number, name: `job-${i}`, workflow: `wf-${i % 3}` });
      gh.addLabels(
        pr.number,
        Array.from({ length: 60 }, (_, i) => `area:${i}`),
      );
      for (let i = 0; i < 60; i++) gh.comment(pr.number, { author: `c${i}`, body: `comment ${i}` });
      gh.requestReviewers(pr.number, { reviewers: Array.from({ length: 30 }, (_, i) => `rev${i}`) });
      const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
      assertValidFacts(facts);
      const p = facts.pullRequests[0];
      assert.deepEqual(
        [p.checks.length, p.labels.length, p.comments.length, p.reviewRequests.length, p.unknown],
        [120, 60, 60, 30, []],
      );
      assert.deepEqual(p.comments.map((c) => c.body).slice(58), ["comment 58", "comment 59"], "oldest first, in order");
      assert.deepEqual(gh.validationFailures, []);
    } finally {
      await gh.close();
    }
  });
});

describe("numbers: named pull requests in chunks of PULL_PAGE", () => {
  test("220 named pull requests are 3 GraphQL queries of PULL_PAGE; unknown numbers and issues are left out", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      for (let i = 0; i < 220; i++) gh.createPull({ title: `p${i}` });
      const issue = gh.createIssue({ title: "board" });
      const numbers = [...Array.from({ length: 220 }, (_, i) => i + 1), issue.number, 999];
      const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO, numbers });
      assert.equal(facts.pullRequests.length, 220);
      assert.deepEqual(facts.stats, { graphql: 3, rest: 1, followUps: 0 });
      assert.deepEqual(facts.unknown, []);
      assert.deepEqual(gh.validationFailures, []);
    } finally {
      await gh.close();
    }
  });
});

describe("request counts per sweep", () => {
  for (const n of [10, 100, 1000]) {
    test(`${n} open pull requests: ceil(${n}/${PULL_PAGE}) GraphQL pages + 1 REST read, within GitHub's limits`, async () => {
      const gh = await startEmulator({ owner: OWNER, repo: REPO });
      try {
        gh.setRequiredChecks(["test"]);
        for (let i = 0; i < n; i++) {
          const pr = gh.createPull({ title: `pr ${i}`, labels: ["state:needs-human"] });
          gh.checkRun({ number: pr.number, name: "test" });
        }
        const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
        const counts = gh.counts();
        const pages = Math.ceil(n / PULL_PAGE);
        assert.equal(facts.pullRequests.length, n);
        assert.deepEqual(
          { graphql: counts.graphql, rest: counts.rest, writes: counts.writes },
          { graphql: pages, rest: 1, writes: 0 },
        );
        const costs = gh.requests.filter((r) => r.path === "/graphql").map((r) => [r.cost, r.nodes]);
        for (const [cost, nodes] of costs)
          assert.ok(nodes <= 50_000 && cost <= 10, `page inside limits: ${nodes} nodes, cost ${cost}`);
        assert.deepEqual(gh.validationFailures, []);
        console.log(
          `sweep of ${n}: ${counts.total} requests (${counts.graphql} GraphQL + ${counts.rest} REST); a page is ${costs[0][1]} nodes, cost ${costs[0][0]} points`,
        );
      } finally {
        await gh.close();
      }
    });
  }
});

describe("the writer table writes exactly the ops, adding and removing named labels only", () => {
  let gh;
  let octokit;
  const lines = [];
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    for (const name of ["state:needs-human", "state:addressing", "blocker:checks", "merge-next", "needs-discussion"])
      gh.createLabel({ name });
    gh.createPull({ title: "1", labels: ["state:addressing", "merge-next"] });
    gh.createPull({ title: "2", labels: ["state:needs-human"] });
    gh.createPull({ title: "3", labels: ["state:needs-human", "blocker:checks"] });
    gh.createPull({ title: "4" });
    octokit = octokitFor(gh, (l) => lines.push(l));
  });
  after(() => gh.close());

  const change = (label) => ({ label, reason: `because ${label}` });
  const plan = {
    ops: [
      {
        op: "editLabels",
        number: 1,
        add: [change("state:needs-human")],
        remove: [change("state:addressing")],
        reason: "round done",
      },
      { op: "editLabels", number: 2, add: [change("blocker:checks")], remove: [], reason: "checks fail" },
      { op: "editLabels", number: 3, add: [], remove: [change("blocker:checks")], reason: "checks pass" },
      { op: "requestReviewers", number: 4, reviewers: ["alice", "acme/core"], reason: "round starts" },
      { op: "mergeRightNow", number: 4, reason: "no such op" },
    ],
  };
  // Each op: the requests it makes, and the labels after it.
  const expected = [
    {
      outcome: "applied",
      requests: [
        "POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
        "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
      ],
      labels: ["merge-next", "state:needs-human"],
    },
    {
      outcome: "applied",
      requests: ["POST /repos/{owner}/{repo}/issues/{issue_number}/labels"],
      labels: ["state:needs-human", "blocker:checks"],
    },
    {
      outcome: "applied",
      requests: ["DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}"],
      labels: ["state:needs-human"],
    },
    {
      outcome: "applied",
      requests: ["POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers"],
      labels: [],
    },
    { outcome: "failed", requests: [], labels: [] },
  ];

  test("a dry run reads and writes nothing and says what it would do", async () => {
    gh.reset();
    const results = await applyPlan(octokit, plan, { owner: OWNER, repo: REPO, live: false });
    assert.deepEqual(
      results.map((r) => r.outcome),
      ["dry-run", "dry-run", "dry-run", "dry-run", "failed"],
    );
    assert.equal(results[0].detail, "would +state:needs-human -state:addressing");
    assert.match(results[4].detail, /no writer for "mergeRightNow"/);
    assert.equal(gh.requests.length, 0);
  });

  test("live: each op makes only its own requests, the labels end as planned, nothing else is written", async () => {
    gh.reset();
    const results = await applyPlan(octokit, plan, { owner: OWNER, repo: REPO, live: true });
    assert.deepEqual(
      results.map((r) => r.outcome),
      expected.map((e) => e.outcome),
    );
    assert.deepEqual(
      gh.requests.map((r) => `${r.method} ${r.operation}`),
      expected.flatMap((e) => e.requests),
    );
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => gh.state.pull(n).labels),
      expected.slice(0, 4).map((e) => e.labels),
    );
    assert.deepEqual(gh.state.pull(4).reviewRequests, [
      { type: "User", login: "alice" },
      { type: "Team", slug: "core" },
    ]);
    assert.deepEqual(gh.validationFailures, []);
  });

  test("the edit records both label events, by the token's account", () => {
    const events = gh.state
      .pull(1)
      .timeline.filter((e) => /Labeled|Unlabeled/.test(e.type))
      .slice(-2);
    assert.deepEqual(
      events.map((e) => [e.type, e.label, e.actor]),
      [
        ["LabeledEvent", "state:needs-human", "github-actions[bot]"],
        ["UnlabeledEvent", "state:addressing", "github-actions[bot]"],
      ],
    );
  });

  test("no write replaces the label set: a label a person adds between prflow's read and its write survives", async () => {
    // #1 carries merge-next and state:needs-human; prflow swaps the state label. Just before its first
    // label write reaches GitHub, a person adds needs-discussion (a full-set PATCH would erase it).
    gh.reset();
    let added = false;
    const person = async (options) => {
      if (!added && options.method !== "GET" && /\/labels/.test(options.url)) {
        added = true;
        gh.addLabels(1, ["needs-discussion"], { by: "alice" });
      }
    };
    octokit.hook.before("request", person);
    try {
      const results = await applyPlan(
        octokit,
        {
          ops: [
            {
              op: "editLabels",
              number: 1,
              add: [change("state:addressing")],
              remove: [change("state:needs-human")],
              reason: "r",
              guard: { head: gh.state.pull(1).headSha },
            },
          ],
        },
        { owner: OWNER, repo: REPO, live: true },
      );
      assert.equal(results[0].outcome, "applied", results[0].detail);
    } finally {
      octokit.hook.remove("request", person);
    }
    assert.ok(added, "the person's label went in between");
    assert.deepEqual(gh.state.pull(1).labels.sort(), ["merge-next", "needs-discussion", "state:addressing"]);
    assert.deepEqual(
      gh.requests.map((r) => `${r.method} ${r.operation}`),
      [
        "GET /repos/{owner}/{repo}/pulls/{pull_number}",
        "POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
        "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
      ],
      "the guard's one read, then an addition and a removal: no PUT or PATCH of the set",
    );
  });

  test("a moved head fails the guard: that op and the later ones on the same pull request are not written, others are", async () => {
    const before = gh.state.pull(2).labels.slice();
    const seen = gh.state.pull(2).headSha;
    gh.push(2, { by: "agent-1" });
    gh.reset();
    const results = await applyPlan(
      octokit,
      {
        ops: [
          { op: "editLabels", number: 2, add: [change("merge-next")], remove: [], reason: "r", guard: { head: seen } },
          { op: "requestReviewers", number: 2, reviewers: ["alice"], reason: "r" },
          {
            op: "editLabels",
            number: 3,
            add: [change("merge-next")],
            remove: [],
            reason: "r",
            guard: { head: gh.state.pull(3).headSha },
          },
        ],
      },
      { owner: OWNER, repo: REPO, live: true },
    );
    assert.deepEqual(
      results.map((r) => r.outcome),
      ["guard-failed", "guard-failed", "applied"],
    );
    assert.match(
      results[0].detail,
      new RegExp(`the head moved from ${seen.slice(0, 7)} to ${gh.state.pull(2).headSha.slice(0, 7)}`),
    );
    assert.match(results[1].detail, /an earlier write to #2 failed its guard/);
    assert.deepEqual(gh.state.pull(2).labels, before, "nothing written to #2");
    assert.ok(gh.state.pull(3).labels.includes("merge-next"));
    assert.deepEqual(
      gh.requests.filter((r) => r.method !== "GET").map((r) => r.path),
      [`/repos/${OWNER}/${REPO}/issues/3/labels`],
    );
  });

  test("labels that must still be on (or off) guard a write; GitHub's case rule applies", async () => {
    const results = await applyPlan(
      octokit,
      {
        ops: [
          {
            op: "editLabels",
            number: 3,
            add: [change("blocker:checks")],
            remove: [],
            reason: "r",
            guard: { labelsOn: ["State:Needs-Human"], labelsOff: ["merge-next"] },
          },
          {
            op: "editLabels",
            number: 4,
            add: [change("blocker:checks")],
            remove: [],
            reason: "r",
            guard: { labelsOn: ["merge-next"] },
          },
        ],
      },
      { owner: OWNER, repo: REPO, live: true },
    );
    assert.deepEqual(
      results.map((r) => [r.outcome, r.detail]),
      [
        ["guard-failed", "merge-next was put on"],
        ["guard-failed", "merge-next was taken off"],
      ],
    );
  });

  test("a failing op is reported and later ops still run", async () => {
    gh.reset();
    gh.inject({ kind: "5xx", match: { method: "POST", path: "/issues/2/labels" }, times: 10 });
    const results = await applyPlan(
      octokit,
      { ops: [plan.ops[1], plan.ops[3]] },
      { owner: OWNER, repo: REPO, live: true },
    );
    assert.deepEqual(
      results.map((r) => r.outcome),
      ["failed", "applied"],
    );
    assert.match(results[0].detail, /^502 /);
  });
});

describe("the writer table carries the merge queue worker's writes", () => {
  let gh;
  let octokit;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    gh.setRepoSettings({ allowAutoMerge: true });
    gh.setRequiredChecks(["ci"]);
    gh.createPull({ title: "queued" });
    octokit = octokitFor(gh);
  });
  after(() => gh.close());
  const apply = (ops, options = {}) => applyOps(octokit, ops, { owner: OWNER, repo: REPO, live: true, ...options });

  test("auto-merge is armed at the head it expects, refused once the head moved, and disarmed", async () => {
    const head = gh.state.pull(1).headSha;
    const [armed] = await apply([
      { op: "armAutoMerge", number: 1, method: "SQUASH", reason: "green", guard: { head } },
    ]);
    assert.deepEqual([armed.outcome, gh.state.pull(1).autoMerge?.method], ["applied", "squash"], armed.detail);
    const [off] = await apply([{ op: "disarmAutoMerge", number: 1, reason: "r" }]);
    assert.deepEqual([off.outcome, gh.state.pull(1).autoMerge], ["applied", null]);
    gh.push(1, { by: "agent-1" });
    const [stale] = await apply([
      { op: "armAutoMerge", number: 1, method: "SQUASH", reason: "green", guard: { head } },
    ]);
    assert.equal(stale.outcome, "guard-failed");
    assert.equal(gh.state.pull(1).autoMerge, null, "not armed on a head nobody checked");
    assert.deepEqual(gh.validationFailures, []);
  });

  test("issues are opened, edited and closed, never with a label set", async () => {
    const [opened] = await apply([
      {
        op: "createIssue",
        title: "t",
        body: "<!-- prflow:unowned pr=1 -->\nb",
        marker: "<!-- prflow:unowned pr=1 -->",
        reason: "r",
      },
    ]);
    assert.equal(opened.outcome, "applied");
    const n = opened.created;
    const [closed] = await apply([{ op: "editIssue", number: n, body: "resolved", state: "closed", reason: "r" }]);
    assert.equal(closed.outcome, "applied");
    assert.deepEqual([gh.state.pull(n).body, gh.state.pull(n).state], ["resolved", "closed"]);
  });

  test("git ops go to the git port the worker gives, whose lease is the guard; without one they fail in words", async () => {
    const op = { op: "push", number: 1, branch: "topic", lease: "abc", reason: "r" };
    const [none] = await apply([op]);
    assert.deepEqual([none.outcome, none.detail], ["failed", "no git here: only the queue worker applies push"]);
    const seen = [];
    const git = {
      pushOp: async (o) => (seen.push(o), { outcome: "lease-lost", detail: "the lease was lost: topic moved" }),
    };
    gh.reset();
    const [lost, after] = await apply(
      [op, { op: "editLabels", number: 1, add: [], remove: [{ label: "skip-ci", reason: "r" }], reason: "r" }],
      { git },
    );
    assert.deepEqual(
      [lost.outcome, after.outcome],
      ["lease-lost", "guard-failed"],
      "skip-ci stays on when the push did not land",
    );
    assert.deepEqual(seen, [op]);
    assert.equal(gh.requests.length, 0, "git's lease is the check: no REST read, no write");
  });
});

describe("faults during a sweep are retried and the run converges", () => {
  const faults = [
    { rule: "a 5xx on the first GraphQL page", fault: { kind: "5xx", match: { graphql: "prflowSweep" }, times: 2 } },
    {
      rule: "a secondary rate limit on the GraphQL page",
      fault: { kind: "secondary-rate-limit", match: { graphql: "prflowSweep" }, retryAfter: 3 },
    },
    { rule: "a 429 on the rules read", fault: { kind: "429", match: { path: "/rules/" }, retryAfter: 1 } },
    { rule: "a slow GraphQL page", fault: { kind: "slow", match: { graphql: "prflowSweep" }, delayMs: 30 } },
    {
      rule: "a secondary rate limit on a label write",
      fault: { kind: "secondary-rate-limit", match: { method: "POST" }, retryAfter: 2 },
    },
  ];
  for (const c of faults) {
    test(c.rule, async () => {
      const gh = await startEmulator({ owner: OWNER, repo: REPO });
      try {
        gh.createLabel({ name: "blocker:checks" });
        for (let i = 0; i < 3; i++) gh.createPull({ title: `p${i}` });
        const lines = [];
        const octokit = octokitFor(gh, (l) => lines.push(l));
        const f = gh.inject(c.fault);
        const facts = await readFacts(octokit, { owner: OWNER, repo: REPO });
        assert.equal(facts.pullRequests.length, 3);
        assert.deepEqual(facts.unknown, []);
        const results = await applyPlan(
          octokit,
          {
            ops: [
              { op: "editLabels", number: 2, add: [{ label: "blocker:checks", reason: "r" }], remove: [], reason: "r" },
            ],
          },
          { owner: OWNER, repo: REPO, live: true, facts },
        );
        assert.equal(results[0].outcome, "applied");
        assert.deepEqual(gh.state.pull(2).labels, ["blocker:checks"]);
        assert.equal(f.hits, c.fault.times ?? 1, "the fault fired");
        if (c.fault.kind !== "slow")
          assert.ok(
            lines.some((l) => l.startsWith("GitHub answered")),
            "the retry left a log line",
          );
      } finally {
        await gh.close();
      }
    });
  }

  test("a page that keeps failing on GitHub's side is asked again at half the size", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      // A board of one full page and a bit: PULL_PAGE + 10.
      const n = PULL_PAGE + 10;
      for (let i = 0; i < n; i++) gh.createPull({ title: `p${i}` });
      const lines = [];
      // 4 failures outlast the client's 3 retries of the first page.
      gh.inject({ kind: "5xx", match: { graphql: "prflowSweep" }, times: 4 });
      const log = (l) => lines.push(l);
      const facts = await readFacts(octokitFor(gh, log), { owner: OWNER, repo: REPO, log });
      assert.equal(PULL_PAGE, 100);
      assert.equal(facts.pullRequests.length, n);
      assert.deepEqual(
        facts.pullRequests.map((p) => p.number),
        Array.from({ length: n }, (_, i) => i + 1),
      );
      assert.ok(lines.some((l) => l.endsWith("asking again 50 at a time")));
      // 4 failed attempts, then pages of 50: 50 + 50 + 10.
      assert.equal(gh.counts().graphql, 4 + 3);
      const sizes = gh.requests.filter((r) => r.path === "/graphql" && !r.faulted).map((r) => r.nodes);
      assert.ok(
        sizes.every((nodes) => nodes < 47_800 / 2 + 1_000),
        `the pages after the failures are half size: ${sizes}`,
      );
    } finally {
      await gh.close();
    }
  });

  test("a failed read of the label set is `unknown`, not an empty set", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      gh.createLabel({ name: "state:needs-human" });
      gh.createPull({ title: "p", labels: ["state:needs-human"] });
      gh.inject({ kind: "labels-read-fails" });
      const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
      assertValidFacts(facts);
      assert.deepEqual(
        { labels: facts.labels, unknown: facts.unknown, prLabels: facts.pullRequests[0].labels },
        { labels: [], unknown: ["labels"], prLabels: ["state:needs-human"] },
      );
    } finally {
      await gh.close();
    }
  });

  test("a pull request's list that fails to read is that pull request's `unknown`, the others are whole", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      for (let i = 0; i < 3; i++) gh.createPull({ title: `p${i}`, files: [`f${i}`] });
      gh.inject({ kind: "field-fails", field: "files", times: 1 });
      gh.inject({ kind: "field-fails", field: "reviews", times: 1 });
      const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
      assertValidFacts(facts);
      assert.deepEqual(
        facts.pullRequests.map((p) => [p.number, p.files, p.unknown]),
        [
          [1, [], ["reviews", "files"]],
          [2, ["f1"], []],
          [3, ["f2"], []],
        ],
      );
    } finally {
      await gh.close();
    }
  });

  test("required checks are classic protection's and the rulesets', together", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      gh.setBranchProtection(["ci/legacy", "test"]);
      gh.setRequiredChecks(["test", "lint"]);
      const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
      assert.deepEqual(
        { requiredChecks: facts.requiredChecks, unknown: facts.unknown, stats: facts.stats },
        { requiredChecks: ["ci/legacy", "test", "lint"], unknown: [], stats: { graphql: 1, rest: 1, followUps: 0 } },
      );
    } finally {
      await gh.close();
    }
  });

  test("a failed read of the rules is `unknown: requiredChecks` and `rules` (the review rule unread too)", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      gh.inject({ kind: "5xx", match: { path: "/rules/" }, times: 100 });
      const facts = await readFacts(octokitFor(gh), { owner: OWNER, repo: REPO });
      assert.deepEqual(facts.unknown, ["requiredChecks", "rules"]);
      assert.equal(facts.requireCodeOwnerReview, undefined);
    } finally {
      await gh.close();
    }
  });
});

describe("syncLabels upserts the catalogue and never deletes", () => {
  let gh;
  let octokit;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    gh.createLabel({ name: "State:Needs-Human", color: "000000", description: "old words" });
    gh.createLabel({ name: "state:retired", color: "ededed", description: "prflow: no longer used" });
    gh.createLabel({ name: "bug", color: "d73a4a", description: "Something isn't working" });
    octokit = octokitFor(gh);
  });
  after(() => gh.close());

  const wanted = [
    { name: "state:needs-human", color: "0e8a16", description: "prflow sets it: a human's turn to review" },
    { name: "blocker:checks", color: "b60205", description: "prflow sets it: a required check fails" },
    { name: "too:long", color: "b60205", description: "x".repeat(101) },
  ];
  const decide = (labels) => (existing) =>
    createEngine().labelSync({ catalog: { configErrors: [], labels, ownerMark: "prflow" }, existing });

  test("dry run: says what it would do, writes nothing", async () => {
    gh.reset();
    const { results } = await syncLabels(octokit, { owner: OWNER, repo: REPO, decide: decide(wanted), live: false });
    assert.deepEqual(
      results.map((r) => r.status),
      ["would update", "would create", "failed"],
    );
    assert.equal(gh.counts().writes, 0);
  });

  test("live: creates, updates (name case, colour, words), refuses a description over 100 characters, reports unused", async () => {
    gh.reset();
    const { results, unused } = await syncLabels(octokit, {
      owner: OWNER,
      repo: REPO,
      decide: decide(wanted),
      live: true,
    });
    assert.deepEqual(
      results.map((r) => [r.name, r.status]),
      [
        ["state:needs-human", "updated"],
        ["blocker:checks", "created"],
        ["too:long", "failed"],
      ],
    );
    assert.match(results[2].detail, /101 characters; GitHub allows at most 100/);
    assert.deepEqual(unused, ["state:retired"], "made by prflow, no longer wanted; `bug` is not ours");
    assert.deepEqual(gh.state.label("state:needs-human"), {
      ...gh.state.label("state:needs-human"),
      name: "state:needs-human",
      color: "0e8a16",
      description: wanted[0].description,
    });
    assert.ok(gh.state.label("state:retired"), "never deleted");
    assert.deepEqual(gh.validationFailures, []);
  });

  test("a second run changes nothing", async () => {
    gh.reset();
    const { results } = await syncLabels(octokit, {
      owner: OWNER,
      repo: REPO,
      decide: decide(wanted.slice(0, 2)),
      live: true,
    });
    assert.deepEqual(
      results.map((r) => r.status),
      ["unchanged", "unchanged"],
    );
    assert.equal(gh.counts().writes, 0);
  });
});
