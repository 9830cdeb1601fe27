// The REST routes the shells use, each named by its OpenAPI path template (the key its request and
// response are validated under). Handlers mutate the state through its write methods, so every REST
// write records timeline events and emits webhooks exactly as a test helper's write does.
import { createHash } from "node:crypto";
import { httpError } from "./state.js";
import {
  restComment,
  restComparison,
  restIssue,
  restLabel,
  restPull,
  restRepo,
  restReview,
  restStatus,
  restUser,
} from "./payloads.js";

const R = "/repos/{owner}/{repo}";

/** Pagination as GitHub does it: per_page (default 30, at most 100), page, and a Link header. */
function paginate(list, query, selfUrl) {
  const perPage = Math.min(100, Number(query.per_page ?? 30));
  const page = Math.max(1, Number(query.page ?? 1));
  const slice = list.slice((page - 1) * perPage, page * perPage);
  const last = Math.max(1, Math.ceil(list.length / perPage));
  const link = [];
  const at = (p) => {
    const u = new URL(selfUrl);
    u.searchParams.set("page", String(p));
    u.searchParams.set("per_page", String(perPage));
    return u.toString();
  };
  if (page < last) link.push(`<${at(page + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`);
  if (page > 1) link.push(`<${at(page - 1)}>; rel="prev"`, `<${at(1)}>; rel="first"`);
  return { body: slice, headers: link.length ? { link: link.join(", ") } : {} };
}

const labelNames = (body) => {
  const raw = Array.isArray(body) ? body : (body?.labels ?? []);
  return raw.map((l) => (typeof l === "string" ? l : l.name));
};

