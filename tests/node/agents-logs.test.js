// The fixer reads the failed jobs' logs itself: GitHub's job-log read (302 to a signed download URL that
// needs no token and expires in a minute) on the emulator, whose CI simulator serves each job's text; and a
// fixer station whose scripted AI finds the failed run and the tail of its log in the brief on stdin.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit, readJobLog } from "../../lib/github/index.js";
import { gitRepo, ownComments } from "./lib/agents.js";

/** The failing job's own output: the line the AI needs is the last before the error line. */
const FAILURE = [
  "running 12 tests",
  ...Array.from({ length: 70 }, (_, i) => `test case_${i} ... ok`),
  "test parse_config ... FAILED",
  "thread 'parse_config' panicked: left: 3, right: 4",
].join("\n");

/** A pull request whose CI failed on its head, set aside `checks-failed` as the worker writes it. */
function failedChecks(gh) {
  gh.ci.register({
    name: "CI",
    jobs: [
      { name: "test", minutes: 10, outcome: "fail", log: FAILURE },
      { name: "lint", minutes: 5 },
    ],
    aggregate: "ci-ok",
  });
  const pr = gh.createPull({
    title: "parse the config once",
    head: "agent/parse",
    files: ["src/parse.rs"],
    labels: ["merge-queued"],
  });
  gh.advance({ minutes: 11 });
  gh.comment(pr.number, {
    author: gh.owner,
    body: `<!-- prflow:set-aside reason=checks-failed head=${pr.headSha} base=${gh.git.tip("main")} -->\nThe required check ci-ok failed.\n\n- [ ] Retry`,
  });
  return pr.number;
}

test("a job's log is a 302 to a signed URL that needs no token, refuses a forged signature and expires after a minute", async (t) => {
  const gh = await startEmulator({ git: true });
  t.after(() => gh.close());
  gh.ci.register({
    name: "CI",
    jobs: [{ name: "test", minutes: 10, outcome: "fail", log: "boom" }],
    aggregate: "ci-ok",
  });
  const pr = gh.createPull({ title: "x", head: "agent/x", files: ["src/x.rs"] });
  const octokit = makeOctokit({ token: gh.personalToken, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl });
  const job = gh.state.checkRuns.find((c) => c.name === "test" && c.headSha === pr.headSha).id;
  const read = (jobId) => readJobLog(octokit, { owner: gh.owner, repo: gh.repo, jobId });
  await assert.rejects(read(job), { status: 404 }, "a job still running has no log yet");

  gh.advance({ minutes: 11 });
  const text = await read(job);
  assert.match(text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z ##\[group\]Run test$/m);
  assert.match(text, /Z boom\n.*Z ##\[error\]Process completed with exit code 1\.\n$/);
  const aggregate = gh.state.checkRuns.find((c) => c.name === "ci-ok").id;
  assert.match(await read(aggregate), /needed jobs did not pass: test/);
  await assert.rejects(read(987654), { status: 404 });

  const r = await octokit.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
    owner: gh.owner,
    repo: gh.repo,
    job_id: job,
    request: { redirect: "manual" },
  });
  assert.equal(r.status, 302);
  const url = new URL(r.headers.location);
  assert.equal((await fetch(url)).status, 200, "no token asked for");
  const forged = new URL(url);
  forged.searchParams.set("se", String(Number(url.searchParams.get("se")) + 3_600_000));
  assert.equal((await fetch(forged)).status, 403, "the expiry is signed");
  gh.advance({ seconds: 61 });
  assert.equal((await fetch(url)).status, 403, "expired after a minute");
  const download = gh.requests.filter((q) => q.operation === "job log download");
  assert.ok(download.length >= 4 && download.every((q) => q.token === null), "the download carries no token");
  assert.deepEqual(gh.validationFailures, []);
});

test("a fixer reads the failed jobs' logs itself: its scripted AI finds the failed run and the tail of its log on stdin", async (t) => {
  const { gh, work, prflow } = await gitRepo(t);
  const n = failedChecks(gh);
  const job = gh.state.checkRuns.find((c) => c.name === "test" && c.conclusion === "FAILURE").id;
  const brief = join(work, "brief.md");
  // The scripted AI keeps what it was told and fixes nothing: giving up keeps the test on what it read.
  writeFileSync(join(work, "ai.sh"), `#!/bin/sh\ncat > "$BRIEF_OUT"\nexit 1\n`);

  const r = await prflow(["fixer", "fixer-1", "--ai", `sh ${join(work, "ai.sh")}`, "--once"], {
    extraEnv: { BRIEF_OUT: brief },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`^#${n}: gave up: the AI command exited 1$`, "m"));
  const text = readFileSync(brief, "utf8");
  assert.match(text, /## Failed runs\n\n(- .*\n)*- CI \/ test: FAILURE \(job \d+\)\n/);
  const tail = /## Log tail: CI \/ test\n\n```\n([^`]*)\n```\n/.exec(text)?.[1];
  assert.ok(tail, text);
  assert.match(
    tail,
    /test parse_config \.\.\. FAILED\nthread 'parse_config' panicked: left: 3, right: 4\n##\[error\]Process completed with exit code 1\.$/,
  );
  assert.equal(tail.split("\n").length, 60, "the tail: the log's last 60 lines");
  assert.doesNotMatch(tail, /^\d{4}-\d\d-\d\dT/m, "GitHub's timestamps are noise to the AI");
  assert.doesNotMatch(tail, /running 12 tests/, "the head of a long log is cut");
  assert.match(text, /## Log tail: CI \/ ci-ok\n\n```\n##\[group\]Run ci-ok\n(.*\n)*needed jobs did not pass: test\n/);
  assert.doesNotMatch(text, /Log tail: CI \/ lint/, "a job that passed is not read");
  assert.ok(
    gh.requests.some(
      (q) => q.operation === "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs" && q.path.endsWith(`/jobs/${job}/logs`),
    ),
    "read by the REST route",
  );
  assert.equal(ownComments(gh, n, "**Fixer fixer-1 gave up**").length, 1);
  assert.deepEqual(gh.validationFailures, []);
});
