// `prflow gate classify|report <number>`: the validation gate's two steps for the gate workflow.
// classify writes the docs-only success status (or a pending one) and prints `need=true|false`,
// `run=...` and `sha=...` lines for $GITHUB_OUTPUT; report writes the validation machine's result
// on the commit it tested, and moves the labels only when that commit is still the head.
import { connect, repoConfig, UsageError } from "../common.js";
import { RunError } from "../../lib/run.js";
import { gateRun } from "../../lib/stations/gate-run.js";

export const summary = "The validation gate's classify and report steps (stations flow).";
export const usage =
  "prflow gate classify <number> | prflow gate report <number> --sha SHA --result success|failure|cancelled|skipped   --repo owner/name [--config FILE] [--live | --dry-run]";
export const writes = "legacy";
export const writeNote = "It writes the gate's commit status, and the labels on a report.";
export const help = {
  sha: "the commit the gate ran on (report)",
  result: "the gate's result: success, failure, cancelled or skipped (report)",
  "dry-run": "print the status it would set, write nothing",
};
export const examples = [
  "prflow gate classify 12 --live --repo acme/widgets",
  "prflow gate report 12 --sha 3f2a1c9 --result success --live --repo acme/widgets",
];
export const options = {
  repo: { type: "string" },
  config: { type: "string" },
  sha: { type: "string" },
  result: { type: "string" },
};

export async function run(values, positionals) {
  const [step, n, ...extra] = positionals;
  const number = Number(n);
  if (!["classify", "report"].includes(step) || !Number.isInteger(number) || number < 1 || extra.length)
    throw new UsageError(`usage: ${usage}`);
  if (step === "report" && (!values.sha || !values.result))
    throw new UsageError(`report needs --sha and --result\nusage: ${usage}`);
  const live = !values["dry-run"];
  const { owner, repo, octokit, log } = connect({ repo: values.repo });
  const { engine } = await repoConfig(values, { octokit, owner, repo });
  try {
    const { decision: d } = await gateRun({
      engine,
      octokit,
      owner,
      repo,
      step,
      number,
      sha: values.sha,
      result: values.result,
      live,
      log,
    });
    console.log(
      values.json
        ? JSON.stringify({ run: d.run, need: d.need, sha: d.sha, pr: number })
        : `run=${d.run}\nneed=${d.need}\nsha=${d.sha}\npr=${number}`,
    );
  } catch (e) {
    // GitHub's answers keep their status, so the failure line says what to do (bad token, not found, ...).
    if (e?.status !== undefined || e?.unreachable)
      throw Object.assign(e, { step: e.step ?? `gate ${step} #${number}` });
    throw new RunError([e.message]);
  }
  return 0;
}
