// Real git under the emulator: one bare repository per emulated repository, written with git's own
// plumbing (commits, trees, refs, merge-tree) and served over smart HTTP by `git http-backend`, so that
// heads, merge bases, changed files, conflicts and `--force-with-lease` rejections are git's, not a model.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const EXEC_PATH = execFileSync("git", ["--exec-path"], { encoding: "utf8" }).trim();
/** The CGI program that ships with git (docs: git-http-backend(1)). */
export const HTTP_BACKEND = join(EXEC_PATH, "git-http-backend");

export class GitRepo {
  /** Creates `{dir}/{owner}/{repo}.git` (dir: a fresh directory under os.tmpdir() unless given). */
  constructor({ owner, repo, dir, clock }) {
    this.ownsRoot = !dir;
    this.root = dir ?? mkdtempSync(join(tmpdir(), "prflow-emulator-git-"));
    this.relPath = `${owner}/${repo}.git`;
    this.path = join(this.root, owner, `${repo}.git`);
    this.clock = clock;
    execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", this.path]);
    // GitHub accepts pushes of any size and never garbage-collects under a test.
    this.git(["config", "gc.auto", "0"]);
    this.git(["config", "receive.denyDeleteCurrent", "ignore"]);
  }

  /** Runs git in the bare repository; stdout without the trailing newline. Commit times are the test clock's. */
  git(args, { input, env, allowFail = false } = {}) {
    const date = `${Math.floor(this.clock.now() / 1000)} +0000`;
    try {
      return execFileSync("git", args, {
        cwd: this.path, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"],
        env: { ...process.env, GIT_DIR: this.path, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: "emulator", GIT_AUTHOR_EMAIL: "emulator@users.noreply.github.com", GIT_COMMITTER_NAME: "GitHub", GIT_COMMITTER_EMAIL: "noreply@github.com", ...env },
      }).replace(/\n$/, "");
    } catch (e) {
      if (allowFail) return null;
      throw new Error(`git ${args.join(" ")}: ${e.stderr || e.message}`);
    }
  }

  /** `refs/heads/*` -> sha. */
  heads() {
    const out = this.git(["for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/"]);
    return new Map(out ? out.split("\n").map((l) => l.split(" ")) : []);
  }
  tip(branch) {
    return this.git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { allowFail: true }) || null;
  }
  setRef(branch, sha) {
    this.git(["update-ref", `refs/heads/${branch}`, sha]);
  }
  deleteRef(branch) {
    this.git(["update-ref", "-d", `refs/heads/${branch}`]);
  }

  /**
   * A commit on `parent` (or a root commit) whose tree is the parent's with `files` ({ path: text })
   * written over it. The author is `author` (name and a noreply address, as GitHub writes web commits).
   */
  commit({ parent, files = {}, message = "A change", author = "emulator", parents }) {
    const index = join(this.root, `.index-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const env = { GIT_INDEX_FILE: index, GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: `${author}@users.noreply.github.com` };
    try {
      if (parent) this.git(["read-tree", parent], { env });
      else this.git(["read-tree", "--empty"], { env });
      for (const [path, text] of Object.entries(files)) {
        const blob = this.git(["hash-object", "-w", "--stdin"], { input: text });
        this.git(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`], { env });
      }
      const tree = this.git(["write-tree"], { env });
      const ps = parents ?? (parent ? [parent] : []);
      return this.git(["commit-tree", tree, ...ps.flatMap((p) => ["-p", p]), "-m", message], { env });
    } finally {
      rmSync(index, { force: true });
    }
  }
  /** A commit of an existing tree. */
  commitTree(tree, parents, message, author = "emulator") {
    return this.git(["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-m", message], { env: { GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: `${author}@users.noreply.github.com` } });
  }

  isAncestor(a, b) {
    return this.git(["merge-base", "--is-ancestor", a, b], { allowFail: true }) !== null;
  }
  mergeBase(a, b) {
    return this.git(["merge-base", a, b], { allowFail: true }) || null;
  }
  /** Commits reachable from `head` and not from `base`, oldest first: [{ oid, author, message, time }]. */
  commitsBetween(base, head) {
    const out = this.git(["log", "--reverse", "--format=%H%x00%an%x00%ct%x00%s", base ? `${base}..${head}` : head]);
    return out ? out.split("\n").map((l) => {
      const [oid, author, time, message] = l.split("\0");
      return { oid, author, time: Number(time) * 1000, message };
    }) : [];
  }
  /** What the pull request changes: `git diff --name-only base...head` (against the merge base). */
  changedFiles(base, head) {
    const out = this.git(["diff", "--name-only", `${base}...${head}`], { allowFail: true });
    return out ? out.split("\n") : [];
  }
  /** `git merge-tree --write-tree`: { clean, tree, conflicts: [path] } (exit 1 is a conflict, not an error). */
  mergeTree(base, head, { mergeBase } = {}) {
    const args = ["merge-tree", "--write-tree", "--name-only", "--no-messages", ...(mergeBase ? [`--merge-base=${mergeBase}`] : []), base, head];
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
    return new Promise((resolve) => {
      const env = {
        ...process.env, GIT_PROJECT_ROOT: this.root, GIT_HTTP_EXPORT_ALL: "1", PATH_INFO: path, REQUEST_METHOD: req.method,
        QUERY_STRING: query, CONTENT_TYPE: req.headers["content-type"] ?? "", REMOTE_USER: remoteUser ?? "", REMOTE_ADDR: "127.0.0.1",
        GATEWAY_INTERFACE: "CGI/1.1", SERVER_PROTOCOL: "HTTP/1.1",
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
        if (!headersDone) res.writeHead(500, { "content-type": "text/plain" }).write(`git http-backend exited ${code}\n`);
        resolve(code);
      });
    });
  }

  close() {
    rmSync(this.ownsRoot ? this.root : this.path, { recursive: true, force: true });
  }
}
