// Real git under the emulator: one bare repository per emulated repository, written with git's own
// plumbing (commits, trees, refs, merge-tree) and served over smart HTTP by `git http-backend`, so that
// heads, merge bases, changed files, conflicts and `--force-with-lease` rejections are git's, not a model.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** fast-import's ref; outside refs/heads so no clone or push sees it. */
const SCRATCH = "refs/emulator/scratch";
const EXEC_PATH = execFileSync("git", ["--exec-path"], { encoding: "utf8" }).trim();
/** The CGI program that ships with git (docs: git-http-backend(1)). */
export const HTTP_BACKEND = join(EXEC_PATH, "git-http-backend");

/** git commands that never move a ref: the tip cache outlives them. */
const READ_ONLY = new Set([
  "for-each-ref",
  "rev-parse",
  "merge-base",
  "log",
  "diff",
  "merge-tree",
  "show",
  "cat-file",
  "rev-list",
  "config",
]);
const SHA = /^[0-9a-f]{40}$/;

/** git's order of paths: byte order (what `git diff --name-only` lists). */
const byPath = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A git object's SHA-1: "<type> <size>\0" then the body. */
function hashObject(type, body) {
  return createHash("sha1").update(`${type} ${body.length}\0`).update(body).digest("hex");
}
/** A tree node's SHA (computed once per node): entries in git's order, a directory named as if it ended in "/". */
function treeHash(node) {
  if (node.sha) return node.sha;
  const key = ([name, e]) => (e.mode === "40000" ? `${name}/` : name);
  const entries = [...node.entries].sort((a, b) => byPath(key(a), key(b)));
  const body = Buffer.concat(
    entries.flatMap(([name, e]) => [
      Buffer.from(`${e.mode} ${name}\0`),
      Buffer.from(e.node ? treeHash(e.node) : e.sha, "hex"),
    ]),
  );
  node.sha = hashObject("tree", body);
  return node.sha;
}

/** The paths whose blobs differ between two trees (git diff --name-only), in path order. */
function diffTrees(a, b, prefix = "") {
  const out = [];
  const sha = (e) => e && (e.node ? treeHash(e.node) : e.sha);
  for (const name of new Set([...(a?.entries.keys() ?? []), ...(b?.entries.keys() ?? [])])) {
    const x = a?.entries.get(name);
    const y = b?.entries.get(name);
    if (sha(x) === sha(y)) continue;
    const path = prefix + name;
    if (x?.node || y?.node) {
      out.push(...diffTrees(x?.node, y?.node, `${path}/`));
      if (x && !x.node) out.push(path);
      if (y && !y.node) out.push(path);
    } else out.push(path);
  }
  return prefix ? out : out.sort(byPath);
}

/** Repositories not yet closed: removed when the process exits (a test that never closes its emulator leaves nothing). */
const OPEN = new Set();
process.once("exit", () => {
  for (const repo of OPEN) repo.close();
});

/**
 * The pre-receive hook (Node, this process's binary): refuses what the branch's rules forbid, in
 * GitHub's words ("GH013: Repository rule violations found"), before any ref moves.
 */
const PRE_RECEIVE = `#!${process.execPath}
const { readFileSync } = require("node:fs");
const { spawnSync } = require("node:child_process");
const rules = JSON.parse(readFileSync(process.env.GIT_DIR + "/prflow-push-rules.json", "utf8"));
const zero = "0".repeat(40);
let refused = false;
for (const line of readFileSync(0, "utf8").split("\\n").filter(Boolean)) {
  const [oldSha, newSha, ref] = line.split(" ");
  const r = rules[ref.replace(/^refs\\/heads\\//, "")];
  if (!r) continue;
  const why = [];
  if (newSha === zero && r.deletion) why.push("Cannot delete this branch");
  else if (oldSha !== zero && newSha !== zero && r.nonFastForward && spawnSync("git", ["merge-base", "--is-ancestor", oldSha, newSha]).status !== 0) why.push("Cannot force-push to this branch");
  if (newSha !== zero && r.pullRequest) why.push("Changes must be made through a pull request.");
  if (!why.length) continue;
  refused = true;
  console.error("error: GH013: Repository rule violations found for " + ref + ".\\n\\n" + why.map((w) => "- " + w).join("\\n\\n") + "\\n");
}
process.exit(refused ? 1 : 0);
`;

