// What a runner gives an Action and takes back, without @actions/core (the bundle stays small): inputs from
// INPUT_* variables, outputs to $GITHUB_OUTPUT, the job summary to $GITHUB_STEP_SUMMARY, workflow commands.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";

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
  const data = String(message).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  return `::error::${data}`;
}
