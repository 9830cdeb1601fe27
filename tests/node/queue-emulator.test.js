// `prflow report --repo` against the GitHub emulator: a queue of 30 pull requests seeded the way people
// and agents would make it (labels, trailers, stacks, a cycle, set-aside and claim comments written by the
// tool's account, checks, a moved base, CODEOWNERS, a pull_request rule, an issue with Start-After:), read
// by the shared reader plus the queue's reader, triaged by the engine, compared with the committed report.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { PERSONAL_TOKEN, startEmulator } from "../../emulator/index.js";
import { prflow, PRESET_CONFIG } from "./lib/cli.js";
import { matchSnapshot } from "./lib/snapshot.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXPECTED = join(ROOT, "tests/fixtures/queue-report/emulator-expected.txt");

/** The queue, seeded in a fixed order so its numbers are fixed. Returns the numbers by role. */
function seedQueue(gh) {
  const st = gh.state;
  const Q = ["merge-queued", "skip-ci"];
  const n = {};
  const pull = (role, options) => (n[role] = gh.createPull({ title: role, author: "agent-1", ...options }).number);
  const sha = (role) => st.pull(n[role]).headSha;
  const green = (role, conclusion = "SUCCESS") =>
    gh.checkRun({ number: n[role], name: "ci-ok", status: "COMPLETED", conclusion });
  gh.setRequiredChecks(["ci-ok"], { strict: true });
  st.pullRequestRule = { require_code_owner_review: true, required_review_thread_resolution: true };
  st.teamMembers = { core: ["alice", "bob"] };
  gh.setFile(".github/CODEOWNERS", "/core/ @acme/core\n/docs/carol.md @carol\n");

  pull("starved: queued ten days ago", { labels: Q });
  gh.clock.advance({ hours: 240 });
  pull("not queued", {});
  pull("only skip-ci", { labels: ["skip-ci"] });
  pull("queued draft", { labels: Q, draft: true });
  pull("onto an old release branch", { labels: Q, base: "release/1.x" });
  pull("from a fork", { labels: Q });
  st.pull(n["from a fork"]).isFork = true;
  pull("cycle A", { labels: Q });
  pull("cycle B", { labels: Q, body: `Merge-After: #${n["cycle A"]}` });
  st.editIssue(n["cycle A"], { body: `Merge-After: #${n["cycle B"]}` }, "agent-1");
  pull("set aside: conflict", { labels: Q });
  gh.comment(n["set aside: conflict"], {
    author: "acme",
    body: `<!-- prflow:set-aside reason=rebase-failed head=${sha("set aside: conflict")} base=x -->\nset aside\n\n- [ ] Retry`,
  });
  pull("set aside: sat green", { labels: Q });
  gh.comment(n["set aside: sat green"], {
    author: "acme",
    body: `<!-- prflow:set-aside reason=not-merging head=${sha("set aside: sat green")} base=x -->\nset aside\n\n- [ ] Retry`,
  });
  pull("forged set-aside (not the tool's account)", { labels: Q });
  gh.comment(n["forged set-aside (not the tool's account)"], {
    author: "mallory",
    body: `<!-- prflow:set-aside reason=rebase-failed head=${sha("forged set-aside (not the tool's account)")} base=x -->`,
  });
  pull("claimed by a fixer", { labels: Q });
  gh.comment(n["claimed by a fixer"], {
    author: "acme",
    body: `<!-- prflow:claim head=${sha("claimed by a fixer")} by=fixer-1 at=${new Date(gh.clock.now()).toISOString().replace(/\.\d+Z$/, "Z")} -->`,
  });
  pull("unknown set-aside reason", { labels: Q });
  gh.comment(n["unknown set-aside reason"], {
    author: "acme",
    body: `<!-- prflow:set-aside reason=gremlins head=${sha("unknown set-aside reason")} base=x -->\n- [ ] Retry`,
  });
  pull("stack layer 1", { labels: Q, head: "stack-1" });
  pull("stack layer 2", { labels: Q, head: "stack-2", base: "stack-1" });
  pull("waits on not queued", { labels: Q, body: `Depends.\n\nMerge-After: #${n["not queued"]}` });
  const issue = gh.createIssue({ title: "feature", body: `Start-After: #${n["stack layer 1"]}` }).number;
  pull("closes an issue with Start-After", { labels: Q, body: `Fixes #${issue}` });
  pull("Merge-After in a code block only", { labels: Q, body: "```\nMerge-After: #1\n```" });
  pull("Version Packages", { labels: Q, head: "changeset-release/main" });
  pull("must ship in the release", { labels: ["blocks-release"], draft: true });
  pull("paused, high priority", { labels: [...Q, "priority:high"] });
  pull("both priorities", { labels: [...Q, "priority:high", "priority:low"] });
  pull("low priority", { labels: [...Q, "priority:low"] });
  pull("behind main", { labels: ["merge-queued"] });
  green("behind main");
  pull("conflicts per GitHub", { labels: ["merge-queued"], conflicting: true });
  pull("needs a code owner", { labels: Q, files: ["core/engine.rs"] });
  pull("approved by a team member", { labels: Q, files: ["core/other.rs"] });
  gh.review(n["approved by a team member"], { author: "bob", state: "APPROVED" });
  pull("unresolved conversation", { labels: Q });
  st.pull(n["unresolved conversation"]).reviewThreads = [{ isResolved: false }, { isResolved: true }];
  pull("only its author owns it", { labels: Q, author: "carol", files: ["docs/carol.md"] });
  gh.moveBranch("main");
  gh.clock.advance({ minutes: 5 });
  pull("merging now", { labels: ["merge-queued"] });
  st.pull(n["merging now"]).autoMerge = true;
  green("merging now");
  pull("checks running", { labels: ["merge-queued"] });
  gh.checkRun({ number: n["checks running"], name: "ci-ok", status: "IN_PROGRESS" });
  pull("failing check", { labels: ["merge-queued"] });
  green("failing check", "FAILURE");
  gh.clock.advance({ minutes: 5 });
  return n;
}

