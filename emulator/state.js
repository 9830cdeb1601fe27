// The emulator's state: one repository as GitHub stores it (labels, pull requests, reviews bound to
// commits, comments with authors, check runs, statuses, timeline events, rulesets), and every write a
// person, an agent or the tool can make. Each write records the timeline events GitHub records and emits
// the webhook event a real repository would. Every timestamp comes from the test-controlled clock.
import { createHash } from "node:crypto";

/** GitHub reports `mergeable: UNKNOWN` while it recomputes after the base or head moves; this long. */
export const MERGEABILITY_DELAY_MS = 60_000;
/** Login of the workflow's GITHUB_TOKEN (REST form; GraphQL calls the Bot `github-actions`). */
export const ACTIONS_BOT = "github-actions[bot]";
/** The null sha git and GitHub use for a ref that does not exist (a created or deleted branch). */
export const ZERO_SHA = "0".repeat(40);
/** The file a pull request edits when a test names none. */
const DEFAULT_FILE = "src/lib.rs";
/** Associations that mean "can write" (GitHub's authorAssociation). */
const WRITE_ASSOC = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

/**
 * A clock the tests move, with timers on it. Times are ms since the epoch; `iso()` is GitHub's
 * second-precision form. Nothing happens between moves: `advance`/`advanceTo`/`set` fire every timer
 * that falls due, in time order (ties in the order they were set), with the clock standing at each
 * timer's own time while it runs, so a timer sees the world as it was at its moment and may set more
 * timers (a CI job that finishes starts the aggregate; a merge moves the base). A working day of queue
 * runs in a few seconds of wall time.
 */
export function makeClock(start = "2026-01-05T09:00:00Z") {
  let t = typeof start === "number" ? start : Date.parse(start);
  let seq = 0;
  const timers = []; // { at, seq, fn, label, cancelled }
  const toMs = (by) =>
    typeof by === "number"
      ? by
      : ((by.days ?? 0) * 24 * 60 + (by.hours ?? 0) * 60 + (by.minutes ?? 0)) * 60_000 + (by.seconds ?? 0) * 1000;
  /** Fires every timer due at or before `to`, earliest first, then stands at `to`. */
  const runTo = (to) => {
    for (;;) {
      let next = null;
      for (const x of timers)
        if (!x.cancelled && x.at <= to && (!next || x.at < next.at || (x.at === next.at && x.seq < next.seq))) next = x;
      if (!next) break;
      timers.splice(timers.indexOf(next), 1);
      t = Math.max(t, next.at);
      clock.fired++;
      try {
        next.fn();
      } catch (e) {
        clock.onError(e, next);
      }
    }
    t = Math.max(t, to);
  };
  const clock = {
    now: () => t,
    iso: (ms = t) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"),
    /** Jumps to a time; moving forward fires what falls due on the way (moving back fires nothing). */
    set(to) {
      const ms = typeof to === "number" ? to : Date.parse(to);
      if (ms >= t) runTo(ms);
      else t = ms;
      return clock.iso();
    },
    /** `advance(ms)` or `advance({ seconds, minutes, hours, days })`: fires what falls due on the way. */
    advance(by) {
      runTo(t + toMs(by));
      return clock.iso();
    },
    /** Moves to an ISO time or epoch ms (never back), firing what falls due. */
    advanceTo(to) {
      runTo(Math.max(t, typeof to === "number" ? to : Date.parse(to)));
      return clock.iso();
    },
    /** Runs `fn` when the clock reaches `at` (ms or ISO). Returns the timer; `timer.cancel()` drops it. */
    at(at, fn, label = "") {
      const timer = { at: typeof at === "number" ? at : Date.parse(at), seq: ++seq, fn, label, cancelled: false };
      timer.cancel = () => {
        timer.cancelled = true;
        const i = timers.indexOf(timer);
        if (i >= 0) timers.splice(i, 1);
      };
      timers.push(timer);
      return timer;
    },
    /** Runs `fn` after `by` (ms or `{ minutes, ... }`) of clock time. */
    after(by, fn, label = "") {
      return clock.at(t + toMs(by), fn, label);
    },
    /** The timers still waiting, earliest first: `[{ at (ISO), label }]`. */
    pending() {
      return timers
        .filter((x) => !x.cancelled)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)
        .map((x) => ({ at: clock.iso(x.at), label: x.label }));
    },
    /**
     * Advances timer by timer until nothing waits (CI done, mergeability known, auto-merge fired), at most
     * `limit` of clock time ahead (a workflow that re-arms itself forever would otherwise never stop).
     */
    runUntilIdle({ limit = { days: 7 } } = {}) {
      const end = t + toMs(limit);
      for (;;) {
        const next = timers.filter((x) => !x.cancelled).reduce((a, x) => (!a || x.at < a.at ? x : a), null);
        if (!next || next.at > end) break;
        runTo(next.at);
      }
      return clock.iso();
    },
    fired: 0,
    /** A timer that throws is reported here (the emulator records it as a validation failure). */
    onError: (e) => {
      throw e;
    },
  };
  return clock;
}

export class RepoState {
  constructor({ owner, repo, seed = "prflow", clock, emit = () => {}, git = null }) {
    this.git = git; // a GitRepo (emulator/git.js) when the emulator runs on real git, else null
    this.owner = owner;
    this.repo = repo;
    this.seed = String(seed);
    this.clock = clock;
    this.emit = emit; // (eventName, payload, actorLogin) => void
    // The kind of token the current write is made with, and a way to act with one (the emulator sets both).
    this.tokenKind = () => null;
    this.withTokenKind = (kind, fn) => fn();
    this.counter = 0;
    this.repoId = 1000;
    this.defaultBranch = "main";
    this.branches = new Map();
    // With git, main starts as one real commit: a README, as a repository created on GitHub with one, and
    // the file a pull request edits unless told otherwise, so two pull requests editing it share its text
    // (two that each added it would be an add/add conflict, which no test means).
    if (git)
      git.setRef(
        "main",
        git.commit({
          files: { "README.md": `# ${repo}\n`, [DEFAULT_FILE]: fileSkeleton(DEFAULT_FILE) },
          message: "Initial commit",
          author: owner,
        }),
      );
    this.branch("main");
    this.mergeMethods = { merge: true, squash: true, rebase: true }; // allow_merge_commit / allow_squash_merge / allow_rebase_merge
    this.deleteBranchOnMerge = false; // the repository's delete_branch_on_merge
    this.allowAutoMerge = false; // the repository's allow_auto_merge (GitHub's default: off)
    // How long mergeability stays UNKNOWN after a move; a long simulated day may shorten it (GitHub
    // takes seconds on a small repository), which changes what a reader sees only in how long it waits.
    this.mergeabilityDelayMs = MERGEABILITY_DELAY_MS;
    this.labels = new Map(); // lower-case name -> label
    this.users = new Map(); // login -> { login, id, type, association }
    this.teams = new Map(); // slug -> { slug, id, org }
    this.pulls = new Map(); // number -> issue or pull request (GitHub numbers both from one sequence)
    this.comments = new Map(); // id -> comment
    this.checkRuns = []; // { id, headSha, name, status, conclusion, startedAt, completedAt, workflow, suiteId }
    this.statuses = []; // { id, sha, context, state, description, targetUrl, createdAt, creator }
    this.requiredChecks = []; // contexts of the default branch's required_status_checks rule
    this.protectionChecks = []; // contexts classic branch protection requires on the default branch
    this.requireUpToDate = false; // the rule's strict_required_status_checks_policy
    this.files = new Map(); // path on the default branch -> text (CODEOWNERS)
    this.nextNumber = 1;
    this.user(owner, { association: "OWNER" });
  }

