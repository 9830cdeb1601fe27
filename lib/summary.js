// The words a run leaves behind: one log line per write, and the Markdown job summary (a table of every
// pull request with its state, blockers and what changed and why). Shared by the Action and the CLI.

import { cut, wrapped } from "./dashboard-text.js";

const DASH = "—";
/** GitHub's limit on a step's job summary is 1 MiB; stay under it with room for the warnings. */
export const MAX_SUMMARY_BYTES = 900_000;

/** A plan operation in a few words: `+state:needs-human −state:addressing`, `request review: alice`. */
export function describeOp(op) {
  switch (op.op) {
    case "editLabels":
      return [...op.add.map((c) => `+${c.label}`), ...op.remove.map((c) => `−${c.label}`)].join(" ");
    case "requestReviewers":
      return `request review: ${op.reviewers.join(", ")}`;
    default:
      return op.op;
  }
}

/** The reasons of an operation, label by label where it has them. */
export function opReasons(op) {
  if (op.op === "editLabels") {
    return [...op.add.map((c) => `+${c.label}: ${c.reason}`), ...op.remove.map((c) => `−${c.label}: ${c.reason}`)];
  }
  return [op.reason];
}

/** One line per operation for the log, saying what was (or would be) done and why. */
export function logLines(plan, results, { live }) {
  const lines = [];
  plan.ops.forEach((op, i) => {
    const r = results[i];
    const outcome = r?.outcome ?? (live ? "not applied" : "dry-run");
    // A dry run's detail says it already ("would add …"), so it stands alone.
    const said = r?.detail ? (outcome === "dry-run" ? r.detail : `${outcome}: ${r.detail}`) : outcome;
    lines.push(`#${op.number}: ${describeOp(op)} [${said}] because ${op.reason}`);
  });
  for (const w of plan.warnings) lines.push(`warning${w.number ? ` #${w.number}` : ""}: ${w.message}`);
  return lines;
}

const cell = (text) =>
  String(text ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\r?\n/g, " ") || DASH;

/**
 * Why, once: the state's reason, then the reason of each other label change. A change whose reason only
 * repeats the state's ("state is X: ...", a review request for the same cause) adds nothing.
 */
function whyCell(pull, ops) {
  const parts = [pull.why];
  for (const op of ops) {
    const changes = op.op === "editLabels" ? [...op.add.map((c) => ["+", c]), ...op.remove.map((c) => ["−", c])] : [];
    for (const [sign, c] of changes) {
      if (c.label === pull.state || c.reason.includes(pull.why)) continue;
      parts.push(`${sign}${c.label}: ${c.reason}`);
    }
    if (op.op !== "editLabels" && !op.reason.includes(pull.why)) parts.push(op.reason);
  }
  return parts.join("; ");
}

/**
 * The plan's warnings grouped by kind (the message without its pull request, its quoted names and its
 * parenthesised detail), largest first: [{ kind, count, numbers, names, example }].
 */
export function warningKinds(warnings) {
  const groups = new Map();
  for (const w of warnings) {
    const kind = withoutParentheses(w.message)
      .replace(/"[^"]*"/g, "…")
      .replace(/\s+/g, " ")
      .trim();
    const g = groups.get(kind) ?? { kind, count: 0, numbers: new Set(), names: new Set(), example: w.message };
    g.count++;
    if (w.number) g.numbers.add(w.number);
    for (const m of w.message.matchAll(/"([^"]*)"/g)) g.names.add(m[1]);
    groups.set(kind, g);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, numbers: [...g.numbers], names: [...g.names] }))
    .sort((a, b) => b.count - a.count);
}

/**
 * `text` without its parenthesised parts, nested ones included ("(… (limit 14))"), an unclosed "(" to
 * the end; a ")" that closes nothing stays. Innermost pairs first, by regular expression: a character
 * loop building the text piece by piece cost ten times as much on the page's 1,400 warnings.
 */
export function withoutParentheses(text) {
  let out = text;
  for (let before; before !== out; ) {
    before = out;
    out = out.replace(/\([^()]*\)/g, "");
  }
  const open = out.indexOf("(");
  if (open >= 0) out = out.slice(0, open);
  return out.replace(/\s+([;,.])/g, "$1");
}

/** The job summary of a reconcile run. `results[i]` is what applying `plan.ops[i]` did. */
export function reconcileSummary({ repo, plan, results, live, scope, counts, maxBytes = MAX_SUMMARY_BYTES }) {
  const full = reconcileSummaryOf({ repo, plan, results, live, scope, counts, onlyChanged: false });
  if (Buffer.byteLength(full) <= maxBytes) return full;
  // GitHub refuses a job summary over 1 MiB; the rows that changed are the ones a reader needs.
  return reconcileSummaryOf({ repo, plan, results, live, scope, counts, onlyChanged: true });
}

