// `prflow open-pr`: opens a pull request from a pushed branch the way the merge queue expects it: under
// `skip-ci`, a layer of a stack (`--base`) naming the layer below in `Merge-After:` with `auto-rebase`
// on every layer, `merge-queued` with `--queue`, `from:<machine>` in the stations flow. It arms nothing:
// only the worker arms auto-merge. The engine's `openPr` decides all of it; this reads and writes.
import { readFileSync } from "node:fs";
import { connect, repoConfig, UsageError } from "../common.js";
import { RunError } from "../../lib/run.js";
import { git } from "../../lib/queue/git.js";
import { openPullRequest } from "../../lib/queue/agents.js";

export const summary =
  "Open a pull request the way the merge queue expects: under skip-ci, stacked with --base, queued with --queue; arms nothing.";
export const usage =
  "prflow open-pr --title TEXT [--body TEXT | --body-file FILE] [--head BRANCH] [--base BRANCH] [--queue] [--draft] [--machine ID] [--live | --dry-run] --repo owner/name [--config FILE]";
export const writes = "legacy";
export const writeNote = "It writes the pull request and its labels.";
export const help = {
  title: "the pull request's title (required)",
  body: "the body (a Merge-After: line is added for a stacked layer)",
  "body-file": "read the body from this file instead",
  head: "the pushed branch to open it from (default: the branch checked out here)",
  base: "the branch to merge into: the default branch, or an open pull request's branch for a layer of a stack",
  queue: "label it merge-queued too, so the worker takes it forward",
  draft: "open it as a draft",
  machine: "the stations flow's machine opening it: adds from:<machine> when the config names it",
};
export const examples = [
  'prflow open-pr --title "Parse the config once" --body-file body.md --queue --live --repo acme/widgets',
  'prflow open-pr --title "Layer 2" --head agent/layer-2 --base agent/layer-1 --queue --live --repo acme/widgets',
];
export const options = {
  repo: { type: "string" },
  config: { type: "string" },
  title: { type: "string" },
  body: { type: "string" },
  "body-file": { type: "string", valueName: "FILE" },
  head: { type: "string", valueName: "BRANCH" },
  base: { type: "string", valueName: "BRANCH" },
  queue: { type: "boolean", default: false },
  draft: { type: "boolean", default: false },
  machine: { type: "string", valueName: "ID" },
};

export async function run(values, positionals) {
  if (positionals.length)
    throw new UsageError(
      `open-pr takes no positional arguments, found ${JSON.stringify(positionals.join(" "))}\nusage: ${usage}`,
    );
  if (!values.title) throw new UsageError(`--title: a pull request needs a title\nusage: ${usage}`);
  if (values.body != null && values["body-file"])
    throw new UsageError("--body and --body-file contradict each other; pick one");
  let body = values.body ?? "";
  if (values["body-file"]) {
    try {
      body = readFileSync(values["body-file"], "utf8");
    } catch (e) {
      throw new RunError([
        `open-pr: --body-file ${values["body-file"]}: ${e.code === "ENOENT" ? "no such file" : e.message}`,
      ]);
    }
  }
  let head = values.head;
  if (!head) {
    const r = await git(process.cwd(), ["symbolic-ref", "--quiet", "--short", "HEAD"], { allowFail: true });
    if (r.code !== 0 || !r.stdout)
      throw new UsageError("--head: no branch is checked out here; name the pushed branch with --head");
    head = r.stdout;
  }
  const dryRun = values["dry-run"];
  const { owner, repo, octokit, log } = connect({ repo: values.repo });
  const { engine } = await repoConfig(values, { octokit, owner, repo });
  const request = {
    title: values.title,
    body,
    head,
    base: values.base ?? null,
    queue: values.queue,
    draft: values.draft,
    machine: values.machine ?? null,
  };
  let out;
  try {
    out = await openPullRequest({ engine, octokit, owner, repo, log }, request, { dryRun });
  } catch (e) {
    if (e.step) throw new RunError([e.message]);
    throw Object.assign(e, { step: e.step ?? "open-pr" });
  }
  for (const w of out.decision.warnings) log(`warning: ${w}`);
  const line = dryRun
    ? `${out.decision.message} (dry run: nothing written)`
    : `#${out.number}: opened; ${out.decision.message}`;
  console.log(
    values.json
      ? JSON.stringify({ ...out.decision, number: out.number, written: !dryRun, results: out.results }, null, 2)
      : line,
  );
  return 0;
}
