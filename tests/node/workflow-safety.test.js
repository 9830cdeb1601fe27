// The shipped workflows never let a pull request choose the code or config a privileged run uses
// (issue 15, item 11): a workflow woken by pull_request_target, pull_request_review, issue_comment or
// workflow_run runs with the base repository's token, so each of its checkouts must name the default
// branch. zizmor's inline ignores on those triggers would hide a checkout of the pull request, so this
// reads the files themselves. One checkout of pull-request code is meant, and listed below with why.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load as loadYaml } from "js-yaml";

const root = new URL("../../", import.meta.url).pathname;
const DIRS = ["examples/workflows", ".github/workflows"];
const PRIVILEGED = [
  "pull_request_target",
  "pull_request_review",
  "pull_request_review_comment",
  "issue_comment",
  "workflow_run",
];
const DEFAULT_BRANCH = "${{ github.event.repository.default_branch }}";
// The validation machine runs the approved head on purpose: that is the gate. Its ref is the sha the
// classify job settled (after an approval), its job holds only `contents: read` and no credentials.
const MEANT = new Map([["stations-win-verify.yml windows", "${{ needs.classify.outputs.sha }}"]]);

/** Every checkout of `file` that could be pull-request code: [{ where, ref }] with why it is refused. */
export function unsafeCheckouts(file, text) {
  const wf = loadYaml(text);
  const on = typeof wf.on === "string" ? [wf.on] : Array.isArray(wf.on) ? wf.on : Object.keys(wf.on ?? {});
  if (!on.some((t) => PRIVILEGED.includes(t))) return [];
  const found = [];
  for (const [job, spec] of Object.entries(wf.jobs ?? {})) {
    (spec.steps ?? []).forEach((step, i) => {
      if (!/^actions\/checkout@/.test(step.uses ?? "")) return;
      const ref = step.with?.ref;
      const where = `${file} ${job} step ${i + 1}`;
      if (MEANT.has(`${file} ${job}`) && MEANT.get(`${file} ${job}`) === ref) return;
      if (ref === undefined) found.push(`${where}: no ref (the event's own commit: a pull request's merge or head)`);
      else if (String(ref).trim() !== DEFAULT_BRANCH) found.push(`${where}: ref ${ref} is not the default branch`);
      if (step.with?.repository) found.push(`${where}: checks out another repository (${step.with.repository})`);
    });
  }
  return found;
}

const shipped = DIRS.flatMap((dir) =>
  readdirSync(join(root, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => ({ dir, file: f, text: readFileSync(join(root, dir, f), "utf8") })),
);

// The README's workflow snippets are copied as they are: they are held to the same rule.
const readmeBlocks = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)]
  .map((m, i) => ({ dir: "README.md", file: `README.md yaml block ${i + 1}`, text: m[1] }))
  .filter(({ text }) => /^on:/m.test(text));

test("every shipped workflow on a privileged trigger checks out the default branch only", () => {
  assert.ok(readmeBlocks.length >= 1, "the README's workflow is read");
  assert.deepEqual(
    readmeBlocks.flatMap(({ file, text }) => unsafeCheckouts(file, text)),
    [],
    "the README's workflows",
  );
  assert.ok(shipped.length >= 9, `${shipped.length} workflows found`);
  const privileged = shipped.filter(({ text }) => PRIVILEGED.some((t) => new RegExp(`^  ${t}:`, "m").test(text)));
  assert.ok(privileged.length >= 3, `the privileged ones are read: ${privileged.map((w) => w.file)}`);
  assert.deepEqual(
    shipped.flatMap(({ file, text }) => unsafeCheckouts(file, text)),
    [],
  );
});

test("the check catches a checkout with no ref, of the head, of the merge ref, or from a comment", () => {
  const pr = readFileSync(join(root, "examples/workflows/stations-pr-state.yml"), "utf8");
  const variants = {
    "no ref": pr.replace(/^ +ref: \$\{\{ github\.event\.repository\.default_branch \}\}\n/m, ""),
    head: pr.replace(
      "ref: ${{ github.event.repository.default_branch }}",
      "ref: ${{ github.event.pull_request.head.sha }}",
    ),
    merge: pr.replace(
      "ref: ${{ github.event.repository.default_branch }}",
      "ref: refs/pull/${{ github.event.issue.number }}/merge",
    ),
  };
  // A copy on disk, read as the shipped ones are.
  const dir = mkdtempSync(join(tmpdir(), "prflow-workflows-"));
  for (const [name, text] of Object.entries(variants)) {
    assert.notEqual(text, pr, `${name}: the variant differs from the shipped file`);
    writeFileSync(join(dir, `${name}.yml`), text);
    const found = unsafeCheckouts(`${name}.yml`, readFileSync(join(dir, `${name}.yml`), "utf8"));
    assert.equal(found.length, 1, `${name}: ${JSON.stringify(found)}`);
  }
  // The meant exception is exact: the validation job with any other ref is refused.
  const wv = readFileSync(join(root, "examples/workflows/stations-win-verify.yml"), "utf8");
  const moved = wv.replace("ref: ${{ needs.classify.outputs.sha }}", "ref: ${{ github.event.pull_request.head.sha }}");
  assert.notEqual(moved, wv);
  assert.equal(unsafeCheckouts("stations-win-verify.yml", moved).length, 1);
  // The same file under a trigger no pull request controls is not this test's business.
  assert.deepEqual(
    unsafeCheckouts("push.yml", "on: push\njobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n"),
    [],
  );
});

test("the example ruleset counts the gate's status only from the GitHub Actions app that writes it", () => {
  const ruleset = JSON.parse(readFileSync(join(root, "examples/stations/ruleset.json"), "utf8"));
  const config = JSON.parse(readFileSync(join(root, "examples/stations/prflow.json"), "utf8"));
  const checks = ruleset.rules.find((r) => r.type === "required_status_checks").parameters.required_status_checks;
  const gate = checks.find((c) => c.context === config.stations.gate.context);
  // 15368 is the GitHub Actions app: the author of statuses written with a workflow's GITHUB_TOKEN.
  assert.equal(gate?.integration_id, 15368, "without an integration, anyone's status of that name passes the gate");
});
