// `prflow report` and the queue's exports, from Node: the report of a 31-pull-request queue that exercises
// every triage class, compared with the committed expected report (text and JSON); the exports named in
// the issue; and the queue reader's GraphQL and REST calls checked against GitHub's own descriptions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { buildSchema, parse, validate } from "graphql";
import { createEngine } from "../../js/node.js";

const engine = createEngine();
import { LANDED_QUERY, QUEUE_PULLS_QUERY, numbersQuery } from "../../lib/github/read-queue.js";
import { prflow, PRESET_CONFIG } from "./lib/cli.js";
import { matchSnapshot } from "./lib/snapshot.js";

const root = new URL("../../", import.meta.url);
const dir = new URL("tests/fixtures/queue-report/", root);
const FACTS = new URL("facts.json", dir).pathname;

/** The report's text; a failed run fails the test with its words. */
async function reportText(args) {
  const r = await prflow(["report", ...args]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

// PRFLOW_BLESS=1 rewrites the expected files; review the diff before committing.
const snapshot = (name, actual) => matchSnapshot(new URL(name, dir), actual);

test("report: text of a queue exercising every triage class matches the committed report", async () => {
  snapshot("expected.txt", await reportText(["--facts", FACTS, "--config", PRESET_CONFIG]));
});

test("report: --format json matches the committed report, and covers every class and owner", async () => {
  const text = await reportText(["--facts", FACTS, "--config", PRESET_CONFIG, "--format", "json"]);
  snapshot("expected.json", text);
  const report = JSON.parse(text);
  assert.ok(report.entries.length >= 25, `${report.entries.length} pull requests`);
  const classes = new Set(report.entries.map((e) => e.triage));
  for (const c of ["ignore", "note", "candidate", "inFlight", "failing", "held"])
    assert.ok(classes.has(c), `no ${c} in the report`);
  const owners = new Set(report.entries.map((e) => e.owner));
  for (const o of ["worker", "fixer", "human", "none"]) assert.ok(owners.has(o), `no owner ${o} in the report`);
  // Every queued pull request has exactly one owner; every entry a reason code and a next action.
  for (const e of report.entries) {
    assert.equal(
      e.owner !== null,
      e.declared.mergeQueued || (e.declared.skipCi && e.declared.autoRebase),
      `#${e.number}`,
    );
    assert.match(e.reason, /^[a-z-]+$/);
    assert.ok(e.nextAction.length > 0);
  }
  assert.deepEqual(report.cycles, [[106, 107]]);
  assert.equal(report.next.action, "watch");
});

test("report: the lane names the next landing and each queued one's position; never a bare `Order: none` while some are queued", async () => {
  const text = await reportText(["--facts", FACTS, "--config", PRESET_CONFIG]);
  const lane = engine.lane({ facts: JSON.parse(readFileSync(FACTS, "utf8")) });
  assert.ok(lane.entries.length > 0, "the fixture queue has something to land");
  assert.match(
    text,
    new RegExp(`^Lane: next to land: #${lane.next}; then .* \\(${lane.entries.length} in line\\)$`, "m"),
  );
  assert.doesNotMatch(text, /^Order: none/m);
  // No landing in these facts: positions without a guessed time, and the report says why.
  assert.match(text, /no estimate yet: no recent landing has timed CI runs/);
  for (const e of lane.entries) assert.match(text, new RegExp(`^#${e.number} .* ${e.words} `, "m"));
});

test("report --by-agent: one row per agent from the engine's scoreboard, and no invented flake number", async () => {
  const facts = JSON.parse(readFileSync(FACTS, "utf8"));
  facts.landed = [
    {
      number: 900,
      title: "landed",
      author: "rig",
      labels: ["from:m1"],
      createdAt: "2026-11-30T08:00:00Z",
      mergedAt: "2026-11-30T09:00:00Z",
      checks: [
        {
          name: "test",
          status: "COMPLETED",
          conclusion: "SUCCESS",
          startedAt: "2026-11-30T08:30:00Z",
          completedAt: "2026-11-30T08:42:00Z",
        },
      ],
    },
  ];
  const file = new URL("../../.tmp/by-agent-facts.json", import.meta.url).pathname;
  mkdirSync(new URL("../../.tmp/", import.meta.url).pathname, { recursive: true });
  writeFileSync(file, JSON.stringify(facts));
  const board = engine.scoreboard({ facts });
  const text = await reportText(["--facts", file, "--config", PRESET_CONFIG, "--by-agent"]);
  const lines = text.split("\n");
  const header = lines.findIndex((l) => l.startsWith("Agent "));
  assert.ok(header > 0, text);
  assert.equal(
    lines.slice(header + 1).filter((l) => l && !l.startsWith("Flakes")).length,
    board.agents.length,
    "one line per agent",
  );
  assert.match(text, /^m1 +\d+ +1 .* 60 min +12 +-$/m, "m1 landed once in 60 min with 12 CI minutes");
  assert.match(text, /Flakes: no flake data yet/);
  const json = JSON.parse(
    await reportText(["--facts", file, "--config", PRESET_CONFIG, "--by-agent", "--format", "json"]),
  );
  assert.deepEqual(json.agents, board.agents);
});

test("report: bad input names the file and what was wrong", async () => {
  const missing = await prflow(["report", "--facts", "/nonexistent/facts.json", "--config", PRESET_CONFIG]);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /nonexistent\/facts\.json: \$: expected a JSON facts file, found no such file/);
  const format = await prflow(["report", "--facts", FACTS, "--format", "yaml"]);
  assert.notEqual(format.code, 0);
  assert.match(format.stderr, /--format: expected text or json/);
});

const exportCases = [
  {
    rule: "codeOwners: the last matching pattern wins",
    got: () => engine.codeOwners({ codeowners: "* @a\n*.rs @b\n", path: "src/x.rs" }),
    want: ["@b"],
  },
  {
    rule: "codeOwners: a pattern with no owners leaves the path unowned",
    got: () => engine.codeOwners({ codeowners: "* @a\n/gen/\n", path: "gen/x.rs" }),
    want: [],
  },
  {
    rule: "parseTrailers: numbers, several lines, an AND",
    got: () => engine.parseTrailers({ body: "Merge-After: #1901, #1903\nMerge-After: #7\nStart-After: #5" }),
    want: { mergeAfter: [1901, 1903, 7], startAfter: [5] },
  },
  {
    rule: "parseTrailers: never inside a fenced code block",
    got: () => engine.parseTrailers({ body: "```\nMerge-After: #1\n```" }),
    want: { mergeAfter: [], startAfter: [] },
  },
  {
    rule: "watchStep: the eighth green poll while BLOCKED is not-merging",
    got: () =>
      engine.watchStep({
        poll: {
          state: "OPEN",
          autoMerge: true,
          headSha: "h",
          mergeStateStatus: "BLOCKED",
          now: "2026-11-30T10:01:00Z",
          checks: [{ name: "ci", status: "COMPLETED", conclusion: "SUCCESS" }],
          requiredChecks: ["ci"],
        },
        state: { pushedHead: "h", startedAt: "2026-11-30T10:00:00Z", greenPolls: 7 },
      }).outcome,
    want: "not-merging",
  },
  {
    rule: "triage takes facts as JSON text too",
    got: () => engine.triage({ facts: readFileSync(FACTS, "utf8") }).order.length > 0,
    want: true,
  },
];
for (const c of exportCases) test(`export ${c.rule}`, () => assert.deepEqual(c.got(), c.want));

test("export: bad facts throw an Error naming the JSON path", () => {
  assert.throws(
    () => engine.triage({ facts: { now: "x", pullRequests: [{ number: "one" }] } }),
    /triage \$\.facts\.pullRequests\[0\]\.number/,
  );
});

test("the queue reader's GraphQL queries are valid against GitHub's schema", () => {
  const sdl = readFileSync(new URL("node_modules/@octokit/graphql-schema/schema.graphql", root), "utf8");
  // GitHub's SDL is taken as valid (graphql-js refuses its duplicated enterprise fields and deprecations).
  const schema = buildSchema(sdl, { assumeValidSDL: true, assumeValid: true });
  for (const [name, query] of [
    ["QUEUE_PULLS_QUERY", QUEUE_PULLS_QUERY],
    ["LANDED_QUERY", LANDED_QUERY],
    ["numbersQuery", numbersQuery([12, 345])],
  ]) {
    const errors = validate(schema, parse(query));
    assert.deepEqual(
      errors.map((e) => e.message),
      [],
      name,
    );
  }
});

test("the queue commands' REST routes exist in GitHub's OpenAPI description", () => {
  const api = JSON.parse(
    readFileSync(new URL("node_modules/@octokit/openapi/generated/api.github.com.json", root), "utf8"),
  );
  const routes = [
    ["get", "/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by"],
    ["get", "/repos/{owner}/{repo}/rules/branches/{branch}"],
    ["get", "/orgs/{org}/teams/{team_slug}/members"],
    ["get", "/repos/{owner}/{repo}/compare/{basehead}"],
    ["get", "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs"],
    ["get", "/repos/{owner}/{repo}/issues/{issue_number}/comments"],
    ["post", "/repos/{owner}/{repo}/issues/{issue_number}/comments"],
    ["patch", "/repos/{owner}/{repo}/issues/comments/{comment_id}"],
    ["get", "/repos/{owner}/{repo}/issues"],
    ["post", "/repos/{owner}/{repo}/issues"],
  ];
  for (const [method, path] of routes) assert.ok(api.paths[path]?.[method], `${method.toUpperCase()} ${path}`);
});
