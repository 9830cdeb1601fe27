// The GitHub emulator keeps its promises: GitHub's schema and OpenAPI description judge every exchange,
// GitHub's GraphQL limits and cost formula hold, pagination, faults, the GITHUB_TOKEN no-new-runs rule,
// mergeability and review binding as GitHub computes them, and real webhook payloads parse.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "graphql";
import { startEmulator, SECONDARY_RATE_LIMIT_MESSAGE, MERGEABILITY_DELAY_MS } from "../../emulator/index.js";
import { analyzeLimits, githubSchema } from "../../emulator/graphql.js";
import { makeOctokit, parseEvent } from "../../lib/github/index.js";

const OWNER = "acme";
const REPO = "widgets";

/** Raw HTTP against the emulator, so a test sees exactly what GitHub would send back. */
async function call(gh, method, path, { body, token = gh.appToken } = {}) {
  const res = await fetch(`${gh.url}${path}`, {
    method,
    headers: { authorization: `token ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
const graphql = (gh, query, variables, token) => call(gh, "POST", "/graphql", { body: { query, variables }, token });

describe("GraphQL is judged by GitHub's schema", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    gh.createPull({ title: "first" });
  });
  after(() => gh.close());

  const cases = [
    {
      rule: "a field GitHub's schema lacks is refused",
      query: '{ repository(owner: "acme", name: "widgets") { stars } }',
      error: /^Field 'stars' doesn't exist on type 'Repository'$/,
    },
    {
      rule: "a missing required argument is refused in GitHub's words",
      query: '{ repository(owner: "acme") { id } }',
      error: /^Field 'repository' is missing required arguments: name$/,
    },
    {
      rule: "an argument the field lacks is refused in GitHub's words",
      query: '{ repository(owner: "acme", name: "widgets", stars: 1) { id } }',
      error: /^Field 'repository' doesn't accept argument 'stars'$/,
    },
    {
      rule: "a wrong argument type is refused",
      query: '{ repository(owner: "acme", name: "widgets") { pullRequest(number: "one") { title } } }',
      error: /Int/,
    },
    { rule: "unparseable text is refused", query: "{ repository(owner: ", error: /Parse error/ },
  ];
  for (const c of cases) {
    test(c.rule, async () => {
      const before = gh.validationFailures.length;
      const r = await graphql(gh, c.query);
      assert.equal(r.status, 200);
      assert.equal(r.body.data, undefined);
      assert.match(r.body.errors[0].message, c.error);
      assert.equal(gh.validationFailures.length, before + 1, "recorded so a test that expects none fails");
    });
  }

  test("a fine-grained token is refused each check run, as GitHub refuses it; statuses and the rollup state still read", async (t) => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    t.after(() => gh.close());
    const pr = gh.createPull({ title: "checked" });
    gh.checkRun({ number: pr.number, name: "test", status: "COMPLETED", conclusion: "SUCCESS" });
    gh.status({ number: pr.number, context: "ci", state: "success" });
    const query = `{ repository(owner: "acme", name: "widgets") { pullRequest(number: ${pr.number}) { commits(last: 1) { nodes { commit { statusCheckRollup { state contexts(first: 10) { nodes { __typename ... on CheckRun { name } ... on StatusContext { context } } } } } } } } } }`;
    const rollup = (r) => r.body.data.repository.pullRequest.commits.nodes[0].commit.statusCheckRollup;
    const classic = await graphql(gh, query, {}, gh.personalToken);
    assert.deepEqual(rollup(classic).contexts.nodes, [
      { __typename: "CheckRun", name: "test" },
      { __typename: "StatusContext", context: "ci" },
    ]);
    const fine = gh.registerToken("github_pat_11EMULATOR0fineGrained00000000000000000", "alice");
    const r = await graphql(gh, query, {}, fine);
    assert.equal(rollup(r).state, "SUCCESS", "the rollup's state reads");
    assert.deepEqual(
      rollup(r).contexts.nodes,
      [null, { __typename: "StatusContext", context: "ci" }],
      "the check run is null, the status reads",
    );
    assert.deepEqual(
      r.body.errors.map((e) => [e.type, e.message, e.path.join(".")]),
      [
        [
          "FORBIDDEN",
          "Resource not accessible by personal access token",
          "repository.pullRequest.commits.nodes.0.commit.statusCheckRollup.contexts.nodes.0",
        ],
      ],
    );
  });

  test("a valid document executes with GitHub's response shape and no failure recorded", async () => {
    gh.reset();
    const r = await graphql(
      gh,
      'query q { repository(owner: "acme", name: "widgets") { pullRequests(first: 5, states: OPEN) { totalCount nodes { number title isDraft } } } }',
    );
    assert.deepEqual(r.body, {
      data: { repository: { pullRequests: { totalCount: 1, nodes: [{ number: 1, title: "first", isDraft: false }] } } },
    });
    assert.deepEqual(gh.validationFailures, []);
    assert.equal(gh.requests.at(-1).operation, "q");
  });

  test("node(id) finds a pull request by its global id", async () => {
    const id = gh.state.pull(1).nodeId;
    const r = await graphql(gh, "query($id: ID!) { node(id: $id) { __typename ... on PullRequest { number } } }", {
      id,
    });
    assert.deepEqual(r.body.data, { node: { __typename: "PullRequest", number: 1 } });
  });

  test("a missing pull request is GitHub's NOT_FOUND error with a null field", async () => {
    const r = await graphql(gh, '{ repository(owner: "acme", name: "widgets") { pullRequest(number: 99) { title } } }');
    assert.deepEqual(r.body.data, { repository: { pullRequest: null } });
    assert.equal(r.body.errors[0].type, "NOT_FOUND");
    assert.equal(r.body.errors[0].message, "Could not resolve to a PullRequest with the number of 99.");
  });
});

describe("GitHub's GraphQL limits and cost", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
  });
  after(() => gh.close());

  // The two worked examples of GitHub's docs ("Rate limits and query limits for the GraphQL API").
  const formula = [
    {
      rule: "docs simple example: 50 + 50×10 = 550 nodes",
      query:
        "query { viewer { repositories(first: 50) { edges { repository: node { name issues(first: 10) { totalCount edges { node { title bodyHTML } } } } } } } }",
      nodes: 550,
      requests: 51,
      cost: 1,
    },
    {
      rule: "docs complex example: 22,060 nodes",
      query: `query { viewer { repositories(first: 50) { edges { repository: node { name
        pullRequests(first: 20) { edges { pullRequest: node { title comments(first: 10) { edges { comment: node { bodyHTML } } } } } }
        issues(first: 20) { totalCount edges { issue: node { title bodyHTML comments(first: 10) { edges { comment: node { bodyHTML } } } } } } } } }
        followers(first: 10) { edges { follower: node { login } } } } }`,
      nodes: 22_060,
      requests: 1 + 50 + 50 * 20 + 50 + 50 * 20 + 1,
      cost: 21,
    },
  ];
  for (const c of formula) {
    test(c.rule, () => {
      const r = analyzeLimits(githubSchema(), parse(c.query));
      assert.deepEqual(
        { nodes: r.nodes, requests: r.requests, cost: r.cost, errors: r.errors },
        { nodes: c.nodes, requests: c.requests, cost: c.cost, errors: [] },
      );
    });
  }

  const limits = [
    {
      rule: "first above 100 is refused with GitHub's text",
      query: '{ repository(owner: "acme", name: "widgets") { labels(first: 101) { totalCount } } }',
      message: "Requesting 101 records on the `labels` connection exceeds the `first` limit of 100 records.",
    },
    {
      rule: "a connection without first or last is refused",
      query: '{ repository(owner: "acme", name: "widgets") { labels { totalCount } } }',
      message: "You must provide a `first` or `last` value to properly paginate the `labels` connection.",
    },
    {
      rule: "more than 500,000 nodes is refused (100 + 100×100 + 100×100×100)",
      query:
        '{ repository(owner: "acme", name: "widgets") { pullRequests(first: 100) { nodes { comments(first: 100) { nodes { reactions(first: 100) { totalCount } } } } } } }',
      message:
        "By the time this query traverses to the reactions connection, it is requesting up to 1,010,100 possible nodes which exceeds the maximum limit of 500,000.",
    },
    {
      rule: "a variable's value counts like a literal",
      query: 'query($n: Int) { repository(owner: "acme", name: "widgets") { labels(first: $n) { totalCount } } }',
      variables: { n: 500 },
      message: "Requesting 500 records on the `labels` connection exceeds the `first` limit of 100 records.",
    },
  ];
  for (const c of limits) {
    test(c.rule, async () => {
      const before = gh.validationFailures.length;
      const r = await graphql(gh, c.query, c.variables);
      assert.equal(r.body.errors[0].message, c.message);
      assert.equal(r.body.data, undefined, "nothing executes");
      assert.equal(gh.validationFailures.length, before + 1);
    });
  }

  test("rateLimit reports the query's cost and what remains", async () => {
    const r = await graphql(
      gh,
      '{ rateLimit { cost remaining limit nodeCount } repository(owner: "acme", name: "widgets") { pullRequests(first: 100) { nodes { labels(first: 100) { nodes { name } } reviews(first: 100) { totalCount } } } } }',
    );
    // requests: 1 (pullRequests) + 100 (labels) + 100 (reviews) = 201 → round(2.01) = 2 points.
    assert.deepEqual(
      {
        cost: r.body.data.rateLimit.cost,
        nodeCount: r.body.data.rateLimit.nodeCount,
        limit: r.body.data.rateLimit.limit,
      },
      { cost: 2, nodeCount: 20_100, limit: 5000 },
    );
    assert.ok(r.body.data.rateLimit.remaining <= 4998);
    assert.equal(r.headers.get("x-ratelimit-resource"), "graphql");
  });
});

describe("pagination", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    for (let i = 0; i < 230; i++) gh.createLabel({ name: `l-${String(i).padStart(3, "0")}`, color: "ededed" });
  });
  after(() => gh.close());

  test("GraphQL: first/after walks every label once, with pageInfo and totalCount", async () => {
    const seen = [];
    let after = null;
    let pages = 0;
    for (;;) {
      const r = await graphql(
        gh,
        'query($after: String) { repository(owner: "acme", name: "widgets") { labels(first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { name } } } }',
        { after },
      );
      const c = r.body.data.repository.labels;
      assert.equal(c.totalCount, 230);
      seen.push(...c.nodes.map((n) => n.name));
      pages++;
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...gh.state.labels.values()].map((l) => l.name).sort());
  });

  test("GraphQL: last/before walks backwards", async () => {
    const r = await graphql(
      gh,
      '{ repository(owner: "acme", name: "widgets") { labels(last: 2) { pageInfo { hasPreviousPage startCursor } nodes { name } } } }',
    );
    const c = r.body.data.repository.labels;
    assert.deepEqual(
      c.nodes.map((n) => n.name),
      ["l-228", "l-229"],
    );
    const back = await graphql(
      gh,
      'query($b: String) { repository(owner: "acme", name: "widgets") { labels(last: 2, before: $b) { nodes { name } } } }',
      { b: c.pageInfo.startCursor },
    );
    assert.deepEqual(
      back.body.data.repository.labels.nodes.map((n) => n.name),
      ["l-226", "l-227"],
    );
  });

  test("REST: per_page and page with a Link header to the next page", async () => {
    const r = await call(gh, "GET", "/repos/acme/widgets/labels?per_page=100&page=3");
    assert.equal(r.body.length, 30);
    const first = await call(gh, "GET", "/repos/acme/widgets/labels?per_page=100");
    assert.match(first.headers.get("link"), /page=2.*rel="next"/);
  });
});

describe("REST is judged by GitHub's OpenAPI description", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    gh.createPull({ title: "x", labels: ["bug"] });
  });
  after(() => gh.close());

  const bad = [
    {
      rule: "a label without a name is refused",
      method: "POST",
      path: "/repos/acme/widgets/labels",
      body: { color: "ffffff" },
      problem: /name/,
    },
    {
      rule: "a status with a state GitHub does not know is refused",
      method: "POST",
      path: "/repos/acme/widgets/statuses/abc",
      body: { state: "green", context: "ci" },
      problem: /state/,
    },
    {
      rule: "reviewers as a string instead of an array is refused",
      method: "POST",
      path: "/repos/acme/widgets/pulls/1/requested_reviewers",
      body: { reviewers: "bob" },
      problem: /reviewers/,
    },
    {
      rule: "a query parameter the operation lacks is refused",
      method: "GET",
      path: "/repos/acme/widgets/labels?colour=red",
      problem: /colour/,
    },
  ];
  for (const c of bad) {
    test(c.rule, async () => {
      const before = gh.validationFailures.length;
      const r = await call(gh, c.method, c.path, { body: c.body });
      assert.equal(r.status, 422);
      assert.match(JSON.stringify(r.body.errors), c.problem);
      assert.equal(gh.validationFailures.length, before + 1);
      assert.equal(gh.validationFailures.at(-1).where, "rest request");
    });
  }

  test("every route answers with a body its OpenAPI response schema accepts", async () => {
    gh.reset();
    const sha = gh.state.pull(1).headSha;
    const exchanges = [
      ["GET", "/rate_limit"],
      ["GET", "/repos/acme/widgets"],
      ["GET", "/repos/acme/widgets/labels"],
      ["POST", "/repos/acme/widgets/labels", { name: "state:draft", color: "d4c5f9", description: "prflow: a draft" }],
      ["GET", "/repos/acme/widgets/labels/state:draft"],
      ["PATCH", "/repos/acme/widgets/labels/state:draft", { color: "c5def5" }],
      ["GET", "/repos/acme/widgets/issues/1/labels"],
      ["POST", "/repos/acme/widgets/issues/1/labels", { labels: ["state:draft"] }],
      ["PUT", "/repos/acme/widgets/issues/1/labels", { labels: ["bug", "state:draft"] }],
      ["DELETE", "/repos/acme/widgets/issues/1/labels/bug"],
      ["PATCH", "/repos/acme/widgets/issues/1", { labels: ["bug"] }],
      ["GET", "/repos/acme/widgets/issues/1"],
      ["GET", "/repos/acme/widgets/issues?labels=bug&state=open"],
      ["POST", "/repos/acme/widgets/issues", { title: "prflow board", body: "…", labels: ["bug"] }],
      ["POST", "/repos/acme/widgets/issues/1/comments", { body: "<!-- prflow:board -->" }],
      ["GET", "/repos/acme/widgets/issues/1/comments"],
      ["GET", "/repos/acme/widgets/pulls/1"],
      ["GET", "/repos/acme/widgets/pulls/1/files"],
      ["POST", "/repos/acme/widgets/pulls/1/requested_reviewers", { reviewers: ["bob"], team_reviewers: ["core"] }],
      ["POST", "/repos/acme/widgets/pulls/1/reviews", { event: "COMMENT", body: "bot pass" }],
      ["POST", `/repos/acme/widgets/statuses/${sha}`, { state: "success", context: "prflow", description: "ready" }],
      ["GET", "/repos/acme/widgets/rules/branches/main"],
      ["DELETE", "/repos/acme/widgets/issues/1/labels"],
    ];
    for (const [method, path, body] of exchanges) {
      const r = await call(gh, method, path, { body });
      assert.ok(r.status < 300, `${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    }
    const comment = gh.state.pull(1).comments[0];
    assert.equal(
      (await call(gh, "PATCH", `/repos/acme/widgets/issues/comments/${comment}`, { body: { body: "edited" } })).status,
      200,
    );
    assert.deepEqual(gh.validationFailures, []);
  });

  const labelRules = [
    {
      rule: "a label description over 100 characters is refused (GitHub's rule, stated only in words)",
      body: { name: "x", color: "ffffff", description: "d".repeat(101) },
      field: "description",
    },
    {
      rule: "a label colour that is not six hex digits is refused",
      body: { name: "x", color: "#fff" },
      field: "color",
    },
    {
      rule: "a label name that exists in another case is refused",
      body: { name: "BUG", color: "ffffff" },
      field: "name",
    },
  ];
  for (const c of labelRules) {
    test(c.rule, async () => {
      const r = await call(gh, "POST", "/repos/acme/widgets/labels", { body: c.body });
      assert.equal(r.status, 422);
      assert.equal(r.body.errors[0].field, c.field);
    });
  }

  test("GET /user: a personal token reads its user; the GITHUB_TOKEN class cannot, as on GitHub", async () => {
    assert.equal((await call(gh, "GET", "/user", { token: gh.personalToken })).body.login, OWNER);
    const app = await call(gh, "GET", "/user");
    assert.deepEqual([app.status, app.body.message], [403, "Resource not accessible by integration"]);
  });

  test("no token is 401, an unknown one is 401 Bad credentials", async () => {
    const none = await fetch(`${gh.url}/repos/acme/widgets/labels`);
    assert.equal(none.status, 401);
    const bad = await call(gh, "GET", "/repos/acme/widgets/labels", { token: "ghp_nope" });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.message, "Bad credentials");
  });
});

