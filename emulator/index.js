// The GitHub emulator: a real HTTP server on loopback that speaks the REST and GraphQL subset prflow's
// shells use, keeps one repository's state, validates every exchange against GitHub's own descriptions,
// counts every request, injects faults on demand and fires the webhook events a repository would,
// starting registered workflows unless the write was made with the workflow's GITHUB_TOKEN.
import { createServer } from "node:http";
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { makeClock, RepoState, httpError, ACTIONS_BOT, MERGEABILITY_DELAY_MS } from "./state.js";
import { runGraphql, POINTS_PER_HOUR } from "./graphql.js";
import { matchRoute } from "./rest.js";
import { conform, validateRequest, validateResponse } from "./openapi.js";
import { webhookPayload } from "./payloads.js";
import { runAction } from "./workflows.js";
import { GitRepo } from "./git.js";
import { CiSimulator } from "./ci.js";
import { missingWebhookFields } from "./webhooks.js";

/**
 * GitHub answers every origin (docs.github.com, "Using CORS and JSONP to make cross-origin requests"):
 * `Access-Control-Allow-Origin: *` on every response, and the headers a page may read beyond the
 * CORS-safelisted ones (the rate-limit headers among them: without them a browser client cannot see its
 * budget or a `retry-after`).
 */
export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-Request-Id, Deprecation, Sunset",
};
/**
 * A preflight's answer (204): the request headers and methods a page may use. The docs list Authorization,
 * Content-Type, the If-* headers and X-Requested-With; api.github.com also allows the ones Octokit may
 * send from a browser (User-Agent where the browser lets a page set it, X-GitHub-Api-Version).
 */
export const CORS_PREFLIGHT_HEADERS = {
  "access-control-allow-headers":
    "Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, Accept-Encoding, X-GitHub-OTP, X-Requested-With, User-Agent, X-GitHub-Api-Version",
  "access-control-allow-methods": "GET, POST, PATCH, PUT, DELETE",
  "access-control-max-age": "86400",
};

export { makeClock, MERGEABILITY_DELAY_MS, ACTIONS_BOT, runAction };

/** GitHub's secondary-rate-limit answer (403 + retry-after). */
export const SECONDARY_RATE_LIMIT_MESSAGE =
  "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID";
/** The token a workflow gets (GITHUB_TOKEN class: its writes start no workflow runs). */
export const APP_TOKEN = "ghs_emulatorWorkflowToken000000000000";
/** A personal token of the repository owner (its writes fire events that start runs). */
export const PERSONAL_TOKEN = "ghp_emulatorOwnerToken00000000000000000";

const REST_PER_HOUR = 5000;
/** Where the signed job-log URLs point (GitHub's are on its blob storage, outside the API). */
const LOG_BLOB_PATH = "/_blobs/job-logs/";
/** GitHub's job-log download URL expires after a minute. */
const LOG_URL_TTL_MS = 60_000;
const HOUR = 3600_000;

/**
 * Starts an emulator for `owner/repo` on 127.0.0.1. Resolves to the emulator object (see README.md).
 */
export async function startEmulator({
  owner = "acme",
  repo = "widgets",
  seed = "prflow",
  port = 0,
  clock = makeClock(),
  git = process.env.PRFLOW_EMULATOR_GIT !== "0",
} = {}) {
  const emulator = new Emulator({ owner, repo, seed, clock, git });
  await emulator.listen(port);
  return emulator;
}

