// The agents' commands as a newcomer meets them (open-pr, push-fixed-pr, fixer, claim-pr): each bad input
// is one `prflow:` line on stderr naming the step and what to do, with the documented exit code (2 usage,
// 1 failed) and no stack trace; a dry run of each says what it would do and writes nothing. Their --help
// pages (every option with words, an example) are held by cli-help.test.js's snapshots.
import { test } from "node:test";
import assert from "node:assert/strict";
import { gitRepo, git, setAsideConflict } from "./lib/agents.js";
import { runCli, PRESET_CONFIG } from "./lib/cli.js";

test("agents' commands: each bad input is one line on stderr with its exit code, and nothing is written", async (t) => {
  const { gh, work, dir, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  const waiting = gh.createPull({
    title: "waiting",
    head: "agent/w",
    files: ["src/w.rs"],
    labels: ["merge-queued", "skip-ci"],
  }).number;
  await git(dir, ["fetch", "--quiet", "origin"]);
  await git(dir, ["checkout", "--quiet", "-B", "agent/c", "origin/agent/c"]);
  const cases = [
    {
      rule: "open-pr with no title",
      args: ["open-pr", "--head", "agent/c"],
      code: 2,
      line: /^prflow: --title: a pull request needs a title$/,
    },
    {
      rule: "open-pr with two bodies",
      args: ["open-pr", "--title", "X", "--body", "b", "--body-file", "b.md"],
      code: 2,
      line: /^prflow: --body and --body-file contradict each other; pick one$/,
    },
    {
      rule: "open-pr with a body file that is not there",
      args: ["open-pr", "--title", "X", "--head", "agent/x", "--body-file", "nope.md"],
      code: 1,
      line: /^prflow: open-pr: --body-file nope\.md: no such file$/,
    },
    {
      rule: "open-pr outside a checkout and no --head",
      args: ["open-pr", "--title", "X"],
      cwd: work,
      code: 2,
      line: /^prflow: --head: no branch is checked out here; name the pushed branch with --head$/,
    },
    {
      rule: "open-pr with a positional",
      args: ["open-pr", "extra", "--title", "X"],
      code: 2,
      line: /^prflow: open-pr takes no positional arguments, found "extra"$/,
    },
    {
      rule: "push-fixed-pr with no number",
      args: ["push-fixed-pr", "--by", "fixer-1"],
      code: 2,
      line: /^prflow: expected one pull request number$/,
    },
    {
      rule: "push-fixed-pr with no claimant",
      args: ["push-fixed-pr", String(n)],
      code: 2,
      line: /^prflow: --by: the claimant's name is required$/,
    },
    {
      rule: "push-fixed-pr outside a checkout",
      args: ["push-fixed-pr", String(n), "--by", "fixer-1"],
      cwd: work,
      code: 1,
      line: new RegExp(
        `^prflow: push-fixed-pr #${n}: commit: HEAD is not a commit here; run it in the fix's checkout or name one with --commit$`,
      ),
    },
    {
      rule: "push-fixed-pr with nothing claimed",
      args: ["push-fixed-pr", String(n), "--by", "fixer-1"],
      code: 1,
      line: new RegExp(`^prflow: push-fixed-pr #${n}: `),
    },
    { rule: "fixer with no name", args: ["fixer", "--ai", "true"], code: 2, line: /^prflow: expected one fixer name$/ },
    {
      rule: "fixer with a bad interval",
      args: ["fixer", "fixer-1", "--ai", "true", "--interval", "0"],
      code: 2,
      line: /^prflow: --interval: expected seconds \(at least 1\), found "0"$/,
    },
    {
      rule: "fixer with no AI command",
      args: ["fixer", "fixer-1", "--once"],
      code: 2,
      line: /^prflow: no AI command: pass --ai "claude -p" \(or set PRFLOW_AI\)/,
    },
    {
      rule: "claim-pr with no claimant",
      args: ["claim-pr", String(n)],
      code: 2,
      line: /^prflow: --by: the claimant's name is required$/,
    },
    {
      rule: "claim-pr with a word for a number",
      args: ["claim-pr", "twelve", "--by", "fixer-1"],
      code: 2,
      line: /^prflow: expected one pull request number$/,
    },
    {
      rule: "an unknown option",
      args: ["fixer", "fixer-1", "--ai", "true", "--forever"],
      code: 2,
      line: /^prflow: --forever: `prflow fixer` has no such option; it takes --repo, /,
    },
    {
      rule: "no --repo",
      args: ["claim-pr", String(n), "--by", "fixer-1"],
      repo: false,
      code: 2,
      line: /^prflow: --repo: expected owner\/name, found none$/,
    },
  ];
  for (const c of cases) {
    const since = gh.events.length;
    // The helper always names the repository; without it, the CLI is run bare.
    const r =
      c.repo === false
        ? await runCli([...c.args, "--config", PRESET_CONFIG], { env: { GITHUB_TOKEN: "x" } })
        : await prflow(c.args, { cwd: c.cwd ?? dir });
    assert.equal(r.code, c.code, `${c.rule}: ${r.stdout}${r.stderr}`);
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("prflow: "));
    assert.equal(lines.length, 1, `${c.rule}: one failure line, found\n${r.stderr}`);
    assert.match(lines[0], c.line, c.rule);
    assert.doesNotMatch(r.stderr, /^\s+at /m, `${c.rule}: no stack trace without --debug`);
    assert.equal(gh.events.length, since, `${c.rule}: nothing written`);
  }
  // claim-pr's refusal is its answer, not a failure of the run: the reason on stdout (or as JSON), exit 1.
  const refused = await prflow(["claim-pr", String(waiting), "--by", "fixer-1", "--json"]);
  assert.equal(refused.code, 1);
  assert.equal(JSON.parse(refused.stdout).ok, false);
  assert.deepEqual(gh.validationFailures, []);
});

