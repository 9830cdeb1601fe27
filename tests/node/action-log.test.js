// What the Action leaves on a run page, on the emulator: the log folded in `::group::` sections, the
// warnings as `::warning::` annotations grouped by kind with counts, failures as one `::error::` naming
// the step, a rate limit that stops the writes, and outputs under GitHub's 1 MB limit on 2,000 pull requests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../../emulator/index.js";
import { seedBoard } from "../../scripts/lib/seed-emulator.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), "prflow-ws-"));
  mkdirSync(join(dir, ".github"));
  copyFileSync(join(ROOT, "examples/prflow.json"), join(dir, ".github/prflow.json"));
  return dir;
}

async function board(count) {
  const em = await startEmulator();
  seedBoard(em, count);
  const ws = workspace();
  const run = (inputs) =>
    em.runAction({
      actionPath: ROOT,
      event: "schedule",
      payload: { schedule: "17,47 * * * *" },
      inputs: { mode: "reconcile", live: "false", ...inputs },
      workspace: ws,
    });
  return { em, run };
}

async function shutdown(em) {
  await em.settle();
  em.server.closeAllConnections?.();
  await new Promise((resolve) => em.server.close(resolve));
}

test("action log: a dry run before the labels exist folds its log and annotates each kind of warning once, with its count", async () => {
  const { em, run } = await board(12);
  try {
    const r = await run({});
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.split("\n");
    const opens = lines.filter((l) => l.startsWith("::group::"));
    const closes = lines.filter((l) => l === "::endgroup::");
    assert.ok(opens.length >= 3, `groups: ${opens.join(" | ")}`);
    assert.equal(opens.length, closes.length, "every group is closed");
    assert.ok(opens.some((l) => /every warning/.test(l)));
    const perWarning = lines.filter((l) => /^warning #\d+: label "/.test(l)).length;
    assert.ok(perWarning > 10, `the board has many missing-label warnings (${perWarning})`);
    const annotations = lines.filter((l) => l.startsWith("::warning"));
    const missing = annotations.filter((l) => /label … does not exist in the repository/.test(l));
    assert.equal(missing.length, 1, `one annotation for the missing labels, found\n${annotations.join("\n")}`);
    assert.match(
      missing[0],
      new RegExp(
        `::${perWarning} × label … does not exist in the repository, so it was not added; \`prflow labels\` creates it on \\d+ pull requests \\(#1, `,
      ),
    );
    assert.match(missing[0], /^::warning title=prflow%3A \d+ warnings%3A /);
    assert.ok(annotations.length < perWarning, "fewer annotations than warnings");
    assert.doesNotMatch(r.stdout, /would: would/);
    // The job summary, for a person: the warnings by kind with their counts, not one line each.
    assert.ok(
      r.summary.includes(
        `### ${perWarning} warnings\n\n- **${perWarning} ×** label … does not exist in the repository`,
      ),
      r.summary,
    );
    assert.doesNotMatch(r.summary, /^- #\d+: label "/m);
  } finally {
    await shutdown(em);
  }
});

test("action log: a rate limit on the writes stops them, one ::error:: says until when", async () => {
  const { em, run } = await board(40);
  try {
    assert.equal((await run({ mode: "labels", live: "true" })).code, 0);
    em.reset();
    const dry = await run({});
    const ops = Number(dry.outputs.ops);
    assert.ok(ops > 5, `ops: ${ops}`);
    em.reset();
    // Enough REST budget for the reads and two writes.
    const readsRest = 0;
    em.setRateLimit({ rest: readsRest + 2 });
    const r = await run({ live: "true" });
    assert.equal(r.code, 1, r.stdout);
    const c = em.counts();
    // A write's guard read counts as part of it: once one is refused, neither is asked again. (The
    // facts' own rules read is refused too on this spent budget; reads are not what this counts.)
    const refused = em.requests.filter((q) => q.path !== "/graphql" && !q.path.includes("/rules/") && q.status === 403);
    assert.equal(
      refused.length,
      1,
      `one refused request, then none: ${c.writes} writes for ${ops} ops: ${JSON.stringify(refused.map((q) => [q.method, q.path]))}`,
    );
    const errors = r.stdout.split("\n").filter((l) => l.startsWith("::error::"));
    assert.ok(
      errors.some((l) => /writes? not attempted: rate limited by GitHub until \d\d:\d\d UTC/.test(l)),
      errors.join("\n"),
    );
    assert.doesNotMatch(r.stdout, /read-only token/);
    assert.ok(errors.length <= 3, `a few lines, not one per write:\n${errors.join("\n")}`);
  } finally {
    await shutdown(em);
  }
});

test("action outputs: on a board of 2,000 pull requests the plan output stays under GitHub's limit, the summary says it was cut", async () => {
  const { em, run } = await board(2000);
  try {
    const r = await run({});
    assert.equal(r.code, 0, r.stderr);
    const total = Object.values(r.outputs).reduce((n, v) => n + Buffer.byteLength(v), 0);
    assert.ok(total < 1024 * 1024, `outputs ${total} bytes`);
    const plan = JSON.parse(r.outputs.plan);
    assert.match(plan.truncated, /over the \d+-byte budget of the plan output/);
    assert.ok(Array.isArray(plan.ops) && plan.ops.length === Number(r.outputs.ops), "the operations are kept");
    assert.match(r.summary, /The plan output is cut/);
    assert.match(r.stdout, /^::group::/m);
  } finally {
    await shutdown(em);
  }
});

test("a null pull request node is reported and left out, not a crash", async () => {
  const { makeOctokit, readFacts } = await import("../../lib/github/index.js");
  const { PERSONAL_TOKEN } = await import("../../emulator/index.js");
  const { em } = await board(3);
  try {
    const octokit = makeOctokit({ token: PERSONAL_TOKEN, baseUrl: em.url, graphqlUrl: em.graphqlUrl });
    // GitHub's answer when it fails to build one node: null in the list, an error at its path.
    octokit.hook.after("request", (res) => {
      const conn = res.data?.data?.repository?.pullRequests;
      if (!conn?.nodes?.length) return;
      conn.nodes[0] = null;
      res.data.errors = [
        ...(res.data.errors ?? []),
        {
          message: "Something went wrong while executing your query.",
          path: ["repository", "pullRequests", "nodes", 0],
        },
      ];
    });
    const lines = [];
    const facts = await readFacts(octokit, { owner: "acme", repo: "widgets", log: (l) => lines.push(l) });
    assert.deepEqual(
      facts.pullRequests.map((p) => p.number),
      [2, 3],
    );
    assert.ok(
      lines.some((l) => /a pull request came back empty from GitHub \(Something went wrong/.test(l)),
      lines.join("\n"),
    );
  } finally {
    await shutdown(em);
  }
});
