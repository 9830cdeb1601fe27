// The write token out of reach of the code the queue runs. An autoFix command and a fixer's AI look
// for it every way a process of the same user can: every process's environment and command line
// (/proc), the clone's git config and every file of the state folder, and by planting hooks, a
// credential helper, an fsmonitor and a hooks path in the clone for the worker's own git to run when it
// pushes, plus a daemon left behind to watch the push. They find nothing, nothing they planted runs,
// the push still lands, and what they print reaches a comment masked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit } from "../../lib/github/index.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue } from "../../lib/queue/worker.js";
import { createEngine } from "../../js/node.js";
import { gitRepo, ownComments, setAsideConflict } from "./lib/agents.js";

const DAEMON = "prflow-spy-daemon";

/** The spy: dumps all it can reach into $SPY_OUT/run<pid>/, plants what the worker's git might run, leaves a daemon. */
const SPY = `#!/bin/sh
out="$SPY_OUT"; d="$out/run$$"; mkdir -p "$d"
env > "$d/env"
for p in /proc/[0-9]*; do tr '\\0' '\\n' < "$p/environ" 2>/dev/null; done > "$d/environ"
for p in /proc/[0-9]*; do tr '\\0' ' ' < "$p/cmdline" 2>/dev/null; echo; done > "$d/cmdline"
git config --list --show-origin > "$d/gitconfig" 2>&1
common=$(git rev-parse --path-format=absolute --git-common-dir)
state=$(dirname "$common")
find "$state" -type f -not -path '*/objects/*' -exec cat {} + > "$d/state" 2>/dev/null
hook='#!/bin/sh
{ env; tr "\\0" "\\n" < /proc/$PPID/environ; cat <&3; } > "'"$out"'/planted-ran-$$" 2>&1
exit 0
'
mkdir -p "$common/hooks"
for h in pre-push post-checkout reference-transaction post-rewrite pre-commit post-commit pre-receive; do printf '%s' "$hook" > "$common/hooks/$h"; chmod +x "$common/hooks/$h"; done
git config --file "$common/config" core.hooksPath "$common/hooks"
git config --file "$common/config" core.fsmonitor "$common/hooks/pre-push"
git config --file "$common/config" credential.helper "!$common/hooks/pre-push"
git config --file "$common/config" url.http://127.0.0.1:9/.insteadOf "http://127.0.0.1"
setsid sh -c 'for i in $(seq 1 300); do for p in /proc/[0-9]*; do tr "\\0" " " < $p/environ; tr "\\0" " " < $p/cmdline; done 2>/dev/null; sleep 0.1; done # ${DAEMON}' >> "$d/daemon" 2>/dev/null &
`;

/** Every form the token travels in: raw, URL-encoded, and git's Basic header. */
const forms = (token) => [token, encodeURIComponent(token), Buffer.from(`x-access-token:${token}`).toString("base64")];

function findings(dir, token) {
  const hits = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else
        for (const f of forms(token)) if (readFileSync(p, "latin1").includes(f)) hits.push(`${p}: ${f.slice(0, 8)}…`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return hits;
}

/** Processes still carrying the daemon's marker. */
const daemons = () =>
  readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "latin1").includes(DAEMON);
      } catch {
        return false;
      }
    });

const REQUIRED = ["ci", "no-skip-ci-label"];
const CI = {
  name: "CI",
  jobs: [
    { name: "fmt", minutes: 1 },
    { name: "test", minutes: 3 },
  ],
  aggregate: "ci",
  guard: "no-skip-ci-label",
};

async function board(t, autoFixRun) {
  const gh = await startEmulator({ git: true });
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(REQUIRED, { strict: true });
  // A token of this test's own: the spy reads every process on the machine, and the emulator's
  // fixed token may sit in another test's environment.
  const token = `ghp_${randomBytes(18).toString("hex")}`;
  gh.registerToken(token, gh.owner, "personal");
  const work = mkdtempSync(join(tmpdir(), "prflow-token-"));
  t.after(async () => {
    await gh.close();
    rmSync(work, { recursive: true, force: true });
  });
  const spyOut = join(work, "spy");
  writeFileSync(join(work, "spy.sh"), SPY);
  process.env.SPY_OUT = spyOut;
  t.after(() => delete process.env.SPY_OUT);
  const config = {
    queue: {
      autoFix: {
        ignore: ["^ci$", "^no-skip-ci-label$"],
        fixers: [{ context: "^fmt$", run: autoFixRun(join(work, "spy.sh")) }],
      },
    },
  };
  const octokit = makeOctokit({ token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl });
  const g = new Git({ cloneUrl: `${gh.url}/${gh.owner}/${gh.repo}.git`, token, stateDir: join(work, "state") });
  const lines = [];
  const go = (until) => {
    let steps = 0;
    return runQueue({
      gh: { octokit, owner: gh.owner, repo: gh.repo },
      g,
      engine: createEngine(JSON.stringify(config)),
      options: { dryRun: false, autoFix: true, activeInterval: 30, idleAfter: 10, idleInterval: 300, pollInterval: 30 },
      log: (l) => lines.push(l),
      sleep: async (ms) => gh.clock.advance(ms),
      stopWhen: (o) => until(o) || ++steps >= 120,
    });
  };
  gh.ci.register(CI);
  return { gh, token, spyOut, go, lines, work };
}

