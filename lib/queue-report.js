// The words of `prflow report`: the engine's queue triage (engine.triage) as text for a terminal, or as
// JSON for a fixer session that reads `owner`. Only formatting lives here; every verdict is the engine's.
// The text drops control characters (lib/plain-text.js): titles and details come from anyone.
import { oneLine, plainText } from "./plain-text.js";

const CLASS_WORDS = {
  ignore: "ignore",
  note: "note",
  candidate: "candidate",
  inFlight: "in flight",
  failing: "failing",
  held: "held",
};

const nums = (ns) => (ns.length ? ns.map((n) => `#${n}`).join(", ") : "none");

/** The JSON report: the engine's report with the repository and engine version on top. */
export function reportJson(report, { repository, engine }) {
  return { repository, engine, ...report };
}

/** The text report: the queue's head (next action, order, cycles, blockers), one block per pull request, warnings. */
export function reportText(report, { repository, engine }) {
  const queued = report.entries.filter((e) => e.owner !== null && e.owner !== undefined).length;
  const lines = [];
  lines.push(`Merge queue of ${repository} (engine ${engine}): ${report.entries.length} open pull requests, ${queued} in the queue`);
  const next = report.next;
  const nextWords = {
    watch: `watch #${next.number}${next.arm ? "" : " (never armed: only a bypass merges it)"}`,
    pick: `pick #${next.number}${next.arm ? "" : " (never armed: only a bypass merges it)"}`,
    keepOnTip: `keep waiting pull requests on the tip: ${nums(report.keepOnTip)}`,
    idle: "nothing to do",
  }[next.action];
  lines.push(`Next: ${nextWords}`);
  lines.push(`Order: ${nums(report.order)}`);
  lines.push(`In flight: ${nums(report.inFlight)}`);
  lines.push(`Released: ${nums(report.released)}`);
  lines.push(`Cycles: ${report.cycles.length ? report.cycles.map((c) => `(${nums(c)})`).join(" ") : "none"}`);
  lines.push(`Release held by: ${nums(report.releaseBlockers)}`);
  lines.push("");
  const rows = [...report.entries].sort((a, b) => a.number - b.number);
  for (const e of rows) {
    const place = e.place ? ` place ${e.place}` : "";
    const owner = e.owner ? ` owner ${e.owner}` : "";
    const starved = e.starved ? ` STARVED (${e.waitingHours}h)` : "";
    lines.push(`#${e.number} ${CLASS_WORDS[e.triage]} [${e.reason}]${owner}${place}${starved} ${oneLine(e.title)}`.trimEnd());
    if (e.triage === "ignore" && !e.owner) continue;
    if (e.detail) lines.push(`    why: ${oneLine(e.detail)}`);
    lines.push(`    next: ${oneLine(e.nextActor)}: ${oneLine(e.nextAction)}`);
  }
  if (report.warnings.length) {
    lines.push("", "Warnings:");
    for (const w of report.warnings) lines.push(`- ${oneLine(w)}`);
  }
  return plainText(lines.join("\n")) + "\n";
}