/** [method, template, handler(ctx) => { status, body, headers }]. ctx: { st, params, query, body, actor, url, emulator }. */
export const ROUTES = [
  [
    "GET",
    "/rate_limit",
    ({ emulator, token }) => {
      const core = emulator.restBudget(token);
      const g = emulator.pointsBudget(token);
      const res = (b, limit) => ({ limit, used: b.used, remaining: b.remaining, reset: Math.floor(b.resetAt / 1000) });
      const resources = {
        core: res(core, 5000),
        graphql: res(g, 5000),
        search: res({ used: 0, remaining: 30, resetAt: g.resetAt }, 30),
      };
      return { status: 200, body: { resources, rate: resources.core } };
    },
  ],
  ["GET", R, ({ st }) => ({ status: 200, body: restRepo(st) })],
  // a file on the default branch (setFile), as the contents API returns it: base64 text; a directory or
  // another ref is not served
  [
    "GET",
    `${R}/contents/{path}`,
    ({ st, params, query, url }) => {
      const text = st.files.get(params.path);
      if (text === undefined || (query.ref !== undefined && query.ref !== st.defaultBranch))
        throw httpError(404, "Not Found");
      const bytes = Buffer.from(text, "utf8");
      const sha = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
      const html = `https://github.com/${st.owner}/${st.repo}/blob/${st.defaultBranch}/${params.path}`;
      const git = `${new URL(url).origin}/repos/${st.owner}/${st.repo}/git/blobs/${sha}`;
      const self = url.split("?")[0];
      return {
        status: 200,
        body: {
          type: "file",
          encoding: "base64",
          size: bytes.length,
          name: params.path.split("/").pop(),
          path: params.path,
          sha,
          content: bytes.toString("base64").replace(/(.{60})/g, "$1\n"),
          url: self,
          git_url: git,
          html_url: html,
          download_url: `https://raw.githubusercontent.com/${st.owner}/${st.repo}/${st.defaultBranch}/${params.path}`,
          _links: { self, git, html },
        },
      };
    },
  ],

  // labels of the repository
  [
    "GET",
    `${R}/labels`,
    ({ st, query, url, emulator }) => {
      if (emulator.faults.labelsReadFails())
        throw httpError(500, "Server Error (injected: the label set could not be read)");
      return {
        status: 200,
        ...paginate(
          [...st.labels.values()].sort((a, b) => a.name.localeCompare(b.name)).map((l) => restLabel(st, l)),
          query,
          url,
        ),
      };
    },
  ],
  ["POST", `${R}/labels`, ({ st, body }) => ({ status: 201, body: restLabel(st, st.createLabel(body)) })],
  [
    "GET",
    `${R}/labels/{name}`,
    ({ st, params }) => {
      const l = st.label(params.name);
      if (!l) throw httpError(404, "Not Found");
      return { status: 200, body: restLabel(st, l) };
    },
  ],
  [
    "PATCH",
    `${R}/labels/{name}`,
    ({ st, params, body }) => ({ status: 200, body: restLabel(st, st.updateLabel(params.name, body)) }),
  ],

  // labels of an issue or pull request
  [
    "GET",
    `${R}/issues/{issue_number}/labels`,
    ({ st, params, query, url }) => ({
      status: 200,
      ...paginate(
        st.pull(params.issue_number).labels.map((n) => restLabel(st, st.label(n))),
        query,
        url,
      ),
    }),
  ],
  [
    "POST",
    `${R}/issues/{issue_number}/labels`,
    ({ st, params, body, actor }) => {
      const pr = st.pull(params.issue_number);
      st.applyLabels(pr, labelNames(body), [], actor);
      return { status: 200, body: pr.labels.map((n) => restLabel(st, st.label(n))) };
    },
  ],
  [
    "PUT",
    `${R}/issues/{issue_number}/labels`,
    ({ st, params, body, actor }) => {
      const pr = st.pull(params.issue_number);
      st.setLabels(pr, labelNames(body), actor);
      return { status: 200, body: pr.labels.map((n) => restLabel(st, st.label(n))) };
    },
  ],
  [
    "DELETE",
    `${R}/issues/{issue_number}/labels`,
    ({ st, params, actor }) => {
      st.setLabels(st.pull(params.issue_number), [], actor);
      return { status: 204 };
    },
  ],
  [
    "DELETE",
    `${R}/issues/{issue_number}/labels/{name}`,
    ({ st, params, actor }) => {
      const pr = st.pull(params.issue_number);
      if (!pr.labels.some((l) => l.toLowerCase() === params.name.toLowerCase()))
        throw httpError(404, "Label does not exist");
      st.applyLabels(pr, [], [params.name], actor);
      return { status: 200, body: pr.labels.map((n) => restLabel(st, st.label(n))) };
    },
  ],

  // issues (and pull requests as issues)
  [
    "GET",
    `${R}/issues`,
    ({ st, query, url }) => {
      let list = [...st.pulls.values()];
      const state = query.state ?? "open";
      if (state !== "all") list = list.filter((p) => p.state === state);
      if (query.labels) {
        const want = query.labels.split(",").map((s) => s.trim().toLowerCase());
        list = list.filter((p) => want.every((w) => p.labels.some((l) => l.toLowerCase() === w)));
      }
      list.sort((a, b) => b.number - a.number);
      return {
        status: 200,
        ...paginate(
          list.map((p) => restIssue(st, p)),
          query,
          url,
        ),
      };
    },
  ],
  [
    "POST",
    `${R}/issues`,
    ({ st, body, actor }) => ({
      status: 201,
      body: restIssue(
        st,
        st.createIssue({ title: String(body.title), body: body.body ?? "", author: actor, labels: labelNames(body) }),
      ),
    }),
  ],
  [
    "GET",
    `${R}/issues/{issue_number}`,
    ({ st, params }) => ({ status: 200, body: restIssue(st, st.pull(params.issue_number)) }),
  ],
  [
    "PATCH",
    `${R}/issues/{issue_number}`,
    ({ st, params, body, actor }) => ({
      status: 200,
      body: restIssue(st, st.editIssue(params.issue_number, body, actor)),
    }),
  ],

  // comments
  [
    "GET",
    `${R}/issues/{issue_number}/comments`,
    ({ st, params, query, url }) => ({
      status: 200,
      ...paginate(
        st.pull(params.issue_number).comments.map((id) => restComment(st, st.comments.get(id))),
        query,
        url,
      ),
    }),
  ],
  [
    "POST",
    `${R}/issues/{issue_number}/comments`,
    ({ st, params, body, actor }) => ({
      status: 201,
      body: restComment(st, st.comment(params.issue_number, { author: actor, body: body.body })),
    }),
  ],
  // One comment, as the writer table reads it to check a comment edit's guard (its marker).
  [
    "GET",
    `${R}/issues/comments/{comment_id}`,
    ({ st, params }) => {
      const c = st.comments.get(Number(params.comment_id));
      if (!c) throw httpError(404, "Not Found");
      return { status: 200, body: restComment(st, c) };
    },
  ],
  [
    "PATCH",
    `${R}/issues/comments/{comment_id}`,
    ({ st, params, body, actor }) => ({
      status: 200,
      body: restComment(st, st.editComment(params.comment_id, body, actor)),
    }),
  ],

  // pull requests
  [
    "POST",
    `${R}/pulls`,
    ({ st, body, actor }) => ({
      status: 201,
      body: restPull(
        st,
        st.openPull({
          title: String(body.title ?? ""),
          body: body.body ?? "",
          author: actor,
          base: body.base,
          head: body.head,
          draft: Boolean(body.draft),
        }),
      ),
    }),
  ],
  [
    "GET",
    `${R}/pulls/{pull_number}`,
    ({ st, params }) => ({ status: 200, body: restPull(st, st.pullOnly(params.pull_number)) }),
  ],
  [
    "GET",
    `${R}/pulls/{pull_number}/files`,
    ({ st, params, query, url }) => {
      const pr = st.pullOnly(params.pull_number);
      const files = pr.files.map((filename) => ({
        sha: pr.headSha,
        filename,
        status: "modified",
        additions: 1,
        deletions: 0,
        changes: 1,
        blob_url: url,
        raw_url: url,
        contents_url: url,
      }));
      return { status: 200, ...paginate(files, query, url) };
    },
  ],
  // Merging (docs: "Merge a pull request"): 200 { sha, merged, message }; 405 not mergeable; 409 head moved.
  [
    "PUT",
    `${R}/pulls/{pull_number}/merge`,
    ({ st, params, body, actor }) => ({
      status: 200,
      body: st.merge(
        params.pull_number,
        { method: body.merge_method ?? "merge", sha: body.sha, title: body.commit_title, message: body.commit_message },
        actor,
      ),
    }),
  ],
  [
    "POST",
    `${R}/pulls/{pull_number}/requested_reviewers`,
    ({ st, params, body, actor }) => {
      const pr = st.requestReviewers(
        params.pull_number,
        { reviewers: body.reviewers ?? [], teams: body.team_reviewers ?? [] },
        actor,
      );
      return { status: 201, body: restPull(st, pr) };
    },
  ],
  [
    "POST",
    `${R}/pulls/{pull_number}/reviews`,
    ({ st, params, body, actor }) => {
      const pr = st.pullOnly(params.pull_number);
      const state =
        { APPROVE: "APPROVED", REQUEST_CHANGES: "CHANGES_REQUESTED", COMMENT: "COMMENTED" }[body.event ?? ""] ??
        "PENDING";
      if (pr.author === actor && state !== "COMMENTED" && state !== "PENDING")
        throw httpError(422, "Unprocessable Entity", [{ message: "Can not approve your own pull request" }]);
      const r = st.review(params.pull_number, { author: actor, state, body: body.body ?? "", commit: body.commit_id });
      return { status: 200, body: restReview(st, pr, r) };
    },
  ],

  // A job's log (docs: "Download job logs for a workflow run"): 302 to a signed download URL that needs no
  // token and expires after a minute; the CI simulator's text is behind it. The job id is its check run's.
  [
    "GET",
    `${R}/actions/jobs/{job_id}/logs`,
    ({ params, emulator }) => {
      if (emulator.ci.jobLog(Number(params.job_id)) == null) throw httpError(404, "Not Found");
      return {
        status: 302,
        headers: { location: emulator.signedLogUrl(Number(params.job_id)), "content-type": "text/html;charset=utf-8" },
      };
    },
  ],

  // statuses and rules
  [
    "POST",
    `${R}/statuses/{sha}`,
    ({ st, params, body, actor }) => ({
      status: 201,
      body: restStatus(
        st,
        st.status({
          sha: params.sha,
          context: body.context ?? "default",
          state: body.state,
          description: body.description ?? null,
          targetUrl: body.target_url ?? null,
          by: actor,
        }),
      ),
    }),
  ],
  [
    "GET",
    `${R}/rules/branches/{branch}`,
    ({ st, params, emulator }) => {
      const source = {
        ruleset_source_type: "Repository",
        ruleset_source: `${st.owner}/${st.repo}`,
        ruleset_id: emulator.rulesetId,
      };
      const rules = [];
      const push = st.git?.pushRules?.[params.branch] ?? {};
      if (push.nonFastForward) rules.push({ type: "non_fast_forward", ...source });
      if (push.deletion) rules.push({ type: "deletion", ...source });
      if (params.branch !== st.defaultBranch) return { status: 200, body: rules };
      if (st.requiredChecks.length) {
        rules.push({
          type: "required_status_checks",
          ...source,
          parameters: {
            strict_required_status_checks_policy: st.requireUpToDate,
            required_status_checks: st.requiredChecks.map((context) => ({ context })),
          },
        });
      }
      // The merge queue's reads (issue 6): a pull_request rule, set by a test as st.pullRequestRule.
      if (st.pullRequestRule) {
        rules.push({
          type: "pull_request",
          ...source,
          parameters: {
            dismiss_stale_reviews_on_push: false,
            require_code_owner_review: false,
            require_last_push_approval: false,
            required_approving_review_count: 0,
            required_review_thread_resolution: false,
            ...st.pullRequestRule,
          },
        });
      }
      return { status: 200, body: rules };
    },
  ],
  // Whether a branch is built on the tip: git's merge base, which only the compare API tells.
  [
    "GET",
    `${R}/compare/{basehead}`,
    ({ st, params, query }) => {
      const [base, head, extra] = params.basehead.split("...");
      const c = head && extra === undefined ? st.compare(base, head) : null;
      if (!c) throw httpError(404, "Not Found");
      const body = restComparison(st, params.basehead, c);
      const perPage = Math.min(100, Number(query.per_page ?? 250));
      return { status: 200, body: { ...body, commits: body.commits.slice(0, perPage) } };
    },
  ],
  // The merge queue's reads (issue 6): GitHub's issue dependencies and team members.
  [
    "GET",
    `${R}/issues/{issue_number}/dependencies/blocked_by`,
    ({ st, params, query, url }) => ({
      status: 200,
      ...paginate(
        (st.pull(params.issue_number).blockedBy ?? []).map((n) => restIssue(st, st.pull(n))),
        query,
        url,
      ),
    }),
  ],
  [
    "GET",
    "/orgs/{org}/teams/{team_slug}/members",
    ({ st, params, query, url }) => {
      const members = st.teamMembers?.[params.team_slug];
      if (!members) throw httpError(404, "Not Found");
      return {
        status: 200,
        ...paginate(
          members.map((login) => restUser(st, login)),
          query,
          url,
        ),
      };
    },
  ],
  // An installation token (the GITHUB_TOKEN class) cannot read /user on GitHub; GraphQL `viewer` works.
  [
    "GET",
    "/user",
    ({ st, actor, tokenKind }) => {
      if (tokenKind === "app") throw httpError(403, "Resource not accessible by integration");
      const profile = {
        name: null,
        company: null,
        blog: "",
        location: null,
        email: null,
        hireable: null,
        bio: null,
        twitter_username: null,
        public_repos: 0,
        public_gists: 0,
        followers: 0,
        following: 0,
        created_at: "2020-01-01T00:00:00Z",
        updated_at: "2020-01-01T00:00:00Z",
      };
      return { status: 200, body: { ...restUser(st, actor), ...profile } };
    },
  ],
];

/** Matches a method and path to a route: { route, params } or null. */
export function matchRoute(method, path) {
  for (const route of ROUTES) {
    if (route[0] !== method) continue;
    const names = [];
    const re = new RegExp(
      `^${route[1].replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{(\w+)\\?\}/g, (_, n) => (names.push(n), n === "path" || n === "basehead" ? "(.+)" : "([^/]+)"))}$`,
    );
    const m = re.exec(path);
    if (m) return { route, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
  }
  return null;
}

/** Known routes by template, for tests that assert coverage. */
export const ROUTE_TEMPLATES = ROUTES.map(([m, t]) => `${m} ${t}`);
export { restUser };
