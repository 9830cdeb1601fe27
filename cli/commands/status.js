// `prflow status`: the dashboard in a terminal. Every open pull request with its state and why, its
// blockers, owner, claimers, time in state and place in the merge queue: the engine's dashboard view
// (the page draws the same view), from a repository (read-only) or offline from a facts file.
import { RunError } from "../../lib/run.js";
import { dashboardText } from "../../lib/dashboard-text.js";
import { readInput } from "./report.js";
import { CONFIG_EITHER, UsageError, terminalWidth } from "../usage.js";

export const summary = "Show every open pull request: state and why, blockers, owner, claims, time in state, queue (read-only).";
export const usage =
  "prflow status (--repo owner/name | --facts FACTS.json) [--config FILE] [--format text|json] [--width N]   (token: GITHUB_TOKEN; API: GITHUB_API_URL)";
export const examples = ["prflow status --repo acme/widgets", "prflow status --facts facts.json --width 0 --format json"];
export const options = {
  repo: { type: "string" },
  facts: { type: "string" },
  config: { type: "string" },
  format: { type: "string", default: "text" },
  width: { type: "string" },
};
export const help = { config: CONFIG_EITHER, width: "cut each cell to N characters (0 cuts nothing); without it, the widest cut (at most 48) whose table fits the terminal (COLUMNS, or 100 when not a terminal)" };

export async function run(values) {
  const { engine, facts, repository, answer } = await readInput(values, usage, "dashboard");
  const width = values.width === undefined ? null : Number(values.width);
  if (width !== null && (!Number.isInteger(width) || width < 0)) throw new UsageError(`--width: expected a whole number (0 cuts nothing), found ${JSON.stringify(values.width)}`);
  // Read from a repository, the reader's last round was already the view of the facts it read.
  let view = answer;
  try {
    view ??= engine.dashboard({ facts });
  } catch (e) {
    throw new RunError([`${values.facts ?? repository}: ${e.message}`]);
  }
  const source = repository ?? facts.repository ?? values.facts;
  if (values.format === "json") console.log(JSON.stringify({ repository: source, ...view }, null, 2));
  else process.stdout.write(`${source}: ${view.rows.length} open pull request${view.rows.length === 1 ? "" : "s"} as of ${facts.now} (engine ${view.engine})\n${width === null ? fitted(view, terminalWidth()) : dashboardText(view, { width })}`);
  return 0;
}

/** The table with the widest cell cut (48 down to 6) whose rows fit `columns`; the narrowest when none does. */
export function fitted(view, columns) {
  let text;
  for (let cut = 48; cut >= 6; cut--) {
    text = dashboardText(view, { width: cut });
    const rows = text.split("\n").filter((l) => l && !/^(Merge queue:|STOP THE LINE:|Warnings:| {2})/.test(l));
    if (rows.every((l) => l.length <= columns)) return text;
  }
  return text;
}