describe("faults", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    gh.createLabel({ name: "bug" });
  });
  after(() => gh.close());

  const kinds = [
    { rule: "5xx answers 502", fault: { kind: "5xx" }, status: 502 },
    {
      rule: "a secondary rate limit is 403 with retry-after and GitHub's message",
      fault: { kind: "secondary-rate-limit", retryAfter: 7 },
      status: 403,
      retryAfter: "7",
      message: SECONDARY_RATE_LIMIT_MESSAGE,
    },
    { rule: "429 carries retry-after", fault: { kind: "429", retryAfter: 3 }, status: 429, retryAfter: "3" },
  ];
  for (const c of kinds) {
    test(c.rule, async () => {
      gh.reset();
      const f = gh.inject({ ...c.fault, match: { path: "/labels" } });
      const r = await call(gh, "GET", "/repos/acme/widgets/labels");
      assert.equal(r.status, c.status);
      if (c.retryAfter) assert.equal(r.headers.get("retry-after"), c.retryAfter);
      if (c.message) assert.ok(r.body.message.startsWith(c.message));
      assert.equal(f.hits, 1);
      assert.equal((await call(gh, "GET", "/repos/acme/widgets/labels")).status, 200, "times: 1 by default");
    });
  }

  test("a fault matches only its method and path", async () => {
    gh.reset();
    const f = gh.inject({ kind: "5xx", match: { method: "POST", path: "/labels" } });
    assert.equal((await call(gh, "GET", "/repos/acme/widgets/labels")).status, 200);
    assert.equal(f.hits, 0);
  });

  test("slow answers late but right", async () => {
    gh.reset();
    const f = gh.inject({ kind: "slow", delayMs: 50 });
    const r = await call(gh, "GET", "/repos/acme/widgets/labels");
    assert.equal(r.status, 200);
    assert.equal(f.hits, 1);
    assert.equal(gh.requests.at(-1).faulted, "slow");
  });

  test("labels-read-fails breaks the label set on both APIs until reset", async () => {
    gh.reset();
    gh.inject({ kind: "labels-read-fails" });
    assert.equal((await call(gh, "GET", "/repos/acme/widgets/labels")).status, 500);
    const r = await graphql(
      gh,
      '{ repository(owner: "acme", name: "widgets") { id labels(first: 10) { nodes { name } } } }',
    );
    assert.equal(r.body.data.repository.labels, null);
    assert.deepEqual(r.body.errors[0].path, ["repository", "labels"]);
    gh.reset();
    assert.equal((await call(gh, "GET", "/repos/acme/widgets/labels")).status, 200);
  });

  test("the shells' Octokit retries each fault and gets the answer", async () => {
    for (const fault of [
      { kind: "5xx", times: 2 },
      { kind: "secondary-rate-limit", retryAfter: 2 },
      { kind: "429", retryAfter: 1 },
    ]) {
      gh.reset();
      const lines = [];
      const octokit = makeOctokit({
        token: gh.appToken,
        baseUrl: gh.url,
        graphqlUrl: gh.graphqlUrl,
        log: (l) => lines.push(l),
        timeScale: 0.001,
      });
      gh.inject({ ...fault, match: { path: "/labels" } });
      const r = await octokit.request("GET /repos/{owner}/{repo}/labels", { owner: OWNER, repo: REPO });
      assert.equal(r.status, 200, fault.kind);
      assert.equal(gh.requests.length, (fault.times ?? 1) + 1, `${fault.kind}: one request per attempt`);
      assert.equal(
        lines.filter((l) => l.startsWith("GitHub answered")).length,
        fault.times ?? 1,
        `${fault.kind}: each failed attempt is logged`,
      );
      if (fault.retryAfter)
        assert.ok(
          lines.some((l) => l.includes(`${fault.retryAfter} s as GitHub asks`)),
          `${fault.kind}: retry-after honoured`,
        );
    }
  });
});

