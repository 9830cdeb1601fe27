// What the agents-* suites share: an emulator on real git with a clone of its repository, git run as a
// developer's machine runs it, a file committed, and the real `prflow` CLI in a given checkout.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../../emulator/index.js";
import { runCli, PRESET_CONFIG } from "./cli.js";

const run = promisify(execFile);

/** git as a developer's machine runs it: no prompts, no system config; `home` also hides the user's. */
export async function git(cwd, args, { allowFail = false, home } = {}) {
  const env = {
    ...process.env,
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    ...(home ? { HOME: home } : {}),
    GIT_AUTHOR_NAME: "agent-1",
    GIT_AUTHOR_EMAIL: "agent-1@example.com",
    GIT_COMMITTER_NAME: "agent-1",
    GIT_COMMITTER_EMAIL: "agent-1@example.com",
  };
  try {
    const { stdout, stderr } = await run("git", args, { cwd, env });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (e) {
    if (!allowFail) throw e;
    return { code: e.code, stdout: String(e.stdout ?? ""), stderr: String(e.stderr ?? "") };
  }
}

/** An emulator on git (clock set), a work folder with a clone, a state folder for the fixer; removed after. */
export async function gitRepo(t, { at = "2026-11-30T09:00:00Z" } = {}) {
  const gh = await startEmulator({ owner: "acme", repo: "widgets", git: true, seed: "agents" });
  gh.clock.set(at);
  const work = mkdtempSync(join(tmpdir(), "prflow-agents-"));
  t.after(async () => {
    await gh.close();
    rmSync(work, { recursive: true, force: true });
  });
  await git(work, ["clone", "--quiet", gh.cloneUrl(gh.personalToken), "clone"]);
  const dir = join(work, "clone");
  const env = { ...gh.env(gh.personalToken), PRFLOW_STATE_DIR: join(work, "state") };
  const prflow = (args, { cwd = dir, extraEnv = {}, config = PRESET_CONFIG } = {}) =>
    runCli([...args, "--repo", "acme/widgets", "--config", config], { env: { ...env, ...extraEnv }, cwd });
  return { gh, work, dir, env, prflow };
}

export async function commitFile(dir, path, text, message = `edit ${path}`) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
  await git(dir, ["add", path]);
  await git(dir, ["commit", "--quiet", "-m", message]);
  return (await git(dir, ["rev-parse", "HEAD"])).stdout;
}

/** A branch cut from `from`, one commit writing `path`, pushed. */
export async function pushBranch(dir, branch, from, path, text) {
  await git(dir, ["fetch", "--quiet", "origin"]);
  await git(dir, ["checkout", "--quiet", "-B", branch, from]);
  const sha = await commitFile(dir, path, text);
  await git(dir, ["push", "--quiet", "--force", "origin", `${branch}:${branch}`]);
  return sha;
}

export const labels = (gh, n) => [...gh.state.pull(n).labels].sort();
export const ownComments = (gh, n, prefix) =>
  gh.state
    .pull(n)
    .comments.map((id) => gh.state.comments.get(id).body)
    .filter((b) => b.startsWith(prefix));

/** A real conflict set aside `rebase-failed` with the worker's marker, as the tool's own account (acme) writes it. */
export function setAsideConflict(gh, { head = "agent/c", labelsOn = ["merge-queued"], reason = "rebase-failed" } = {}) {
  if (!gh.ci.workflows?.length)
    gh.ci.register({
      name: "CI",
      jobs: [{ name: "test", minutes: 10 }],
      aggregate: "ci-ok",
      guard: "no-skip-ci-label",
    });
  const pr = gh.createPull({ title: "conflicting", head, files: ["src/a.rs"], conflicting: true, labels: labelsOn });
  gh.comment(pr.number, {
    author: "acme",
    body: `<!-- prflow:set-aside reason=${reason} head=${pr.headSha} base=${gh.git.tip("main")} -->\nThe rebase onto main conflicted in src/a.rs.\n\n- [ ] Retry`,
  });
  return pr.number;
}
