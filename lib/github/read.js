//! Reads a Facts document (src/facts.rs, schema/facts.schema.json) from GitHub: open pull requests in
//! GraphQL pages of PULL_PAGE, each with its labels, reviews, review requests, files, comments, head
//! check rollup and timeline; nested lists that overflow their page are followed with extra queries for
//! that pull request only. The repository's labels and the viewer ride on the first page; the required
//! checks come from the default branch's rules (REST). A part that fails to read is listed in `unknown`
//! (never left empty): "no labels" and "the label read failed" must lead to opposite plans.
//!
//! A sweep of N open pull requests costs ceil(N/100) GraphQL requests (at least 1) + 1 REST request,
//! plus, when nested lists overflow, one query per round per 20 such pull requests.

/**
 * Pull requests per GraphQL page: 100, GitHub's largest `first:`, so a sweep is GitHub's floor of requests.
 * A page asks 100 × (1 + the NESTED sizes, 475) + the check rollup's one commit each, about 47,800 nodes
 * of GitHub's 500,000; its points are round(connections asked / 100) = 8, the same points per pull request
 * as two pages of 50 (4 each), so the larger page saves requests without spending more of the budget.
 */
export const PULL_PAGE = 100;
/**
 * When a sweep page keeps failing on GitHub's side (a 5xx or "Something went wrong", usually a timeout of
 * a heavy page) after the client's own retries, the page is asked again at half the size, down to this.
 */
export const MIN_PULL_PAGE = 6;
/** Nested page sizes: large enough that a typical pull request needs no second query. */
export const NESTED = {
  labels: 50,
  reviews: 50,
  reviewRequests: 25,
  files: 100,
  comments: 50,
  checks: 100,
  timeline: 100,
};
/** Follow-up pages use GitHub's maximum. */
export const FOLLOW_PAGE = 100;
/**
 * Pull requests per follow-up query. Each carries at most 7 lists of 100 (700 nodes), so a batch stays
 * near 14,000 nodes, far inside GitHub's limit.
 */
export const FOLLOW_BATCH = 20;
/** Where GitHub looks for CODEOWNERS, in its order. */
export const CODEOWNERS_PATHS = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"];

/** The timeline items the engine reads, and the facts kind each becomes (GitHub's REST event names). */
export const TIMELINE_KINDS = {
  LabeledEvent: "labeled",
  UnlabeledEvent: "unlabeled",
  PullRequestCommit: "committed",
  HeadRefForcePushedEvent: "head_ref_force_pushed",
  IssueComment: "commented",
  PullRequestReview: "reviewed",
  ReviewRequestedEvent: "review_requested",
  ReadyForReviewEvent: "ready_for_review",
  ConvertToDraftEvent: "convert_to_draft",
  ReopenedEvent: "reopened",
};
const ITEM_TYPES = [
  "LABELED_EVENT",
  "UNLABELED_EVENT",
  "PULL_REQUEST_COMMIT",
  "HEAD_REF_FORCE_PUSHED_EVENT",
  "ISSUE_COMMENT",
  "PULL_REQUEST_REVIEW",
  "REVIEW_REQUESTED_EVENT",
  "READY_FOR_REVIEW_EVENT",
  "CONVERT_TO_DRAFT_EVENT",
  "REOPENED_EVENT",
];

const PAGE_INFO = "pageInfo { hasNextPage endCursor }";
const ACTOR = "actor { __typename login }";
const AUTHOR = "author { __typename login }";

