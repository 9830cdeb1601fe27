// The stations flow's copyable examples: the ruleset validates against the request-body schema of
// GitHub's create-ruleset endpoint (repos/create-repo-ruleset in @octokit/openapi), a deliberately
// broken one does not, the example config is valid for the engine, and the review prompt forbids
// approval words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { createEngine } from "../../js/node.js";

const require = createRequire(import.meta.url);
const spec = require("@octokit/openapi/generated/api.github.com.json");
const read = (p) => readFileSync(new URL(`../../${p}`, import.meta.url), "utf8");

function createRulesetValidator() {
  const op = Object.values(spec.paths)
    .flatMap((item) => Object.values(item))
    .find((o) => o?.operationId === "repos/create-repo-ruleset");
  assert.ok(op, "the OpenAPI description has repos/create-repo-ruleset");
  const body = op.requestBody.content["application/json"].schema;
  // The body's $refs point at "#/components/...": give them a root to resolve against.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile({ ...body, components: spec.components });
}

const ruleset = JSON.parse(read("examples/stations/ruleset.json"));
const broken = structuredClone(ruleset);
broken.rules.find((r) => r.type === "pull_request").parameters.allowed_merge_methods = ["fast-forward"];
const cases = [
  { rule: "the shipped ruleset is a valid create-ruleset body", body: ruleset, valid: true },
  { rule: "an unknown merge method is rejected (the schema really checks)", body: broken, valid: false },
  { rule: "a ruleset without a name is rejected", body: { ...ruleset, name: undefined }, valid: false },
];
const validate = createRulesetValidator();
for (const c of cases) {
  test(`ruleset: ${c.rule}`, () => {
    const ok = validate(JSON.parse(JSON.stringify(c.body)));
    assert.equal(ok, c.valid, JSON.stringify(validate.errors?.slice(0, 3)));
  });
}

test("ruleset: requires the gate's status context, and no strict up-to-date policy", () => {
  const config = JSON.parse(read("examples/stations/prflow.json"));
  const checks = ruleset.rules.find((r) => r.type === "required_status_checks").parameters;
  assert.ok(checks.required_status_checks.some((c) => c.context === config.stations.gate.context));
  assert.equal(checks.strict_required_status_checks_policy, false);
});

test("example config: valid for the engine", () => {
  assert.deepEqual(createEngine(read("examples/stations/prflow.json")).configErrors(), []);
});

test("review prompt: forbids approval words and asks for BLOCKING on its first line", () => {
  const prompt = read("prompts/review.md");
  for (const word of ["LGTM", "approve"])
    assert.match(prompt, new RegExp(`Never write words of acceptance:.*${word}`, "s"));
  assert.match(prompt, /FIRST line is `BLOCKING/);
});