function reconcileSummaryOf({ repo, plan, results, live, scope, counts, onlyChanged }) {
  const out = [];
  out.push(`## prflow reconcile: ${repo}${live ? "" : " (dry run: nothing was written)"}`);
  out.push("");
  out.push(
    `Engine ${plan.engine} · ${scope} · ${plan.pulls.length} pull request${plan.pulls.length === 1 ? "" : "s"} · ` +
      `${counts.ops} operation${counts.ops === 1 ? "" : "s"} · ${counts.writes} write${counts.writes === 1 ? "" : "s"} · ` +
      `${counts.warnings} warning${counts.warnings === 1 ? "" : "s"}`,
  );
  out.push("");
  if (plan.pulls.length) {
    const byNumber = new Map();
    plan.ops.forEach((op, i) => {
      const list = byNumber.get(op.number) ?? [];
      list.push({ op, result: results[i] });
      byNumber.set(op.number, list);
    });
    out.push("| PR | state | blockers | checks | changes | why |");
    out.push("| --- | --- | --- | --- | --- | --- |");
    let omitted = 0;
    for (const pull of plan.pulls) {
      const ops = byNumber.get(pull.number) ?? [];
      if (onlyChanged && !ops.length) {
        omitted++;
        continue;
      }
      const changes = ops.length
        ? ops
            .map(({ op, result }) =>
              live ? `${describeOp(op)} (${result?.outcome ?? "not applied"})` : `would ${describeOp(op)}`,
            )
            .join("; ")
        : "no change";
      const why = whyCell(
        pull,
        ops.map(({ op }) => op),
      );
      out.push(
        `| #${pull.number} | ${cell(pull.state ?? "unknown")} | ${cell(pull.blockers.join(", "))} | ${cell(pull.checks)} | ${cell(changes)} | ${cell(why)} |`,
      );
    }
    out.push("");
    if (omitted)
      out.push(
        `${omitted} pull requests with no change are left out: the whole table would pass GitHub's 1 MiB summary limit.`,
        "",
      );
  }
  if (plan.warnings.length) {
    // By kind, with a count: a board without its labels has one warning per pull request and label.
    const kinds = warningKinds(plan.warnings);
    out.push(
      `### ${plan.warnings.length} warning${plan.warnings.length === 1 ? "" : "s"}${kinds.length > 1 ? ` of ${kinds.length} kinds` : ""}`,
    );
    out.push("");
    const list = (xs, n) => xs.slice(0, n).join(", ") + (xs.length > n ? `, and ${xs.length - n} more` : "");
    for (const g of kinds) {
      const where = g.numbers.length
        ? ` on ${list(
            g.numbers.map((n) => `#${n}`),
            20,
          )}`
        : "";
      out.push(
        `- **${g.count} ×** ${cell(g.kind)}${where}${g.names.length ? ` (${list(g.names, 12)})` : ""}. For example: ${cell(g.example)}`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}

/** The job summary of a labels run. */
export function labelsSummary({ repo, results, unused, live }) {
  const out = [`## prflow labels: ${repo}${live ? "" : " (dry run: nothing was written)"}`, ""];
  out.push("| label | colour | action | description |");
  out.push("| --- | --- | --- | --- |");
  for (const r of results) {
    out.push(`| ${cell(r.name)} | \`#${r.color}\` | ${cell(r.status)} | ${cell(r.description)} |`);
  }
  out.push("");
  if (unused.length) {
    out.push("### Labels prflow made that this config no longer uses (kept; delete them by hand if you wish)");
    out.push("");
    for (const name of unused) out.push(`- ${name}`);
    out.push("");
  }
  return out.join("\n");
}

/** Counts for the outputs: planned ops, writes actually made, warnings. */
export function countResults(plan, results) {
  return {
    ops: plan.ops.length,
    writes: results.filter((r) => r.outcome === "applied").length,
    warnings: plan.warnings.length,
  };
}

/**
 * The board as plain text for a terminal: one line per pull request, then what changed and why. Every
 * line fits `width` columns (0 cuts nothing), wrapped and cut as `prflow status` does; the table drops
 * the `state:` and `blocker:` prefixes its headings say, the changes name whole labels.
 */
export function boardText(plan, results = [], { live = false, width = 80 } = {}) {
  const out = [];
  const state = (p) => (p.state ?? "unknown").replace(/^state:/, "");
  const blockers = (p) => p.blockers.map((b) => b.replace(/^blocker:/, "")).join(", ") || "—";
  const stateW = Math.max(5, ...plan.pulls.map((p) => state(p).length));
  const checksW = Math.max(6, ...plan.pulls.map((p) => String(p.checks).length));
  // Blockers come last: they are the one column of any length, and wrap under their own heading.
  const left = (a, b, c) => `${a.padEnd(6)} ${b.padEnd(stateW)}  ${c.padEnd(checksW)}  `;
  const at = left("", "", "").length;
  out.push(`${left("PR", "state", "checks")}blockers`);
  for (const p of plan.pulls) {
    const lines = wrapped(blockers(p), width, 0, 3, at);
    out.push(left(`#${p.number}`, state(p), String(p.checks)) + lines[0], ...lines.slice(1));
  }
  out.push("");
  out.push(
    plan.ops.length
      ? `${live ? "Changed" : "Would change"} (${plan.ops.length}):`
      : "Nothing to change: the board is converged.",
  );
  plan.ops.forEach((op, i) => {
    const outcome = results[i]?.outcome;
    out.push(...wrapped(`#${op.number} ${describeOp(op)}${outcome ? ` [${outcome}]` : ""}`, width, 2, Infinity, 4));
    for (const reason of opReasons(op)) out.push(...wrapped(reason, width, 6, Infinity, 8));
  });
  if (plan.warnings.length) {
    out.push("");
    out.push("Warnings:");
    for (const w of plan.warnings)
      out.push(...wrapped(`${w.number ? `#${w.number}: ` : ""}${w.message}`, width, 2, Infinity, 4));
  }
  return out.map((l) => cut(l.trimEnd(), width)).join("\n");
}