// Each nested list: its selection (given first/after), where its connection sits in a PR, and its facts name.
const LISTS = {
  labels: { fact: "labels", select: (a) => `labels(${a}) { ${PAGE_INFO} nodes { name } }`, at: (pr) => pr.labels },
  reviews: {
    fact: "reviews",
    select: (a) =>
      `reviews(${a}) { ${PAGE_INFO} nodes { ${AUTHOR} state submittedAt body authorAssociation commit { oid } } }`,
    at: (pr) => pr.reviews,
  },
  reviewRequests: {
    fact: "reviewRequests",
    select: (a) =>
      `reviewRequests(${a}) { ${PAGE_INFO} nodes { requestedReviewer { __typename ... on User { login } ... on Bot { login } ... on Mannequin { login } ... on Team { slug organization { login } } } } }`,
    at: (pr) => pr.reviewRequests,
  },
  files: { fact: "files", select: (a) => `files(${a}) { ${PAGE_INFO} nodes { path } }`, at: (pr) => pr.files },
  comments: {
    fact: "comments",
    select: (a) => `comments(${a}) { ${PAGE_INFO} nodes { databaseId ${AUTHOR} body createdAt authorAssociation } }`,
    at: (pr) => pr.comments,
  },
  checks: {
    fact: "checks",
    select: (a) =>
      `commits(last: 1) { nodes { commit { oid statusCheckRollup { state contexts(${a}) { ${PAGE_INFO} nodes { __typename ` +
      `... on CheckRun { databaseId name status conclusion startedAt completedAt detailsUrl checkSuite { workflowRun { workflow { name } } } } ` +
      `... on StatusContext { context state createdAt targetUrl } } } } } } }`,
    at: (pr) => {
      const commit = pr.commits?.nodes?.[0]?.commit;
      if (!commit) return pr.commits === null ? null : { pageInfo: { hasNextPage: false }, nodes: [] };
      return commit.statusCheckRollup
        ? commit.statusCheckRollup.contexts
        : { pageInfo: { hasNextPage: false }, nodes: [] };
    },
  },
  timeline: {
    fact: "timeline",
    select: (a) =>
      `timelineItems(${a}, itemTypes: [${ITEM_TYPES.join(", ")}]) { ${PAGE_INFO} nodes { __typename ` +
      `... on LabeledEvent { createdAt ${ACTOR} label { name } } ... on UnlabeledEvent { createdAt ${ACTOR} label { name } } ` +
      `... on PullRequestCommit { commit { oid committedDate author { user { login } } } } ` +
      `... on HeadRefForcePushedEvent { createdAt ${ACTOR} } ... on IssueComment { createdAt ${AUTHOR} } ` +
      `... on PullRequestReview { createdAt submittedAt ${AUTHOR} } ... on ReviewRequestedEvent { createdAt ${ACTOR} } ` +
      `... on ReadyForReviewEvent { createdAt ${ACTOR} } ... on ConvertToDraftEvent { createdAt ${ACTOR} } ... on ReopenedEvent { createdAt ${ACTOR} } } }`,
    at: (pr) => pr.timelineItems,
  },
};
/** A head commit's check runs and statuses, `first` of them: the selection and where its nodes sit in a pull request. */
export const checksSelect = (first) => LISTS.checks.select(`first: ${first}`);
export const checksAt = (pr) => LISTS.checks.at(pr);

// The GraphQL field each list's errors are reported under.
const LIST_FIELD = {
  labels: "labels",
  reviews: "reviews",
  reviewRequests: "reviewRequests",
  files: "files",
  comments: "comments",
  checks: "commits",
  timeline: "timelineItems",
};

const PULL_FIELDS =
  "number state title body isDraft createdAt baseRefName headRefName headRefOid mergeable mergeStateStatus author { __typename login } " +
  Object.entries(LISTS)
    .map(([k, l]) => l.select(`first: ${NESTED[k]}`))
    .join(" ");

// Repository-level facts, read once, on the first page.
const REPO_FIELDS =
  `defaultBranchRef { name refUpdateRule { requiredStatusCheckContexts } } labels(first: ${FOLLOW_PAGE}) { ${PAGE_INFO} nodes { name } } ` +
  CODEOWNERS_PATHS.map(
    (p, i) => `codeowners${i}: object(expression: ${JSON.stringify(`HEAD:${p}`)}) { ... on Blob { text } }`,
  ).join(" ");

