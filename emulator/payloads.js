// REST representations of the emulator's state, shaped like GitHub's (and like the webhook payloads in
// @octokit/webhooks-examples). REST responses are completed with every field the OpenAPI schema requires
// (openapi.js `conform`) and then validated; webhook payloads carry the fields consumers read.

const API = "https://api.github.com";

export function restUser(st, login) {
  const u = st.user(login);
  return {
    login: u.login,
    id: u.id,
    node_id: st.nodeId(u.type, u.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${u.id}`,
    gravatar_id: "",
    url: `${API}/users/${encodeURIComponent(u.login)}`,
    html_url: `https://github.com/${encodeURIComponent(u.login)}`,
    type: u.type,
    site_admin: false,
  };
}

export function restRepo(st) {
  return {
    id: st.repoId,
    node_id: st.nodeId("Repository", st.repoId),
    name: st.repo,
    full_name: `${st.owner}/${st.repo}`,
    private: false,
    owner: restUser(st, st.owner),
    html_url: `https://github.com/${st.owner}/${st.repo}`,
    url: `${API}/repos/${st.owner}/${st.repo}`,
    default_branch: st.defaultBranch,
    fork: false,
    visibility: "public",
    allow_merge_commit: st.mergeMethods.merge,
    allow_squash_merge: st.mergeMethods.squash,
    allow_rebase_merge: st.mergeMethods.rebase,
    delete_branch_on_merge: st.deleteBranchOnMerge,
    allow_auto_merge: st.allowAutoMerge,
  };
}

export function restLabel(st, l) {
  return {
    id: l.id,
    node_id: l.nodeId,
    url: `${API}/repos/${st.owner}/${st.repo}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    color: l.color,
    description: l.description ?? null,
    default: l.default,
  };
}

function labelByName(st, name) {
  const l = st.label(name);
  return l
    ? restLabel(st, l)
    : { id: 0, node_id: "", url: "", name, color: "ededed", description: null, default: false };
}

export function restIssue(st, pr) {
  const base = `${API}/repos/${st.owner}/${st.repo}/issues/${pr.number}`;
  const issue = {
    id: pr.id,
    node_id: pr.nodeId,
    url: base,
    repository_url: `${API}/repos/${st.owner}/${st.repo}`,
    labels_url: `${base}/labels{/name}`,
    comments_url: `${base}/comments`,
    events_url: `${base}/events`,
    html_url: `https://github.com/${st.owner}/${st.repo}/${pr.isPull ? "pull" : "issues"}/${pr.number}`,
    number: pr.number,
    state: pr.state,
    title: pr.title,
    body: pr.body || null,
    user: restUser(st, pr.author),
    labels: pr.labels.map((n) => labelByName(st, n)),
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments: pr.comments.length,
    closed_at: pr.closedAt,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    author_association: st.user(pr.author).association,
  };
  if (pr.isPull) {
    issue.pull_request = {
      url: `${API}/repos/${st.owner}/${st.repo}/pulls/${pr.number}`,
      html_url: issue.html_url,
      diff_url: `${issue.html_url}.diff`,
      patch_url: `${issue.html_url}.patch`,
      merged_at: pr.mergedAt ?? null,
    };
    issue.draft = pr.isDraft;
  }
  return issue;
}

function ref(st, name, sha) {
  return { label: `${st.owner}:${name}`, ref: name, sha, user: restUser(st, st.owner), repo: restRepo(st) };
}

export function restPull(st, pr) {
  const base = `${API}/repos/${st.owner}/${st.repo}/pulls/${pr.number}`;
  const m = st.mergeable(pr);
  return {
    url: base,
    id: pr.id,
    node_id: pr.nodeId,
    html_url: `https://github.com/${st.owner}/${st.repo}/pull/${pr.number}`,
    diff_url: `https://github.com/${st.owner}/${st.repo}/pull/${pr.number}.diff`,
    patch_url: `https://github.com/${st.owner}/${st.repo}/pull/${pr.number}.patch`,
    issue_url: `${API}/repos/${st.owner}/${st.repo}/issues/${pr.number}`,
    commits_url: `${base}/commits`,
    review_comments_url: `${base}/comments`,
    review_comment_url: `${API}/repos/${st.owner}/${st.repo}/pulls/comments{/number}`,
    comments_url: `${API}/repos/${st.owner}/${st.repo}/issues/${pr.number}/comments`,
    statuses_url: `${API}/repos/${st.owner}/${st.repo}/statuses/${pr.headSha}`,
    number: pr.number,
    state: pr.state,
    locked: false,
    title: pr.title,
    user: restUser(st, pr.author),
    body: pr.body || null,
    // GitHub's pull-request schema types a label description as a string (issues allow null).
    labels: pr.labels.map((n) => ({ ...labelByName(st, n), description: st.label(n)?.description ?? "" })),
    milestone: null,
    active_lock_reason: null,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    closed_at: pr.closedAt,
    merged_at: pr.mergedAt ?? null,
    merge_commit_sha: pr.mergeCommitSha ?? null,
    assignee: null,
    assignees: [],
    requested_reviewers: pr.reviewRequests.filter((q) => q.type === "User").map((q) => restUser(st, q.login)),
    requested_teams: pr.reviewRequests.filter((q) => q.type === "Team").map((q) => restTeam(st, q.slug)),
    head: ref(st, pr.headRef, pr.headSha),
    base: ref(st, pr.baseRef, st.branch(pr.baseRef).sha),
    _links: links(st, pr),
    author_association: st.user(pr.author).association,
    auto_merge:
      pr.autoMerge && typeof pr.autoMerge === "object"
        ? {
            enabled_by: restUser(st, pr.autoMerge.enabledBy),
            merge_method: pr.autoMerge.method,
            commit_title: "",
            commit_message: "",
          }
        : null,
    draft: pr.isDraft,
    merged: !!pr.merged,
    mergeable: m === "UNKNOWN" ? null : m === "MERGEABLE",
    rebaseable: m === "UNKNOWN" ? null : m === "MERGEABLE",
    mergeable_state: st.mergeStateStatus(pr).toLowerCase(),
    merged_by: pr.mergedBy ? restUser(st, pr.mergedBy) : null,
    comments: pr.comments.length,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: pr.commits.length,
    additions: pr.files.length,
    deletions: 0,
    changed_files: pr.files.length,
  };
}

function links(st, pr) {
  const h = (href) => ({ href });
  const base = `${API}/repos/${st.owner}/${st.repo}`;
  return {
    self: h(`${base}/pulls/${pr.number}`),
    html: h(`https://github.com/${st.owner}/${st.repo}/pull/${pr.number}`),
    issue: h(`${base}/issues/${pr.number}`),
    comments: h(`${base}/issues/${pr.number}/comments`),
    review_comments: h(`${base}/pulls/${pr.number}/comments`),
    review_comment: h(`${base}/pulls/comments{/number}`),
    commits: h(`${base}/pulls/${pr.number}/commits`),
    statuses: h(`${base}/statuses/${pr.headSha}`),
  };
}

export function restTeam(st, slug) {
  const t = st.team(slug);
  return {
    id: t.id,
    node_id: st.nodeId("Team", t.id),
    url: `${API}/orgs/${st.owner}/teams/${slug}`,
    html_url: `https://github.com/orgs/${st.owner}/teams/${slug}`,
    name: slug,
    slug,
    description: null,
    privacy: "closed",
    notification_setting: "notifications_enabled",
    permission: "pull",
    members_url: `${API}/organizations/1/team/${t.id}/members{/member}`,
    repositories_url: `${API}/organizations/1/team/${t.id}/repos`,
    parent: null,
  };
}

export function restComment(st, c) {
  return {
    id: c.id,
    node_id: c.nodeId,
    url: `${API}/repos/${st.owner}/${st.repo}/issues/comments/${c.id}`,
    html_url: `https://github.com/${st.owner}/${st.repo}/issues/${c.issueNumber}#issuecomment-${c.id}`,
    body: c.body,
    user: restUser(st, c.author),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    issue_url: `${API}/repos/${st.owner}/${st.repo}/issues/${c.issueNumber}`,
    author_association: st.user(c.author).association,
  };
}

export function restReview(st, pr, r) {
  return {
    id: r.id,
    node_id: r.nodeId,
    user: restUser(st, r.author),
    body: r.body,
    state: r.state,
    commit_id: r.commit,
    html_url: `https://github.com/${st.owner}/${st.repo}/pull/${pr.number}#pullrequestreview-${r.id}`,
    pull_request_url: `${API}/repos/${st.owner}/${st.repo}/pulls/${pr.number}`,
    submitted_at: r.submittedAt,
    author_association: st.user(r.author).association,
    _links: { html: { href: "" }, pull_request: { href: "" } },
  };
}

export function restStatus(st, s) {
  return {
    url: `${API}/repos/${st.owner}/${st.repo}/statuses/${s.sha}`,
    avatar_url: null,
    id: s.id,
    node_id: s.nodeId,
    state: s.state,
    description: s.description,
    target_url: s.targetUrl,
    context: s.context,
    created_at: s.createdAt,
    updated_at: s.createdAt,
    creator: restUser(st, s.creator),
  };
}

/** The pull requests GitHub lists on a check run/suite: open ones whose head is the commit. */
function pullsForSha(st, sha) {
  return [...st.pulls.values()]
    .filter((p) => p.isPull && p.state === "open" && p.headSha === sha)
    .map((p) => ({
      url: `${API}/repos/${st.owner}/${st.repo}/pulls/${p.number}`,
      id: p.id,
      number: p.number,
      head: {
        ref: p.headRef,
        sha: p.headSha,
        repo: { id: st.repoId, url: `${API}/repos/${st.owner}/${st.repo}`, name: st.repo },
      },
      base: {
        ref: p.baseRef,
        sha: st.branch(p.baseRef).sha,
        repo: { id: st.repoId, url: `${API}/repos/${st.owner}/${st.repo}`, name: st.repo },
      },
    }));
}

/** The webhook payload of an event the state emitted (`info` is what the write recorded). */
export function webhookPayload(st, name, info, actor) {
  const common = { repository: restRepo(st), sender: restUser(st, actor ?? st.owner) };
  switch (name) {
    case "pull_request": {
      const pr = st.pull(info.number);
      const p = { action: info.action, number: pr.number, pull_request: restPull(st, pr), ...common };
      if (info.label) p.label = labelByName(st, info.label);
      if (info.before) Object.assign(p, { before: info.before, after: info.after });
      if (info.reviewer) p.requested_reviewer = restUser(st, info.reviewer);
      if (info.team) p.requested_team = restTeam(st, info.team);
      if (info.changes) p.changes = info.changes;
      if (info.reason) p.reason = info.reason;
      return p;
    }
    case "issues": {
      const pr = st.pull(info.number);
      // The webhook's issue carries a few fields REST's issue schema leaves optional.
      const p = { action: info.action, issue: webhookIssue(st, pr), ...common };
      if (info.label) p.label = labelByName(st, info.label);
      if (info.changes) p.changes = info.changes;
      return p;
    }
    case "pull_request_review": {
      const pr = st.pull(info.number);
      const r = pr.reviews.find((x) => x.id === info.review);
      return {
        action: info.action,
        review: { ...restReview(st, pr, r), state: r.state.toLowerCase() },
        pull_request: restPull(st, pr),
        ...common,
      };
    }
    case "issue_comment": {
      const pr = st.pull(info.number);
      const c = st.comments.get(info.comment);
      const comment = {
        ...restComment(st, c),
        performed_via_github_app: null,
        reactions: noReactions(`${API}/repos/${st.owner}/${st.repo}/issues/comments/${c.id}/reactions`),
      };
      return {
        action: info.action,
        issue: webhookIssue(st, pr),
        comment,
        ...(info.changes ? { changes: info.changes } : {}),
        ...common,
      };
    }
    case "check_run": {
      const c = st.checkRuns.find((x) => x.id === info.checkRun);
      const suite = st.suite(c.suiteId);
      const pulls = pullsForSha(st, c.headSha);
      return {
        action: info.action,
        check_run: {
          id: c.id,
          node_id: c.nodeId,
          name: c.name,
          head_sha: c.headSha,
          status: c.status.toLowerCase(),
          conclusion: c.conclusion?.toLowerCase() ?? null,
          started_at: c.startedAt,
          completed_at: c.completedAt,
          external_id: "",
          deployment: null,
          url: `${API}/repos/${st.owner}/${st.repo}/check-runs/${c.id}`,
          html_url: `https://github.com/${st.owner}/${st.repo}/runs/${c.id}`,
          details_url: `https://github.com/${st.owner}/${st.repo}/actions/runs/${suite.runId}`,
          check_suite: {
            id: suite.id,
            head_sha: c.headSha,
            head_branch: null,
            status: "in_progress",
            conclusion: null,
            pull_requests: pulls,
          },
          pull_requests: pulls,
          app: { id: 15368, slug: "github-actions", name: "GitHub Actions" },
          output: {
            title: null,
            summary: null,
            text: null,
            annotations_count: 0,
            annotations_url: `${API}/repos/${st.owner}/${st.repo}/check-runs/${c.id}/annotations`,
          },
        },
        ...common,
      };
    }
    case "check_suite": {
      const suite = st.suite(info.suiteId);
      const runs = st.checkRuns.filter((c) => c.suiteId === suite.id);
      const failed = runs.some((c) => !["SUCCESS", "NEUTRAL", "SKIPPED"].includes(c.conclusion));
      return {
        action: info.action,
        check_suite: {
          id: suite.id,
          node_id: st.nodeId("CheckSuite", suite.id),
          head_sha: suite.headSha,
          head_branch: null,
          status: "completed",
          conclusion: failed ? "failure" : "success",
          pull_requests: pullsForSha(st, suite.headSha),
          app: { id: 15368, slug: "github-actions", name: "GitHub Actions" },
          created_at: st.now(),
          updated_at: st.now(),
          url: `${API}/repos/${st.owner}/${st.repo}/check-suites/${suite.id}`,
          before: null,
          after: suite.headSha,
          latest_check_runs_count: runs.length,
          check_runs_url: `${API}/repos/${st.owner}/${st.repo}/check-suites/${suite.id}/check-runs`,
          head_commit: {
            id: suite.headSha,
            tree_id: suite.headSha,
            message: "A change",
            timestamp: st.now(),
            author: { name: st.owner, email: `${st.owner}@users.noreply.github.com` },
            committer: { name: st.owner, email: `${st.owner}@users.noreply.github.com` },
          },
        },
        ...common,
      };
    }
    case "status": {
      const s = st.statuses.find((x) => x.id === info.statusId);
      return {
        id: s.id,
        sha: s.sha,
        name: `${st.owner}/${st.repo}`,
        target_url: s.targetUrl,
        context: s.context,
        description: s.description,
        state: s.state,
        commit: restCommit(st, s.sha),
        branches: [],
        created_at: s.createdAt,
        updated_at: s.createdAt,
        ...common,
      };
    }
    case "label":
      return {
        action: info.action,
        label: restLabel(st, info.label),
        ...(info.changes ? { changes: info.changes } : {}),
        ...common,
      };
    case "push":
      return { ...pushPayload(st, info, actor ?? st.owner), ...common };
    default:
      return { ...info, ...common };
  }
}

/** A commit as REST lists it: the fields a reader of a comparison uses; `conform` completes the rest. */
export function restCommit(st, sha, { author = st.owner, date = st.now(), message = "A commit" } = {}) {
  const url = `${API}/repos/${st.owner}/${st.repo}/commits/${sha}`;
  const person = { name: author, email: `${author}@users.noreply.github.com`, date };
  return {
    sha,
    node_id: st.nodeId("Commit", sha),
    url,
    html_url: `https://github.com/${st.owner}/${st.repo}/commit/${sha}`,
    comments_url: `${url}/comments`,
    commit: {
      url,
      author: person,
      committer: person,
      message,
      comment_count: 0,
      tree: { sha, url: `${API}/repos/${st.owner}/${st.repo}/git/trees/${sha}` },
    },
    author: restUser(st, author),
    committer: restUser(st, author),
    parents: [],
  };
}

/** GET /compare/{base}...{head}: the comparison `State.compare` computed. */
export function restComparison(st, basehead, c) {
  const repoUrl = `https://github.com/${st.owner}/${st.repo}`;
  return {
    url: `${API}/repos/${st.owner}/${st.repo}/compare/${basehead}`,
    html_url: `${repoUrl}/compare/${basehead}`,
    permalink_url: `${repoUrl}/compare/${st.owner}:${c.baseSha}...${st.owner}:${c.commits.at(-1)?.oid ?? c.mergeBase}`,
    diff_url: `${repoUrl}/compare/${basehead}.diff`,
    patch_url: `${repoUrl}/compare/${basehead}.patch`,
    base_commit: restCommit(st, c.baseSha),
    merge_base_commit: restCommit(st, c.mergeBase),
    status: c.status,
    ahead_by: c.aheadBy,
    behind_by: c.behindBy,
    total_commits: c.commits.length,
    commits: c.commits.map((x) =>
      restCommit(st, x.oid, { author: x.author, date: x.committedDate, message: x.message }),
    ),
    files: (c.files ?? []).map((filename) => ({
      sha: c.baseSha,
      filename,
      status: "modified",
      additions: 0,
      deletions: 0,
      changes: 0,
      blob_url: `${repoUrl}/blob/${c.commits.at(-1)?.oid ?? c.baseSha}/${filename}`,
      raw_url: `${repoUrl}/raw/${c.commits.at(-1)?.oid ?? c.baseSha}/${filename}`,
      contents_url: `${API}/repos/${st.owner}/${st.repo}/contents/${filename}`,
    })),
  };
}

/** The webhook's issue carries a few fields REST's issue schema leaves optional. */
function webhookIssue(st, pr) {
  const base = `${API}/repos/${st.owner}/${st.repo}/issues/${pr.number}`;
  return {
    ...restIssue(st, pr),
    draft: pr.isPull ? pr.isDraft : false,
    reactions: noReactions(`${base}/reactions`),
    timeline_url: `${base}/timeline`,
    performed_via_github_app: null,
  };
}
function noReactions(url) {
  return { url, total_count: 0, "+1": 0, "-1": 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 };
}

/**
 * A `push` webhook (Webhooks: push): created/deleted/forced from the refs, the commits pushed (git: those
 * between before and after, at most 20 as GitHub lists them), the head commit, the pusher.
 */
function pushPayload(st, { ref, before = ZERO, after, deleted = false }, actor) {
  const repoUrl = `https://github.com/${st.owner}/${st.repo}`;
  const created = !before || before === ZERO;
  const git = st.git;
  let forced = false;
  let list = [];
  if (!deleted && git) {
    forced = !created && !git.isAncestor(before, after);
    list = created ? [] : git.commitsBetween(forced ? (git.mergeBase(before, after) ?? after) : before, after);
  }
  const person = (login) => ({ name: login, email: `${login}@users.noreply.github.com`, username: login });
  const commit = (c) => ({
    id: c.oid,
    tree_id: c.tree ?? c.oid,
    distinct: true,
    message: c.message ?? "",
    timestamp: c.time ? st.clock.iso(c.time) : st.now(),
    url: `${repoUrl}/commit/${c.oid}`,
    author: person(c.author ?? actor),
    committer: person(c.author ?? actor),
    added: [],
    removed: [],
    modified: [],
  });
  const commits = list.slice(-20).map(commit);
  return {
    ref,
    before: before ?? ZERO,
    after,
    created,
    deleted,
    forced,
    base_ref: null,
    compare: created
      ? `${repoUrl}/compare/${ref.replace(/^refs\/heads\//, "")}`
      : `${repoUrl}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
    commits,
    head_commit: deleted ? null : (commits.at(-1) ?? commit({ oid: after })),
    pusher: { name: actor, email: `${actor}@users.noreply.github.com` },
  };
}
const ZERO = "0".repeat(40);