  // ---- ids --------------------------------------------------------------------------------------

  id() {
    return ++this.counter + 10_000;
  }
  sha(what = "") {
    return createHash("sha1")
      .update(`${this.seed}:${what}:${++this.counter}`)
      .digest("hex");
  }
  nodeId(kind, id) {
    return Buffer.from(`${kind}:${id}`).toString("base64").replace(/=+$/, "");
  }
  now() {
    return this.clock.iso();
  }

  // ---- people -------------------------------------------------------------------------------------

  /** A user (or bot: a login ending in [bot]); created on first mention with association NONE/CONTRIBUTOR. */
  user(login, { association, type } = {}) {
    let u = this.users.get(login);
    if (!u) {
      u = {
        login,
        id: this.id(),
        type: type ?? (login.endsWith("[bot]") ? "Bot" : "User"),
        association: association ?? "CONTRIBUTOR",
      };
      this.users.set(login, u);
    } else if (association) u.association = association;
    return u;
  }
  team(slug) {
    let t = this.teams.get(slug);
    if (!t) this.teams.set(slug, (t = { slug, id: this.id(), org: this.owner }));
    return t;
  }
  canWrite(login) {
    return WRITE_ASSOC.has(this.user(login).association);
  }

  // ---- labels -------------------------------------------------------------------------------------

  createLabel({ name, color = "ededed", description = null }) {
    checkLabel({ name, color, description });
    const key = name.toLowerCase();
    if (this.labels.has(key))
      throw httpError(422, "Validation Failed", [{ resource: "Label", code: "already_exists", field: "name" }]);
    const id = this.id();
    const label = {
      id,
      nodeId: this.nodeId("Label", id),
      name,
      color: color.toLowerCase(),
      description,
      default: false,
      createdAt: this.now(),
    };
    this.labels.set(key, label);
    this.emit("label", { action: "created", label }, this.owner);
    return label;
  }
  label(name) {
    return this.labels.get(String(name).toLowerCase()) ?? null;
  }
  updateLabel(name, { new_name, color, description }) {
    const label = this.label(name);
    if (!label) throw httpError(404, "Not Found");
    checkLabel({ name: new_name ?? label.name, color: color ?? label.color, description });
    if (new_name && new_name.toLowerCase() !== label.name.toLowerCase() && this.label(new_name)) {
      throw httpError(422, "Validation Failed", [{ resource: "Label", code: "already_exists", field: "name" }]);
    }
    // The webhook's `changes`: what each edited field was before.
    const changes = {};
    if (new_name && new_name !== label.name) changes.name = { from: label.name };
    if (color && color.toLowerCase() !== label.color) changes.color = { from: label.color };
    if (description !== undefined && description !== label.description)
      changes.description = { from: label.description };
    if (new_name) {
      this.labels.delete(label.name.toLowerCase());
      // A rename renames the label on every issue that carries it, as on GitHub.
      for (const pr of this.pulls.values())
        pr.labels = pr.labels.map((l) => (l.toLowerCase() === label.name.toLowerCase() ? new_name : l));
      label.name = new_name;
      this.labels.set(new_name.toLowerCase(), label);
    }
    if (color) label.color = color.toLowerCase();
    if (description !== undefined) label.description = description;
    this.emit("label", { action: "edited", label, changes }, this.owner);
    return label;
  }

  // ---- issues and pull requests -------------------------------------------------------------------

  pull(number) {
    const pr = this.pulls.get(Number(number));
    if (!pr) throw httpError(404, "Not Found");
    return pr;
  }
  pullOnly(number) {
    const pr = this.pull(number);
    if (!pr.isPull) throw httpError(404, "Not Found");
    return pr;
  }

  /** A plain issue (the board issue of later issues). */
  createIssue({ title, body = "", author = this.owner, labels = [] }) {
    const number = this.nextNumber++;
    const id = this.id();
    const issue = this.baseIssue({ number, id, title, body, author, isPull: false });
    this.pulls.set(number, issue);
    this.applyLabels(issue, labels, [], author);
    this.emit("issues", { action: "opened", number }, author);
    return issue;
  }

  baseIssue({ number, id, title, body, author, isPull }) {
    this.user(author);
    const at = this.now();
    return {
      number,
      id,
      nodeId: this.nodeId(isPull ? "PullRequest" : "Issue", id),
      isPull,
      title,
      body: body ?? "",
      author,
      state: "open",
      createdAt: at,
      updatedAt: at,
      closedAt: null,
      labels: [],
      comments: [],
      timeline: [],
    };
  }

  /**
   * Opens a pull request. `commits` (default 1) become `committed` timeline events; `labels` are applied
   * by the author right after opening (labeled events). `conflicting` marks it as conflicting with its base.
   */
  createPull({
    title = "A change",
    body = "",
    author = "agent-1",
    base = this.defaultBranch,
    head,
    draft = false,
    labels = [],
    files = [DEFAULT_FILE],
    commits = 1,
    conflicting = false,
  }) {
    const number = this.nextNumber++;
    const id = this.id();
    const pr = this.baseIssue({ number, id, title, body, author, isPull: true });
    Object.assign(pr, {
      isDraft: draft,
      baseRef: base,
      headRef: head ?? `agent/change-${number}`,
      headSha: null,
      commits: [],
      files: [...files],
      reviews: [],
      reviewRequests: [],
      conflicting,
      headMovedAt: this.clock.now(),
      merged: false,
      baseSha: this.branch(base).sha,
    });
    this.pulls.set(number, pr);
    // With git the head branch starts at the base's tip: its first commit's parent (written with the ref), or the ref itself.
    const start = this.git && (this.git.tip(base) ?? this.branch(base).sha);
    if (this.git && !commits) this.git.setRef(pr.headRef, start);
    for (let i = 0; i < commits; i++) this.addCommit(pr, author, undefined, i === 0 && start ? start : undefined);
    // With git a conflict is real: the base gets a commit changing the same files differently.
    if (this.git && conflicting) {
      const had = this.git.readFiles(this.git.tip(base), pr.files);
      this.moveBranch(base, {
        files: Object.fromEntries(
          pr.files.map((f) => [
            f,
            editLine(had.get(f) ?? fileSkeleton(f), number, `// ${base}'s own line where #${number} edits`),
          ]),
        ),
      });
    }
    if (this.git) this.syncPull(pr);
    this.emit("pull_request", { action: "opened", number }, author);
    if (labels.length) this.applyLabels(pr, labels, [], author);
    return pr;
  }

  /**
   * REST "Create a pull request" (POST pulls): from a branch that exists already (pushed), as a client
   * opens one. 422 as GitHub answers: an unknown head or base, or a pull request open on that head.
   * Without git, the branch is the model's: one commit on the base.
   */
  openPull({ title, body = "", author, base, head, draft = false }) {
    const open = [...this.pulls.values()].find((p) => p.isPull && p.state === "open" && p.headRef === head);
    if (open)
      throw httpError(422, "Validation Failed", [
        {
          resource: "PullRequest",
          code: "custom",
          message: `A pull request already exists for ${this.owner}:${head}.`,
        },
      ]);
    if (!this.git) return this.createPull({ title, body, author, base, head, draft });
    if (!this.git.tip(head))
      throw httpError(422, "Validation Failed", [{ resource: "PullRequest", field: "head", code: "invalid" }]);
    if (!this.git.tip(base))
      throw httpError(422, "Validation Failed", [{ resource: "PullRequest", field: "base", code: "invalid" }]);
    const number = this.nextNumber++;
    const pr = this.baseIssue({ number, id: this.id(), title, body, author, isPull: true });
    Object.assign(pr, {
      isDraft: draft,
      baseRef: base,
      headRef: head,
      headSha: null,
      commits: [],
      files: [],
      reviews: [],
      reviewRequests: [],
      conflicting: false,
      headMovedAt: this.clock.now(),
      merged: false,
      baseSha: this.branch(base).sha,
    });
    this.pulls.set(number, pr);
    this.syncPull(pr);
    this.emit("pull_request", { action: "opened", number }, author);
    return pr;
  }