test("prflow report against the emulator: a 30-pull-request queue exercising every triage class matches the committed report", async () => {
  const gh = await startEmulator({ owner: "acme", repo: "widgets", seed: "queue-report" });
  try {
    gh.clock.set("2026-11-20T09:00:00Z");
    const n = seedQueue(gh);
    assert.ok(Object.keys(n).length >= 25, `${Object.keys(n).length} pull requests`);
    const env = gh.env(PERSONAL_TOKEN);
    const text = await prflow(["report", "--repo", "acme/widgets", "--config", PRESET_CONFIG], env);
    assert.equal(text.code, 0, text.stderr);
    matchSnapshot(EXPECTED, text.stdout);
    const json = await prflow(["report", "--repo", "acme/widgets", "--config", PRESET_CONFIG, "--format", "json"], env);
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    const by = Object.fromEntries(report.entries.map((e) => [e.title, e]));
    for (const c of ["ignore", "note", "candidate", "inFlight", "failing", "held"])
      assert.ok(
        report.entries.some((e) => e.triage === c),
        `no ${c}`,
      );
    for (const o of ["worker", "fixer", "human", "none"])
      assert.ok(
        report.entries.some((e) => e.owner === o),
        `no owner ${o}`,
      );
    // What only the live read can show: the tool's account, the moved base, GitHub's own links and rules.
    assert.equal(by["forged set-aside (not the tool's account)"].owner, "worker");
    assert.equal(by["set aside: conflict"].owner, "fixer");
    assert.equal(by["behind main"].reason, "behind");
    assert.equal(by["conflicts per GitHub"].reason, "dirty");
    assert.equal(by["needs a code owner"].triage, "held");
    assert.equal(by["approved by a team member"].triage, "candidate");
    assert.equal(by["unresolved conversation"].triage, "held");
    assert.equal(by["only its author owns it"].bypassOnly, true);
    assert.equal(by["closes an issue with Start-After"].reason, "waiting-merge-after");
    assert.equal(by["starved: queued ten days ago"].starved, true);
    assert.deepEqual(report.cycles, [[n["cycle A"], n["cycle B"]]]);
    assert.deepEqual(gh.validationFailures, [], "every request and response matched GitHub's descriptions");
  } finally {
    await gh.close();
  }
});

// Whether a branch is built on the tip of main is git's merge base, which only the compare API tells
// (skip-ci leaves the merge state at BLOCKED). The emulator answers it from each branch's history, so
// the version pull request's hold and the worker's keep-on-tip step are read here as on GitHub.
test("prflow report against the emulator: built on the tip, read through the compare API", async () => {
  const gh = await startEmulator({ owner: "acme", repo: "widgets", seed: "built-on-tip" });
  try {
    gh.clock.set("2026-11-20T09:00:00Z");
    gh.setRequiredChecks(["ci-ok"], { strict: true });
    const paused = ["merge-queued", "skip-ci"];
    const prerequisite = gh.createPull({ title: "not queued yet" }).number;
    const version = gh.createPull({
      title: "Version Packages",
      author: "github-actions[bot]",
      head: "changeset-release/main",
      labels: paused,
    }).number;
    const waiting = gh.createPull({
      title: "waits on a prerequisite",
      labels: paused,
      body: `Merge-After: #${prerequisite}`,
    }).number;
    const env = gh.env(PERSONAL_TOKEN);
    const report = async () => {
      const r = await prflow(["report", "--repo", "acme/widgets", "--config", PRESET_CONFIG, "--format", "json"], env);
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      return { json, by: Object.fromEntries(json.entries.map((e) => [e.number, e])) };
    };
    // (rule, what happens first, expected version reason, expected next action and number)
    const steps = [
      ["both built on the tip they were opened on", () => {}, "version-ready", ["pick", version]],
      [
        "main moves: neither is built on the tip",
        () => gh.moveBranch("main"),
        "version-not-on-tip",
        ["keepOnTip", waiting],
      ],
      [
        "the release workflow rebuilds the version branch",
        () => gh.push(version, { rebase: true, by: "github-actions[bot]" }),
        "version-ready",
        ["pick", version],
      ],
      ["main moves again", () => gh.moveBranch("main"), "version-not-on-tip", ["keepOnTip", waiting]],
      [
        "the waiting one is rebased too: nothing left to keep on the tip",
        () => gh.push(waiting, { rebase: true }),
        "version-not-on-tip",
        ["idle", null],
      ],
    ];
    for (const [rule, act, versionReason, [action, number]] of steps) {
      act();
      gh.clock.advance({ minutes: 5 });
      const { json, by } = await report();
      assert.equal(by[version].reason, versionReason, `${rule}: the version pull request`);
      assert.equal(by[waiting].reason, "waiting-merge-after", `${rule}: #${waiting} waits on #${prerequisite}`);
      assert.deepEqual([json.next.action, json.next.number ?? null], [action, number], `${rule}: next`);
    }
    assert.ok(
      gh.requests.some((r) => r.method === "GET" && /\/compare\/\w+\.\.\.\w+/.test(r.path)),
      "the compare API was asked",
    );
    assert.deepEqual(gh.validationFailures, [], "every request and response matched GitHub's descriptions");
  } finally {
    await gh.close();
  }
});