test("an autoFix command looking for the token by every means finds nothing; what it planted never runs, and the fix still lands", async (t) => {
  const { gh, token, spyOut, go, lines } = await board(t, (spy) => `sh ${spy} && printf 'formatted\\n' > src/f.rs`);
  const pr = gh.createPull({
    title: "unformatted",
    head: "agent/fmt",
    files: ["src/f.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.ci.setOutcome(pr.headSha, { jobs: { fmt: "fail" } });
  await go(() => gh.state.pull(pr.number).merged);
  const log = lines.join("\n");
  assert.ok(gh.state.pull(pr.number).merged, log);
  assert.ok(log.includes(`#${pr.number}: only a fixer's diff: fmt: fixing it`), log);
  const runs = readdirSync(spyOut).filter((f) => f.startsWith("run"));
  assert.equal(runs.length, 1, "the spy ran once");
  for (const f of ["env", "environ", "cmdline", "gitconfig", "state"])
    assert.ok(readFileSync(join(spyOut, runs[0], f), "latin1").length > 0, `${f} was read`);
  assert.deepEqual(findings(spyOut, token), [], "no form of the token anywhere the command could look");
  assert.deepEqual(
    readdirSync(spyOut).filter((f) => f.startsWith("planted-ran")),
    [],
    "no hook, helper or fsmonitor it planted ran",
  );
  assert.deepEqual(daemons(), [], "the daemon it left was killed with the command");
});

test("an autoFix command that prints a token-shaped string and the real token is set aside with both masked in its comment", async (t) => {
  const { gh, token, lines } = await board(t, () => "true");
  // The command names the real token itself (a config can), and a token of the shape GitHub issues.
  const shaped = `ghp_${"A1b2C3d4".repeat(5)}`;
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  const engineConfig = {
    queue: {
      autoFix: {
        ignore: ["^ci$", "^no-skip-ci-label$"],
        fixers: [
          {
            context: "^fmt$",
            run: `echo "leaked ${token} and ${shaped}"; echo "Authorization: Basic ${basic}" >&2; echo "sk-ant-${"x".repeat(30)}"; exit 7`,
          },
        ],
      },
    },
  };
  // Reuse the board with this config: a fresh engine over the same emulator.
  const octokit = makeOctokit({ token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl });
  const g = new Git({
    cloneUrl: `${gh.url}/${gh.owner}/${gh.repo}.git`,
    token,
    stateDir: join(mkdtempSync(join(tmpdir(), "prflow-token-b-")), "state"),
  });
  const pr = gh.createPull({
    title: "unformatted",
    head: "agent/fmt",
    files: ["src/f.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.ci.setOutcome(pr.headSha, { jobs: { fmt: "fail" } });
  const comments = () => gh.state.pull(pr.number).comments.map((id) => gh.state.comments.get(id).body);
  let steps = 0;
  await runQueue({
    gh: { octokit, owner: gh.owner, repo: gh.repo },
    g,
    engine: createEngine(JSON.stringify(engineConfig)),
    options: { dryRun: false, autoFix: true, activeInterval: 30, idleAfter: 10, idleInterval: 300, pollInterval: 30 },
    log: (l) => lines.push(l),
    sleep: async (ms) => gh.clock.advance(ms),
    stopWhen: () => comments().length > 0 || ++steps >= 120,
  });
  const body = comments()[0] ?? "";
  assert.match(body, /^<!-- prflow:set-aside reason=checks-failed/, lines.join("\n"));
  assert.match(body, /exit 7/, "the comment names the exit code");
  assert.match(body, /leaked \*\*\* and ghp_\*\*\*/, body);
  assert.match(body, /Authorization: Basic \*\*\*/, body);
  assert.match(body, /sk-ant-\*\*\*/, body);
  for (const f of [...forms(token), shaped]) assert.ok(!body.includes(f), `no ${f.slice(0, 8)}… in the comment`);
  for (const l of lines) for (const f of forms(token)) assert.ok(!l.includes(f), `the log masks it too: ${l}`);
});

test("prflow fixer: the AI command finds no token in any process's environment (its parent's included) or the clone, and its printed secrets are masked in the give-up comment", async (t) => {
  const { gh, work, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  const token = `ghp_${randomBytes(18).toString("hex")}`;
  gh.registerToken(token, "acme", "personal");
  const spyOut = join(work, "spy");
  writeFileSync(join(work, "spy.sh"), SPY);
  // The AI: the spy, then it prints a token-shaped string and the real token (named in its own command line), and gives up.
  const shaped = `github_pat_${"Z9".repeat(20)}`;
  const ai = `sh ${join(work, "spy.sh")}; echo "key ${shaped} real ${token}" >&2; exit 3`;
  const r = await prflow(["fixer", "fixer-1", "--ai", ai, "--once"], {
    extraEnv: { GITHUB_TOKEN: token, SPY_OUT: spyOut },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`^#${n}: gave up: the AI command exited 3$`, "m"), r.stdout + r.stderr);
  const runs = readdirSync(spyOut).filter((f) => f.startsWith("run"));
  assert.equal(runs.length, 1);
  // The spy's own command line carries the token (the test put it there); every other place must not.
  const hits = findings(spyOut, token).filter((h) => !h.includes("/cmdline:"));
  assert.deepEqual(
    hits,
    [],
    "nothing in any environment (the station's own, as the kernel keeps it), the clone's config or the state folder",
  );
  const cmdlines = readFileSync(join(spyOut, runs[0], "cmdline"), "latin1")
    .split("\n")
    .filter((l) => l.includes(token));
  assert.ok(
    cmdlines.every((l) => l.includes("spy.sh")),
    `only the AI's own command line names it: ${cmdlines.join("\n")}`,
  );
  assert.deepEqual(
    readdirSync(spyOut).filter((f) => f.startsWith("planted-ran")),
    [],
  );
  assert.deepEqual(daemons(), []);
  const [gaveUp] = ownComments(gh, n, "**Fixer fixer-1 gave up**");
  assert.ok(gaveUp, JSON.stringify(gh.state.pull(n).comments.map((id) => gh.state.comments.get(id).body)));
  assert.match(gaveUp, /the AI command exited 3/);
  assert.match(gaveUp, /key github_pat_\*\*\* real \*\*\*/, gaveUp);
  assert.ok(!gaveUp.includes(token) && !gaveUp.includes(shaped), gaveUp);
});

test("the Action's mode: queue: the autoFix spy finds no form of the token (the Action's own environment included), and the fix lands", async (t) => {
  const gh = await startEmulator({ git: true });
  gh.setRepoSettings({ allowAutoMerge: true });
  gh.setRequiredChecks(REQUIRED, { strict: true });
  gh.ci.register(CI);
  const token = `ghp_${randomBytes(18).toString("hex")}`;
  gh.registerToken(token, gh.owner, "personal");
  const workspace = mkdtempSync(join(tmpdir(), "prflow-token-action-"));
  t.after(async () => {
    await gh.close();
    rmSync(workspace, { recursive: true, force: true });
  });
  const spyOut = join(workspace, "spy");
  writeFileSync(join(workspace, "spy.sh"), SPY);
  writeFileSync(
    join(workspace, "prflow.json"),
    JSON.stringify({
      queue: {
        autoFix: {
          ignore: ["^ci$", "^no-skip-ci-label$"],
          fixers: [{ context: "^fmt$", run: `sh ${join(workspace, "spy.sh")} && printf 'formatted\\n' > src/f.rs` }],
        },
      },
    }),
  );
  const pr = gh.createPull({
    title: "unformatted",
    head: "agent/fmt",
    files: ["src/f.rs"],
    labels: ["merge-queued", "skip-ci"],
  });
  gh.ci.setOutcome(pr.headSha, { jobs: { fmt: "fail" } });
  const ticker = setInterval(() => gh.clock.advance({ minutes: 1 }), 5);
  let r;
  try {
    r = await gh.runAction({
      actionPath: fileURLToPath(new URL("../..", import.meta.url)),
      event: "workflow_dispatch",
      payload: {},
      workspace,
      inputs: { mode: "queue", live: "true", token, config: "prflow.json" },
      env: { SPY_OUT: spyOut },
    });
  } finally {
    clearInterval(ticker);
  }
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(gh.state.pull(pr.number).merged, r.stdout);
  assert.equal(readdirSync(spyOut).filter((f) => f.startsWith("run")).length, 1, r.stdout);
  assert.deepEqual(
    findings(spyOut, token),
    [],
    "no form of the token where the command could look, INPUT_TOKEN's kernel copy included",
  );
  assert.deepEqual(
    readdirSync(spyOut).filter((f) => f.startsWith("planted-ran")),
    [],
  );
  assert.deepEqual(daemons(), []);
  // The one line that names it is the one telling the runner to mask it.
  assert.deepEqual(
    r.stdout.split("\n").filter((l) => l.includes(token)),
    [`::add-mask::${token}`],
    "nor in the Action's log",
  );
});
