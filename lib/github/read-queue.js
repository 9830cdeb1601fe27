// The facts the merge queue needs beyond what readFacts reads: who the tool is, the base's tip, review
// conversations, auto-merge, forks, commit counts; then what the engine names
// (engine.queueReads, or the `reads` of another whole-board answer, e.g. the dashboard's): the issues
// pull requests close and what they name in Start-After: or "blocked by", team members for CODEOWNERS,
// and whether a queued branch is built on the tip. It only reads, and parses no body, comment or CODEOWNERS: the engine does. A read that fails is recorded in `unknown`
// (never guessed): the engine then holds nothing on it, names it no more, and says so.
import { checksAt, checksSelect, loginOf, readFacts, toCheck } from "./read.js";

const PAGE = 50;
/** Recent landings the queue times its estimate by and the scoreboard counts (the engine takes the newest ten timed). */
export const LANDED = 30;
/** CI runs read per landing. */
const LANDED_CHECKS = 30;

/** The newest merged pull requests, each with its merged head's checks: one query. */
export const LANDED_QUERY = `query Landed($owner: String!, $repo: String!) {
  repository(owner: $owner, name: $repo) {
    pullRequests(states: MERGED, last: ${LANDED}, orderBy: { field: UPDATED_AT, direction: ASC }) {
      nodes { number title createdAt mergedAt author { __typename login } labels(first: 20) { nodes { name } } ${checksSelect(LANDED_CHECKS)} }
    }
  }
}`;

/**
 * Fills `facts.landed` (newest first) from LANDED_QUERY; a failed read is `unknown: ["landed"]`, so the
 * engine makes no estimate from it rather than an estimate from nothing.
 */
export async function readLanded(octokit, { owner, repo, facts, log = () => {} }) {
  try {
    const { data, errors } = await graphqlPartial(octokit, LANDED_QUERY, { owner, repo });
    const nodes = data?.repository?.pullRequests?.nodes;
    if (!nodes || errors.length) throw new Error(errors[0]?.message ?? "no merged pull requests in the answer");
    facts.landed = nodes
      .filter((n) => n?.mergedAt)
      .map((n) => ({
        number: n.number,
        title: n.title ?? "",
        author: loginOf(n.author) ?? "",
        labels: (n.labels?.nodes ?? []).map((l) => l.name),
        createdAt: n.createdAt ?? "",
        mergedAt: n.mergedAt,
        checks: (checksAt(n)?.nodes ?? []).filter(Boolean).map(toCheck),
      }))
      .sort((a, b) => b.mergedAt.localeCompare(a.mergedAt) || b.number - a.number);
  } catch (e) {
    log(`landed: could not read the recent landings (${e.message}); no estimate is made`);
    addUnknown(facts.unknown, "landed");
  }
  return facts;
}

/** One page of the queue's per-pull-request facts. Validated against GitHub's schema in tests. */
export const QUEUE_PULLS_QUERY = `query QueuePulls($owner: String!, $repo: String!, $after: String) {
  viewer { login }
  repository(owner: $owner, name: $repo) {
    defaultBranchRef { name target { oid } }
    pullRequests(states: OPEN, first: ${PAGE}, after: $after, orderBy: { field: CREATED_AT, direction: DESC }) {
      pageInfo { hasNextPage endCursor }
      nodes {
        number
        isCrossRepository
        headRefOid
        autoMergeRequest { enabledAt }
        commits(first: 1) { totalCount }
        files(first: 1) { totalCount }
        closingIssuesReferences(first: 25) { nodes { number repository { nameWithOwner } } }
        reviewThreads(first: 100) { totalCount nodes { isResolved } }
      }
    }
  }
}`;

/** What an issue or pull request number is: used for numbers Start-After: names. */
export function numbersQuery(numbers) {
  const fields = numbers.map(
    (n) =>
      `n${n}: issueOrPullRequest(number: ${Number(n)}) { __typename ... on Issue { number state body } ... on PullRequest { number prState: state } }`,
  );
  return `query QueueNumbers($owner: String!, $repo: String!) { repository(owner: $owner, name: $repo) { ${fields.join(" ")} } }`;
}

/** Every page of a REST list (Octokit core has no paginate plugin here): `page` until a short page. */
export async function restPages(octokit, route, params) {
  const out = [];
  for (let page = 1; ; page++) {
    const { data } = await octokit.request(route, { ...params, per_page: 100, page });
    out.push(...data);
    if (data.length < 100) return out;
  }
}

/** A GraphQL answer with its partial errors: GitHub returns data beside errors for fields it failed on. */
async function graphqlPartial(octokit, query, variables) {
  try {
    return { data: await octokit.graphql(query, variables), errors: [] };
  } catch (e) {
    if (e.data) return { data: e.data, errors: e.errors ?? [] };
    throw e;
  }
}

function addUnknown(list, what) {
  if (!list.includes(what)) list.push(what);
}