describe("primary rate limits", () => {
  test("past the hourly budget REST answers 403 and GraphQL RATE_LIMITED; the Octokit stops rather than wait an hour", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      gh.setRateLimit({ rest: 2, graphql: 1 });
      const lines = [];
      const octokit = makeOctokit({
        token: gh.appToken,
        baseUrl: gh.url,
        graphqlUrl: gh.graphqlUrl,
        log: (l) => lines.push(l),
        timeScale: 0.001,
      });
      for (let i = 0; i < 2; i++) await octokit.request("GET /repos/{owner}/{repo}", { owner: OWNER, repo: REPO });
      const err = await octokit.request("GET /repos/{owner}/{repo}", { owner: OWNER, repo: REPO }).catch((e) => e);
      assert.equal(err.status, 403);
      assert.match(err.message, /API rate limit exceeded/);
      assert.equal(err.response.headers["x-ratelimit-remaining"], "0");
      assert.equal(gh.requests.length, 3, "no retry: the budget resets in an hour");
      assert.ok(lines.some((l) => l.startsWith("giving up: the hourly rate limit is spent")));

      const first = await graphql(gh, "{ viewer { login } }");
      assert.equal(first.body.data.viewer.login, "github-actions[bot]");
      const second = await graphql(gh, "{ viewer { login } }");
      assert.equal(second.body.errors[0].type, "RATE_LIMITED");
      gh.clock.advance({ hours: 1 });
      assert.equal(
        (await graphql(gh, "{ viewer { login } }")).body.data.viewer.login,
        "github-actions[bot]",
        "the budget resets after an hour",
      );
    } finally {
      await gh.close();
    }
  });
});

