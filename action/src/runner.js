// What a runner gives an Action and takes back, without @actions/core (the bundle stays small): inputs from
// INPUT_* variables, outputs to $GITHUB_OUTPUT, the job summary to $GITHUB_STEP_SUMMARY, workflow commands.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { warningKinds } from "../../lib/summary.js";

/** An input as the runner passes it: `INPUT_<NAME>` with spaces as underscores, upper case, trimmed. */
export function getInput(name, env = process.env) {
  return (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}

/** A boolean input the way GitHub's YAML 1.2 core schema spells them; anything else is a usage error. */
export function getBooleanInput(name, fallback, env = process.env) {
  const raw = getInput(name, env);
  if (raw === "") return fallback;
  if (["true", "True", "TRUE"].includes(raw)) return true;
  if (["false", "False", "FALSE"].includes(raw)) return false;
  throw new Error(`input ${name}: expected true or false, found ${JSON.stringify(raw)}`);
}

/** Writes one output, multi-line safe (the heredoc form the runner reads). */
export function setOutput(name, value, env = process.env) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (!env.GITHUB_OUTPUT) return;
  const delimiter = `prflow_${randomUUID()}`;
  appendFileSync(env.GITHUB_OUTPUT, `${name}<<${delimiter}\n${text}\n${delimiter}\n`);
}

/** Appends Markdown to the job summary. */
export function appendSummary(markdown, env = process.env) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
}

/** The event payload the runner wrote, or {} when there is none. */
export function readEvent(env = process.env) {
  const path = env.GITHUB_EVENT_PATH;
  if (!path || !existsSync(path)) return {};
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Workflow commands: an annotation the run page shows. Data is escaped as the runner expects. */
export function errorCommand(message) {
  return `::error::${escapeData(message)}`;
}

function escapeData(message) {
  return String(message).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(value) {
  return escapeData(value).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** A warning annotation with a title (the run page shows both). */
export function warningCommand(message, title) {
  return `::warning${title ? ` title=${escapeProperty(title)}` : ""}::${escapeData(message)}`;
}

/** GitHub caps a job's outputs at 1 MB in all; one output stays well under it, beside the small ones. */
export const MAX_OUTPUT_BYTES = 512 * 1024;

/**
 * The plan for the `plan` output, under MAX_OUTPUT_BYTES: whole when it fits, else without the per-pull
 * rows (the job summary has them), else only the counts. `note` says what was left out, or is null.
 */
export function boundedPlan(plan, counts, max = MAX_OUTPUT_BYTES) {
  const bytes = (v) => Buffer.byteLength(JSON.stringify(v));
  const full = bytes(plan);
  if (full <= max) return { value: plan, note: null };
  const note = `the plan is ${full} bytes, over the ${max}-byte budget of the plan output (GitHub caps a job's outputs at 1 MB)`;
  const slim = {
    engine: plan.engine,
    truncated: `${note}; the pull request rows are left out, the job summary lists them`,
    configErrors: plan.configErrors,
    ops: plan.ops,
    warnings: plan.warnings.length,
  };
  if (bytes(slim) <= max) return { value: slim, note: slim.truncated };
  const counted = {
    engine: plan.engine,
    truncated: `${note}; only the counts are kept, the job summary lists the changes`,
    counts,
  };
  return { value: counted, note: counted.truncated };
}

/**
 * Folds the log into `::group::` sections by what a line is about (reading, the writes, the warnings),
 * so a run page opens short. `end()` closes the last one.
 */
export function groupedLog(print = (line) => console.log(line)) {
  let current = null;
  const kindOf = (line) =>
    /^warning\b/.test(line)
      ? "warnings"
      : /^#\d+: /.test(line)
        ? "changes"
        : /^(retry|waiting|giving up|GitHub answered|octokit)/.test(line)
          ? (current ?? "reading")
          : "reading";
  const titles = {
    reading: "prflow: config and reading from GitHub",
    changes: "prflow: the changes, one line each",
    warnings: "prflow: every warning (the annotations group them)",
  };
  const log = (line) => {
    const kind = kindOf(line);
    if (kind !== current) {
      if (current) print("::endgroup::");
      print(`::group::${titles[kind]}`);
      current = kind;
    }
    print(line);
  };
  log.end = () => {
    if (current) print("::endgroup::");
    current = null;
  };
  return log;
}

/** One annotation per kind of warning, with its count, the pull requests and the names it concerns. */
export function warningAnnotations(warnings) {
  const list = (xs, n = 8) => xs.slice(0, n).join(", ") + (xs.length > n ? `, and ${xs.length - n} more` : "");
  return warningKinds(warnings).map((g) => {
    const where = g.numbers.length
      ? ` on ${g.numbers.length} pull request${g.numbers.length === 1 ? "" : "s"} (${list(g.numbers.map((n) => `#${n}`))})`
      : "";
    const names = g.names.length ? `; ${list(g.names)}` : "";
    return warningCommand(
      `${g.count} × ${g.kind}${where}${names}. For example: ${g.example}`,
      `prflow: ${g.count} warning${g.count === 1 ? "" : "s"}: ${g.kind.slice(0, 80)}`,
    );
  });
}