export class GitRepo {
  /** Creates `{dir}/{owner}/{repo}.git` (dir: a fresh directory under os.tmpdir() unless given). */
  constructor({ owner, repo, dir, clock }) {
    this.ownsRoot = !dir;
    this.root = dir ?? mkdtempSync(join(tmpdir(), "prflow-emulator-git-"));
    this.relPath = `${owner}/${repo}.git`;
    this.path = join(this.root, owner, `${repo}.git`);
    this.clock = clock;
    this.tips = null; // branch -> sha, read from git on first use (tip())
    this.made = new Map(); // sha -> { parent, files, changed, commit }: single-parent commits this object wrote
    this.memo = new Map(); // a question about commits (by sha) -> git's answer, which cannot change
    // Commits not yet in the repository: their SHAs are computed here (git's object format), and one
    // fast-import writes them all before git is next asked anything, so seeding a board is one process.
    this.pending = []; // { oid, mark, script }
    this.pendingMarks = new Map(); // oid -> its mark in the queued stream
    execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", this.path]);
    // GitHub accepts pushes of any size and never garbage-collects under a test.
    this.git(["config", "gc.auto", "0"]);
    this.git(["config", "receive.denyDeleteCurrent", "ignore"]);
    this.setPushRules({});
    writeFileSync(join(this.path, "hooks", "pre-receive"), PRE_RECEIVE);
    chmodSync(join(this.path, "hooks", "pre-receive"), 0o755);
    OPEN.add(this);
  }

  /**
   * The ruleset's push rules per branch, which the pre-receive hook enforces as GitHub does (GH013):
   * `{ main: { nonFastForward: true, deletion: true, pullRequest: true } }`.
   */
  setPushRules(rules) {
    this.pushRules = rules;
    writeFileSync(join(this.path, "prflow-push-rules.json"), JSON.stringify(rules));
  }

  /** Runs git in the bare repository; stdout without the trailing newline. Commit times are the test clock's. */
  git(args, { input, env, allowFail = false, movesRef } = {}) {
    // A command that may move refs forgets the cached tips, unless the caller says which ref it moves.
    this.flush();
    if (!READ_ONLY.has(args[0]) && !movesRef) this.tips = null;
    const date = `${Math.floor(this.clock.now() / 1000)} +0000`;
    try {
      return execFileSync("git", args, {
        cwd: this.path,
        input,
        encoding: "utf8",
        stdio: ["pipe", "pipe", "pipe"],
        env: {
          ...process.env,
          GIT_DIR: this.path,
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_DATE: date,
          GIT_AUTHOR_NAME: "emulator",
          GIT_AUTHOR_EMAIL: "emulator@users.noreply.github.com",
          GIT_COMMITTER_NAME: "GitHub",
          GIT_COMMITTER_EMAIL: "noreply@github.com",
          ...env,
        },
      }).replace(/\n$/, "");
    } catch (e) {
      if (allowFail) return null;
      throw new Error(`git ${args.join(" ")}: ${e.stderr || e.message}`);
    }
  }