describe("workflows: events start runs, except writes made with the GITHUB_TOKEN", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    gh.registerToken("ghp_alicePersonal0000000000000000000000", "alice");
  });
  after(() => gh.close());

  const cases = [
    {
      rule: "a write with the workflow's GITHUB_TOKEN (ghs_) starts no run",
      token: () => gh.appToken,
      runs: 0,
      startsRuns: false,
    },
    {
      rule: "a write with a personal token (ghp_) starts a run",
      token: () => "ghp_alicePersonal0000000000000000000000",
      runs: 1,
      startsRuns: true,
    },
  ];
  for (const c of cases) {
    test(c.rule, async () => {
      gh.reset();
      gh.workflows.clear();
      const pr = gh.createPull({ title: "t" });
      let started = 0;
      gh.workflows.on("pull_request_target", () => started++);
      const r = await call(gh, "POST", `/repos/acme/widgets/issues/${pr.number}/labels`, {
        body: { labels: ["state:needs-human"] },
        token: c.token(),
      });
      assert.equal(r.status, 200);
      await gh.settle();
      const labeled = gh.events.filter((e) => e.name === "pull_request" && e.action === "labeled");
      assert.equal(labeled.length, 1, "the event is still recorded: GitHub delivers webhooks either way");
      assert.equal(labeled[0].startsRuns, c.startsRuns);
      assert.equal(started, c.runs);
    });
  }

  test("a person's action (a helper) starts the run with the event's payload", async () => {
    gh.reset();
    gh.workflows.clear();
    const got = [];
    gh.workflows.on("issue_comment", (name, payload) => got.push(parseEvent(name, payload)));
    const pr = gh.createPull({ title: "t" });
    gh.comment(pr.number, { author: "bob", body: "/ready" });
    await gh.settle();
    assert.deepEqual(
      got.map((s) => [s.scope, s.numbers]),
      [["pulls", [pr.number]]],
    );
  });
});