class Emulator {
  constructor({ owner, repo, seed, clock, git }) {
    this.clock = clock;
    this.owner = owner;
    this.repo = repo;
    this.seed = seed;
    this.requests = []; // { method, path, operation, status, token, tokenKind, ms, cost, faulted }
    this.validationFailures = []; // { where, method, path, operation, problems }
    this.events = []; // { name, action, payload, actor, tokenKind, startsRuns, at }
    this.runs = []; // { event, action, promise, result }
    this.workflows = makeWorkflows();
    this.faultList = [];
    this.budgets = new Map();
    this.rulesetId = 4242;
    this.logSecret = randomBytes(16).toString("hex");
    this.tokens = new Map();
    this.currentTokenKind = null; // set while a REST write runs
    // `git: true` (a directory under os.tmpdir()) or `git: { dir }`: a real bare repository, removed on close.
    this.git = git ? new GitRepo({ owner, repo, dir: git.dir, clock }) : null;
    this.state = new RepoState({
      owner,
      repo,
      seed,
      clock,
      git: this.git,
      emit: (name, info, actor) => this.emit(name, info, actor),
    });
    this.ci = new CiSimulator(this);
    this.state.tokenKind = () => this.currentTokenKind;
    this.state.withTokenKind = (kind, fn) => {
      const had = this.currentTokenKind;
      this.currentTokenKind = kind;
      try {
        return fn();
      } finally {
        this.currentTokenKind = had;
      }
    };
    // A timer that throws (a CI job, an auto-merge) is the emulator's own failure, reported like any other.
    clock.onError = (e, timer) =>
      this.validationFailures.push({
        where: "emulator",
        method: "TIMER",
        path: timer?.label ?? "",
        operation: null,
        problems: [e.stack ?? e.message],
      });
    this.appToken = APP_TOKEN;
    this.personalToken = PERSONAL_TOKEN;
    this.registerToken(APP_TOKEN, ACTIONS_BOT, "app");
    this.registerToken(PERSONAL_TOKEN, owner, "personal");
    const emulator = this;
    this.faults = {
      /** Consumes a `labels-read-fails` fault if one is armed. */
      labelsReadFails() {
        return emulator.consumeFault((f) => f.kind === "labels-read-fails");
      },
      /** Consumes a `field-fails` fault naming this pull-request list (labels, reviews, files, ...). */
      fieldFails(field) {
        return emulator.consumeFault((f) => f.kind === "field-fails" && f.field === field);
      },
    };
  }

  // ---- lifecycle ----------------------------------------------------------------------------------

  listen(port) {
    this.server = createServer((req, res) => this.handle(req, res));
    return new Promise((resolve) => {
      this.server.listen(port, "127.0.0.1", () => {
        const { port: p } = this.server.address();
        this.url = `http://127.0.0.1:${p}`;
        this.graphqlUrl = `${this.url}/graphql`;
        // What a clone uses: GitHub's token form, http on loopback.
        if (this.git)
          this.cloneUrl = (token = this.personalToken) =>
            `http://x-access-token:${token}@127.0.0.1:${p}/${this.owner}/${this.repo}.git`;
        resolve(this);
      });
    });
  }

  async close() {
    await this.settle();
    this.server.closeAllConnections?.();
    await new Promise((resolve) => this.server.close(() => resolve()));
    this.git?.close();
  }

  /** Forgets requests, validation failures, events, runs and faults (the repository state stays). */
  reset() {
    this.requests = [];
    this.validationFailures = [];
    this.events = [];
    this.runs = [];
    this.faultList = [];
  }

  /** Environment a runner gives a step, pointing at this emulator. */
  env(token = APP_TOKEN) {
    return {
      GITHUB_API_URL: this.url,
      GITHUB_GRAPHQL_URL: this.graphqlUrl,
      GITHUB_SERVER_URL: this.url,
      GITHUB_REPOSITORY: `${this.owner}/${this.repo}`,
      GITHUB_TOKEN: token,
    };
  }

  // ---- tokens and budgets -------------------------------------------------------------------------

  /**
   * `kind`: "app" (GITHUB_TOKEN-like, `ghs_`: writes start no runs), "personal" (`ghp_`: writes do), or
   * "fine-grained" (`github_pat_`: a personal token that GitHub refuses check runs, having no Checks
   * permission to grant: each CheckRun in a rollup's contexts comes back null with a FORBIDDEN error).
   */
  registerToken(
    token,
    login,
    kind = token.startsWith("ghs_") ? "app" : token.startsWith("github_pat_") ? "fine-grained" : "personal",
  ) {
    this.state.user(login, login === this.owner ? { association: "OWNER" } : {});
    this.tokens.set(token, { login, kind });
    return token;
  }
  budget(token, kind) {
    const key = `${kind}:${token}`;
    let b = this.budgets.get(key);
    const now = this.clock.now();
    const limit =
      this.limits?.[kind === "graphql" ? "graphql" : "rest"] ?? (kind === "graphql" ? POINTS_PER_HOUR : REST_PER_HOUR);
    if (!b || now >= b.resetAt) this.budgets.set(key, (b = { used: 0, resetAt: now + HOUR, limit }));
    b.limit = limit;
    b.remaining = b.limit - b.used;
    return b;
  }
  /**
   * Sets each token's hourly budget (REST requests, GraphQL points) to test the primary rate limit: past
   * it, REST answers 403 "API rate limit exceeded" and GraphQL a RATE_LIMITED error, with
   * x-ratelimit-remaining 0 and x-ratelimit-reset at the budget's reset (an hour of test clock).
   */
  setRateLimit({ rest, graphql } = {}) {
    this.limits = { rest, graphql };
  }
  restBudget(token) {
    return this.budget(token, "rest");
  }
  pointsBudget(token) {
    return this.budget(token, "graphql");
  }
  /**
   * Spends the hourly budgets of `token` (REST and GraphQL) now, as a busy hour would: every call is refused
   * until they reset `resetIn` from now on the clock (default the rest of a fresh hour).
   */
  spendRateLimit(token = this.personalToken, { resetIn = HOUR } = {}) {
    for (const kind of ["rest", "graphql"]) {
      const b = this.budget(token, kind);
      Object.assign(b, { used: b.limit, remaining: 0, resetAt: this.clock.now() + resetIn });
    }
  }
  /**
   * An outage on the clock: from `from` (default now) for `minutes`, every API request and every git
   * request answers 502, as GitHub's front end does when the service behind it is down.
   */
  outage({ from = this.clock.now(), minutes = 60 } = {}) {
    const start = typeof from === "string" ? Date.parse(from) : from;
    return this.inject({ kind: "outage", from: start, until: start + minutes * 60_000, times: Infinity });
  }
  spendPoints(token, cost) {
    const b = this.pointsBudget(token);
    b.used += cost;
    b.remaining = b.limit - b.used;
    return b;
  }

