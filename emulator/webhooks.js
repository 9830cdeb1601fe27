// Judges each webhook payload the emulator sends by GitHub's own: the real payload of the same event and
// action in @octokit/webhooks-examples. No JSON Schema of the payloads is installed, so the check is that
// every field the real payload has (at the top and in its main objects) is present in ours.
import { readFileSync } from "node:fs";

/** Fields only GitHub App installations, organisations or enterprises get. */
const NOT_OURS = new Set(["installation", "organization", "enterprise"]);
/** The objects inside a payload whose fields are compared too. */
const NESTED = [
  "pull_request",
  "issue",
  "comment",
  "review",
  "check_run",
  "check_suite",
  "label",
  "commit",
  "pusher",
  "head_commit",
];

let examples = null;
function byEvent() {
  if (!examples) {
    const list = JSON.parse(readFileSync(new URL(import.meta.resolve("@octokit/webhooks-examples")), "utf8"));
    examples = new Map(list.map((e) => [e.name, e.examples]));
  }
  return examples;
}

/**
 * The fields the real example of `name`.`action` has that `payload` lacks (["push: head_commit", ...]);
 * empty when there is no example to compare with (then nothing is claimed).
 */
export function missingWebhookFields(name, payload) {
  const example = byEvent()
    .get(name)
    ?.find((p) => (p.action ?? null) === (payload.action ?? null));
  if (!example) return [];
  const where = `${name}${payload.action ? `.${payload.action}` : ""}`;
  const absent = (a, b, prefix) =>
    Object.keys(a)
      .filter((k) => !NOT_OURS.has(k) && !(k in b))
      .map((k) => `${where}: ${prefix}${k}`);
  // A team's review request carries `requested_team` where a person's carries `requested_reviewer`.
  const missing = absent(example, payload, "").filter(
    (m) => !(payload.requested_team && m.endsWith(": requested_reviewer")),
  );
  for (const k of NESTED) {
    if (example[k] && typeof example[k] === "object" && !Array.isArray(example[k]) && payload[k])
      missing.push(...absent(example[k], payload[k], `${k}.`));
  }
  return missing;
}

/** Whether the examples hold a payload for this event and action (what the check can judge). */
export function hasWebhookExample(name, action) {
  return !!byEvent()
    .get(name)
    ?.some((p) => (p.action ?? null) === (action ?? null));
}