test("agents' commands: a dry run of each says what it would do and writes nothing", async (t) => {
  const { gh, dir, prflow } = await gitRepo(t);
  const n = setAsideConflict(gh);
  await git(dir, ["checkout", "--quiet", "-B", "agent/new", "origin/main"]);
  await git(dir, ["commit", "--quiet", "--allow-empty", "-m", "new"]);
  await git(dir, ["push", "--quiet", "origin", "agent/new"]);

  let since = gh.events.length;
  const open = await prflow(["open-pr", "--title", "New", "--queue", "--dry-run"]);
  assert.equal(open.code, 0, open.stderr);
  assert.match(open.stdout, /^open `agent\/new` onto `main` with skip-ci, merge-queued \(dry run: nothing written\)$/m);
  const claim = await prflow(["claim-pr", String(n), "--by", "fixer-1", "--dry-run"]);
  assert.equal(claim.code, 0, claim.stderr);
  assert.match(claim.stdout, /\(dry run: nothing written\)$/m);
  const fixer = await prflow(["fixer", "fixer-1", "--once", "--dry-run"]);
  assert.equal(fixer.code, 0, fixer.stderr);
  assert.match(fixer.stdout, new RegExp(`^#${n}: set aside \`rebase-failed\`.*\\(dry run: nothing claimed\\)$`, "m"));
  assert.equal(gh.events.length, since, "no dry run wrote anything");

  // push-fixed-pr's dry run needs a claim to push under: claimed for real, then the push only described.
  assert.equal((await prflow(["claim-pr", String(n), "--by", "fixer-1"])).code, 0);
  const head = gh.state.pull(n).headSha;
  since = gh.events.length;
  const push = await prflow(["push-fixed-pr", String(n), "--by", "fixer-1", "--dry-run"]);
  assert.equal(push.code, 0, push.stdout + push.stderr);
  assert.match(push.stdout, /\(dry run: nothing written\)$/m);
  assert.equal(gh.state.pull(n).headSha, head, "nothing pushed");
  assert.equal(gh.events.length, since, "nothing written");
  assert.deepEqual(gh.validationFailures, []);
});
