// `prflow status`: the dashboard in a terminal. Every open pull request with its state and why, its
// blockers, owner, claimers, time in state and place in the merge queue: the engine's dashboard view
// (the page draws the same view), from a repository (read-only) or offline from a facts file.
import { RunError } from "../../lib/run.js";
import { dashboardText } from "../../lib/dashboard-text.js";
import { readInput } from "./report.js";
import { CONFIG_EITHER, UsageError, terminalWidth } from "../usage.js";

export const summary =
  "Show every open pull request, grouped by who acts next: state and why, blockers, claims, time in state, the queue's lane (read-only).";
export const usage =
  "prflow status (--repo owner/name | --facts FACTS.json) [--config FILE] [--format text|json] [--width N]";
export const examples = [
  "prflow status --repo acme/widgets",
  "prflow status --facts facts.json --width 0 --format json",
];
export const options = {
  repo: { type: "string" },
  facts: { type: "string" },
  config: { type: "string" },
  format: { type: "string", default: "text" },
  width: { type: "string" },
};
export const help = {
  config: CONFIG_EITHER,
  width: "fit every line to N columns (0 cuts nothing; default: the terminal's width, else COLUMNS, else 80)",
};

export async function run(values) {
  const { engine, facts, repository, answer } = await readInput(values, usage, "dashboard");
  const width = values.width === undefined ? null : Number(values.width);
  if (width !== null && (!Number.isInteger(width) || width < 0))
    throw new UsageError(`--width: expected a whole number (0 cuts nothing), found ${JSON.stringify(values.width)}`);
  // Read from a repository, the reader's last round was already the view of the facts it read.
  let view = answer;
  try {
    view ??= engine.dashboard({ facts });
  } catch (e) {
    throw new RunError([`${values.facts ?? repository}: ${e.message}`]);
  }
  const source = repository ?? facts.repository ?? values.facts;
  if (values.format === "json") console.log(JSON.stringify({ repository: source, ...view }, null, 2));
  else {
    const columns = width ?? terminalWidth();
    const head = `${source}: ${view.rows.length} open pull request${view.rows.length === 1 ? "" : "s"} as of ${String(facts.now).slice(0, 16).replace("T", " ")} UTC`;
    process.stdout.write(
      `${columns > 0 && head.length > columns ? `${head.slice(0, columns - 1)}…` : head}\n${dashboardText(view, { width: columns })}`,
    );
  }
  return 0;
}