  // ---- faults -------------------------------------------------------------------------------------

  /**
   * Arms a fault: `{ kind: '5xx'|'secondary-rate-limit'|'429'|'slow'|'labels-read-fails'|'field-fails'|'meanwhile', match?: { method,
   * path (substring or RegExp of the request path), graphql (top-level field or operation name) }, times = 1,
   * retryAfter = 1 (s), delayMs = 200, field (for field-fails: a pull request's list, e.g. "files"),
   * run (for meanwhile: `run(emulator, { method, path })` happens just before the matched request is served, as a person
   * acting between a client's read and its write) }`.
   * Returns the fault; `fault.hits` counts what it caught.
   */
  inject(fault) {
    const f = {
      times: fault.kind === "labels-read-fails" ? Infinity : 1,
      retryAfter: 1,
      delayMs: 200,
      match: {},
      ...fault,
      hits: 0,
    };
    this.faultList.push(f);
    return f;
  }
  consumeFault(pred, req) {
    const now = this.clock.now();
    const f = this.faultList.find(
      (x) =>
        x.hits < x.times &&
        pred(x) &&
        (!req || matches(x.match, req)) &&
        (x.kind !== "outage" || (now >= x.from && now < x.until)),
    );
    if (f) f.hits++;
    return f ?? null;
  }

  // ---- events and workflows -----------------------------------------------------------------------

  emit(name, info, actor) {
    const payload = webhookPayload(this.state, name, info, actor);
    const tokenKind = this.currentTokenKind;
    // GitHub: events caused by the workflow's GITHUB_TOKEN start no new workflow runs (no recursion).
    const startsRuns = tokenKind !== "app";
    const event = { name, action: payload.action ?? null, payload, actor, tokenKind, startsRuns, at: this.clock.iso() };
    const missing = missingWebhookFields(name, payload);
    if (missing.length)
      this.validationFailures.push({
        where: "webhook",
        method: "EVENT",
        path: name,
        operation: event.action,
        problems: missing,
      });
    this.events.push(event);
    if (!startsRuns) return;
    this.ci.onEvent(event);
    const names = name === "pull_request" ? ["pull_request", "pull_request_target"] : [name];
    for (const n of names) {
      for (const handler of this.workflows.handlersFor(n)) {
        const run = { event: n, action: event.action, result: undefined };
        run.promise = Promise.resolve()
          .then(() => handler(n, structuredClone(payload), this))
          .then(
            (r) => (run.result = r),
            (e) => (run.error = e),
          );
        this.runs.push(run);
      }
    }
  }

  /** Waits until every started run (and the runs those started) has finished. */
  async settle() {
    for (let i = 0; i < this.runs.length; i++) await this.runs[i].promise;
  }

  /** Runs the bundled action as a workflow step would, against this emulator. */
  runAction(options) {
    return runAction({ ...options, emulator: this });
  }

  // ---- time ---------------------------------------------------------------------------------------

