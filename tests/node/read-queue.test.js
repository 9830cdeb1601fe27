// The queue's reader fetches what the engine names in bodies and links, and nothing it parses itself:
// Start-After: on continuation lines, and closing links to other repositories' issues (issue 11).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../../js/node.js";

const engine = createEngine();
import { readQueueFacts } from "../../lib/github/read-queue.js";

/** An Octokit stand-in: GraphQL answers from `issues` (number -> node), REST answers empty. */
function fakeOctokit({ closing = [], issues = {} }) {
  const asked = [];
  return {
    asked,
    graphql: async (query) => {
      if (query.includes("QueuePulls")) {
        return {
          viewer: { login: "prflow[bot]" },
          repository: {
            defaultBranchRef: { name: "main", target: { oid: "tip" } },
            pullRequests: {
              pageInfo: { hasNextPage: false, endCursor: null },
              nodes: [{ number: 5, isCrossRepository: false, headRefOid: "h5", autoMergeRequest: null, commits: { totalCount: 1 }, files: { totalCount: 0 }, closingIssuesReferences: { nodes: closing }, reviewThreads: { totalCount: 0, nodes: [] } }],
            },
          },
        };
      }
      const numbers = [...query.matchAll(/n(\d+): issueOrPullRequest/g)].map((m) => Number(m[1]));
      asked.push(...numbers);
      return { repository: Object.fromEntries(numbers.map((n) => [`n${n}`, issues[n] ?? null])) };
    },
    request: async () => ({ data: [] }),
  };
}

const issue = (number, body = "") => ({ __typename: "Issue", number, state: "OPEN", body });

test("Start-After: on continuation lines is fetched: both numbers are read", async () => {
  const octokit = fakeOctokit({ issues: { 10: issue(10, "Start-After:\n#12\n#13"), 12: issue(12), 13: issue(13) } });
  const facts = { now: "2026-01-01T00:00:00Z", pullRequests: [{ number: 5, body: "Fixes #10" }] };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.ok(octokit.asked.includes(12) && octokit.asked.includes(13), `asked for ${octokit.asked}`);
  assert.deepEqual(facts.issues.map((i) => i.number).sort((a, b) => a - b), [10, 12, 13]);
});

test("a closing link to another repository's issue is not read as the local issue of that number", async () => {
  const foreign = { number: 13, state: "OPEN", body: "Start-After: #2", repository: { nameWithOwner: "other/repo" } };
  const octokit = fakeOctokit({ closing: [foreign], issues: { 13: issue(13, "local, not closed by #5") } });
  const facts = { now: "2026-01-01T00:00:00Z", pullRequests: [{ number: 5, body: "Closes other/repo#13\nand https://github.com/other/repo/issues/13" }] };
  await readQueueFacts(octokit, { owner: "me", repo: "here", engine, facts });
  assert.deepEqual(facts.pullRequests[0].closingIssues, []);
  assert.deepEqual(facts.issues, []);
  assert.deepEqual(octokit.asked, []);
});

test("a closing link to this repository's issue is still read", async () => {
  const local = { number: 7, state: "OPEN", body: "", repository: { nameWithOwner: "Me/Here" } };
  const facts = { now: "2026-01-01T00:00:00Z", pullRequests: [{ number: 5, body: "" }] };
  await readQueueFacts(fakeOctokit({ closing: [local] }), { owner: "me", repo: "here", engine, facts });
  assert.deepEqual(facts.pullRequests[0].closingIssues, [{ number: 7, source: "link" }]);
  assert.deepEqual(facts.issues.map((i) => i.number), [7]);
});