describe("GitHub's computed facts", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
  });
  after(() => gh.close());

  const mergeableOf = async (n) =>
    (
      await graphql(
        gh,
        `{ repository(owner: "acme", name: "widgets") { pullRequest(number: ${n}) { mergeable mergeStateStatus } } }`,
      )
    ).body.data.repository.pullRequest;

  test("mergeable is UNKNOWN for a while after the base moves, then computed", async () => {
    const pr = gh.createPull({ title: "m" });
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    assert.deepEqual(await mergeableOf(pr.number), { mergeable: "MERGEABLE", mergeStateStatus: "CLEAN" });
    gh.moveBranch("main");
    assert.deepEqual(await mergeableOf(pr.number), { mergeable: "UNKNOWN", mergeStateStatus: "UNKNOWN" });
    gh.clock.advance(MERGEABILITY_DELAY_MS - 1000);
    assert.equal((await mergeableOf(pr.number)).mergeable, "UNKNOWN");
    gh.clock.advance(1000);
    assert.equal((await mergeableOf(pr.number)).mergeable, "MERGEABLE");
  });

  test("a conflicting pull request is CONFLICTING / DIRTY once computed", async () => {
    const pr = gh.createPull({ title: "c", conflicting: true });
    gh.clock.advance(MERGEABILITY_DELAY_MS);
    assert.deepEqual(await mergeableOf(pr.number), { mergeable: "CONFLICTING", mergeStateStatus: "DIRTY" });
  });

  test("a review stays bound to the commit it was submitted on", async () => {
    const pr = gh.createPull({ title: "r" });
    const reviewed = pr.headSha;
    gh.review(pr.number, { author: "alice", state: "APPROVED" });
    gh.push(pr.number);
    const r = await graphql(
      gh,
      `{ repository(owner: "acme", name: "widgets") { pullRequest(number: ${pr.number}) { headRefOid reviews(first: 5) { nodes { state commit { oid } } } } } }`,
    );
    const p = r.body.data.repository.pullRequest;
    assert.equal(p.reviews.nodes[0].commit.oid, reviewed);
    assert.notEqual(p.headRefOid, reviewed);
  });

  test("label changes are timeline events with actor and time", async () => {
    const pr = gh.createPull({ title: "l", author: "agent-2" });
    gh.clock.set("2026-02-01T10:00:00Z");
    gh.addLabels(pr.number, ["state:needs-human"], { by: "agent-2" });
    gh.clock.set("2026-02-01T11:00:00Z");
    gh.removeLabels(pr.number, ["state:needs-human"], { by: "prflow-bot" });
    const r = await graphql(
      gh,
      `{ repository(owner: "acme", name: "widgets") { pullRequest(number: ${pr.number}) { timelineItems(first: 10, itemTypes: [LABELED_EVENT, UNLABELED_EVENT]) { nodes { __typename ... on LabeledEvent { createdAt actor { login } label { name } } ... on UnlabeledEvent { createdAt actor { login } label { name } } } } } } }`,
    );
    assert.deepEqual(r.body.data.repository.pullRequest.timelineItems.nodes, [
      {
        __typename: "LabeledEvent",
        createdAt: "2026-02-01T10:00:00Z",
        actor: { login: "agent-2" },
        label: { name: "state:needs-human" },
      },
      {
        __typename: "UnlabeledEvent",
        createdAt: "2026-02-01T11:00:00Z",
        actor: { login: "prflow-bot" },
        label: { name: "state:needs-human" },
      },
    ]);
  });

  test("a renamed label shows its new name in past label events (the event points at the label)", async () => {
    const pr = gh.createPull({ title: "rename" });
    gh.createLabel({ name: "waiting", color: "0e8a16" });
    gh.addLabels(pr.number, ["waiting"]);
    const r = await call(gh, "PATCH", "/repos/acme/widgets/labels/waiting", { body: { new_name: "state:waiting" } });
    assert.equal(r.status, 200);
    const t = await graphql(
      gh,
      `{ repository(owner: "acme", name: "widgets") { pullRequest(number: ${pr.number}) { labels(first: 5) { nodes { name } } timelineItems(first: 5, itemTypes: [LABELED_EVENT]) { nodes { ... on LabeledEvent { label { name } } } } } } }`,
    );
    const p = t.body.data.repository.pullRequest;
    assert.deepEqual(
      [p.labels.nodes, p.timelineItems.nodes],
      [[{ name: "state:waiting" }], [{ label: { name: "state:waiting" } }]],
    );
  });

  test("the Date header is the emulator's clock", async () => {
    gh.clock.set("2026-03-04T05:06:07Z");
    const r = await call(gh, "GET", "/repos/acme/widgets");
    assert.equal(new Date(r.headers.get("date")).toISOString(), "2026-03-04T05:06:07.000Z");
  });
});