  /**
   * Moves the emulator's clock by `ms` or `{ seconds, minutes, hours, days }`, firing what falls due on the
   * way in time order: CI jobs finishing, mergeability known again, auto-merge merging. Returns the ISO time.
   */
  advance(by) {
    return this.clock.advance(by);
  }
  /** Moves the clock to an ISO time (or epoch ms), firing what falls due on the way. */
  advanceTo(to) {
    return this.clock.advanceTo(to);
  }
  /** Advances timer by timer until nothing waits (at most `limit`, a week by default). */
  runUntilIdle(options) {
    return this.clock.runUntilIdle(options);
  }

  // ---- counts -------------------------------------------------------------------------------------

  /** { total, graphql, rest, reads, writes, byOperation: { "GET /repos/{owner}/{repo}/labels": n, "graphql prflowSweep": n } }. */
  counts({ since = 0 } = {}) {
    const list = this.requests.slice(since);
    const out = { total: list.length, graphql: 0, rest: 0, reads: 0, writes: 0, faulted: 0, byOperation: {} };
    for (const r of list) {
      const isGraphql = r.path === "/graphql";
      if (isGraphql) out.graphql++;
      else out.rest++;
      if (isGraphql || r.method === "GET") out.reads++;
      else out.writes++;
      if (r.faulted) out.faulted++;
      const key = isGraphql ? `graphql ${r.operation}` : `${r.method} ${r.operation ?? r.path}`;
      out.byOperation[key] = (out.byOperation[key] ?? 0) + 1;
    }
    return out;
  }

  // ---- helpers that act as a person or an agent on GitHub -----------------------------------------

  user(login, options) {
    return this.state.user(login, options);
  }
  createLabel(label) {
    return this.state.createLabel(label);
  }
  createPull(options) {
    return this.state.createPull(options);
  }
  createIssue(options) {
    return this.state.createIssue(options);
  }
  push(number, options) {
    return this.state.push(number, options);
  }
  addLabels(number, names, { by } = {}) {
    const pr = this.state.pull(number);
    return this.state.applyLabels(pr, names, [], by ?? pr.author);
  }
  removeLabels(number, names, { by } = {}) {
    const pr = this.state.pull(number);
    return this.state.applyLabels(pr, [], names, by ?? pr.author);
  }
  comment(number, options) {
    return this.state.comment(number, options);
  }
  review(number, options) {
    return this.state.review(number, options);
  }
  requestReviewers(number, { reviewers, teams, by } = {}) {
    return this.state.requestReviewers(number, { reviewers, teams }, by ?? this.state.pull(number).author);
  }
  checkRun(options) {
    return this.state.checkRun(options);
  }
  status(options) {
    return this.state.status(options);
  }
  markReady(number, options) {
    return this.state.setDraft(number, false, options);
  }
  convertToDraft(number, options) {
    return this.state.setDraft(number, true, options);
  }
  moveBranch(name, options) {
    return this.state.moveBranch(name, options);
  }
  /** Merges as a person would on the web page (REST PUT pulls/{n}/merge has the same rules). */
  merge(number, { method = "squash", by, ...rest } = {}) {
    return this.state.merge(number, { method, ...rest }, by ?? this.owner);
  }
  /**
   * A ruleset's push rules on a branch (git only): `{ nonFastForward, deletion, pullRequest }` refuse
   * force pushes, deletion, and any direct push; also listed by GET rules/branches/{branch}.
   */
  setPushRules(branch, rules) {
    this.git.setPushRules({ ...this.git.pushRules, [branch]: rules });
  }
  deleteBranch(name, { by } = {}) {
    return this.state.deleteBranch(name, by ?? this.owner);
  }
  /** The repository's settings: `{ deleteBranchOnMerge, allowMergeCommit, allowSquashMerge, allowRebaseMerge, allowAutoMerge }`. */
  setRepoSettings({ deleteBranchOnMerge, allowMergeCommit, allowSquashMerge, allowRebaseMerge, allowAutoMerge } = {}) {
    if (allowAutoMerge !== undefined) this.state.allowAutoMerge = allowAutoMerge;
    if (deleteBranchOnMerge !== undefined) this.state.deleteBranchOnMerge = deleteBranchOnMerge;
    if (allowMergeCommit !== undefined) this.state.mergeMethods.merge = allowMergeCommit;
    if (allowSquashMerge !== undefined) this.state.mergeMethods.squash = allowSquashMerge;
    if (allowRebaseMerge !== undefined) this.state.mergeMethods.rebase = allowRebaseMerge;
  }
  closePull(number, options) {
    return this.state.close(number, options);
  }
  reopen(number, options) {
    return this.state.reopen(number, options);
  }
  setRequiredChecks(contexts, { strict = false } = {}) {
    this.state.requiredChecks = [...contexts];
    this.state.requireUpToDate = strict;
  }
  /**
   * The default branch's pull_request rule, in REST's words: `{ required_approving_review_count,
   * require_code_owner_review, required_review_thread_resolution, dismiss_stale_reviews_on_push }`. Merges
   * and auto-merge wait for it; GET rules/branches lists it.
   */
  setPullRequestRule(rule) {
    this.state.pullRequestRule = rule ? { ...rule } : null;
  }
  /** A review thread (conversation) on a pull request: `{ author, body, resolved }`; `resolveThread(n, i)`. */
  reviewThread(number, options) {
    return this.state.reviewThread(number, options);
  }
  resolveThread(number, index, options) {
    return this.state.resolveThread(number, index, options);
  }
  /** A native GitHub stack of pull requests, lowest first: auto-merge is refused on its members. */
  createStack(numbers) {
    return this.state.createStack(numbers);
  }
  /** Classic branch protection's required contexts on the default branch (GraphQL refUpdateRule). */
  setBranchProtection(contexts) {
    this.state.protectionChecks = [...contexts];
  }
  setFile(path, text) {
    this.state.files.set(path, text);
  }

