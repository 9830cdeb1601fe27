// The validation gate's two steps as one shared run for the CLI (`prflow gate`) and the Action
// (`mode: gate-classify` / `gate-report`): read the pull request's facts, ask the engine, apply its
// status and label writes. The engine decides docs-only, "is the head still the tested commit", and
// which labels move; this only reads and writes.
import { githubPort } from "./github-port.js";

export const GATE_STEPS = ["classify", "report"];

/** Returns the engine's decision and the write results: { decision, results }. */
export async function gateRun({ engine, octokit, owner, repo, step, number, sha, result, live, log = () => {} }) {
  if (!GATE_STEPS.includes(step))
    throw new Error(`gate step: expected ${GATE_STEPS.join(" or ")}, found ${JSON.stringify(step)}`);
  const port = githubPort(octokit, { owner, repo, live, log });
  const facts = await port.readFacts([number]);
  const decision =
    step === "classify"
      ? engine.gateClassify({ facts, number })
      : engine.gateReport({ facts, number, testedSha: sha, result });
  log(decision.why);
  for (const w of decision.warnings) log(`warning: ${w.message}`);
  const results = await port.apply(decision.ops, facts);
  return { decision, results };
}