describe("webhook payloads map to a scope", () => {
  const examples = JSON.parse(readFileSync(new URL(import.meta.resolve("@octokit/webhooks-examples")), "utf8"));
  const byName = Object.fromEntries(examples.map((e) => [e.name, e.examples]));
  // Expectations come from each payload's own fields, by the rule each event kind follows.
  const expected = {
    pull_request: (p) => ({ scope: "pulls", numbers: [p.pull_request.number] }),
    pull_request_review: (p) => ({ scope: "pulls", numbers: [p.pull_request.number] }),
    issue_comment: (p) => (p.issue.pull_request ? { scope: "pulls", numbers: [p.issue.number] } : { scope: "none" }),
    check_suite: (p) =>
      p.check_suite.pull_requests.length
        ? { scope: "pulls", numbers: [...new Set(p.check_suite.pull_requests.map((x) => x.number))] }
        : { scope: "all" },
    check_run: (p) =>
      p.check_run.pull_requests.length
        ? { scope: "pulls", numbers: [...new Set(p.check_run.pull_requests.map((x) => x.number))] }
        : { scope: "all" },
    status: () => ({ scope: "all" }),
  };
  for (const [name, expect] of Object.entries(expected)) {
    test(`every real ${name} example from @octokit/webhooks-examples parses`, () => {
      assert.ok(byName[name]?.length, `${name} has examples`);
      for (const payload of byName[name]) {
        const got = parseEvent(name, payload);
        const { why, ...shape } = got;
        assert.deepEqual(shape, expect(payload), `${name}.${payload.action}`);
        assert.ok(why, "says why");
      }
    });
  }

  test("schedule and workflow_dispatch (no payload examples exist) sweep everything", () => {
    assert.equal(parseEvent("schedule", { schedule: "17 3 * * *" }).scope, "all");
    assert.equal(parseEvent("workflow_dispatch", {}).scope, "all");
  });

  test("the emulator's payloads carry every field the real example of the same event and action has", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      const pr = gh.createPull({ title: "p" });
      gh.addLabels(pr.number, ["x"]);
      gh.review(pr.number, { author: "alice" });
      gh.comment(pr.number, { author: "bob", body: "hi" });
      gh.checkRun({ number: pr.number, name: "test" });
      gh.status({ number: pr.number, context: "ci", state: "success" });
      gh.push(pr.number);
      gh.convertToDraft(pr.number);
      gh.markReady(pr.number);
      // Fields only GitHub App installations or organisations get.
      const notOurs = new Set(["installation", "organization", "enterprise"]);
      const missing = [];
      let compared = 0;
      for (const e of gh.events) {
        const example = byName[e.name]?.find((p) => (p.action ?? null) === e.action);
        if (!example) continue;
        compared++;
        const absent = (a, b, prefix) =>
          Object.keys(a)
            .filter((k) => !notOurs.has(k) && !(k in b))
            .map((k) => `${e.name}.${e.action}: ${prefix}${k}`);
        missing.push(...absent(example, e.payload, ""));
        for (const k of ["pull_request", "issue", "comment", "review", "check_run", "check_suite", "label"]) {
          if (example[k] && e.payload[k]) missing.push(...absent(example[k], e.payload[k], `${k}.`));
        }
      }
      assert.ok(compared >= 10, `compared ${compared} events`);
      assert.deepEqual(missing, []);
    } finally {
      await gh.close();
    }
  });

  test("the emulator's own payloads parse like the real ones", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      const pr = gh.createPull({ title: "p" });
      gh.addLabels(pr.number, ["x"]);
      gh.review(pr.number, { author: "alice" });
      gh.comment(pr.number, { author: "bob", body: "hi" });
      gh.checkRun({ number: pr.number, name: "test" });
      gh.status({ number: pr.number, context: "ci", state: "success" });
      const scopes = gh.events.map((e) => [
        `${e.name}.${e.action ?? ""}`,
        parseEvent(e.name, e.payload).scope,
        parseEvent(e.name, e.payload).numbers ?? null,
      ]);
      assert.deepEqual(scopes, [
        ["pull_request.opened", "pulls", [pr.number]],
        ["label.created", "all", null],
        ["pull_request.labeled", "pulls", [pr.number]],
        ["pull_request_review.submitted", "pulls", [pr.number]],
        ["issue_comment.created", "pulls", [pr.number]],
        ["check_run.completed", "pulls", [pr.number]],
        ["check_suite.completed", "pulls", [pr.number]],
        ["status.", "all", null],
      ]);
    } finally {
      await gh.close();
    }
  });
});

