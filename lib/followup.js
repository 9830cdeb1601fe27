// The follow-up sweep as a run, shared by the Action's `sweep` mode and `prflow sweep`: load the config,
// read every open pull request and the board issue, ask the engine (`sweep`), apply (or only report) the
// plan, and say what happened. Nothing here decides who to ping or when: the engine does.
import { readFacts, applyPlan, APPLIED } from "./github/index.js";
import { loadConfig } from "./config-file.js";
import { RunError, count } from "./run.js";

/**
 * The open issues carrying `label`, oldest first, as facts.boards: the engine picks the board among them.
 * One request: the board is created with the label, so the first page holds it.
 */
export async function listBoards(octokit, { owner, repo, label }) {
  const res = await octokit.request("GET /repos/{owner}/{repo}/issues", {
    owner,
    repo,
    labels: label,
    state: "open",
    sort: "created",
    direction: "asc",
    per_page: 10,
  });
  return res.data.map((i) => ({
    number: i.number,
    title: i.title ?? "",
    body: i.body ?? "",
    pullRequest: Boolean(i.pull_request),
  }));
}

/** An op of `plan` in a few words, for the log and the summary. */
export function describeSweepOp(op, plan) {
  switch (op.op) {
    case "upsertComment":
      return `comment (level ${plan.pulls.find((p) => p.number === op.number)?.firing ?? "?"} min)`;
    case "upsertBoard":
      return op.number == null ? "open the board issue" : `rewrite the board #${op.number}`;
    case "editLabels":
      return [...op.add.map((c) => `+${c.label}`), ...op.remove.map((c) => `−${c.label}`)].join(" ");
    default:
      return op.op;
  }
}

const cell = (text) =>
  String(text ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\r?\n/g, " ") || "—";

/** The job summary of a sweep. `results[i]` is what applying `plan.ops[i]` did. */
export function sweepSummary({ repo, plan, results, live }) {
  const writes = results.filter((r) => r.outcome === APPLIED).length;
  const out = [`## prflow sweep: ${repo}${live ? "" : " (dry run: nothing was written)"}`, ""];
  out.push(
    `Engine ${plan.engine} · ${plan.pulls.length} open pull request${plan.pulls.length === 1 ? "" : "s"} · ${plan.ops.length} operation${plan.ops.length === 1 ? "" : "s"} · ` +
      `${writes} write${writes === 1 ? "" : "s"} · ${plan.warnings.length} warning${plan.warnings.length === 1 ? "" : "s"}`,
    "",
  );
  out.push(
    plan.stopTheLine
      ? `**Stop the line:** ${plan.stopReasons.join("; ")}.`
      : "The line is open: development machines may open pull requests.",
    "",
  );
  if (plan.ops.length) {
    out.push("| target | what | result | why |", "| --- | --- | --- | --- |");
    plan.ops.forEach((op, i) => {
      const r = results[i];
      const target = op.op === "upsertBoard" ? "board" : `#${op.number}`;
      out.push(
        `| ${target} | ${cell(describeSweepOp(op, plan))} | ${cell(r ? `${r.outcome}${r.detail ? `: ${r.detail}` : ""}` : "not applied")} | ${cell(op.reason)} |`,
      );
    });
    out.push("");
  }
  if (plan.warnings.length) {
    out.push("### Warnings", "");
    for (const w of plan.warnings) out.push(`- ${w.number ? `#${w.number}: ` : ""}${w.message}`);
    out.push("");
  }
  return out.join("\n");
}

/**
 * One sweep. Returns { facts, plan, results, counts, summary, lines }. `counts.requests` is how many API
 * requests the sweep made when `octokit.prflowRequests` counts them (the emulator's client does).
 */
export async function sweepRun({
  prflow,
  octokit,
  owner,
  repo,
  configPath,
  readFile,
  loaded: given,
  live,
  log = () => {},
}) {
  // `given`: a config the caller read and named already (the CLI's, from the repository).
  const loaded = given ?? loadConfig(prflow, configPath, readFile ? { readFile } : undefined);
  if (loaded.errors.length) throw new RunError(loaded.errors);
  const { engine } = loaded;
  if (given) configPath = given.source;
  const settings = engine.followupSettings();
  if (settings.configErrors.length)
    throw new RunError(
      settings.configErrors.map((p) => `${configPath}: ${p.path}: expected ${p.expected}, found ${p.found}`),
    );
  if (!given)
    log(`config: ${loaded.source === "preset" ? `${configPath} not found, using the preset` : loaded.source}`);
  const facts = await readFacts(octokit, { owner, repo });
  const board = settings.board;
  if (board.enabled) {
    try {
      facts.boards = await listBoards(octokit, { owner, repo, label: board.label });
    } catch (e) {
      log(`the board issue could not be read (${e.status ?? ""} ${e.message}); it will not be rewritten`);
      facts.unknown = [...(facts.unknown ?? []), "board"];
    }
  }
  const plan = engine.sweep({ facts });
  log(
    `engine ${plan.engine}: ${count(plan.pulls.length, "pull request")}, ${count(plan.ops.length, "operation")}, ${count(plan.warnings.length, "warning")}, line ${plan.stopTheLine ? "STOPPED" : "open"}${live ? "" : " (dry run: writing nothing)"}`,
  );
  const results = await applyPlan(octokit, plan, { owner, repo, live, log });
  const lines = plan.ops.map(
    (op, i) =>
      `${op.op === "upsertBoard" ? "board" : `#${op.number}`}: ${describeSweepOp(op, plan)} [${results[i]?.outcome}${results[i]?.detail ? `: ${results[i].detail}` : ""}] because ${op.reason}`,
  );
  for (const w of plan.warnings) lines.push(`warning${w.number ? ` #${w.number}` : ""}: ${w.message}`);
  for (const line of lines) log(line);
  const counts = {
    ops: plan.ops.length,
    writes: results.filter((r) => r.outcome === APPLIED).length,
    warnings: plan.warnings.length,
  };
  return {
    facts,
    plan,
    results,
    counts,
    lines,
    summary: sweepSummary({ repo: `${owner}/${repo}`, plan, results, live }),
  };
}
