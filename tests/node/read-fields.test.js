// The GraphQL reader's single fields (issue 15 item 3): an error on `isDraft` or `mergeable` nulls that
// field only, and the reader must carry it as "do not know", never as its falsy reading (a draft read
// as ready, a conflicting pull request read as mergeable). The answers are GitHub's partial-error
// shape, served by a stub transport: the emulator's schema makes these fields non-null.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFacts } from "../../lib/github/read.js";

const HEAD = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678";
const empty = { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] };

function pull(number, fields) {
  return {
    number,
    state: "OPEN",
    title: "t",
    body: "",
    isDraft: false,
    createdAt: "2026-07-19T08:00:00Z",
    baseRefName: "main",
    headRefName: `b${number}`,
    headRefOid: HEAD,
    mergeable: "MERGEABLE",
    mergeStateStatus: "CLEAN",
    author: { __typename: "User", login: "dev" },
    labels: empty,
    reviews: {
      pageInfo: { hasNextPage: false, endCursor: null },
      nodes: [
        {
          author: { __typename: "User", login: "maintainer" },
          state: "APPROVED",
          submittedAt: "2026-07-21T09:00:00Z",
          body: "",
          authorAssociation: "MEMBER",
          commit: { oid: HEAD },
        },
        {
          author: { __typename: "User", login: "drive-by" },
          state: "APPROVED",
          submittedAt: "2026-07-21T09:00:00Z",
          body: "",
          authorAssociation: "CONTRIBUTOR",
          commit: { oid: HEAD },
        },
      ],
    },
    reviewRequests: empty,
    files: empty,
    comments: empty,
    commits: { nodes: [] },
    timelineItems: empty,
    ...fields,
  };
}

function stub(pulls, errors) {
  return {
    prflowGraphqlUrl: "https://stub.invalid/graphql",
    request: async () => ({
      headers: { date: "Tue, 21 Jul 2026 12:00:00 GMT" },
      data: {
        data: {
          viewer: { __typename: "Bot", login: "prflow-bot" },
          rateLimit: { cost: 1, remaining: 4999, resetAt: "2026-07-21T13:00:00Z" },
          repository: {
            defaultBranchRef: null,
            labels: empty,
            pullRequests: { totalCount: pulls.length, pageInfo: { hasNextPage: false, endCursor: null }, nodes: pulls },
          },
        },
        errors,
      },
    }),
  };
}

test("an errored isDraft is unknown, not 'ready'; an errored mergeable is UNKNOWN, not mergeable", async () => {
  const errors = [
    {
      message: "Something went wrong while loading isDraft",
      path: ["repository", "pullRequests", "nodes", 0, "isDraft"],
    },
    {
      message: "Something went wrong while loading mergeable",
      path: ["repository", "pullRequests", "nodes", 1, "mergeable"],
    },
  ];
  const facts = await readFacts(stub([pull(1, { isDraft: null }), pull(2, { mergeable: null }), pull(3, {})], errors), {
    owner: "acme",
    repo: "widgets",
  });
  const [one, two, three] = facts.pullRequests;
  assert.deepEqual(one.unknown, ["isDraft"]);
  assert.equal(two.mergeable, "UNKNOWN");
  assert.deepEqual(two.unknown, []);
  assert.deepEqual(three.unknown, [], "a pull request read whole has nothing unknown");
  assert.equal(three.mergeable, "MERGEABLE");
});

test("a review carries its author's association as GitHub reports it: who can write is the engine's rule", async () => {
  const facts = await readFacts(stub([pull(1, {})], []), { owner: "acme", repo: "widgets" });
  assert.deepEqual(
    facts.pullRequests[0].reviews.map((r) => [r.author, r.authorAssociation]),
    [
      ["maintainer", "MEMBER"],
      ["drive-by", "CONTRIBUTOR"],
    ],
  );
});