/** One page of the sweep; the first also reads the viewer and the repository-level facts. */
function sweepQuery(first, size = PULL_PAGE) {
  return `query prflowSweep($owner: String!, $repo: String!, $after: String) {
  ${first ? "viewer { __typename login } " : ""}rateLimit { cost remaining resetAt }
  repository(owner: $owner, name: $repo) {
    ${first ? REPO_FIELDS : ""}
    pullRequests(states: OPEN, first: ${size}, after: $after, orderBy: { field: CREATED_AT, direction: ASC }) {
      totalCount ${PAGE_INFO} nodes { ${PULL_FIELDS} }
    }
  }
}`;
}

/** Named pull requests, up to PULL_PAGE per query, as aliases. */
function pullsQuery(first, numbers) {
  const aliases = numbers.map((n, i) => `p${i}: pullRequest(number: ${Number(n)}) { ${PULL_FIELDS} }`).join("\n    ");
  return `query prflowPulls($owner: String!, $repo: String!) {
  ${first ? "viewer { __typename login } " : ""}rateLimit { cost remaining resetAt }
  repository(owner: $owner, name: $repo) {
    ${first ? REPO_FIELDS : "id"}
    ${aliases}
  }
}`;
}

/** A GraphQL error: the message and path of each error, plus what data came back. */
export class GraphqlErrors extends Error {
  constructor(errors, data) {
    super(errors.map((e) => e.message).join("; "));
    this.errors = errors;
    this.data = data;
  }
}

/** POSTs a document to the GraphQL endpoint the runner names; returns { data, errors, date }. */
export async function graphqlRequest(octokit, query, variables = {}) {
  const url = octokit.prflowGraphqlUrl ?? graphqlUrlOf(octokit);
  const res = await octokit.request({ method: "POST", url, query, variables });
  return { data: res.data?.data ?? null, errors: res.data?.errors ?? [], date: res.headers?.date };
}

function graphqlUrlOf(octokit) {
  const base = octokit.request.endpoint.DEFAULTS.baseUrl;
  return /\/api\/v3\/?$/.test(base) ? base.replace(/\/api\/v3\/?$/, "/api/graphql") : `${base}/graphql`;
}

/**
 * Reads facts. `numbers` limits the read to those pull requests (closed ones are left out); without it
 * every open pull request is read. `now` defaults to the `Date` header of GitHub's first answer (GitHub's
 * clock, not this machine's). `log` gets one line per request beyond the first page.
 */