  // ---- HTTP ---------------------------------------------------------------------------------------

  async handle(req, res) {
    // A browser page (the dashboard) asks first with a preflight, as it would GitHub: answered before
    // authentication and not recorded, since GitHub neither authenticates nor counts preflights.
    if (req.method === "OPTIONS") {
      req.resume();
      res.writeHead(204, { ...CORS_HEADERS, ...CORS_PREFLIGHT_HEADERS });
      res.end();
      return;
    }
    const started = performance.now();
    const u = new URL(req.url, this.url);
    if (this.git && u.pathname.startsWith(`/${this.git.relPath}/`)) return this.handleGit(req, res, u);
    if (u.pathname.startsWith(LOG_BLOB_PATH)) return this.handleLogBlob(req, res, u);
    const path = u.pathname.replace(/\/+$/, "") || "/";
    const method = req.method;
    const raw = await readBody(req);
    const auth = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    const token = auth?.[1] ?? null;
    const who = token ? this.tokens.get(token) : null;
    const entry = {
      method,
      path,
      operation: null,
      status: 0,
      token: token ? `${token.slice(0, 8)}…` : null,
      tokenKind: who?.kind ?? null,
      login: who?.login ?? null,
      faulted: null,
      at: this.clock.iso(),
    };
    this.requests.push(entry);
    let status = 500;
    let body;
    let lostReply = false;
    const headers = {
      ...CORS_HEADERS,
      "content-type": "application/json; charset=utf-8",
      date: new Date(this.clock.now()).toUTCString(),
      "x-github-request-id": randomUUID().toUpperCase(),
      "x-github-api-version-selected": "2022-11-28",
    };
    try {
      let json;
      if (raw.length) {
        try {
          json = JSON.parse(raw);
        } catch {
          throw httpError(400, "Problems parsing JSON");
        }
      }
      const isGraphql = path === "/graphql" && method === "POST";
      const matched = isGraphql ? null : matchRoute(method, path);
      entry.operation = isGraphql ? graphqlOperationName(json) : (matched?.route[1] ?? null);
      if (!token) throw httpError(401, "Requires authentication");
      if (!who) throw httpError(401, "Bad credentials");

      const fault = this.consumeFault((f) => f.kind !== "labels-read-fails" && f.kind !== "field-fails", {
        method,
        path,
        graphql: isGraphql ? graphqlFields(json) : null,
      });
      if (fault) {
        entry.faulted = fault.kind;
        if (fault.kind === "slow") await new Promise((r) => setTimeout(r, fault.delayMs));
        else if (fault.kind === "meanwhile") fault.run(this, { method, path });
        else if (fault.kind === "lost-reply") lostReply = true;
        else if (fault.kind === "drop") {
          // The connection closes before the request reaches GitHub: nothing is applied, no answer.
          entry.status = 0;
          res.socket?.destroy();
          return;
        } else return this.sendFault(res, entry, fault, headers, started);
      }
      if (isGraphql) {
        const spent = this.pointsBudget(token);
        if (spent.remaining <= 0) {
          Object.assign(headers, rateHeaders(spent, "graphql", this.clock));
          status = 200;
          body = {
            errors: [
              {
                type: "RATE_LIMITED",
                message: `API rate limit already exceeded for user ID ${this.state.user(who.login).id}.`,
              },
            ],
          };
          entry.status = status;
          res.writeHead(status, headers);
          res.end(JSON.stringify(body));
          return;
        }
        const out = runGraphql(this, json, { login: who.login, token, faults: this.faults });
        entry.operation = out.record.operation || entry.operation;
        entry.cost = out.record.cost;
        entry.nodes = out.record.nodes;
        if (out.record.invalid)
          this.validationFailures.push({
            where: "graphql",
            method,
            path,
            operation: entry.operation,
            problems: out.record.invalid,
          });
        const b = this.pointsBudget(token);
        Object.assign(headers, rateHeaders(b, "graphql", this.clock));
        status = out.status;
        body = out.body;
      } else {
        if (!matched) throw httpError(404, "Not Found");
        const [, template, handler] = matched.route;
        const query = Object.fromEntries(u.searchParams);
        const problems = validateRequest(method, template, { params: matched.params, query, body: json });
        if (problems.length) {
          this.validationFailures.push({ where: "rest request", method, path, operation: template, problems });
          throw httpError(
            422,
            "Invalid request.",
            problems.map((message) => ({ message })),
          );
        }
        const b = this.restBudget(token);
        if (b.remaining <= 0 && template !== "/rate_limit") {
          Object.assign(headers, rateHeaders(b, "core", this.clock));
          throw httpError(403, `API rate limit exceeded for user ID ${this.state.user(who.login).id}.`);
        }
        if (template !== "/rate_limit") b.used++;
        b.remaining = b.limit - b.used;
        Object.assign(headers, rateHeaders(b, "core", this.clock));
        this.currentTokenKind = method === "GET" ? null : who.kind;
        let out;
        try {
          out = handler({
            st: this.state,
            params: matched.params,
            query,
            body: json ?? {},
            actor: who.login,
            token,
            tokenKind: who.kind,
            url: `${this.url}${u.pathname}${u.search}`,
            emulator: this,
          });
        } finally {
          this.currentTokenKind = null;
        }
        status = out.status;
        body = out.body === undefined ? undefined : conform(method, template, status, out.body);
        Object.assign(headers, out.headers ?? {});
        const responseProblems = validateResponse(method, template, status, body);
        if (responseProblems.length)
          this.validationFailures.push({
            where: "rest response",
            method,
            path,
            operation: template,
            problems: responseProblems,
          });
        // Conditional requests, as GitHub answers them: a GET carries the ETag of its body; sending it
        // back in If-None-Match gets 304 with no body, and a 304 costs no rate limit.
        if (method === "GET" && status === 200 && body !== undefined) {
          headers.etag = `W/"${createHash("sha1").update(JSON.stringify(body)).digest("hex")}"`;
          if (req.headers["if-none-match"] === headers.etag) {
            status = 304;
            body = undefined;
            if (template !== "/rate_limit") b.used--;
            b.remaining = b.limit - b.used;
            Object.assign(headers, rateHeaders(b, "core", this.clock));
          }
        }
      }
    } catch (e) {
      if (!e.httpStatus) {
        status = 500;
        body = { message: `emulator error: ${e.message}` };
        this.validationFailures.push({
          where: "emulator",
          method,
          path,
          operation: entry.operation,
          problems: [e.stack ?? e.message],
        });
      } else {
        status = e.httpStatus;
        body = {
          message: e.message,
          documentation_url: "https://docs.github.com/rest",
          ...(e.errors ? { errors: e.errors, status: String(status) } : { status: String(status) }),
        };
      }
    }
    entry.status = status;
    entry.ms = Math.round(performance.now() - started);
    if (lostReply) {
      // Applied, but the answer never reaches the client: the connection drops where the reply would go.
      entry.status = 0;
      res.socket?.destroy();
      return;
    }
    res.writeHead(status, headers);
    res.end(body === undefined || status === 204 || status === 304 ? undefined : JSON.stringify(body));
  }

