// What a worker killed mid-step (SIGKILL, a power cut) leaves in its state folder, cleared on the next
// start before anything else runs: a rebase stopped half way, worktrees still registered (git then
// refuses `worktree add` for the same path, which once read as a conflict and set the pull request
// aside), lock files git leaves when killed. A state folder another live process of this machine is
// using (its pid file names a running process) is left alone.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const PID_FILE = "worker.pid";

function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** Every `*.lock` file under `dir` (git's own locks: index, refs, packed-refs, config, shallow). */
function locks(dir, out = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const p = join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      if (name !== "objects") locks(p, out);
    } else if (name.endsWith(".lock")) out.push(p);
  }
  return out;
}

/**
 * Clears what a killed worker left in `stateDir` around the bare clone `clone` and the worktrees under
 * `worktrees` with `run`; returns what it did, one line each (the caller logs them). Claims the folder with a pid file.
 */
export async function recoverStateDir({ stateDir, clone, run, worktrees = join(stateDir, "worktrees") }) {
  // `run` is the clone's git runner (lib/queue/git.js `Git.run`: hooks off, the clone's config clean).
  const git = run;
  const done = [];
  const pidFile = join(stateDir, PID_FILE);
  const other = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").trim()) : null;
  if (other !== null && alive(other))
    return [`the state folder ${stateDir} is in use by process ${other}: left as it is`];
  if (existsSync(join(clone, "HEAD"))) {
    for (const l of locks(clone)) {
      rmSync(l, { force: true });
      done.push(`removed a lock a killed git left: ${l.slice(clone.length + 1)}`);
    }
    const list = (await git(clone, ["worktree", "list", "--porcelain"], { allowFail: true })).stdout;
    const paths = list
      .split("\n")
      .filter((l) => l.startsWith("worktree "))
      .map((l) => l.slice(9))
      .filter((p) => p !== clone);
    for (const p of paths) {
      if (existsSync(p)) {
        const dirs = ["rebase-merge", "rebase-apply"].map(
          async (d) =>
            (await git(p, ["rev-parse", "--path-format=absolute", "--git-path", d], { allowFail: true })).stdout,
        );
        if ((await Promise.all(dirs)).some((d) => d && existsSync(d))) {
          await git(p, ["rebase", "--abort"], { allowFail: true });
          done.push(`aborted a rebase left half done in ${p}`);
        }
        for (const l of locks(join(clone, "worktrees"))) rmSync(l, { force: true });
      }
      await git(clone, ["worktree", "remove", "--force", "--force", p], { allowFail: true });
      rmSync(p, { recursive: true, force: true });
      done.push(`removed a worktree left behind: ${p}`);
    }
    await git(clone, ["worktree", "prune"], { allowFail: true });
  }
  if (existsSync(worktrees)) {
    for (const name of readdirSync(worktrees)) {
      rmSync(join(worktrees, name), { recursive: true, force: true });
      done.push(`removed a worktree folder left behind: ${name}`);
    }
  }
  if (existsSync(stateDir)) writeFileSync(pidFile, `${process.pid}\n`);
  return [...new Set(done)];
}

/**
 * The worker's name for the queue's lease, kept in the state folder: a worker restarted on the same
 * folder (after a kill, which released nothing) is the same holder and takes its lease back at once
 * instead of waiting it out. A folder another live process uses gets no name (the caller makes one).
 */
export function stateWorkerName(stateDir, fresh) {
  const file = join(stateDir, "worker.name");
  const pid = existsSync(join(stateDir, PID_FILE))
    ? Number(readFileSync(join(stateDir, PID_FILE), "utf8").trim())
    : null;
  if (pid !== process.pid) return fresh();
  if (existsSync(file)) {
    const name = readFileSync(file, "utf8").trim();
    if (name) return name;
  }
  const name = fresh();
  writeFileSync(file, `${name}\n`);
  return name;
}
