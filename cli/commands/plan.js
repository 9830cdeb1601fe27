// `prflow plan FACTS.json`: the engine on a facts file, offline; nothing is read from or written to GitHub.
import { readFileSync } from "node:fs";
import { UsageError, terminalWidth } from "../usage.js";
import { offlineConfig } from "../common.js";
import { RunError } from "../../lib/run.js";
import { boardText, reconcileSummary } from "../../lib/summary.js";

export const summary = "Print the plan for a facts file, offline (no GitHub).";
export const usage = "prflow plan FACTS.json [--config FILE] [--json | --markdown]";
export const examples = ["prflow plan facts.json", "prflow plan facts.json --config .github/prflow.json --format json"];
export const help = { config: "the config file (default: .github/prflow.json here, else the bot-panel preset)" };
export const options = {
  config: { type: "string" },
  markdown: { type: "boolean", default: false },
};

export async function run(values, positionals) {
  if (positionals.length !== 1)
    throw new UsageError(`expected one facts file, found ${positionals.length}\nusage: ${usage}`);
  const [file] = positionals;
  let facts;
  try {
    facts = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new RunError([
      `${file}: $: expected a JSON facts file, found ${e.code === "ENOENT" ? "no such file" : e.message}`,
    ]);
  }
  const { engine } = offlineConfig(values);
  let plan;
  try {
    plan = engine.reconcile({ facts });
  } catch (e) {
    throw new RunError([`${file}: ${e.message}`]);
  }
  if (values.json) {
    console.log(JSON.stringify(plan, null, 2));
    return 0;
  }
  if (values.markdown) {
    const counts = { ops: plan.ops.length, writes: 0, warnings: plan.warnings.length };
    console.log(
      reconcileSummary({
        repo: facts.repository || file,
        plan,
        results: [],
        live: false,
        scope: `facts file ${file}`,
        counts,
      }),
    );
  } else {
    console.log(boardText(plan, [], { live: false, width: terminalWidth() }));
  }
  return 0;
}
