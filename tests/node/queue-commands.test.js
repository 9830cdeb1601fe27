// `prflow claim-pr` and `prflow report-unowned` against the GitHub emulator: a claim is refused unless the
// fixer owns the pull request, is written with its marker and read back, blocks a second claimant, and is
// released as a resolved line; report-unowned files one issue per owner-none pull request and finds it
// again by its hidden line, so a second run files nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { PERSONAL_TOKEN, startEmulator } from "../../emulator/index.js";
import { prflow, PRESET_CONFIG } from "./lib/cli.js";

const _ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NO_CONFIG = ["--config", PRESET_CONFIG];

async function withQueue(fn) {
  const gh = await startEmulator({ owner: "acme", repo: "widgets", seed: "queue-commands" });
  try {
    gh.clock.set("2026-11-30T09:00:00Z");
    const Q = ["merge-queued", "skip-ci"];
    const waiting = gh.createPull({ title: "waiting its turn", labels: Q });
    const conflict = gh.createPull({ title: "set aside: conflict", labels: Q });
    gh.comment(conflict.number, {
      author: "acme",
      body: `<!-- prflow:set-aside reason=rebase-failed head=${conflict.headSha} base=x -->\nset aside\n\n- [ ] Retry`,
    });
    const unknown = gh.createPull({ title: "unknown reason", labels: Q });
    gh.comment(unknown.number, {
      author: "acme",
      body: `<!-- prflow:set-aside reason=gremlins head=${unknown.headSha} base=x -->\n- [ ] Retry`,
    });
    await fn({
      gh,
      env: gh.env(PERSONAL_TOKEN),
      waiting: waiting.number,
      conflict: conflict.number,
      unknown: unknown.number,
    });
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await gh.close();
  }
}

const markers = (gh, n) =>
  gh.state
    .pull(n)
    .comments.map((id) => gh.state.comments.get(id).body)
    .filter((b) => b.startsWith("<!-- prflow:claim") || b.startsWith("<!-- prflow:resolved was=claim"));

test("claim-pr: refused on the worker's pull request; written, read back and exclusive on a set-aside one; released as one resolved line", async () => {
  await withQueue(async ({ gh, env, waiting, conflict }) => {
    const refused = await prflow(
      ["claim-pr", String(waiting), "--by", "fixer-1", "--repo", "acme/widgets", ...NO_CONFIG],
      env,
    );
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /^prflow: .*is the worker's/m);
    assert.equal(refused.stdout, "", "a refusal is an error line, not output");
    assert.deepEqual(markers(gh, waiting), [], "nothing written on a refusal");

    const claimed = await prflow(
      ["claim-pr", String(conflict), "--by", "fixer-1", "--repo", "acme/widgets", ...NO_CONFIG],
      env,
    );
    assert.equal(claimed.code, 0, claimed.stdout + claimed.stderr);
    const [claim] = markers(gh, conflict);
    assert.match(
      claim,
      new RegExp(
        `^<!-- prflow:claim head=${gh.state.pull(conflict).headSha} by=fixer-1 at=2026-11-30T09:\\d\\d:\\d\\dZ -->`,
      ),
    );

    const second = await prflow(
      ["claim-pr", String(conflict), "--by", "fixer-2", "--repo", "acme/widgets", ...NO_CONFIG],
      env,
    );
    assert.equal(second.code, 1);
    assert.match(second.stderr, /^prflow: .*claimed by fixer-1/m);

    const report = JSON.parse(
      (await prflow(["report", "--repo", "acme/widgets", ...NO_CONFIG, "--format", "json"], env)).stdout,
    );
    assert.equal(report.entries.find((e) => e.number === conflict).claim.by, "fixer-1");

    const released = await prflow(
      ["claim-pr", String(conflict), "--by", "fixer-1", "--release", "--repo", "acme/widgets", ...NO_CONFIG],
      env,
    );
    assert.equal(released.code, 0, released.stdout + released.stderr);
    const after = markers(gh, conflict);
    assert.equal(after.length, 1, "edited in place, not a second comment");
    assert.match(after[0], /^<!-- prflow:resolved was=claim .* --> Resolved: released by fixer-1\.$/);
  });
});

test("claim-pr: two claimants in the same moment; the oldest claim holds, so the one written after ours reads back as the loser", async () => {
  await withQueue(async ({ gh, env, conflict }) => {
    // Another session writing its claim right after ours, as the same account, before our read-back.
    let raced = false;
    gh.workflows.on("issue_comment", (_event, payload) => {
      if (raced || !String(payload.comment?.body).includes("by=fixer-1")) return;
      raced = true;
      const head = gh.state.pull(conflict).headSha;
      gh.comment(conflict, {
        author: "acme",
        body: `<!-- prflow:claim head=${head} by=fixer-2 at=2026-11-30T09:00:00Z -->`,
      });
    });
    const r = await prflow(
      ["claim-pr", String(conflict), "--by", "fixer-1", "--repo", "acme/widgets", ...NO_CONFIG],
      env,
    );
    assert.ok(raced, "the competing claim was written");
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // fixer-2 wrote after fixer-1's comment existed, so its own read-back sees fixer-1's as the older: it lost.
    const again = await prflow(
      ["claim-pr", String(conflict), "--by", "fixer-2", "--repo", "acme/widgets", ...NO_CONFIG],
      env,
    );
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^prflow: .*claimed by fixer-1/m);
  });
});

test("report-unowned: a dry run files nothing; --live files one issue per owner-none pull request; a second run finds it again", async () => {
  await withQueue(async ({ gh, env, unknown }) => {
    const issues = () => [...gh.state.pulls.values()].filter((p) => !p.isPull);
    const dry = await prflow(["report-unowned", "--repo", "acme/widgets", ...NO_CONFIG], env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, new RegExp(`#${unknown}: would file \\(dry run\\)`));
    assert.equal(issues().length, 0);

    const live = await prflow(["report-unowned", "--repo", "acme/widgets", ...NO_CONFIG, "--live"], env);
    assert.equal(live.code, 0, live.stderr);
    assert.equal(issues().length, 1);
    assert.match(issues()[0].body, new RegExp(`^<!-- prflow:unowned pr=${unknown} -->`));

    const again = await prflow(["report-unowned", "--repo", "acme/widgets", ...NO_CONFIG, "--live"], env);
    assert.match(again.stdout, /already filed/);
    assert.equal(issues().length, 1, "found again by its hidden line: nothing new filed");
  });
});