describe("a workflow whose action writes: no recursion with GITHUB_TOKEN, a new run with a personal token", () => {
  // An action that adds a label to the event's pull request with the token it is given.
  function labellingAction() {
    const dir = mkdtempSync(join(tmpdir(), "prflow-labeller-"));
    writeFileSync(
      join(dir, "action.yml"),
      "name: labeller\ninputs:\n  token:\n    default: ${{ github.token }}\nruns:\n  using: node24\n  main: main.mjs\n",
    );
    writeFileSync(
      join(dir, "main.mjs"),
      `import { readFileSync } from "node:fs";
const e = process.env;
const event = JSON.parse(readFileSync(e.GITHUB_EVENT_PATH, "utf8"));
const res = await fetch(e.GITHUB_API_URL + "/repos/" + e.GITHUB_REPOSITORY + "/issues/" + event.number + "/labels", {
  method: "POST", headers: { authorization: "token " + e.INPUT_TOKEN, "content-type": "application/json" },
  body: JSON.stringify({ labels: ["seen-" + event.action] }) });
process.exitCode = res.ok ? 0 : 1;
`,
    );
    return dir;
  }
  const cases = [
    {
      rule: "GITHUB_TOKEN: the action's label write starts no run",
      token: (gh) => gh.appToken,
      runs: ["pull_request_target.opened"],
    },
    {
      rule: "personal token: the action's label write starts one more run",
      token: (gh) => gh.personalToken,
      runs: ["pull_request_target.opened", "pull_request_target.labeled"],
    },
  ];
  for (const c of cases) {
    test(c.rule, async () => {
      const gh = await startEmulator({ owner: OWNER, repo: REPO });
      try {
        const action = labellingAction();
        gh.workflows.on("pull_request_target", (event, payload) => {
          // The workflow's own filter: react to opened and labeled only once (a real workflow's `types:`).
          if (payload.action === "labeled" && payload.label.name.startsWith("seen-labeled")) return null;
          if (!["opened", "labeled"].includes(payload.action)) return null;
          return gh.runAction({ actionPath: action, event, payload, token: c.token(gh) });
        });
        const pr = gh.createPull({ title: "loop" });
        await gh.settle();
        const ran = gh.runs.filter((r) => r.result).map((r) => `${r.event}.${r.action}`);
        assert.deepEqual(ran, c.runs);
        assert.ok(gh.runs.every((r) => !r.result || r.result.code === 0));
        assert.ok(gh.state.pull(pr.number).labels.includes("seen-opened"));
      } finally {
        await gh.close();
      }
    });
  }
});