/**
 * Everything a view of the whole board reads (`prflow report`, `prflow status`, the dashboard page):
 * readFacts, then the queue's facts on top, so the queue's triage is the same wherever it is shown.
 * `landed: false` leaves out the recent landings (the lane's estimates and the scoreboard), as the
 * worker's polls do: they need neither, and each would cost a query.
 */
export async function readBoardFacts(
  octokit,
  { owner, repo, engine, config = {}, log = () => {}, tips, reads, landed = true },
) {
  const facts = await readFacts(octokit, { owner, repo, log });
  if (landed) await readLanded(octokit, { owner, repo, facts, log });
  return readQueueFacts(octokit, { owner, repo, engine, facts, config, log, tips, reads });
}

/** More rounds than the engine's answers can take (issues, then what they name): a guard, not a rule. */
const MAX_ROUNDS = 8;

/**
 * Adds the queue's facts to `facts` (as readFacts returned it, with the default branch's rules: whether
 * code-owner review is required decides which teams the engine names) in place, and returns it.
 * `config` is the validated config; `engine` (js/node.js or a loaded js/web.js) names what to read.
 * `reads(facts)` asks it, queueReads by default; a view of the whole board passes its own question
 * whose answer carries the same reads (the dashboard's `reads`), keeps the last answer, and so asks
 * one whole-board question a round: the answer that names nothing is the one it shows.
 */