  branch(name) {
    let b = this.branches.get(name);
    if (!b) {
      // With git, a new branch starts at its real tip, or at the default branch's tip (then created).
      let sha;
      if (this.git) {
        sha = this.git.tip(name);
        if (!sha) this.git.setRef(name, (sha = this.git.tip(this.defaultBranch)));
      } else sha = this.sha(name);
      // history: every tip the branch has had, oldest first (a linear branch: each move is one commit).
      this.branches.set(name, (b = { name, sha, movedAt: -Infinity, history: [sha] }));
    }
    return b;
  }

  /**
   * git's answer to `base...head`, as the compare API gives it: the merge base and how far each side is
   * past it. Either side is a branch name or a commit: a branch tip (current or past) or a pull
   * request's head. A pull request's head is built on its `baseSha`. Null when there is no common
   * ancestor or a side is unknown (GitHub answers 404).
   */
  compare(base, head) {
    if (this.git) return this.gitCompare(base, head);
    const resolve = (ref) => {
      const b = this.branches.get(ref);
      if (b) return { branch: b, at: b.history.length - 1 };
      for (const br of this.branches.values()) {
        const at = br.history.indexOf(ref);
        if (at >= 0) return { branch: br, at };
      }
      const pr = [...this.pulls.values()].find((p) => p.isPull && (p.headSha === ref || p.headRef === ref));
      if (!pr) return null;
      const on = this.branch(pr.baseRef);
      const at = on.history.indexOf(pr.baseSha);
      return at < 0 ? null : { branch: on, at, commits: pr.commits };
    };
    const a = resolve(base);
    const b = resolve(head);
    if (!a || !b || a.branch !== b.branch) return null;
    const mergeBase = a.branch.history[Math.min(a.at, b.at)];
    const past = (side) => (side.commits ?? []).length + side.at - Math.min(a.at, b.at);
    const aheadBy = past(b);
    const behindBy = past(a);
    const status = aheadBy && behindBy ? "diverged" : aheadBy ? "ahead" : behindBy ? "behind" : "identical";
    const headCommits = b.commits ?? [];
    return {
      status,
      aheadBy,
      behindBy,
      mergeBase,
      baseSha: a.commits ? a.commits.at(-1).oid : a.branch.history[a.at],
      commits: headCommits,
    };
  }

  addCommit(pr, author, dropped, parent = this.git?.tip(pr.headRef)) {
    const oid = this.git ? this.gitCommitOnHead(pr, author, parent, dropped) : this.sha(`commit-${pr.number}`);
    const commit = { oid, committedDate: this.now(), author };
    pr.commits.push(commit);
    pr.headSha = oid;
    pr.headMovedAt = this.clock.now();
    this.recomputeLater();
    pr.timeline.push({ type: "PullRequestCommit", at: commit.committedDate, actor: author, commit });
    return commit;
  }

  /** A push to the head branch: new commits (`committed`) or a force push (`head_ref_force_pushed`). */
  push(number, { by, force = false, rebase = false, files, conflicting } = {}) {
    const pr = this.pullOnly(number);
    const actor = by ?? pr.author;
    this.user(actor);
    const before = pr.headSha;
    const dropped = files ? pr.files.filter((f) => !files.includes(f)) : [];
    // A rebase rewrites the branch onto the base's tip: a force push of a head built on that tip.
    if (rebase) pr.baseSha = this.branch(pr.baseRef).sha;
    if (files) pr.files = [...files];
    if (force || rebase) {
      // git: a rewrite is one new commit on the base's tip (rebase) or on the head's merge base (force).
      const onto =
        this.git && (rebase ? this.git.tip(pr.baseRef) : this.git.mergeBase(this.git.tip(pr.baseRef), pr.headSha));
      const oid = this.git ? this.gitCommitOnHead(pr, actor, onto) : this.sha(`force-${pr.number}`);
      pr.commits = [{ oid, committedDate: this.now(), author: actor }];
      pr.headSha = oid;
      pr.headMovedAt = this.clock.now();
      this.recomputeLater();
      pr.timeline.push({ type: "HeadRefForcePushedEvent", at: this.now(), actor, before, after: oid });
    } else {
      this.addCommit(pr, actor, dropped);
    }
    if (conflicting !== undefined) pr.conflicting = conflicting;
    if (this.git) this.syncPull(pr);
    pr.updatedAt = this.now();
    this.emit("pull_request", { action: "synchronize", number, before, after: pr.headSha }, actor);
    return pr;
  }

  /** The base branch moves (a merge into main): every pull request on it is UNKNOWN for a while. */
  moveBranch(name = this.defaultBranch, { files } = {}) {
    const b = this.branch(name);
    const before = b.sha;
    if (this.git) {
      const n = b.history.length;
      b.sha = this.git.commit({
        parent: this.git.tip(name),
        files: files ?? { [`history/${name}-${n}.txt`]: `${name} moved (${n})\n` },
        message: `Move ${name} (${n})`,
        author: this.owner,
        ref: name,
      });
      this.mergeCache?.clear();
    } else b.sha = this.sha(`branch-${name}`);
    b.history.push(b.sha);
    b.movedAt = this.clock.now();
    this.recomputeLater();
    this.emit("push", { ref: `refs/heads/${name}`, before, after: b.sha }, this.owner);
    return b;
  }

  setDraft(number, draft, { by } = {}) {
    const pr = this.pullOnly(number);
    const actor = by ?? pr.author;
    if (pr.isDraft === draft) return pr;
    pr.isDraft = draft;
    pr.updatedAt = this.now();
    pr.timeline.push({ type: draft ? "ConvertToDraftEvent" : "ReadyForReviewEvent", at: this.now(), actor });
    this.emit("pull_request", { action: draft ? "converted_to_draft" : "ready_for_review", number }, actor);
    return pr;
  }

  close(number, { by } = {}) {
    const pr = this.pull(number);
    pr.state = "closed";
    pr.closedAt = this.now();
    pr.timeline.push({ type: "ClosedEvent", at: this.now(), actor: by ?? this.owner });
    this.emit(pr.isPull ? "pull_request" : "issues", { action: "closed", number }, by ?? this.owner);
    return pr;
  }
  reopen(number, { by } = {}) {
    const pr = this.pull(number);
    pr.state = "open";
    pr.closedAt = null;
    pr.timeline.push({ type: "ReopenedEvent", at: this.now(), actor: by ?? this.owner });
    this.emit(pr.isPull ? "pull_request" : "issues", { action: "reopened", number }, by ?? this.owner);
    return pr;
  }