  /**
   * Smart HTTP, as github.com serves it: HTTP Basic with a token as the password (`x-access-token:TOKEN`
   * or any user name). A bad token is 401 whatever the service; a push needs a valid token. git
   * http-backend answers; after a push the state follows the refs (post-receive), before the client
   * sees the end of the response, with the pusher's token kind (a GITHUB_TOKEN push starts no runs).
   */
  async handleGit(req, res, u) {
    const basic = /^basic\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    const token = basic ? Buffer.from(basic[1], "base64").toString("utf8").split(":").slice(1).join(":") : null;
    const who = token ? this.tokens.get(token) : null;
    const push = u.searchParams.get("service") === "git-receive-pack" || u.pathname.endsWith("/git-receive-pack");
    const entry = {
      method: req.method,
      path: u.pathname,
      operation: `git ${push ? "receive-pack" : "upload-pack"}`,
      status: 0,
      token: token ? `${token.slice(0, 8)}…` : null,
      tokenKind: who?.kind ?? null,
      login: who?.login ?? null,
      faulted: null,
      at: this.clock.iso(),
    };
    this.requests.push(entry);
    // Faults on git: `match: { git: "receive-pack" | "upload-pack" }` (and an outage, on everything).
    // A lost reply needs something to lose: only the POST that carries the pack.
    const carries = req.method === "POST";
    const fault = this.consumeFault(
      (f) =>
        ["5xx", "429", "drop", "outage", "lost-reply", "meanwhile"].includes(f.kind) &&
        (f.kind === "outage" || f.match?.git) &&
        (f.kind !== "lost-reply" || carries),
      { method: req.method, path: u.pathname, git: push ? "receive-pack" : "upload-pack" },
    );
    if (fault?.kind === "meanwhile") {
      entry.faulted = fault.kind;
      fault.run(this, { method: req.method, path: u.pathname });
    } else if (fault) {
      entry.faulted = fault.kind;
      if (fault.kind === "drop") {
        req.resume();
        entry.status = 0;
        res.socket?.destroy();
        return;
      }
      if (fault.kind === "429") {
        req.resume();
        entry.status = 429;
        res.writeHead(429, { "content-type": "text/plain", "retry-after": String(fault.retryAfter) });
        res.end("Too Many Requests\n");
        return;
      }
      if (fault.kind !== "lost-reply") {
        req.resume();
        entry.status = fault.status ?? 502;
        res.writeHead(entry.status, { "content-type": "text/plain" });
        res.end("Bad gateway\n");
        return;
      }
    }
    if ((token && !who) || (push && !who)) {
      req.resume();
      entry.status = 401;
      res.writeHead(401, { "www-authenticate": 'Basic realm="GitHub"', "content-type": "text/plain" });
      res.end(
        token
          ? "Invalid username or token. Password authentication is not supported for Git operations.\n"
          : "Authentication required.\n",
      );
      return;
    }
    const pack = req.method === "POST" && push;
    const before = pack ? this.git.heads() : null;
    // Refs outside branches (a tool's own, such as a lease) move too: `entry.refs` names every ref a push moved.
    const others = () =>
      this.git
        .git(["for-each-ref", "--format=%(refname) %(objectname)", "refs/"])
        .split("\n")
        .filter((l) => l && !l.startsWith("refs/heads/"))
        .join("\n");
    const othersBefore = pack ? others() : null;
    const lose = fault?.kind === "lost-reply" && pack;
    const status = await this.git.serve(req, lose ? discard(res) : res, {
      path: u.pathname,
      query: u.search.replace(/^\?/, ""),
      remoteUser: push ? who.login : who?.login,
    });
    entry.status = res.statusCode;
    if (pack && status === 0) {
      this.currentTokenKind = who.kind;
      try {
        const after = this.git.heads();
        const moved = (a, b) => [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
        const lines = (text) => new Map(text ? text.split("\n").map((l) => l.split(" ")) : []);
        entry.refs = [
          ...moved(before, after).map((b) => `refs/heads/${b}`),
          ...moved(lines(othersBefore), lines(others())),
        ];
        this.state.receive(before, after, who.login);
      } catch (e) {
        this.validationFailures.push({
          where: "emulator",
          method: req.method,
          path: u.pathname,
          operation: entry.operation,
          problems: [e.stack ?? e.message],
        });
      } finally {
        this.currentTokenKind = null;
      }
    }
    if (lose) {
      // The push was received and the refs moved; the client never hears so.
      entry.status = 0;
      res.socket?.destroy();
      return;
    }
    res.end();
  }

  /**
   * The signed URL a job's logs redirect to, as GitHub's blob storage serves it: no token needed (and none
   * asked for), the signature binding the job id and an expiry one minute ahead on the emulator's clock.
   */
  signedLogUrl(jobId) {
    const se = this.clock.now() + LOG_URL_TTL_MS;
    return `${this.url}${LOG_BLOB_PATH}${jobId}?se=${se}&sig=${this.logSignature(jobId, se)}`;
  }
  logSignature(jobId, se) {
    return createHmac("sha256", this.logSecret).update(`${jobId}\n${se}`).digest("hex");
  }
  handleLogBlob(req, res, u) {
    req.resume();
    const jobId = Number(u.pathname.slice(LOG_BLOB_PATH.length));
    const se = Number(u.searchParams.get("se"));
    const entry = {
      method: req.method,
      path: u.pathname,
      operation: "job log download",
      status: 0,
      token: null,
      tokenKind: null,
      login: null,
      faulted: null,
      at: this.clock.iso(),
    };
    this.requests.push(entry);
    const sig = u.searchParams.get("sig") ?? "";
    const expect = this.logSignature(jobId, se);
    const text = this.ci.jobLog(jobId);
    const [status, body] =
      sig.length !== expect.length || !timingSafeEqual(Buffer.from(sig), Buffer.from(expect))
        ? [403, "Server failed to authenticate the request: the signature does not match."]
        : this.clock.now() > se
          ? [403, "Server failed to authenticate the request: the signed URL has expired."]
          : text == null
            ? [404, "The specified blob does not exist."]
            : [200, text];
    entry.status = status;
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
    res.end(body);
  }

  sendFault(res, entry, fault, headers, started) {
    let status;
    let body;
    if (fault.kind === "5xx" || fault.kind === "outage") {
      status = fault.status ?? 502;
      body = { message: "Server Error" };
    } else if (fault.kind === "secondary-rate-limit") {
      status = 403;
      headers["retry-after"] = String(fault.retryAfter);
      body = {
        message: `${SECONDARY_RATE_LIMIT_MESSAGE} ${headers["x-github-request-id"]}.`,
        documentation_url:
          "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
        status: "403",
      };
    } else if (fault.kind === "429") {
      status = 429;
      headers["retry-after"] = String(fault.retryAfter);
      body = { message: "Too Many Requests" };
    } else {
      status = 500;
      body = { message: `unknown fault kind ${fault.kind}` };
    }
    entry.status = status;
    entry.ms = Math.round(performance.now() - started);
    res.writeHead(status, headers);
    res.end(JSON.stringify(body));
  }
}

function makeWorkflows() {
  const handlers = new Map();
  return {
    /** Registers `handler(eventName, payload, emulator)` for an event name; returns an unregister function. */
    on(eventName, handler) {
      const list = handlers.get(eventName) ?? [];
      list.push(handler);
      handlers.set(eventName, list);
      return () =>
        handlers.set(
          eventName,
          (handlers.get(eventName) ?? []).filter((h) => h !== handler),
        );
    },
    handlersFor(eventName) {
      return [...(handlers.get(eventName) ?? [])];
    },
    clear() {
      handlers.clear();
    },
  };
}

/** A response stand-in that swallows what git http-backend writes (a lost reply's). */
function discard(res) {
  return new Proxy(res, {
    get(target, key, proxy) {
      if (key === "writeHead") return () => proxy;
      if (["write", "setHeader", "end", "flushHeaders"].includes(key))
        return (...args) => (typeof args.at(-1) === "function" ? args.at(-1)() : true);
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

function matches(match = {}, req) {
  if (match.git && match.git !== req.git) return false;
  if (match.method && match.method.toUpperCase() !== req.method) return false;
  if (match.path) {
    const ok = match.path instanceof RegExp ? match.path.test(req.path) : req.path.includes(match.path);
    if (!ok) return false;
  }
  if (match.graphql) {
    if (!req.graphql) return false;
    if (!req.graphql.includes(match.graphql)) return false;
  }
  return true;
}

function graphqlOperationName(json) {
  if (json?.operationName) return json.operationName;
  const m = /^\s*(?:query|mutation)\s+(\w+)/.exec(json?.query ?? "");
  return m ? m[1] : "anonymous";
}

/** The operation name and every field name in the document, for fault matching. */
function graphqlFields(json) {
  const q = String(json?.query ?? "");
  return [graphqlOperationName(json), ...(q.match(/[A-Za-z_]\w*/g) ?? [])];
}

/** Rate-limit headers. The reset is sent in real epoch seconds, as far ahead as the budget's reset is on the test clock. */
function rateHeaders(b, resource, clock) {
  return {
    "x-ratelimit-limit": String(b.limit),
    "x-ratelimit-remaining": String(b.remaining),
    "x-ratelimit-used": String(b.used),
    "x-ratelimit-reset": String(Math.floor((Date.now() + (b.resetAt - clock.now())) / 1000)),
    "x-ratelimit-resource": resource,
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
