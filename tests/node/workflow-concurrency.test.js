// The example workflows' concurrency groups (issue 15, item 5): a run about one pull request shares
// that pull request's group, whatever event woke it, so two runs never write the same pull request's
// labels at once (a stale check_run's write landing after the pull request's own run). The group
// expression is evaluated here for each event's payload and compared with the scope the Action takes
// from the same payload (lib/github/events.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { load as loadYaml } from "js-yaml";
import { parseEvent } from "../../lib/github/events.js";

const root = new URL("../../", import.meta.url);
const workflow = loadYaml(readFileSync(new URL("examples/workflows/prflow.yml", root), "utf8"));
// The README's minimal workflow, copied as it is.
const minimal = loadYaml(
  /```yaml\n(name: prflow\n[\s\S]*?)```/.exec(readFileSync(new URL("README.md", root), "utf8"))[1],
);

/**
 * GitHub's value of `${{ a || b || 'literal' }}` in `text`, for the expressions the examples use:
 * property paths (with [0]) and quoted literals joined by ||; a missing property is null.
 */
function evaluate(text, context) {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expr) => {
    for (const term of expr.split("||").map((t) => t.trim())) {
      const literal = /^'(.*)'$/.exec(term);
      const value = literal
        ? literal[1]
        : term
            .split(/\.|\[(\d+)\]/)
            .filter(Boolean)
            .reduce((v, k) => v?.[k] ?? null, context);
      if (value) return String(value);
    }
    return "";
  });
}

const repository = { default_branch: "main", full_name: "acme/widgets" };
const EVENTS = [
  ["pull_request_target", { action: "synchronize", number: 12, pull_request: { number: 12 } }],
  ["pull_request_review", { action: "submitted", pull_request: { number: 12 } }],
  ["issue_comment", { action: "created", issue: { number: 12, pull_request: {} } }],
  ["check_suite", { action: "completed", check_suite: { pull_requests: [{ number: 12 }] } }],
  ["check_run", { action: "completed", check_run: { pull_requests: [{ number: 12 }] } }],
  ["check_run", { action: "completed", check_run: { pull_requests: [] } }],
  ["status", { sha: "abc1234", context: "ci" }],
  ["schedule", { schedule: "17,47 * * * *" }],
];

test("prflow.yml and the README's: every run about one pull request is in that pull request's group; the others are the sweep's", () => {
  for (const wf of [workflow, minimal]) check(wf);
});

function check(wf) {
  const group = wf.concurrency.group;
  const on = Object.keys(wf.on);
  for (const [name, payload] of EVENTS.filter(([n]) => on.includes(n))) {
    const scope = parseEvent(name, payload);
    const got = evaluate(group, { github: { event: { ...payload, repository }, event_name: name } });
    const want = scope.scope === "pulls" && scope.numbers.length === 1 ? `prflow-${scope.numbers[0]}` : "prflow-sweep";
    assert.equal(
      got,
      want,
      `${name} ${JSON.stringify(payload)}: the run reconciles ${JSON.stringify(scope.numbers ?? scope.scope)}`,
    );
  }
  assert.equal(wf.concurrency["cancel-in-progress"], false, "a run in progress finishes its writes");
}