  /** Edits title/body/state of an issue or pull request (PATCH issue). `labels` replaces the set in one edit. */
  editIssue(number, { title, body, state, labels }, actor) {
    const pr = this.pull(number);
    // The webhook's `changes`: what each edited field was before.
    const changes = {};
    if (title !== undefined && title !== pr.title) changes.title = { from: pr.title };
    if (body !== undefined && (body ?? "") !== pr.body) changes.body = { from: pr.body };
    if (title !== undefined) pr.title = title;
    if (body !== undefined) pr.body = body ?? "";
    if (labels !== undefined)
      this.setLabels(
        pr,
        labels.map((l) => (typeof l === "string" ? l : l.name)),
        actor,
      );
    if (state === "closed" && pr.state !== "closed") this.close(number, { by: actor });
    if (state === "open" && pr.state !== "open") this.reopen(number, { by: actor });
    pr.updatedAt = this.now();
    if (title !== undefined || body !== undefined)
      this.emit(pr.isPull ? "pull_request" : "issues", { action: "edited", number, changes }, actor);
    return pr;
  }

  /** Labels must exist (REST creates missing ones on add; the emulator does too, as GitHub does). */
  ensureLabel(name) {
    return this.label(name) ?? this.createLabel({ name });
  }

  /** Adds and removes in one edit; one `labeled`/`unlabeled` event (and webhook) per label changed. */
  applyLabels(pr, add, remove, actor) {
    const removeSet = new Set(remove.map((l) => l.toLowerCase()));
    const next = pr.labels.filter((l) => !removeSet.has(l.toLowerCase()));
    for (const name of add) {
      const label = this.ensureLabel(name);
      if (!next.some((l) => l.toLowerCase() === label.name.toLowerCase())) next.push(label.name);
    }
    return this.setLabels(pr, next, actor);
  }

  setLabels(pr, names, actor) {
    this.user(actor);
    const wanted = [];
    for (const n of names) {
      const label = this.ensureLabel(n);
      if (!wanted.includes(label.name)) wanted.push(label.name);
    }
    const lower = (xs) => new Set(xs.map((x) => x.toLowerCase()));
    const had = lower(pr.labels);
    const will = lower(wanted);
    const removed = pr.labels.filter((l) => !will.has(l.toLowerCase()));
    const added = wanted.filter((l) => !had.has(l.toLowerCase()));
    pr.labels = wanted;
    const kind = pr.isPull ? "pull_request" : "issues";
    for (const name of removed) {
      pr.timeline.push({ type: "UnlabeledEvent", at: this.now(), actor, label: name, labelId: this.label(name)?.id });
      this.emit(kind, { action: "unlabeled", number: pr.number, label: name }, actor);
    }
    for (const name of added) {
      pr.timeline.push({ type: "LabeledEvent", at: this.now(), actor, label: name, labelId: this.label(name)?.id });
      this.emit(kind, { action: "labeled", number: pr.number, label: name }, actor);
    }
    if (added.length || removed.length) pr.updatedAt = this.now();
    return { added, removed };
  }

  // ---- conversation -------------------------------------------------------------------------------

  comment(number, { author, body }) {
    const pr = this.pull(number);
    this.user(author);
    const id = this.id();
    const c = {
      id,
      nodeId: this.nodeId("IssueComment", id),
      issueNumber: pr.number,
      author,
      body,
      createdAt: this.now(),
      updatedAt: this.now(),
    };
    this.comments.set(id, c);
    pr.comments.push(id);
    pr.timeline.push({ type: "IssueComment", at: c.createdAt, actor: author, comment: id });
    pr.updatedAt = this.now();
    this.emit("issue_comment", { action: "created", number: pr.number, comment: id }, author);
    return c;
  }
  editComment(id, { body }, actor) {
    const c = this.comments.get(Number(id));
    if (!c) throw httpError(404, "Not Found");
    const changes = { body: { from: c.body } };
    c.body = body;
    c.updatedAt = this.now();
    this.emit("issue_comment", { action: "edited", number: c.issueNumber, comment: c.id, changes }, actor);
    return c;
  }

  /** A submitted review, bound to the head commit at that moment (or `commit`). */
  review(number, { author, state = "APPROVED", body = "", commit }) {
    const pr = this.pullOnly(number);
    this.user(author);
    const id = this.id();
    const r = {
      id,
      nodeId: this.nodeId("PullRequestReview", id),
      author,
      state,
      body,
      commit: commit ?? pr.headSha,
      submittedAt: this.now(),
    };
    pr.reviews.push(r);
    pr.reviewRequests = pr.reviewRequests.filter((q) => !(q.type === "User" && q.login === author));
    pr.timeline.push({ type: "PullRequestReview", at: r.submittedAt, actor: author, review: id });
    pr.updatedAt = this.now();
    this.emit("pull_request_review", { action: "submitted", number: pr.number, review: id }, author);
    this.autoMergeSweep(); // an approval may be the last thing an armed pull request waited on
    return r;
  }

  /** A review thread on the diff (a conversation); `resolveThread` marks it resolved. */
  reviewThread(number, { author, body = "A question", resolved = false }) {
    const pr = this.pullOnly(number);
    this.user(author);
    pr.reviewThreads ??= [];
    const thread = { id: pr.reviewThreads.length, author, body, isResolved: resolved, createdAt: this.now() };
    pr.reviewThreads.push(thread);
    return thread;
  }
  resolveThread(number, index, { by } = {}) {
    const pr = this.pullOnly(number);
    const thread = pr.reviewThreads?.[index];
    if (!thread) throw httpError(404, "Not Found");
    Object.assign(thread, { isResolved: true, resolvedBy: by ?? this.owner });
    this.autoMergeSweep();
    return thread;
  }

  /** Requests reviews from users and teams; one `review_requested` event each, as GitHub records. */
  requestReviewers(number, { reviewers = [], teams = [] }, actor) {
    const pr = this.pullOnly(number);
    for (const login of reviewers) {
      if (login === pr.author) throw httpError(422, "Review cannot be requested from pull request author.");
      this.user(login);
      if (pr.reviewRequests.some((q) => q.type === "User" && q.login === login)) continue;
      pr.reviewRequests.push({ type: "User", login });
      pr.timeline.push({ type: "ReviewRequestedEvent", at: this.now(), actor, reviewer: login });
      this.emit("pull_request", { action: "review_requested", number: pr.number, reviewer: login }, actor);
    }
    for (const slug of teams) {
      this.team(slug);
      if (pr.reviewRequests.some((q) => q.type === "Team" && q.slug === slug)) continue;
      pr.reviewRequests.push({ type: "Team", slug });
      pr.timeline.push({ type: "ReviewRequestedEvent", at: this.now(), actor, team: slug });
      this.emit("pull_request", { action: "review_requested", number: pr.number, team: slug }, actor);
    }
    return pr;
  }

  // ---- checks and statuses ------------------------------------------------------------------------

