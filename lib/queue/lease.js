// One worker per repository: the queue's lease, held on GitHub as a ref (refs/prflow/queue-lease) whose
// commit message is the record the engine's `queueLease` decision writes. Reading is a fetch of that
// ref; writing is a push leased at the commit read (git's compare-and-swap), so of two workers that
// take it at once one push fails and that worker reads again. Whether to keep, take, renew, wait or
// release is the engine's answer; this module only reads and writes.
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";

export const LEASE_REF = "refs/prflow/queue-lease";
// Where the fetched record is kept in the worker's clone (outside refs/prflow/, where branches are fetched).
const SEEN = "refs/prflow-seen/queue-lease";

/** A name for this worker: the host, the process, and a few random characters (two workers in one process). */
export function workerName() {
  return `${hostname().replace(/[^\w.-]/g, "-")}/${process.pid}/${randomBytes(3).toString("hex")}`;
}

// Reads and writes go through the clone's one git runner (lib/queue/git.js `Git`): the credentials on
// its pipe, hooks off, never a token in a URL or an environment.

/** The lease as GitHub has it: `{ sha, record }`, both null when there is none. Throws when GitHub cannot be read. */
export async function readLease(g) {
  const r = await g.fetchRefs([`+${LEASE_REF}:${SEEN}`], { allowFail: true });
  if (r.code !== 0) {
    if (/couldn't find remote ref/i.test(r.stderr)) return { sha: null, record: null };
    throw new Error(`the queue's lease could not be read: ${r.stderr.trim().split("\n").pop()}`);
  }
  const [sha, ...record] = (await g.run(g.dir, ["log", "-1", "--format=%H%n%B", SEEN])).stdout.split("\n");
  return { sha, record: record.join("\n").trim() };
}

/**
 * Writes `record` in place of the lease at `expect` (null: there must be none). `{ ok: true, sha }`, or
 * `{ ok: false, lost: true }` when the lease moved since it was read; throws when GitHub cannot be reached.
 */
export async function writeLease(g, { record, expect }) {
  // The empty tree: git knows its id without storing it, and commit-tree needs it stored once.
  // (mktree reads its entries from standard input, which the runner gives as empty.)
  g.emptyTree ??= (await g.run(g.dir, ["mktree"])).stdout;
  const tree = g.emptyTree;
  const sha = (await g.run(g.dir, ["commit-tree", tree, "-m", record])).stdout;
  const r = await g.run(
    g.dir,
    ["push", "--porcelain", `--force-with-lease=${LEASE_REF}:${expect ?? ""}`, g.cloneUrl, `${sha}:${LEASE_REF}`],
    { allowFail: true, auth: true },
  );
  if (r.code === 0) return { ok: true, sha };
  const text = `${r.stdout}\n${r.stderr}`;
  // Lost to another writer: the lease moved since the read, or both pushes reached the ref at once
  // (git's own lock on it refuses the second).
  if (/stale info|\[rejected\]|fetch first|non-fast-forward|cannot lock ref|failed to update ref/.test(text))
    return { ok: false, lost: true };
  throw new Error(`the queue's lease could not be written: ${text.trim().split("\n").pop()}`);
}

/**
 * The lease as one object the loop asks before each step: `ensure(now)` answers
 * `{ held: true }` or `{ held: false, holder, until, waitSeconds, message }`; `release(now)` writes it
 * expired if it is ours. `now` is GitHub's time (the Date of its last answer). `log` gets each change.
 */
export class QueueLease {
  constructor({ g, engine, me = workerName(), ttlSeconds, log = () => {} }) {
    Object.assign(this, { g, engine, me, ttlSeconds, log });
    this.held = null;
    this.said = "";
  }
  ask(input) {
    return this.engine.queueLease({ me: this.me, ttlSeconds: this.ttlSeconds, ...input });
  }
  say(message) {
    // The same wait is said once, not at every retry.
    if (message !== this.said) this.log(message);
    this.said = message;
  }
  async ensure(now) {
    if (this.held && this.ask({ now, held: this.held.record }).action === "keep") return { held: true };
    // Two rounds: a swap that lost to another worker is read again and answered afresh (wait).
    for (let round = 0; round < 2; round++) {
      const seen = await readLease(this.g);
      const d = this.ask({ now, record: seen.record });
      if (d.action === "wait") {
        this.held = null;
        this.say(d.message);
        return { held: false, holder: d.holder, until: d.until, waitSeconds: d.waitSeconds, message: d.message };
      }
      const w = await writeLease(this.g, { record: d.record, expect: seen.sha });
      if (w.ok) {
        this.held = { record: d.record, sha: w.sha };
        if (d.action !== "renew") this.say(d.message);
        return { held: true };
      }
      this.held = null;
    }
    return {
      held: false,
      waitSeconds: 1,
      message: "the queue's lease moved twice while it was being taken: asking again",
    };
  }
  async release(now) {
    if (!this.held) return;
    this.held = null;
    const seen = await readLease(this.g);
    const d = this.ask({ now, record: seen.record, release: true });
    if (d.action !== "release") return;
    const w = await writeLease(this.g, { record: d.record, expect: seen.sha });
    if (w.ok) this.log(d.message);
  }
}

const CLOCKS = new WeakMap();

/**
 * GitHub's time as this worker knows it, for the lease: the Date of GitHub's last answer, plus the time
 * since (the machine's, or the time the loop slept, whichever is more: a test's sleeps move the emulator's
 * clock, not the machine's). `now()` asks GitHub once (GET /rate_limit, which costs no budget) when
 * nothing was heard yet; `slept(ms)` counts a sleep.
 */
export function githubClock(octokit) {
  let clock = CLOCKS.get(octokit);
  if (clock) return clock;
  const heard = { date: null, local: 0, slept: 0 };
  const hear = (response) => {
    const date = Date.parse(response?.headers?.date ?? "");
    if (Number.isFinite(date)) Object.assign(heard, { date, local: Date.now(), slept: 0 });
  };
  octokit.hook.after("request", hear);
  // An error answer (a 502, a spent limit) carries GitHub's Date too.
  octokit.hook.error("request", (e) => {
    hear(e?.response);
    throw e;
  });
  clock = {
    async now() {
      if (heard.date === null) await octokit.request("GET /rate_limit");
      return new Date(heard.date + Math.max(Date.now() - heard.local, heard.slept))
        .toISOString()
        .replace(/\.\d+Z$/, "Z");
    },
    /** The same without asking: null when nothing was heard yet. */
    estimate() {
      if (heard.date === null) return null;
      return new Date(heard.date + Math.max(Date.now() - heard.local, heard.slept))
        .toISOString()
        .replace(/\.\d+Z$/, "Z");
    },
    slept(ms) {
      heard.slept += ms;
    },
  };
  CLOCKS.set(octokit, clock);
  return clock;
}
