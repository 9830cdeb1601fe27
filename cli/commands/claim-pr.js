// `prflow claim-pr <n> --by <name> [--release]`: a fixer's claim on a set-aside pull request, so the
// worker leaves it alone while the fix is made. The engine decides whether the claim is allowed (the
// owner must be the fixer; another claimant's claim refuses it), the comment op, and after the read-back
// who won (`claimPrReadBack`); this writes through the writer table, reads back, and reports.
import { restPages } from "../../lib/github/read-queue.js";
import { UsageError } from "../usage.js";
import { DEFAULT_CONFIG_PATH } from "../../lib/config-file.js";
import { RunError } from "../../lib/run.js";
import { applyOps } from "../../lib/github/index.js";
import { loadConfigOrThrow, queueFacts } from "./report.js";

export const summary = "Claim (or --release) a set-aside pull request for a fixer, so the queue leaves it alone.";
export const usage = "prflow claim-pr <number> --by <name> [--release] [--dry-run] --repo owner/name [--config FILE] [--json]   (token: GITHUB_TOKEN)";
export const writes = "Writes by default (the claim comment, read back); --dry-run prints what it would do.";
export const help = { by: "who claims it: a person's or machine's name (required)", release: "give the claim back instead of taking it" };
export const examples = ["prflow claim-pr 12 --by alice --repo acme/widgets", "prflow claim-pr 12 --by alice --release --repo acme/widgets"];
export const options = {
  repo: { type: "string" },
  by: { type: "string", valueName: "NAME" },
  release: { type: "boolean", default: false },
  "dry-run": { type: "boolean", default: false },
  config: { type: "string", default: DEFAULT_CONFIG_PATH },
  json: { type: "boolean", default: false },
};

/** The pull request's comments as facts: every author, so the engine can tell the tool's own apart. */
async function readComments(octokit, owner, repo, number) {
  const comments = await restPages(octokit, "GET /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner, repo, issue_number: number });
  return comments.map((c) => ({ id: c.id, author: c.user?.login ?? "", body: c.body ?? "", createdAt: c.created_at }));
}

export async function run(values, positionals) {
  if (positionals.length !== 1 || !/^\d+$/.test(positionals[0])) throw new UsageError(`expected one pull request number\nusage: ${usage}`);
  if (!values.by) throw new UsageError(`--by: the claimant's name is required\nusage: ${usage}`);
  const number = Number(positionals[0]);
  const engine = loadConfigOrThrow(values.config);
  const { facts, octokit, owner, repo, log } = await queueFacts(values, engine);
  const pr = facts.pullRequests.find((p) => p.number === number);
  if (pr) pr.comments = await readComments(octokit, owner, repo, number);
  const decision = engine.claimPr({ facts, number, by: values.by, release: values.release });
  const say = (result) => console.log(values.json ? JSON.stringify(result, null, 2) : result.message);
  if (!decision.ok) {
    say({ ...decision, written: false });
    return 1;
  }
  if (values["dry-run"]) {
    say({ ...decision, message: `${decision.message} (dry run: nothing written)`, written: false });
    return 0;
  }
  const results = await applyOps(octokit, decision.ops, { owner, repo, live: true, log });
  const notWritten = results.find((r) => r.outcome === "failed" || r.outcome === "guard-failed");
  if (notWritten) throw new RunError([`#${number}: the claim comment was not written (${notWritten.outcome}: ${notWritten.detail})`]);
  // Read back: two claimants writing in the same moment each wrote a comment; the engine says who holds.
  pr.comments = await readComments(octokit, owner, repo, number);
  const back = engine.claimPrReadBack({ facts, number, by: values.by, release: values.release });
  if (!back.won) throw new RunError([back.message]);
  log(`#${number}: ${decision.code} written and read back`);
  say({ ...decision, written: true });
  return 0;
}