  /** `refs/heads/*` -> sha. */
  heads() {
    const out = this.git(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"]);
    const heads = new Map(out ? out.split("\n").map((l) => l.replace(/^refs\/heads\//, "").split(" ")) : []);
    this.tips = new Map(heads);
    return heads;
  }
  /**
   * A branch's tip. Read from git once, then kept: refs move only through this object (setRef, commit,
   * deleteRef) or a push, after which the emulator reads heads() again.
   */
  tip(branch) {
    if (!this.tips) this.heads();
    return this.tips.get(branch) ?? null;
  }
  setRef(branch, sha) {
    this.git(["update-ref", `refs/heads/${branch}`, sha], { movesRef: branch });
    this.tips?.set(branch, sha);
  }
  deleteRef(branch) {
    this.git(["update-ref", "-d", `refs/heads/${branch}`], { movesRef: branch });
    this.tips?.delete(branch);
  }

  /**
   * A commit on `parent` (or a root commit) whose tree is the parent's with `files` ({ path: text })
   * written over it (a null text deletes the path). The author is `author` (name and a noreply address, as GitHub writes web commits).
   * One `git fast-import` per commit, which also moves `ref` (a branch) when given, else a scratch ref
   * outside refs/heads that no clone sees. `before` ({ path: text in the parent }) lets later questions
   * about this commit (its diff, its ancestry, its files) be answered without asking git again.
   */
  commit({ parent, files = {}, message = "A change", author = "emulator", parents, ref, before }) {
    const time = Math.floor(this.clock.now() / 1000);
    const when = `${time} +0000`;
    const ps = parents ?? (parent ? [parent] : []);
    if (ps.length <= 1) return this.deferCommit({ parent: ps[0] ?? null, files, message, author, ref, before, time });
    const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
    const target = ref ? `refs/heads/${ref}` : SCRATCH;
    let script = `reset ${target}\ncommit ${target}\nmark :1\nauthor ${author} <${author}@users.noreply.github.com> ${when}\ncommitter GitHub <noreply@github.com> ${when}\n${data(message)}`;
    if (ps[0]) script += `from ${ps[0]}\n`;
    for (const p of ps.slice(1)) script += `merge ${p}\n`;
    for (const [path, text] of Object.entries(files))
      script += text === null ? `D ${path}\n` : `M 100644 inline ${path}\n${data(text)}`;
    script += "\nget-mark :1\n";
    const oid = this.git(["fast-import", "--quiet", "--force", "--date-format=raw"], {
      input: script,
      movesRef: target,
    }).trim();
    if (ref) this.tips?.set(ref, oid);
    if (ps.length <= 1) {
      const changed = before
        ? Object.keys(files)
            .filter((f) => (before[f] ?? null) !== files[f])
            .sort(byPath)
        : null;
      this.made.set(oid, {
        parent: ps[0] ?? null,
        files,
        changed,
        commit: { oid, author, time: time * 1000, message: message.split("\n")[0] },
      });
    }
    return oid;
  }
  /**
   * A single-parent commit computed here and queued for the next flush(): blob, tree and commit SHAs
   * as git hashes them ("<type> <size>\0<body>", SHA-1), trees rebuilt only along the written paths.
   */
  deferCommit({ parent, files, message, author, ref, before, time }) {
    const tree = this.treeOf(parent);
    const root = { ...tree, entries: new Map(tree.entries), sha: null };
    let script = "";
    const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
    for (const [path, text] of Object.entries(files)) {
      const parts = path.split("/");
      let node = root;
      const trail = [root];
      for (const dir of parts.slice(0, -1)) {
        const e = node.entries.get(dir);
        const child = e?.node
          ? { ...e.node, entries: new Map(e.node.entries), sha: null }
          : { entries: new Map(), sha: null };
        node.entries.set(dir, { mode: "40000", node: child });
        node = child;
        trail.push(node);
      }
      const name = parts.at(-1);
      if (text === null) {
        node.entries.delete(name);
        script += `D ${path}\n`;
      } else {
        node.entries.set(name, { mode: "100644", sha: hashObject("blob", Buffer.from(text)) });
        script += `M 100644 inline ${path}\n${data(text)}`;
      }
      // A directory left empty is no tree at all, as in git.
      for (let i = trail.length - 1; i > 0 && !trail[i].entries.size; i--) trail[i - 1].entries.delete(parts[i - 1]);
    }
    const treeSha = treeHash(root);
    const when = `${time} +0000`;
    const who = `author ${author} <${author}@users.noreply.github.com> ${when}\ncommitter GitHub <noreply@github.com> ${when}\n`;
    const oid = hashObject(
      "commit",
      Buffer.from(`tree ${treeSha}\n${parent ? `parent ${parent}\n` : ""}${who}\n${message}`),
    );
    const target = ref ? `refs/heads/${ref}` : SCRATCH;
    // A parent still queued is named by its mark: fast-import has not written it yet.
    const from = parent ? `from ${this.pendingMarks.has(parent) ? `:${this.pendingMarks.get(parent)}` : parent}\n` : "";
    const mark = this.pending.length + 1;
    this.pending.push({
      oid,
      mark,
      script: `reset ${target}\ncommit ${target}\nmark :${mark}\n${who}${data(message)}${from}${script}\n`,
    });
    this.pendingMarks.set(oid, mark);
    if (ref) this.tips?.set(ref, oid);
    const changed = before
      ? Object.keys(files)
          .filter((f) => (before[f] ?? null) !== files[f])
          .sort(byPath)
      : null;
    this.made.set(oid, {
      parent,
      files,
      changed,
      tree: root,
      commit: { oid, author, time: time * 1000, message: message.split("\n")[0] },
    });
    return oid;
  }
  /** A commit's root tree as nested maps: kept for commits made here, else read once with `git ls-tree`. */
  treeOf(commit) {
    if (!commit) return { entries: new Map(), sha: null };
    if (this.made.get(commit)?.tree) return this.made.get(commit).tree;
    const key = `tree ${commit}`;
    return this.remember(key, () => {
      const root = { entries: new Map(), sha: null };
      const nodes = new Map([["", root]]);
      for (const line of this.git(["ls-tree", "-r", "-t", "-z", "--full-tree", commit]).split("\0").filter(Boolean)) {
        const [meta, path] = line.split("\t");
        const [mode, type, sha] = meta.split(" ");
        const at = path.lastIndexOf("/");
        const entry = { mode: mode.replace(/^0+/, ""), sha };
        if (type === "tree") nodes.set(path, (entry.node = { entries: new Map(), sha }));
        nodes.get(path.slice(0, Math.max(at, 0))).entries.set(path.slice(at + 1), entry);
      }
      root.sha = this.git(["rev-parse", `${commit}^{tree}`]);
      return root;
    });
  }
  /** Writes the queued commits with one `git fast-import`, and checks git made the SHAs computed here. */
  flush() {
    if (!this.pending.length) return;
    const pending = this.pending;
    this.pending = [];
    this.pendingMarks = new Map();
    const script = pending.map((c) => c.script).join("") + pending.map((c) => `get-mark :${c.mark}\n`).join("");
    const out = execFileSync("git", ["fast-import", "--quiet", "--force", "--date-format=raw"], {
      cwd: this.path,
      input: script,
      encoding: "utf8",
      env: { ...process.env, GIT_DIR: this.path },
      maxBuffer: 1 << 28,
    });
    const made = out.trim().split("\n");
    pending.forEach((c, i) => {
      if (made[i] !== c.oid) throw new Error(`git fast-import wrote ${made[i]} where the emulator computed ${c.oid}`);
    });
  }

  /** Each path's text in a commit (null where absent): what this object wrote or read before, else one `git cat-file --batch`. */
  readFiles(commit, paths) {
    const out = new Map(paths.map((p) => [p, null]));
    if (!commit || !paths.length) return out;
    const known = (p) => {
      for (let at = commit; at; at = this.made.get(at).parent) {
        if (this.memo.has(`file ${at}:${p}`)) return this.memo.get(`file ${at}:${p}`);
        if (!this.made.has(at)) return undefined;
        if (p in this.made.get(at).files) return this.made.get(at).files[p];
      }
      return null;
    };
    const ask = SHA.test(commit) ? [] : paths;
    if (ask !== paths)
      for (const p of paths) {
        const text = known(p);
        if (text === undefined) ask.push(p);
        else out.set(p, text);
      }
    if (!ask.length) return out;
    this.flush();
    const buf = execFileSync("git", ["cat-file", "--batch"], {
      cwd: this.path,
      input: ask.map((p) => `${commit}:${p}`).join("\n") + "\n",
      env: { ...process.env, GIT_DIR: this.path },
      maxBuffer: 1 << 28,
    });
    let at = 0;
    for (const p of ask) {
      const nl = buf.indexOf(10, at);
      const header = buf.subarray(at, nl).toString();
      at = nl + 1;
      let text = null;
      if (!header.endsWith(" missing") && !header.endsWith(" ambiguous")) {
        const size = Number(header.split(" ")[2]);
        text = buf.subarray(at, at + size).toString("utf8");
        at += size + 1;
      }
      out.set(p, text);
      if (SHA.test(commit)) this.memo.set(`file ${commit}:${p}`, text);
    }
    return out;
  }
  /** A commit of an existing tree. */
  commitTree(tree, parents, message, author = "emulator") {
    return this.git(["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-m", message], {
      env: { GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: `${author}@users.noreply.github.com` },
    });
  }

  /** git's answer to a question about fixed commits, asked once; `ask` runs only on the first asking. */
  remember(key, ask) {
    if (!this.memo.has(key)) this.memo.set(key, ask());
    return this.memo.get(key);
  }
  /** The commits from `head` back to `base` along commits this object wrote (newest first), or null when the walk leaves them. */
  walk(base, head) {
    if (!base || !head) return null;
    const chain = [];
    for (let at = head; at !== base; at = this.made.get(at).parent) {
      if (!this.made.has(at) || chain.length > 64) return null;
      chain.push(this.made.get(at));
    }
    return chain;
  }

  /** Whether `b`'s first-parent line, all commits written here, ends at a root without passing `a`: then `a` is not its ancestor. */
  rootedWithout(a, b) {
    for (let at = b; at; at = this.made.get(at).parent) if (at === a || !this.made.has(at)) return false;
    return true;
  }
  /** A commit's whole history, newest first, when every commit in it was written here (single parents), else null. */
  line(c) {
    const out = [];
    for (let at = c; at; at = this.made.get(at).parent) {
      if (!this.made.has(at)) return null;
      out.push(at);
    }
    return out;
  }
  /** Merge base, commits and changed paths between two commits written here, without asking git (null when either left this object). */
  knownBetween(base, head) {
    const a = base && this.line(base);
    const b = head && this.line(head);
    if (!a || !b) return null;
    const behind = new Set(a);
    const i = b.findIndex((c) => behind.has(c));
    if (i < 0) return null;
    return {
      mergeBase: b[i],
      commits: b
        .slice(0, i)
        .reverse()
        .map((c) => this.made.get(c).commit),
      files: () => diffTrees(this.made.get(b[i]).tree, this.made.get(head).tree),
    };
  }
  isAncestor(a, b) {
    if (a === b || this.walk(a, b)) return true;
    if (a && this.rootedWithout(a, b)) return false;
    const ask = () => this.git(["merge-base", "--is-ancestor", a, b], { allowFail: true }) !== null;
    return SHA.test(a) && SHA.test(b) ? this.remember(`ancestor ${a} ${b}`, ask) : ask();
  }
  mergeBase(a, b) {
    if (a === b || this.walk(a, b)) return a;
    const known = this.knownBetween(a, b);
    if (known) return known.mergeBase;
    const ask = () => this.git(["merge-base", a, b], { allowFail: true }) || null;
    return SHA.test(a) && SHA.test(b) ? this.remember(`base ${a} ${b}`, ask) : ask();
  }
  /** Commits reachable from `head` and not from `base`, oldest first: [{ oid, author, message, time }]. */
  commitsBetween(base, head) {
    const chain = base && this.walk(base, head);
    if (chain) return chain.map((c) => c.commit).reverse();
    const known = this.knownBetween(base, head);
    if (known) return known.commits;
    const ask = () => {
      const out = this.git(["log", "--reverse", "--format=%H%x00%an%x00%ct%x00%s", base ? `${base}..${head}` : head]);
      return out
        ? out.split("\n").map((l) => {
            const [oid, author, time, message] = l.split("\0");
            return { oid, author, time: Number(time) * 1000, message };
          })
        : [];
    };
    return SHA.test(head) && (!base || SHA.test(base)) ? this.remember(`log ${base} ${head}`, ask) : ask();
  }
  /** What the pull request changes: `git diff --name-only base...head` (against the merge base). */
  changedFiles(base, head) {
    const chain = this.walk(base, head);
    if (chain?.length === 1 && chain[0].changed) return [...chain[0].changed];
    const known = this.knownBetween(base, head);
    if (known) return known.files();
    const ask = () => {
      const out = this.git(["diff", "--name-only", `${base}...${head}`], { allowFail: true });
      return out ? out.split("\n") : [];
    };
    return SHA.test(base) && SHA.test(head) ? [...this.remember(`diff ${base} ${head}`, ask)] : ask();
  }
  /**
   * Many `merge-tree`s in one process (`git merge-tree --stdin`): [{ clean, tree, conflicts }] per
   * [base, head] pair, each remembered, so a board's mergeability is one git process, not one per pull request.
   */
  mergeTrees(pairs) {
    const ask = pairs.filter(([a, b]) => !this.memo.has(`merge ${a} ${b}`));
    if (ask.length) {
      this.flush();
      const r = spawnSync("git", ["merge-tree", "--stdin", "--name-only", "--no-messages"], {
        cwd: this.path,
        input: ask.map((p) => p.join(" ")).join("\n") + "\n",
        encoding: "utf8",
        env: { ...process.env, GIT_DIR: this.path },
        maxBuffer: 1 << 28,
      });
      if (r.status !== 0) throw new Error(`git merge-tree --stdin: ${r.stderr}`);
      const fields = r.stdout.split("\0");
      let at = 0;
      for (const [a, b] of ask) {
        const clean = fields[at++] === "1";
        const tree = fields[at++];
        const conflicts = [];
        while (fields[at] !== "") conflicts.push(fields[at++]);
        at++;
        this.memo.set(`merge ${a} ${b}`, { clean, tree, conflicts });
      }
    }
    return pairs.map(([a, b]) => this.memo.get(`merge ${a} ${b}`));
  }
  /** `git merge-tree --write-tree`: { clean, tree, conflicts: [path] } (exit 1 is a conflict, not an error). */
  mergeTree(base, head, { mergeBase } = {}) {
    const args = [
      "merge-tree",
      "--write-tree",
      "--name-only",
      "--no-messages",
      ...(mergeBase ? [`--merge-base=${mergeBase}`] : []),
      base,
      head,
    ];
    this.flush();
    const r = spawnSync("git", args, { cwd: this.path, encoding: "utf8", env: { ...process.env, GIT_DIR: this.path } });
    if (r.status !== 0 && r.status !== 1) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
    const [tree, ...conflicts] = r.stdout.split("\n").filter(Boolean);
    return { clean: r.status === 0, tree, conflicts };
  }
  tree(sha) {
    return this.git(["rev-parse", `${sha}^{tree}`]);
  }
  show(sha, path) {
    return this.git(["show", `${sha}:${path}`], { allowFail: true });
  }

  /**
   * Serves one smart-HTTP request with git http-backend (CGI). `path` is the part after the repository
   * root ("/owner/repo.git/info/refs"); `remoteUser` set enables receive-pack, as http-backend documents.
   * Resolves when the backend has exited, after its output has been written (but `res` is left open so
   * the caller can update its state before the client sees the end of the push).
   */
  serve(req, res, { path, query, remoteUser }) {
    this.flush();
    return new Promise((resolve) => {
      const env = {
        ...process.env,
        GIT_PROJECT_ROOT: this.root,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: path,
        REQUEST_METHOD: req.method,
        QUERY_STRING: query,
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        REMOTE_USER: remoteUser ?? "",
        REMOTE_ADDR: "127.0.0.1",
        GATEWAY_INTERFACE: "CGI/1.1",
        SERVER_PROTOCOL: "HTTP/1.1",
        ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
        ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
        ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: req.headers["git-protocol"] } : {}),
      };
      if (!remoteUser) delete env.REMOTE_USER;
      const child = spawn(HTTP_BACKEND, [], { env, stdio: ["pipe", "pipe", "pipe"] });
      req.pipe(child.stdin);
      let head = Buffer.alloc(0);
      let headersDone = false;
      child.stdout.on("data", (chunk) => {
        if (headersDone) return void res.write(chunk);
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return;
        headersDone = true;
        const headers = {};
        let status = 200;
        for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
          const i = line.indexOf(":");
          const name = line.slice(0, i).trim().toLowerCase();
          const value = line.slice(i + 1).trim();
          if (name === "status") status = Number.parseInt(value, 10);
          else headers[name] = value;
        }
        res.writeHead(status, headers);
        const rest = head.subarray(end + 4);
        if (rest.length) res.write(rest);
      });
      child.stderr.resume();
      child.on("close", (code) => {
        if (!headersDone)
          res.writeHead(500, { "content-type": "text/plain" }).write(`git http-backend exited ${code}\n`);
        resolve(code);
      });
    });
  }

  close() {
    OPEN.delete(this);
    rmSync(this.ownsRoot ? this.root : this.path, { recursive: true, force: true });
  }
}
