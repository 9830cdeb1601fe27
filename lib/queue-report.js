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

/** The JSON report: the engine's report with the repository and engine version on top, and the lane (engine.lane) when given. */
export function reportJson(report, { repository, engine, lane }) {
  return { repository, engine, ...report, ...(lane ? { lane } : {}) };
}

/** The text report: the queue's head (next action, order, cycles, blockers), one block per pull request, warnings. */
export function reportText(report, { repository, engine, lane }) {
  const queued = report.entries.filter((e) => e.owner !== null && e.owner !== undefined).length;
  const lines = [];
  lines.push(
    `Merge queue of ${repository} (engine ${engine}): ${report.entries.length} open pull requests, ${queued} in the queue`,
  );
  const next = report.next;
  const nextWords = {
    watch: `watch #${next.number}${next.arm ? "" : " (never armed: only a bypass merges it)"}`,
    pick: `pick #${next.number}${next.arm ? "" : " (never armed: only a bypass merges it)"}`,
    keepOnTip: `keep waiting pull requests on the tip: ${nums(report.keepOnTip)}`,
    idle: "nothing to do",
  }[next.action];
  lines.push(`Next: ${nextWords}`);
  // The lane (engine.lane) replaces the bare pick order: it names the next landing and when.
  if (lane) {
    lines.push(`Lane: ${lane.summary} (${lane.entries.length} in line)`);
    lines.push(`Estimate: ${lane.basis}`);
  } else lines.push(`Order: ${nums(report.order)}`);
  lines.push(`In flight: ${nums(report.inFlight)}`);
  lines.push(`Released: ${nums(report.released)}`);
  lines.push(`Cycles: ${report.cycles.length ? report.cycles.map((c) => `(${nums(c)})`).join(" ") : "none"}`);
  lines.push(`Release held by: ${nums(report.releaseBlockers)}`);
  lines.push("");
  const rows = [...report.entries].sort((a, b) => a.number - b.number);
  const places = new Map((lane?.entries ?? []).map((l) => [l.number, l.words]));
  for (const e of rows) {
    const place = places.has(e.number) ? ` ${places.get(e.number)}` : e.place ? ` place ${e.place}` : "";
    const owner = e.owner ? ` owner ${e.owner}` : "";
    const starved = e.starved ? ` STARVED (${e.waitingHours}h)` : "";
    lines.push(
      `#${e.number} ${CLASS_WORDS[e.triage]} [${e.reason}]${owner}${place}${starved} ${oneLine(e.title)}`.trimEnd(),
    );
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

const cell = (v) => (v === null || v === undefined ? "-" : String(v));

/** The scoreboard's columns, as `report --by-agent` and the page's Agents tab head them. */
export const SCOREBOARD_HEADINGS = [
  "Agent",
  "Opened",
  "Landed",
  "Bounced",
  "Set aside",
  "Median to land",
  "CI min/landing",
  "Flakes blamed/cleared",
];

/** `prflow report --by-agent`: the engine's scoreboard as an aligned table, then what it covers and what it cannot say. */
export function scoreboardText(board, { repository, engine }) {
  const head = SCOREBOARD_HEADINGS;
  const minutes = (m) =>
    m === null || m === undefined
      ? "-"
      : m < 120
        ? `${m} min`
        : m < 2880
          ? `${Math.round(m / 60)} h`
          : `${Math.round(m / 1440)} d`;
  const rows = board.agents.map((a) => [
    oneLine(a.agent),
    cell(a.opened),
    cell(a.landed),
    cell(a.bounced),
    cell(a.setAside),
    minutes(a.medianMinutesToLand),
    cell(a.ciMinutesPerLanding),
    a.flakesBlamed === null ? "-" : `${a.flakesBlamed}/${a.flakesCleared}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  const lines = [`Agents of ${repository} (engine ${engine}): ${board.window}`, ""];
  if (!rows.length) lines.push("No agent: no open pull request and no recent landing.");
  else lines.push(line(head), ...rows.map(line));
  if (board.flakesNote) lines.push("", `Flakes: ${board.flakesNote}.`);
  return plainText(lines.join("\n")) + "\n";
}