  /**
   * A check run on a commit (default: the head of pull request `number`). `run` names the workflow run it
   * belongs to (the CI simulator's runs: one check suite per run, as GitHub Actions makes); without it,
   * one suite per commit and workflow.
   */
  checkRun({
    number,
    sha,
    name,
    status = "COMPLETED",
    conclusion = status === "COMPLETED" ? "SUCCESS" : null,
    workflow = "CI",
    startedAt,
    completedAt,
    by = "github-actions[bot]",
    run,
  }) {
    const headSha = sha ?? this.pullOnly(number).headSha;
    const id = this.id();
    const c = {
      id,
      nodeId: this.nodeId("CheckRun", id),
      headSha,
      name,
      status,
      conclusion,
      workflow,
      startedAt: startedAt ?? this.now(),
      completedAt: status === "COMPLETED" ? (completedAt ?? this.now()) : null,
      suiteId: this.suiteFor(headSha, workflow, run),
    };
    this.checkRuns.push(c);
    this.emit("check_run", { action: status === "COMPLETED" ? "completed" : "created", checkRun: id }, by);
    if (status === "COMPLETED") this.suiteMaybeDone(c, by);
    this.autoMergeSweep();
    return c;
  }
  /** A running check run finishes (or is cancelled): `check_run` `completed`, then the suite when all are done. */
  completeCheckRun(id, conclusion, { by = "github-actions[bot]" } = {}) {
    const c = this.checkRuns.find((x) => x.id === id);
    if (!c || c.status === "COMPLETED") return c;
    Object.assign(c, { status: "COMPLETED", conclusion, completedAt: this.now() });
    this.emit("check_run", { action: "completed", checkRun: id }, by);
    this.suiteMaybeDone(c, by);
    this.autoMergeSweep();
    return c;
  }
  suiteMaybeDone(c, by) {
    if (this.checkRuns.filter((x) => x.suiteId === c.suiteId).every((x) => x.status === "COMPLETED")) {
      this.emit("check_suite", { action: "completed", suiteId: c.suiteId, headSha: c.headSha }, by);
    }
  }
  suiteFor(headSha, workflow, run) {
    this.suites ??= new Map();
    this.workflowIds ??= new Map();
    const key = `${headSha}:${workflow}:${run ?? ""}`;
    if (!this.suites.has(key)) {
      // Three ids per suite, as before runs had suites of their own (ids in committed reports stay put);
      // a workflow keeps the id it was first given.
      const id = this.id();
      const workflowId = this.id();
      if (!this.workflowIds.has(workflow)) this.workflowIds.set(workflow, workflowId);
      this.suites.set(key, { id, headSha, workflow, workflowId: this.workflowIds.get(workflow), runId: this.id() });
    }
    return this.suites.get(key).id;
  }
  suite(id) {
    return [...(this.suites?.values() ?? [])].find((s) => s.id === id) ?? null;
  }

  /** A commit status (state lower-case as in REST: pending, success, failure, error). */
  status({ number, sha, context, state, description = null, targetUrl = null, by = this.owner }) {
    const commitSha = sha ?? this.pullOnly(number).headSha;
    this.user(by);
    const id = this.id();
    const s = {
      id,
      nodeId: this.nodeId("StatusContext", id),
      sha: commitSha,
      context,
      state,
      description,
      targetUrl,
      createdAt: this.now(),
      creator: by,
    };
    this.statuses.push(s);
    this.emit("status", { statusId: id }, by);
    this.autoMergeSweep();
    return s;
  }

  /** The latest status per context on a commit (GitHub's combined view). */
  statusesFor(sha) {
    const latest = new Map();
    for (const s of this.statuses) if (s.sha === sha) latest.set(s.context, s);
    return [...latest.values()];
  }
  /** The latest run per (workflow, name) on a commit, as the rollup shows it. */
  checkRunsFor(sha) {
    const latest = new Map();
    for (const c of this.checkRuns) if (c.headSha === sha) latest.set(`${c.workflow}\u0000${c.name}`, c);
    return [...latest.values()];
  }

  // ---- real git (when the emulator was started with `git`) -----------------------------------------

  /**
   * A commit on `parent` rewriting each of the pull request's files; the head branch moves to it.
   * `dropped` files go back to their merge-base text, so the pull request's diff is its `files` again.
   */
  gitCommitOnHead(pr, author, parent, dropped = []) {
    const k = ++this.counter;
    const had = this.git.readFiles(parent, pr.files);
    const files = Object.fromEntries(
      pr.files.map((f) => [
        f,
        editLine(had.get(f) ?? fileSkeleton(f), pr.number, `// #${pr.number}: ${pr.headRef} by ${author} (${k})`),
      ]),
    );
    const gone = dropped.filter((f) => !pr.files.includes(f));
    if (gone.length)
      for (const [f, text] of this.git.readFiles(this.git.mergeBase(this.git.tip(pr.baseRef), parent), gone))
        files[f] = text;
    return this.git.commit({
      parent,
      files,
      message: `${pr.title} (${k})`,
      author,
      ref: pr.headRef,
      before: gone.length ? undefined : Object.fromEntries(had),
    });
  }

  /** A pull request's head, commits, changed files and merge base, as git has them now. */
  syncPull(pr) {
    const head = this.git.tip(pr.headRef);
    if (!head) return pr;
    const base = this.git.tip(pr.baseRef);
    pr.headSha = head;
    pr.commits = this.git
      .commitsBetween(base, head)
      .map((c) => ({ oid: c.oid, committedDate: this.clock.iso(c.time), author: c.author }));
    pr.files = this.git.changedFiles(base, head);
    pr.baseSha = this.git.mergeBase(base, head);
    return pr;
  }