describe("runAction runs a node action as the runner does", () => {
  test("inputs, GITHUB_* variables, outputs and the job summary", async () => {
    const gh = await startEmulator({ owner: OWNER, repo: REPO });
    try {
      const dir = mkdtempSync(join(tmpdir(), "prflow-action-"));
      writeFileSync(
        join(dir, "action.yml"),
        "name: probe\ninputs:\n  token:\n    default: ${{ github.token }}\n  dry run:\n    default: 'yes'\n  mode:\n    required: true\nruns:\n  using: node24\n  main: main.mjs\n",
      );
      writeFileSync(
        join(dir, "main.mjs"),
        `import { appendFileSync, readFileSync } from "node:fs";
const e = process.env;
const event = JSON.parse(readFileSync(e.GITHUB_EVENT_PATH, "utf8"));
const res = await fetch(e.GITHUB_API_URL + "/repos/" + e.GITHUB_REPOSITORY, { headers: { authorization: "token " + e.INPUT_TOKEN } });
appendFileSync(e.GITHUB_OUTPUT, "status=" + res.status + "\\nmode<<EOF\\n" + e.INPUT_MODE + "\\nEOF\\n");
appendFileSync(e.GITHUB_OUTPUT, "dry=" + e.INPUT_DRY_RUN + "\\nevent=" + e.GITHUB_EVENT_NAME + ":" + event.number + "\\ngraphql=" + (e.GITHUB_GRAPHQL_URL === e.GITHUB_API_URL + "/graphql") + "\\n");
appendFileSync(e.GITHUB_STEP_SUMMARY, "## hello\\n");
console.log("node " + process.versions.node.split(".")[0]);
`,
      );
      const r = await gh.runAction({
        actionPath: dir,
        event: "pull_request_target",
        payload: { number: 7 },
        inputs: { mode: "reconcile" },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.outputs, {
        status: "200",
        mode: "reconcile",
        dry: "yes",
        event: "pull_request_target:7",
        graphql: "true",
      });
      assert.equal(r.summary, "## hello\n");
      assert.equal(r.stdout.trim(), "node 24");
      assert.equal(gh.requests.at(-1).tokenKind, "app", "the default token input is the job's GITHUB_TOKEN");
    } finally {
      await gh.close();
    }
  });
});

describe("browsers: CORS as GitHub answers it (docs: using CORS and JSONP to make cross-origin requests)", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
  });
  after(() => gh.close());

  const origin = "https://dashboard.example";
  // Each answer a page can get: success, failure before authentication, failure after it, GraphQL.
  const cases = [
    {
      rule: "a REST read carries the CORS headers",
      method: "GET",
      path: `/repos/${OWNER}/${REPO}/labels`,
      token: "emulator",
      status: 200,
    },
    {
      rule: "a 401 (bad token) is readable by the page too",
      method: "GET",
      path: `/repos/${OWNER}/${REPO}/labels`,
      token: "ghp_wrong",
      status: 401,
    },
    { rule: "a 404 carries them", method: "GET", path: "/nowhere", token: "emulator", status: 404 },
    {
      rule: "a GraphQL answer carries them",
      method: "POST",
      path: "/graphql",
      token: "emulator",
      status: 200,
      body: { query: "query { viewer { login } }" },
    },
  ];
  for (const c of cases) {
    test(c.rule, async () => {
      const token = c.token === "emulator" ? gh.personalToken : c.token;
      const res = await fetch(`${gh.url}${c.path}`, {
        method: c.method,
        headers: { origin, authorization: `token ${token}` },
        body: c.body ? JSON.stringify(c.body) : undefined,
      });
      await res.arrayBuffer();
      assert.equal(res.status, c.status);
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      const exposed = res.headers.get("access-control-expose-headers").toLowerCase().split(/,\s*/);
      for (const h of [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "retry-after",
        "link",
        "etag",
      ])
        assert.ok(exposed.includes(h), `${h} is exposed`);
      // api.github.com's list (docs.github.com, "Using CORS and JSONP") has no Date: a page cannot read
      // GitHub's clock, and the dashboard says it counts on the browser's. The emulator must not be kinder.
      assert.ok(!exposed.includes("date"), `Date is not exposed: ${exposed}`);
      assert.ok(res.headers.get("date"), "though the header is sent, as GitHub sends it");
    });
  }

  test("a preflight for the Authorization header is a 204, unauthenticated and not counted", async () => {
    const before = gh.requests.length;
    const res = await fetch(`${gh.url}/graphql`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const allowed = res.headers.get("access-control-allow-headers").toLowerCase().split(/,\s*/);
    for (const h of ["authorization", "content-type"]) assert.ok(allowed.includes(h), `${h} is allowed`);
    assert.ok(res.headers.get("access-control-allow-methods").split(/,\s*/).includes("POST"));
    assert.equal(gh.requests.length, before, "a preflight is not an API request");
    assert.deepEqual(gh.validationFailures, []);
  });
});

describe("the contents API serves files set on the default branch (the dashboard reads .github/prflow.json)", () => {
  let gh;
  before(async () => {
    gh = await startEmulator({ owner: OWNER, repo: REPO });
    gh.setFile(".github/prflow.json", '{ "flow": "stations" }\n');
  });
  after(() => gh.close());

  const cases = [
    {
      rule: "a file, its path percent-encoded as Octokit sends it, is base64 text",
      path: ".github%2Fprflow.json",
      status: 200,
      text: '{ "flow": "stations" }\n',
    },
    {
      rule: "a file, its path with plain slashes",
      path: ".github/prflow.json",
      status: 200,
      text: '{ "flow": "stations" }\n',
    },
    { rule: "a missing file is a 404", path: ".github/missing.json", status: 404, text: null },
    { rule: "another ref is not served", path: ".github/prflow.json?ref=other", status: 404, text: null },
  ];
  for (const c of cases) {
    test(c.rule, async () => {
      const res = await call(gh, "GET", `/repos/${OWNER}/${REPO}/contents/${c.path}`);
      assert.equal(res.status, c.status);
      if (c.text !== null) assert.equal(Buffer.from(res.body.content, "base64").toString("utf8"), c.text);
      assert.deepEqual(gh.validationFailures, []);
    });
  }
});