export async function readQueueFacts(
  octokit,
  {
    owner,
    repo,
    engine,
    facts,
    config = {},
    log = () => {},
    tips,
    reads: ask = (f) => engine.queueReads({ facts: f }),
  },
) {
  facts.repository ||= `${owner}/${repo}`;
  facts.unknown ??= [];
  facts.pullRequests ??= [];
  facts.issues ??= [];
  facts.teamMembers ??= {};
  const byNumber = new Map(facts.pullRequests.map((p) => [p.number, p]));

  // 1. Per pull request, in pages of 50. GitHub answers a field it failed on with null and an error
  //    beside the data; what came back is used and what did not is marked unknown, never guessed.
  try {
    let after = null;
    for (;;) {
      const { data, errors } = await graphqlPartial(octokit, QUEUE_PULLS_QUERY, { owner, repo, after });
      for (const e of errors) log(`queue facts: ${e.message}${e.path ? ` (at ${e.path.join(".")})` : ""}`);
      if (data?.viewer?.login) facts.viewer ??= data.viewer.login;
      const branch = data?.repository?.defaultBranchRef;
      facts.defaultBranch ??= branch?.name;
      facts.baseTipSha ??= branch?.target?.oid;
      const page = data?.repository?.pullRequests;
      if (!page) throw new Error(errors[0]?.message ?? "no pull requests in the answer");
      for (const node of page.nodes ?? []) {
        if (!node) continue;
        const pr = byNumber.get(node.number);
        if (!pr) continue;
        pr.unknown ??= [];
        if (typeof node.isCrossRepository === "boolean") pr.isFork = node.isCrossRepository;
        if (node.autoMergeRequest !== undefined) pr.autoMerge = Boolean(node.autoMergeRequest);
        if (node.commits) pr.commitCount = node.commits.totalCount;
        if (node.files && (pr.files?.length ?? 0) < node.files.totalCount) pr.filesTruncated = true;
        if (node.closingIssuesReferences) {
          // Every link with its repository: GitHub links other repositories' issues too, and the engine
          // decides which are this repository's. Their bodies are read when the engine names them.
          pr.closingIssues = node.closingIssuesReferences.nodes.filter(Boolean).map((i) => ({
            number: i.number,
            source: "link",
            ...(i.repository ? { repository: i.repository.nameWithOwner } : {}),
          }));
        } else addUnknown(pr.unknown, "closingIssues");
        // Past one page of threads the count is a floor: enough to hold on, never a guess that releases.
        if (node.reviewThreads) pr.unresolvedThreads = node.reviewThreads.nodes.filter((t) => !t.isResolved).length;
        else addUnknown(pr.unknown, "reviewThreads");
      }
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
  } catch (e) {
    log(`queue facts: the pull requests' queue facts could not be read (${e.message}); nothing is held on them`);
    for (const pr of facts.pullRequests) {
      pr.unknown ??= [];
      addUnknown(pr.unknown, "closingIssues");
      addUnknown(pr.unknown, "reviewThreads");
    }
  }

  // 2. What the engine names, until it names nothing more. Each answer leaves out what the facts hold
  //    or list as unreadable, so a failed read is recorded where the engine looks and not asked again.
  for (let round = 0; ; round++) {
    const reads = ask(facts);
    if (reads.configErrors) break; // a bad config: the engine names nothing to read, and says why where it decides
    if (!reads.issues.length && !reads.blockedBy.length && !reads.teams.length && !reads.tips.length) break;
    if (round === MAX_ROUNDS) {
      log(
        `queue facts: the engine still names reads after ${MAX_ROUNDS} rounds (${JSON.stringify(reads)}); reading stops here`,
      );
      break;
    }
    await readIssues(octokit, { owner, repo, facts, numbers: reads.issues, blockedBy: reads.blockedBy, log });
    await readTeams(octokit, { facts, teams: reads.teams, log });
    await readTips(octokit, { owner, repo, facts, numbers: reads.tips, log, tips });
  }
  return facts;
}

/**
 * The state and body of each number (an issue, a pull request that is not open, or nothing), and the
 * dependencies ("blocked by") of the issues named for it. Any failure makes the issues unknown.
 */
async function readIssues(octokit, { owner, repo, facts, numbers, blockedBy, log }) {
  try {
    if (numbers.length) {
      const { data, errors } = await graphqlPartial(octokit, numbersQuery(numbers), { owner, repo });
      if (!data?.repository) throw new Error(errors[0]?.message ?? "no answer");
      for (const n of numbers) {
        const node = data.repository[`n${n}`];
        // A number that names nothing is no open issue: GitHub's answer, kept so it is not asked again.
        if (!node) facts.issues.push({ number: n, open: false });
        else if (node.__typename === "PullRequest")
          facts.issues.push({ number: n, open: node.prState === "OPEN", pullRequest: true });
        else facts.issues.push({ number: n, open: node.state === "OPEN", body: node.body ?? "" });
      }
    }
    for (const n of blockedBy) {
      const { data } = await octokit.request(
        "GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by",
        { owner, repo, issue_number: n },
      );
      const issue = facts.issues.find((i) => i.number === n);
      if (issue) issue.blockedBy = data.filter((d) => d.state === "open").map((d) => d.number);
    }
  } catch (e) {
    log(`queue facts: issues could not be read (${e.message}); no Start-After: is inherited`);
    addUnknown(facts.unknown, "issues");
  }
}

/** The members of each team the engine names; a team that cannot be read makes team members unknown. */
async function readTeams(octokit, { facts, teams, log }) {
  for (const team of teams) {
    const [org, slug] = team.split("/");
    try {
      const members = await restPages(octokit, "GET /orgs/{org}/teams/{team_slug}/members", { org, team_slug: slug });
      facts.teamMembers[team] = members.map((m) => m.login);
    } catch (e) {
      log(`queue facts: members of @${team} could not be read (${e.message}); the paths it owns stay held`);
      addUnknown(facts.unknown, "teamMembers");
    }
  }
}

// Answers of the compare API by `tip...head`: both are commits, so the answer never changes, and a
// resident worker surveying every 30 s asks again only for a head or a tip it has not seen (a queue
// of N paused branches cost N requests a survey). Bounded: the oldest answers go first.
const TIP_ANSWERS = new Map();
const TIP_ANSWERS_MAX = 10_000;
function remember(key, answer) {
  if (TIP_ANSWERS.size >= TIP_ANSWERS_MAX) TIP_ANSWERS.delete(TIP_ANSWERS.keys().next().value);
  TIP_ANSWERS.set(key, answer);
}

/** Whether each named branch is built on the tip: git's answer, because skip-ci leaves the merge state
 *  at BLOCKED. `tips` (the worker's clone: `{ tip, heads } -> Map head -> boolean`) answers from git
 *  itself with one fetch for the whole board; what it cannot answer is asked of the compare API, one
 *  request a pull request. A failed compare is that pull request's unknown fact. */
async function readTips(octokit, { owner, repo, facts, numbers, log, tips }) {
  const prs = numbers.map((n) => facts.pullRequests.find((p) => p.number === n)).filter(Boolean);
  const key = (pr) => `${owner}/${repo} ${facts.baseTipSha}...${pr.headSha}`;
  const unseen = prs.filter((pr) => !TIP_ANSWERS.has(key(pr)));
  if (tips && unseen.length) {
    try {
      const answers = await tips({
        tip: facts.baseTipSha,
        base: facts.defaultBranch,
        heads: unseen.map((pr) => ({ number: pr.number, branch: pr.headRef, sha: pr.headSha })),
      });
      for (const pr of unseen) if (answers.has(pr.headSha)) remember(key(pr), answers.get(pr.headSha));
    } catch (e) {
      log(`queue facts: git could not say which branches are built on the tip (${e.message}); asking the compare API`);
    }
  }
  for (const pr of prs) {
    const n = pr.number;
    const basehead = `${facts.baseTipSha}...${pr.headSha}`;
    if (TIP_ANSWERS.has(key(pr))) {
      pr.builtOnBaseTip = TIP_ANSWERS.get(key(pr));
      continue;
    }
    try {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/compare/{basehead}", {
        owner,
        repo,
        basehead,
        per_page: 1,
      });
      pr.builtOnBaseTip = data.behind_by === 0;
      remember(key(pr), pr.builtOnBaseTip);
    } catch (e) {
      log(`queue facts: #${n}: whether it is built on the tip could not be read (${e.message})`);
      pr.unknown ??= [];
      addUnknown(pr.unknown, "builtOnBaseTip");
    }
  }
}