  /** GET compare/{base}...{head} from git: merge base, ahead/behind counts, the head's commits, changed files. */
  gitCompare(base, head) {
    // A commit, once found, stays one: a full SHA is asked of git once (a queue worker compares every
    // pull request's head with the tip on every survey), a branch name each time.
    const ask = (ref) =>
      this.git.git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { allowFail: true }) || null;
    const resolve = (ref) => {
      if (!/^[0-9a-f]{40}$/.test(ref)) return ask(ref);
      const found = this.git.memo.get(`commit ${ref}`) ?? ask(ref);
      if (found) this.git.memo.set(`commit ${ref}`, found);
      return found;
    };
    const a = resolve(base);
    const b = resolve(head);
    if (!a || !b) return null;
    const mergeBase = this.git.mergeBase(a, b);
    if (!mergeBase) return null;
    const commits = this.git
      .commitsBetween(a, b)
      .map((c) => ({ oid: c.oid, committedDate: this.clock.iso(c.time), author: c.author, message: c.message }));
    const aheadBy = commits.length;
    const behindBy = this.git.commitsBetween(b, a).length;
    const status = aheadBy && behindBy ? "diverged" : aheadBy ? "ahead" : behindBy ? "behind" : "identical";
    return { status, aheadBy, behindBy, mergeBase, baseSha: a, commits, files: this.git.changedFiles(a, b) };
  }

  /** MERGEABLE or CONFLICTING as `git merge-tree --write-tree base head` says (cached per pair of tips). */
  gitMergeable(pr) {
    const base = this.git.tip(pr.baseRef);
    const key = `${base}:${pr.headSha}`;
    this.mergeCache ??= new Map();
    if (this.mergeCache.has(key)) return this.mergeCache.get(key);
    // A head built on the base's tip merges cleanly without asking: git would fast-forward. The others
    // are asked together: a board read asks every open pull request next.
    const ask = [];
    for (const p of this.pulls.values()) {
      if (!p.isPull || p.state !== "open" || !p.headSha) continue;
      const tip = this.git.tip(p.baseRef);
      if (!tip || this.mergeCache.has(`${tip}:${p.headSha}`)) continue;
      if (this.git.walk(tip, p.headSha)) this.mergeCache.set(`${tip}:${p.headSha}`, "MERGEABLE");
      else ask.push([tip, p.headSha]);
    }
    if (!this.mergeCache.has(key) && !ask.some(([a, b]) => a === base && b === pr.headSha))
      ask.push([base, pr.headSha]);
    for (const [i, { clean }] of this.git.mergeTrees(ask).entries())
      this.mergeCache.set(`${ask[i][0]}:${ask[i][1]}`, clean ? "MERGEABLE" : "CONFLICTING");
    return this.mergeCache.get(key);
  }

  /** Whether the head contains the base's tip (git: the tip is an ancestor of the head). */
  upToDate(pr) {
    if (this.git) return this.git.isAncestor(this.git.tip(pr.baseRef), pr.headSha);
    return pr.baseSha === this.branch(pr.baseRef).sha;
  }

  /**
   * After a push (post-receive): the refs before and after. Branches follow git; each open pull request
   * whose head moved gets `committed` events (a fast-forward) or `head_ref_force_pushed` (a rewrite) and
   * a `synchronize` webhook; a deleted branch retargets the pull requests based on it.
   */
  receive(before, after, actor) {
    const now = this.clock.now();
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((n) => before.get(n) !== after.get(n));
    if (!changed.length) return;
    this.mergeCache?.clear();
    this.recomputeLater();
    for (const name of changed) {
      const sha = after.get(name);
      if (!sha) {
        this.emit(
          "push",
          { ref: `refs/heads/${name}`, before: before.get(name), after: ZERO_SHA, deleted: true },
          actor,
        );
        this.dropBranch(name, actor);
        continue;
      }
      const b = this.branches.get(name);
      if (b) Object.assign(b, { sha, movedAt: now }).history.push(sha);
      else this.branches.set(name, { name, sha, movedAt: now, history: [sha] });
      this.emit("push", { ref: `refs/heads/${name}`, before: before.get(name) ?? ZERO_SHA, after: sha }, actor);
    }
    for (const pr of this.pulls.values()) {
      if (!pr.isPull || pr.state !== "open" || !changed.includes(pr.headRef) || !after.get(pr.headRef)) continue;
      const old = pr.headSha;
      const next = after.get(pr.headRef);
      if (old === next) continue;
      if (this.git.isAncestor(old, next)) {
        for (const c of this.git.commitsBetween(old, next))
          pr.timeline.push({
            type: "PullRequestCommit",
            at: this.now(),
            actor,
            commit: { oid: c.oid, committedDate: this.clock.iso(c.time), author: c.author },
          });
      } else {
        pr.timeline.push({ type: "HeadRefForcePushedEvent", at: this.now(), actor, before: old, after: next });
      }
      pr.headMovedAt = now;
      this.syncPull(pr);
      pr.updatedAt = this.now();
      this.emit("pull_request", { action: "synchronize", number: pr.number, before: old, after: next }, actor);
    }
  }

  /** The required contexts (ruleset and classic protection) not green on the head. */
  missingChecks(pr) {
    const sha = pr.headSha;
    const greens = new Set([
      ...this.checkRunsFor(sha)
        .filter((c) => c.status === "COMPLETED" && ["SUCCESS", "NEUTRAL", "SKIPPED"].includes(c.conclusion))
        .map((c) => c.name),
      ...this.statusesFor(sha)
        .filter((s) => s.state === "success")
        .map((s) => s.context),
    ]);
    return [...this.requiredChecks, ...this.protectionChecks].filter((c) => !greens.has(c));
  }

  /**
   * Merges a pull request (REST PUT pulls/{n}/merge): `method` merge, squash or rebase as the repository
   * allows; `sha` must be the head. Git decides conflicts now (GitHub computes mergeability on a merge
   * attempt, whatever `mergeable` read). The base gets the merge, squash or rebased commits; the pull
   * request closes as merged; the head branch goes when `deleteBranchOnMerge`.
   */
  merge(number, options = {}, actor = this.owner) {
    const outer = !this.merging;
    this.merging = true;
    try {
      return this.mergeNow(number, options, actor);
    } finally {
      if (outer) {
        this.merging = false;
        this.autoMergeSweep();
      }
    }
  }
  mergeNow(number, { method = "merge", sha, title, message } = {}, actor = this.owner) {
    const pr = this.pullOnly(number);
    this.user(actor);
    if (pr.state !== "open") throw httpError(405, "Pull Request is not mergeable");
    if (!this.mergeMethods[method])
      throw httpError(
        405,
        {
          merge: "Merge commits are not allowed on this repository.",
          squash: "Squash merges are not allowed on this repository.",
          rebase: "Rebase merges are not allowed on this repository.",
        }[method],
      );
    if (sha && sha !== pr.headSha) throw httpError(409, "Head branch was modified. Review and try the merge again.");
    if (pr.isDraft) throw httpError(405, "Pull Request is still a draft");
    const conflicting = this.git ? this.gitMergeable(pr) === "CONFLICTING" : pr.conflicting;
    if (conflicting) throw httpError(405, "Pull Request is not mergeable");
    const isDefault = pr.baseRef === this.defaultBranch;
    const missing = isDefault ? this.missingChecks(pr) : [];
    if (missing.length)
      throw httpError(
        405,
        `Repository rule violations found\n\nRequired status check "${missing[0]}" is expected.\n\n`,
      );
    const wanting = this.reviewRequirements(pr);
    if (wanting.length) throw httpError(405, `Repository rule violations found\n\n${wanting[0]}\n\n`);
    if (isDefault && this.requireUpToDate && !this.upToDate(pr))
      throw httpError(
        405,
        "Repository rule violations found\n\nHead branch is not up to date with the base branch.\n\n",
      );
    let oid;
    if (this.git) {
      const base = this.git.tip(pr.baseRef);
      const head = pr.headSha;
      const mt = this.git.mergeTree(base, head);
      if (method === "squash") {
        const body =
          message ?? pr.commits.map((c) => `* ${this.git.git(["log", "-1", "--format=%s", c.oid])}`).join("\n");
        oid = this.git.commitTree(mt.tree, [base], `${title ?? `${pr.title} (#${pr.number})`}\n\n${body}`, pr.author);
      } else if (method === "merge") {
        oid = this.git.commitTree(
          mt.tree,
          [base, head],
          `${title ?? `Merge pull request #${pr.number} from ${this.owner}/${pr.headRef}`}\n\n${message ?? pr.title}`,
          actor,
        );
      } else {
        // rebase: each commit of the head replayed on the base, one at a time, as GitHub's rebase merge.
        oid = base;
        for (const c of this.git.commitsBetween(this.git.mergeBase(base, head), head)) {
          const step = this.git.mergeTree(oid, c.oid, { mergeBase: `${c.oid}^` });
          if (!step.clean) throw httpError(405, "This branch can't be rebased");
          oid = this.git.commitTree(step.tree, [oid], this.git.git(["log", "-1", "--format=%B", c.oid]), c.author);
        }
      }
      this.git.setRef(pr.baseRef, oid);
      this.mergeCache?.clear();
    } else oid = this.sha(`merge-${pr.number}`);
    const b = this.branch(pr.baseRef);
    const before = b.sha;
    Object.assign(b, { sha: oid, movedAt: this.clock.now() }).history.push(oid);
    this.recomputeLater();
    Object.assign(pr, {
      merged: true,
      mergedAt: this.now(),
      mergedBy: actor,
      mergeCommitSha: oid,
      mergeMethod: method,
      state: "closed",
      closedAt: this.now(),
      updatedAt: this.now(),
    });
    pr.timeline.push({ type: "MergedEvent", at: this.now(), actor, commit: oid, mergeRefName: pr.baseRef });
    pr.timeline.push({ type: "ClosedEvent", at: this.now(), actor });
    this.emit("push", { ref: `refs/heads/${pr.baseRef}`, before, after: oid }, actor);
    this.emit("pull_request", { action: "closed", number: pr.number }, actor);
    if (this.deleteBranchOnMerge) this.deleteBranch(pr.headRef, actor);
    return { sha: oid, merged: true, message: "Pull Request successfully merged" };
  }

  /**
   * Arms auto-merge (GraphQL enablePullRequestAutoMerge). GitHub refuses it when the repository does
   * not allow it, and on a pull request that could merge right now ("Pull request is in clean status").
   */
  enableAutoMerge(number, { method = "merge", by = this.owner } = {}) {
    const pr = this.pullOnly(number);
    if (!this.allowAutoMerge) throw httpError(422, "Auto merge is not allowed for this repository");
    if (pr.state !== "open") throw httpError(422, "Pull request is closed");
    if (pr.stackId) throw httpError(422, "Auto-merge is not supported for stacked pull requests");
    if (this.canMergeNow(pr)) throw httpError(422, "Pull request is in clean status");
    // The token that armed it is the one that merges: a GITHUB_TOKEN's auto-merge pushes a base that starts no runs.
    pr.autoMerge = { method, enabledBy: by, enabledAt: this.now(), tokenKind: this.tokenKind() };
    pr.timeline.push({ type: "AutoMergeEnabledEvent", at: this.now(), actor: by });
    this.emit("pull_request", { action: "auto_merge_enabled", number: pr.number }, by);
    return pr;
  }
  disableAutoMerge(number, by = this.owner, reason = null) {
    const pr = this.pullOnly(number);
    if (!pr.autoMerge) return pr;
    pr.autoMerge = null;
    pr.timeline.push({ type: "AutoMergeDisabledEvent", at: this.now(), actor: by, reason });
    this.emit("pull_request", { action: "auto_merge_disabled", number: pr.number, reason }, by);
    return pr;
  }
  /** Whether the merge rules hold now: open, not draft, no conflict (git), required checks green, up to date when strict. */
  canMergeNow(pr) {
    if (pr.state !== "open" || pr.isDraft) return false;
    if (this.git ? this.gitMergeable(pr) === "CONFLICTING" : pr.conflicting) return false;
    if (pr.baseRef !== this.defaultBranch) return true;
    return (
      !this.missingChecks(pr).length &&
      !this.reviewRequirements(pr).length &&
      (!this.requireUpToDate || this.upToDate(pr))
    );
  }

  /**
   * What the default branch's pull_request rule (`pullRequestRule`, REST's parameters) still asks of a pull
   * request, in GitHub's words; empty when nothing. Approvals count the latest verdict of each reviewer
   * with write access other than the author (only on the head when stale approvals are dismissed on push);
   * a code owner of each changed file must approve when code owner review is required (CODEOWNERS on the
   * default branch, the last matching line wins, a team through its members); every review thread
   * resolved when conversation resolution is required.
   */
  reviewRequirements(pr) {
    const rule = pr.baseRef === this.defaultBranch ? this.pullRequestRule : null;
    if (!rule) return [];
    const out = [];
    const latest = new Map();
    for (const r of pr.reviews)
      if (r.state === "APPROVED" || r.state === "CHANGES_REQUESTED" || r.state === "DISMISSED") latest.set(r.author, r);
    const counted = [...latest.values()].filter(
      (r) =>
        r.author !== pr.author &&
        this.canWrite(r.author) &&
        (!rule.dismiss_stale_reviews_on_push || r.commit === pr.headSha),
    );
    const approvers = new Set(counted.filter((r) => r.state === "APPROVED").map((r) => r.author));
    const need = rule.required_approving_review_count ?? 0;
    if (approvers.size < need)
      out.push(
        `At least ${need} approving review${need === 1 ? " is" : "s are"} required by reviewers with write access.`,
      );
    if (need > 0 && counted.some((r) => r.state === "CHANGES_REQUESTED"))
      out.push("Changes were requested by a reviewer with write access.");
    if (rule.require_code_owner_review) {
      const waiting = new Set();
      for (const file of this.changedFilesOf(pr)) {
        const owners = codeOwners(this.codeownersText(), file);
        if (!owners.length) continue;
        const logins = owners.flatMap((o) => (o.includes("/") ? (this.teamMembers?.[o.split("/")[1]] ?? []) : [o]));
        if (!logins.some((l) => approvers.has(l))) for (const o of owners) waiting.add(`@${o}`);
      }
      if (waiting.size) out.push(`Waiting on code owner review from ${[...waiting].join(", ")}.`);
    }
    if (rule.required_review_thread_resolution && (pr.reviewThreads ?? []).some((t) => !t.isResolved))
      out.push("All comments must be resolved.");
    return out;
  }
  /** CODEOWNERS as GitHub looks for it on the default branch: .github/, the root, then docs/. */
  codeownersText() {
    for (const path of [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"]) {
      const text =
        this.files.get(path) ??
        (this.git ? this.git.readFiles(this.git.tip(this.defaultBranch), [path]).get(path) : undefined);
      if (text != null) return text;
    }
    return "";
  }
  changedFilesOf(pr) {
    if (!this.git) return pr.files;
    return this.git.changedFiles(this.git.mergeBase(this.git.tip(pr.baseRef), pr.headSha), pr.headSha);
  }
  /** Merges every armed pull request whose requirements now hold, as the one who armed it. */
  autoMergeSweep() {
    // Not inside a merge (the base's push may start CI, whose check runs sweep): the merge sweeps when done.
    if (this.sweeping || this.merging) return;
    this.sweeping = true;
    try {
      for (const pr of this.pulls.values()) {
        if (!pr.isPull || !pr.autoMerge || typeof pr.autoMerge !== "object" || !this.canMergeNow(pr)) continue;
        const { method, enabledBy, tokenKind } = pr.autoMerge;
        this.withTokenKind(tokenKind, () => this.merge(pr.number, { method }, enabledBy));
      }
    } finally {
      this.sweeping = false;
    }
  }

  /**
   * A stack of GitHub's own (stacked pull requests, public preview): the pull requests, lowest first. GitHub
   * refuses auto-merge on its members ("Auto-merge is not supported for stacked pull requests", docs:
   * "Merging stacked pull requests") and keeps them in the stack after the layer below merges; a pull request
   * with auto-merge armed cannot join one (reported in github/gh-stack#504).
   */
  createStack(numbers) {
    const prs = numbers.map((n) => this.pullOnly(n));
    const armed = prs.find((p) => p.autoMerge);
    if (armed)
      throw httpError(422, `Pull request #${armed.number} cannot be added to a stack: it has auto-merge enabled`);
    this.stacks ??= [];
    const stack = { id: this.stacks.length + 1, numbers: prs.map((p) => p.number) };
    this.stacks.push(stack);
    for (const p of prs) p.stackId = stack.id;
    return stack;
  }

  /** Deletes a branch (as the delete_branch_on_merge setting or a person would). */
  deleteBranch(name, actor = this.owner) {
    const before = this.branches.get(name)?.sha ?? this.git?.tip(name);
    if (this.git) this.git.deleteRef(name);
    this.emit("push", { ref: `refs/heads/${name}`, before, after: ZERO_SHA, deleted: true }, actor);
    this.dropBranch(name, actor);
  }

  /**
   * A branch is gone: the pull request merged from it records `head_ref_deleted`; each open pull request
   * based on it is retargeted to the merged pull request's base (GitHub does so when the head branch of a
   * merged pull request is deleted), recording `base_ref_changed` and sending `edited` with `changes.base`.
   */
  dropBranch(name, actor) {
    this.branches.delete(name);
    this.mergeCache?.clear();
    const merged = [...this.pulls.values()].filter((p) => p.isPull && p.merged && p.headRef === name).at(-1);
    for (const pr of this.pulls.values()) {
      if (!pr.isPull) continue;
      if (pr.headRef === name && (pr.merged || pr.state === "open"))
        pr.timeline.push({ type: "HeadRefDeletedEvent", at: this.now(), actor, headRefName: name });
      if (!merged || pr.state !== "open" || pr.baseRef !== name) continue;
      const fromSha = this.branch(merged.baseRef) && merged.headSha;
      pr.baseRef = merged.baseRef;
      pr.headMovedAt = this.clock.now(); // GitHub recomputes mergeability against the new base
      this.recomputeLater();
      pr.timeline.push({
        type: "BaseRefChangedEvent",
        at: this.now(),
        actor,
        previousRefName: name,
        currentRefName: merged.baseRef,
      });
      // GitHub disarms auto-merge when the base branch changes.
      if (pr.autoMerge && typeof pr.autoMerge === "object")
        this.disableAutoMerge(pr.number, actor, "BASE_BRANCH_CHANGED");
      if (this.git) this.syncPull(pr);
      pr.updatedAt = this.now();
      this.emit(
        "pull_request",
        { action: "edited", number: pr.number, changes: { base: { ref: { from: name }, sha: { from: fromSha } } } },
        actor,
      );
    }
  }

  /**
   * GitHub's background job: MERGEABILITY_DELAY_MS after a move, mergeability is known again, and an
   * armed pull request that was waiting only on it merges then. One timer per moment, however many moved.
   */
  recomputeLater() {
    const at = this.clock.now() + this.mergeabilityDelayMs;
    this.recomputeAt ??= new Set();
    if (!this.clock.at || this.recomputeAt.has(at)) return;
    this.recomputeAt.add(at);
    this.clock.at(
      at,
      () => {
        this.recomputeAt.delete(at);
        this.autoMergeSweep();
      },
      "mergeability computed",
    );
  }

  // ---- derived, as GitHub computes it -------------------------------------------------------------

  /**
   * MERGEABLE / CONFLICTING, or UNKNOWN for MERGEABILITY_DELAY_MS after the base branch or the head moved:
   * GitHub computes mergeability lazily in the background and reports UNKNOWN until it has.
   */
  mergeable(pr) {
    const moved = Math.max(this.branch(pr.baseRef).movedAt, pr.headMovedAt);
    if (this.clock.now() - moved < this.mergeabilityDelayMs) return "UNKNOWN";
    if (this.git) return this.gitMergeable(pr);
    return pr.conflicting ? "CONFLICTING" : "MERGEABLE";
  }

  /** The head commit's rollup state over check runs and statuses. */
  rollupState(sha) {
    const states = [
      ...this.checkRunsFor(sha).map((c) =>
        c.status !== "COMPLETED"
          ? "PENDING"
          : ["SUCCESS", "NEUTRAL", "SKIPPED"].includes(c.conclusion)
            ? "SUCCESS"
            : c.conclusion === "ERROR"
              ? "ERROR"
              : "FAILURE",
      ),
      ...this.statusesFor(sha).map((s) => s.state.toUpperCase()),
    ];
    if (!states.length) return null;
    if (states.includes("ERROR")) return "ERROR";
    if (states.includes("FAILURE")) return "FAILURE";
    if (states.some((s) => s === "PENDING" || s === "EXPECTED")) return "PENDING";
    return "SUCCESS";
  }

  /** mergeStateStatus: UNKNOWN, DIRTY, DRAFT, BLOCKED (required checks not green), UNSTABLE, BEHIND, CLEAN. */
  mergeStateStatus(pr) {
    const m = this.mergeable(pr);
    if (m === "UNKNOWN") return "UNKNOWN";
    if (m === "CONFLICTING") return "DIRTY";
    if (pr.isDraft) return "DRAFT";
    const sha = pr.headSha;
    if (this.missingChecks(pr).length || this.reviewRequirements(pr).length) return "BLOCKED";
    const rollup = this.rollupState(sha);
    if (rollup && rollup !== "SUCCESS") return "UNSTABLE";
    if (this.requireUpToDate && !this.upToDate(pr)) return "BEHIND";
    return "CLEAN";
  }
}

/**
 * The text the git-backed helpers give a file: SKELETON_LINES placeholder lines. Pull request `n` edits
 * only its own line (4n mod SKELETON_LINES), so pull requests touching the same file merge cleanly, as
 * edits to different parts of a file do, unless a test makes them collide (`conflicting`).
 */
export const SKELETON_LINES = 1000;
export function fileSkeleton(path) {
  return Array.from({ length: SKELETON_LINES }, (_, i) => `// ${path} line ${i}`).join("\n") + "\n";
}
function editLine(text, number, line) {
  const lines = text.replace(/\n$/, "").split("\n");
  while (lines.length < SKELETON_LINES) lines.push(`// line ${lines.length}`);
  lines[(number * 4) % SKELETON_LINES] = line;
  return lines.join("\n") + "\n";
}

/** GitHub's rules for a label, which its OpenAPI description states only in words: 422 when broken. */
export const MAX_LABEL_NAME = 50;
export const MAX_LABEL_DESCRIPTION = 100;
function checkLabel({ name, color, description }) {
  const problems = [];
  if (!name || [...name].length > MAX_LABEL_NAME) problems.push({ resource: "Label", code: "invalid", field: "name" });
  if (!/^[0-9a-fA-F]{6}$/.test(color ?? "")) problems.push({ resource: "Label", code: "invalid", field: "color" });
  if (description != null && [...description].length > MAX_LABEL_DESCRIPTION) {
    problems.push({
      resource: "Label",
      code: "custom",
      field: "description",
      message: "description is too long (maximum is 100 characters)",
    });
  }
  if (problems.length) throw httpError(422, "Validation Failed", problems);
}

/** An error a REST handler turns into GitHub's error body. */
export function httpError(status, message, errors) {
  return Object.assign(new Error(message), { httpStatus: status, errors });
}

/**
 * The owners CODEOWNERS gives a path: the last matching line wins (GitHub's rule; gitignore-style patterns:
 * a leading `/` anchors at the root, a pattern without a `/` matches at any depth, `*` stays in one folder,
 * `**` crosses folders, a trailing `/` owns everything below). Owners without their `@`.
 */
export function codeOwners(text, path) {
  let owners = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!line) continue;
    const [pattern, ...who] = line.split(/\s+/);
    if (globMatches(pattern, path)) owners = who.filter((w) => w.startsWith("@")).map((w) => w.slice(1));
  }
  return owners;
}
function globMatches(pattern, path) {
  const anchored = pattern.startsWith("/") || pattern.replace(/\/$/, "").includes("/");
  let p = pattern.replace(/^\//, "");
  const dir = p.endsWith("/");
  if (dir) p = p.slice(0, -1);
  const body = p
    .split("/")
    .map((part) =>
      part === "**"
        ? "(?:.*)"
        : part
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, "[^/]*")
            .replace(/\?/g, "[^/]"),
    )
    .join("/")
    .replace(/\(\?:\.\*\)\//g, "(?:.*/)?");
  const re = new RegExp(`^${anchored ? "" : "(?:.*/)?"}${body}(?:/.*)?$`);
  return re.test(path) && (!dir || path !== p);
}