export async function readFacts(octokit, { owner, repo, numbers, viewer, now, log = () => {} } = {}) {
  const facts = {
    repository: `${owner}/${repo}`,
    now: "",
    viewer: viewer ?? null,
    defaultBranch: null,
    labels: [],
    requiredChecks: [],
    codeowners: null,
    unknown: [],
    pullRequests: [],
  };
  const stats = { graphql: 0, rest: 0, followUps: 0 };
  const raw = [];
  let head = null;
  let date;

  const run = async (query, variables) => {
    stats.graphql++;
    const r = await graphqlRequest(octokit, query, variables);
    date ??= r.date;
    return r;
  };

  if (numbers === undefined) {
    let after = null;
    let size = PULL_PAGE;
    for (;;) {
      let r;
      try {
        r = await run(sweepQuery(head === null, size), { owner, repo, after });
      } catch (e) {
        if (!serverSide(e) || size <= MIN_PULL_PAGE) throw e;
        size = Math.max(MIN_PULL_PAGE, Math.floor(size / 2));
        log(
          `a page of pull requests failed on GitHub's side (${e.status ?? ""} ${e.message}); asking again ${size} at a time`,
        );
        continue;
      }
      const repository = r.data?.repository;
      if (!repository)
        throw new GraphqlErrors(
          r.errors.length ? r.errors : [{ message: `repository ${owner}/${repo} not found` }],
          r.data,
        );
      if (head === null) head = { data: r.data, errors: r.errors };
      const conn = repository.pullRequests;
      if (!conn) throw new GraphqlErrors(r.errors, r.data);
      conn.nodes.forEach((pr, i) => {
        const errors = errorsUnder(r.errors, ["repository", "pullRequests", "nodes", i]);
        // GitHub answers null for a node it failed to build (with an error at its path): that pull
        // request is unknown, so it is left out of this run and its labels stay as they are.
        if (!pr) {
          log(
            `a pull request came back empty from GitHub (${errors.map((e) => e.message).join("; ") || "no error given"}); it is left out of this run, its labels untouched`,
          );
          return;
        }
        raw.push({ pr, errors });
      });
      // Progress on a large board (a page of 100 takes seconds): the Action's log, the CLI's stderr, the page's status line.
      log(`reading pull requests ${raw.length}/${conn.totalCount}`);
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
  } else {
    const wanted = [...new Set(numbers)];
    for (let start = 0; start < wanted.length || start === 0; start += PULL_PAGE) {
      const chunk = wanted.slice(start, start + PULL_PAGE);
      const r = await run(pullsQuery(head === null, chunk), { owner, repo });
      const repository = r.data?.repository;
      if (!repository)
        throw new GraphqlErrors(
          r.errors.length ? r.errors : [{ message: `repository ${owner}/${repo} not found` }],
          r.data,
        );
      if (head === null) head = { data: r.data, errors: r.errors };
      chunk.forEach((_, i) => {
        const pr = repository[`p${i}`];
        if (pr) raw.push({ pr, errors: errorsUnder(r.errors, ["repository", `p${i}`]) });
      });
      if (!chunk.length) break;
    }
  }

  // Repository-level facts from the first answer.
  const repository = head.data.repository;
  facts.viewer = viewer ?? loginOf(head.data.viewer);
  facts.defaultBranch = repository.defaultBranchRef?.name ?? null;
  if (repository.labels && !errorsUnder(head.errors, ["repository", "labels"]).length) {
    const names = repository.labels.nodes.map((l) => l.name);
    let page = repository.labels.pageInfo;
    try {
      while (page.hasNextPage) {
        const r = await run(
          `query prflowLabels($owner: String!, $repo: String!, $after: String) { repository(owner: $owner, name: $repo) { labels(first: ${FOLLOW_PAGE}, after: $after) { ${PAGE_INFO} nodes { name } } } }`,
          { owner, repo, after: page.endCursor },
        );
        const conn = r.data?.repository?.labels;
        if (!conn || r.errors.length) throw new GraphqlErrors(r.errors, r.data);
        names.push(...conn.nodes.map((l) => l.name));
        page = conn.pageInfo;
      }
      facts.labels = names;
    } catch (e) {
      log(`labels: could not read the repository's labels (${e.message}); treating them as unknown`);
      facts.unknown.push("labels");
    }
  } else {
    log(
      `labels: could not read the repository's labels (${head.errors.map((e) => e.message).join("; ")}); treating them as unknown`,
    );
    facts.unknown.push("labels");
  }
  const codeownerErrors = CODEOWNERS_PATHS.some(
    (_, i) => errorsUnder(head.errors, ["repository", `codeowners${i}`]).length,
  );
  if (codeownerErrors) facts.unknown.push("codeowners");
  else
    facts.codeowners =
      CODEOWNERS_PATHS.map((_, i) => repository[`codeowners${i}`]?.text).find((t) => typeof t === "string") ?? null;

  // The rules of the default branch, read once for every flow: required checks from classic branch
  // protection (GraphQL's refUpdateRule, readable without admin rights, on the first page) and every
  // ruleset rule that applies (REST), and the ruleset's pull_request rule (code-owner review, resolved
  // conversations) the merge queue reads. Unread, "not required" would be a guess: each is unknown then.
  const protectionFailed = errorsUnder(head.errors, ["repository", "defaultBranchRef"]).length > 0;
  const protection = repository.defaultBranchRef?.refUpdateRule?.requiredStatusCheckContexts ?? [];
  let rules = null;
  if (facts.defaultBranch) {
    try {
      stats.rest++;
      rules = (
        await octokit.request("GET /repos/{owner}/{repo}/rules/branches/{branch}", {
          owner,
          repo,
          branch: facts.defaultBranch,
          per_page: 100,
        })
      ).data;
    } catch (e) {
      log(
        `rules: could not read the rules of ${facts.defaultBranch} (${e.status ?? ""} ${e.message}); treating them as unknown`,
      );
    }
  }
  if (rules && !protectionFailed)
    facts.requiredChecks = [...new Set([...protection.filter(Boolean), ...requiredContexts(rules)])];
  else facts.unknown.push("requiredChecks");
  if (rules) Object.assign(facts, reviewRules(rules));
  else facts.unknown.push("rules");

  // Pull requests, following every overflowing nested list (batched across pull requests).
  const pulls = raw.filter(({ pr }) => !pr.state || pr.state === "OPEN").map(({ pr, errors }) => firstPage(pr, errors));
  await followUp(pulls, { owner, repo, run, stats, log });
  facts.pullRequests.push(...pulls.map(toPull));
  facts.pullRequests.sort((a, b) => a.number - b.number);
  facts.now = now ?? new Date(date ?? Date.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  Object.defineProperty(facts, "stats", { value: stats, enumerable: false });
  return facts;
}

/** A failure GitHub's side may not repeat for a lighter query: a 5xx, or GraphQL's timeout message. */
function serverSide(e) {
  return e.status >= 500 || /Something went wrong while executing your query/.test(e.message ?? "");
}

/** What the pull_request rule of a `GET /rules/branches/{branch}` answer requires of a review. */
export function reviewRules(rules) {
  const pr = (rules ?? []).find((rule) => rule.type === "pull_request");
  return {
    requireCodeOwnerReview: Boolean(pr?.parameters?.require_code_owner_review),
    requireConversationResolution: Boolean(pr?.parameters?.required_review_thread_resolution),
  };
}

/** The contexts a `GET /rules/branches/{branch}` answer requires. */
export function requiredContexts(rules) {
  const out = [];
  for (const rule of rules ?? []) {
    if (rule.type !== "required_status_checks") continue;
    for (const c of rule.parameters?.required_status_checks ?? []) if (!out.includes(c.context)) out.push(c.context);
  }
  return out;
}

/**
 * A login in REST's form: GraphQL names a bot `github-actions` where REST (and the comment's author as
 * people see it) says `github-actions[bot]`; facts use one form so "did the tool write this marker"
 * compares equal.
 */
export function loginOf(actor) {
  if (!actor?.login) return null;
  return actor.__typename === "Bot" && !actor.login.endsWith("[bot]") ? `${actor.login}[bot]` : actor.login;
}

function errorsUnder(errors, prefix) {
  return (errors ?? []).filter((e) => Array.isArray(e.path) && prefix.every((p, i) => e.path[i] === p));
}

/** What the page said about one pull request: its lists so far, the cursors of those that go on, what failed. */
function firstPage(pr, errors) {
  const unknown = new Set();
  const lists = {};
  const pending = {};
  for (const [key, list] of Object.entries(LISTS)) {
    const failed = errors.some((e) => e.path.includes(LIST_FIELD[key]));
    const conn = list.at(pr);
    if (failed || !conn) {
      unknown.add(list.fact);
      continue;
    }
    lists[key] = [...conn.nodes];
    if (conn.pageInfo?.hasNextPage) pending[key] = conn.pageInfo.endCursor;
  }
  // Single fields: an error there nulls the field, which must not read as false or mergeable.
  for (const field of ["isDraft", "mergeable"]) {
    if (errors.some((e) => e.path.at(-1) === field) || typeof pr[field] === "undefined" || pr[field] === null)
      unknown.add(field);
  }
  return { pr, lists, pending, unknown };
}

/**
 * Reads the rest of every overflowing list: each round is one query per FOLLOW_BATCH pull requests, each
 * carrying every list of theirs still open, until none is. A list whose follow-up fails is unknown.
 */
async function followUp(pulls, ctx) {
  for (;;) {
    const open = pulls.filter((p) => Object.keys(p.pending).length);
    if (!open.length) return;
    for (let i = 0; i < open.length; i += FOLLOW_BATCH) {
      const batch = open.slice(i, i + FOLLOW_BATCH);
      const vars = {};
      const aliases = batch.map((p, j) => {
        const keys = Object.keys(p.pending);
        for (const k of keys) vars[`a${j}_${k}`] = p.pending[k];
        return `f${j}: pullRequest(number: ${Number(p.pr.number)}) { ${keys.map((k) => LISTS[k].select(`first: ${FOLLOW_PAGE}, after: $a${j}_${k}`)).join(" ")} }`;
      });
      const query = `query prflowMore($owner: String!, $repo: String!, ${Object.keys(vars)
        .map((v) => `$${v}: String`)
        .join(", ")}) { repository(owner: $owner, name: $repo) { ${aliases.join(" ")} } }`;
      ctx.stats.followUps++;
      ctx.log(
        `reading more of ${batch.map((p) => `#${p.pr.number} (${Object.keys(p.pending).join(", ")})`).join(", ")}`,
      );
      let r;
      try {
        r = await ctx.run(query, { owner: ctx.owner, repo: ctx.repo, ...vars });
      } catch (e) {
        r = { data: null, errors: [{ message: e.message, path: [] }] };
      }
      batch.forEach((p, j) => {
        const more = r.data?.repository?.[`f${j}`];
        const errors = r.errors.filter((e) => !e.path?.length || e.path.length <= 1 || e.path[1] === `f${j}`);
        for (const k of Object.keys(p.pending)) {
          const failed =
            !more || errors.some((e) => (e.path ?? []).includes(LIST_FIELD[k]) || (e.path ?? []).length <= 2);
          const conn = more && LISTS[k].at(more);
          if (failed || !conn) {
            p.unknown.add(LISTS[k].fact);
            delete p.lists[k];
            delete p.pending[k];
            continue;
          }
          p.lists[k].push(...conn.nodes);
          if (conn.pageInfo.hasNextPage) p.pending[k] = conn.pageInfo.endCursor;
          else delete p.pending[k];
        }
      });
    }
  }
}

/** The facts shape of one pull request. */
function toPull({ pr, lists, unknown }) {
  const headOid = pr.commits?.nodes?.[0]?.commit?.oid;
  return {
    number: pr.number,
    title: pr.title ?? "",
    author: loginOf(pr.author) ?? "ghost",
    body: pr.body ?? "",
    isDraft: pr.isDraft === true,
    createdAt: pr.createdAt ?? "",
    baseRef: pr.baseRefName ?? "",
    headRef: pr.headRefName ?? "",
    headSha: pr.headRefOid ?? headOid ?? "",
    // An errored single field is "do not know", never its falsy reading: a null isDraft is listed
    // unknown (not "ready"), and mergeable has its own UNKNOWN.
    mergeable:
      !unknown.has("mergeable") && ["MERGEABLE", "CONFLICTING"].includes(pr.mergeable) ? pr.mergeable : "UNKNOWN",
    mergeStateStatus: pr.mergeStateStatus ?? null,
    labels: (lists.labels ?? []).map((l) => l.name),
    reviews: (lists.reviews ?? []).map(toReview),
    reviewRequests: (lists.reviewRequests ?? []).map((r) => reviewerName(r.requestedReviewer)).filter(Boolean),
    checks: (lists.checks ?? []).map(toCheck),
    files: (lists.files ?? []).map((f) => f.path),
    comments: (lists.comments ?? []).map(toComment),
    timeline: (lists.timeline ?? []).map(toEvent).filter(Boolean),
    unknown: [...Object.keys(LISTS).map((k) => LISTS[k].fact), "isDraft"].filter((f) => unknown.has(f)),
  };
}

function toReview(r) {
  return {
    author: loginOf(r.author) ?? "ghost",
    state: r.state,
    commit: r.commit?.oid ?? "",
    submittedAt: r.submittedAt ?? "",
    body: r.body ?? "",
    authorAssociation: r.authorAssociation ?? "",
  };
}

function reviewerName(r) {
  if (!r) return null;
  if (r.__typename === "Team") return `${r.organization?.login ?? ""}/${r.slug}`.replace(/^\//, "");
  return r.login ?? null;
}

/**
 * A check run as it is; a status context in the check shape src/checks.rs expects: SUCCESS is a completed
 * success, PENDING and EXPECTED are pending, FAILURE and ERROR are completed failures/errors.
 */
export function toCheck(c) {
  if (c.__typename === "StatusContext") {
    const pending = c.state === "PENDING" || c.state === "EXPECTED";
    return {
      name: c.context,
      workflow: null,
      status: pending ? "PENDING" : "COMPLETED",
      conclusion: pending ? null : c.state,
      startedAt: c.createdAt ?? null,
      completedAt: pending ? null : (c.createdAt ?? null),
      id: null,
      ...(c.targetUrl ? { url: c.targetUrl } : {}),
    };
  }
  return {
    name: c.name,
    workflow: c.checkSuite?.workflowRun?.workflow?.name ?? null,
    status: c.status,
    conclusion: c.conclusion ?? null,
    startedAt: c.startedAt ?? null,
    completedAt: c.completedAt ?? null,
    id: c.databaseId ?? null,
    ...(c.detailsUrl ? { url: c.detailsUrl } : {}),
  };
}

/**
 * An Actions job's log as text (GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs; the job id is its
 * check run's databaseId). GitHub answers 302 to a signed download URL on its blob storage that expires
 * within a minute and needs no token, so the redirect is taken by hand and the URL fetched without the
 * Authorization header: the token is not sent to another host. Rejects with `status` on a failed read
 * (404: no such job, or a job with no log yet).
 */
export async function readJobLog(octokit, { owner, repo, jobId }) {
  const r = await octokit.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
    owner,
    repo,
    job_id: jobId,
    request: { redirect: "manual" },
  });
  const location = r.headers.location;
  if (r.status !== 302 || !location)
    throw Object.assign(new Error(`the job log of ${jobId}: expected a redirect to the log, got ${r.status}`), {
      status: r.status,
    });
  const res = await fetch(location);
  if (!res.ok)
    throw Object.assign(new Error(`the job log of ${jobId}: the download answered ${res.status}`), {
      status: res.status,
    });
  return res.text();
}

function toComment(c) {
  return {
    id: c.databaseId ?? null,
    author: loginOf(c.author) ?? "ghost",
    body: c.body ?? "",
    createdAt: c.createdAt ?? "",
    authorAssociation: c.authorAssociation ?? "",
  };
}

function toEvent(item) {
  const kind = TIMELINE_KINDS[item.__typename];
  if (!kind) return null;
  switch (item.__typename) {
    case "PullRequestCommit":
      return {
        kind,
        at: item.commit?.committedDate ?? "",
        actor: item.commit?.author?.user?.login ?? null,
        label: null,
      };
    case "IssueComment":
      return { kind, at: item.createdAt, actor: loginOf(item.author), label: null };
    case "PullRequestReview":
      return { kind, at: item.submittedAt ?? item.createdAt, actor: loginOf(item.author), label: null };
    default:
      return { kind, at: item.createdAt, actor: loginOf(item.actor), label: item.label?.name ?? null };
  }
}
