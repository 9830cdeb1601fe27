// `prflow sim review|queue`: the engine's simulations from a terminal. Parameters come from
// the engine's defaults, then a --params JSON file, then flags; the seed from --seed, or drawn with
// the host's crypto (engine.drawSeed) and printed so the run can be replayed. Nothing is read from or
// written to GitHub.
import { readFileSync } from "node:fs";
import { prflow } from "../engine.js";

// The simulations read no config: the preset engine answers them.
const engine = prflow.createEngine();
const simulate = { review: (params) => engine.simReview(params), queue: (params) => engine.simQueue(params) };
import { UsageError } from "../usage.js";
import { RunError } from "../../lib/run.js";
import { queueText, reviewText } from "../../lib/sim-view.js";

export const KINDS = ["review", "queue"];
export const summary =
  "Simulate review stations (push against pull) or the merge queue's CI cost, for a seed (offline).";
export const usage =
  "prflow sim review|queue [--seed N] [--params FILE.json] [--PARAMETER VALUE ...] [--format text|json]";
export const examples = [
  "prflow sim review",
  "prflow sim review --seed 1 --review-wip 1 --utilizations 0.8,0.85,0.9",
  "prflow sim queue --seed 1 --ci-minutes 20 --concurrency 3 --format json",
  "prflow sim queue --policies chain-serial,chain-batch,chain-adaptive --batch-size 8 --day-hours 24 --arrivals burst:8/15m --ci 15-25",
  'prflow sim queue --params team.json   (team.json: {"arrivalsPerDay": 25, "flakeRate": 0.1})',
];

const defaults = { review: engine.simReviewDefaults(), queue: engine.simQueueDefaults() };

const REVIEW_POLICIES = { "round-robin": "roundRobin", "least-loaded": "leastLoaded", pull: "pull" };
const QUEUE_POLICIES = {
  serial: "serial",
  "update-every-branch": "updateEveryBranch",
  "merge-queue": "mergeQueue",
  batch: "batch",
  "chain-serial": "chainSerial",
  "chain-batch": "chainBatch",
  "chain-adaptive": "chainAdaptive",
};
const kebab = (names) => (list) => list.map((x) => Object.keys(names).find((k) => names[k] === x) ?? x).join(",");

// How a flag's text becomes a parameter's value, and how a default is shown.
const number = {
  parse: (t) => (t.trim() === "" ? NaN : Number(t)),
  ok: Number.isFinite,
  expected: "a number",
  show: String,
};
const integer = { ...number, ok: (v) => Number.isInteger(v), expected: "a whole number" };
const range = {
  parse: (t) => {
    const m = /^\s*([0-9.]+)\s*(?:-\s*([0-9.]+))?\s*$/.exec(t);
    return m ? { min: Number(m[1]), max: Number(m[2] ?? m[1]) } : null;
  },
  ok: (v) => v && Number.isFinite(v.min) && Number.isFinite(v.max),
  expected: "A-B (a range) or one number",
  show: (v) => `${v.min}-${v.max}`,
};
// `burst:8/15m`: 8 pull requests at once every 15 minutes (the queue's bursty arrivals).
const burst = {
  parse: (t) => {
    const m = /^\s*burst:(\d+)\/([0-9.]+)m\s*$/.exec(t);
    return m ? { size: Number(m[1]), everyMinutes: Number(m[2]) } : null;
  },
  ok: (v) => v && Number.isFinite(v.everyMinutes),
  expected: "burst:N/Mm (N pull requests every M minutes)",
  show: (v) => (v ? `burst:${v.size}/${v.everyMinutes}m` : "none"),
};
const onOff = {
  parse: (t) => ({ on: true, off: false })[t.trim()] ?? null,
  ok: (v) => typeof v === "boolean",
  expected: "on or off",
  show: (v) => (v ? "on" : "off"),
};
const numbers = {
  parse: (t) => (t.trim() === "" ? [] : t.split(",").map((x) => Number(x.trim()))),
  ok: (v) => v.every(Number.isFinite),
  expected: "numbers separated by commas",
  show: (v) => v.join(","),
};
const names = (table) => ({
  parse: (t) => t.split(",").map((x) => table[x.trim()] ?? null),
  ok: (v) => v.length > 0 && v.every(Boolean),
  expected: Object.keys(table).join(", "),
  show: kebab(table),
});

/** Every parameter flag: the simulation it belongs to, the JSON key, how to read it, and its words. */
const PARAMETERS = {
  seeds: { kinds: KINDS, key: "seeds", type: integer, words: "independent runs pooled into each figure" },
  hours: { kinds: ["review"], key: "hours", type: number, words: "working hours of arrivals per run" },
  "dev-machines": {
    kinds: ["review"],
    key: "devMachines",
    type: integer,
    words: "dev machines (the arrivals are split evenly)",
  },
  arrivals: {
    kinds: ["review", "queue"],
    key: "arrivalsPerHour",
    type: range,
    valueName: "A-B",
    words: "pull requests an hour from all dev machines; each run draws its rate in this range",
    // The queue's own reading of the flag: bursts in place of its Poisson draw.
    queue: {
      key: "burst",
      type: burst,
      valueName: "burst:N/Mm",
      words: "burst:N/Mm, N pull requests at once every M minutes, in place of arrivals-per-day",
    },
  },
  stations: { kinds: ["review"], key: "stations", type: integer, words: "review stations" },
  "ai-minutes": { kinds: ["review"], key: "aiMinutes", type: number, words: "the AI first pass, minutes" },
  "human-median": {
    kinds: ["review"],
    key: "humanMedianMinutes",
    type: number,
    words: "median minutes of a person's gate (log-normal)",
  },
  "human-sigma": {
    kinds: ["review"],
    key: "humanSigma",
    type: number,
    words: "spread of that log-normal (sigma of its log)",
  },
  "heavy-share": { kinds: ["review"], key: "heavyShare", type: number, words: "share of heavy pull requests" },
  "heavy-minutes": {
    kinds: ["review"],
    key: "heavyMinutes",
    type: range,
    valueName: "A-B",
    words: "a heavy gate's minutes, uniform in this range",
  },
  "high-share": { kinds: ["review"], key: "highPriorityShare", type: number, words: "share labelled prio:high" },
  "claim-order": {
    kinds: ["review"],
    key: "claimOrder",
    type: names({ "priority-then-oldest": "priorityThenOldest", oldest: "oldest" }),
    single: true,
    words: "which pull request a station takes next: priority-then-oldest or oldest",
  },
  "review-wip": {
    kinds: ["review"],
    key: "reviewWip",
    type: integer,
    words: "pull requests a station may hold under pull",
  },
  policies: {
    kinds: KINDS,
    key: "policies",
    type: null,
    valueName: "LIST",
    words:
      "the policies compared: review's round-robin, least-loaded, pull; queue's serial, update-every-branch, merge-queue, batch, and the worker's chain-serial, chain-batch, chain-adaptive",
  },
  utilizations: {
    kinds: ["review"],
    key: "utilizations",
    type: numbers,
    valueName: "LIST",
    words: "utilizations of the sweep",
  },
  "dev-wip": {
    kinds: ["review"],
    key: "devWip",
    type: integer,
    words: "unfinished pull requests a dev machine may have before it stops opening (0: none)",
  },
  "dev-wip-at": {
    kinds: ["review"],
    key: "devWipUtilization",
    type: number,
    words: "utilization the dev WIP limit is shown at",
  },
  days: { kinds: ["queue"], key: "days", type: integer, words: "working days per run" },
  "day-hours": { kinds: ["queue"], key: "dayHours", type: number, words: "hours of a working day" },
  "arrivals-per-day": {
    kinds: ["queue"],
    key: "arrivalsPerDay",
    type: number,
    words: "pull requests joining the queue a day",
  },
  "ci-minutes": { kinds: ["queue"], key: "ciMinutes", type: number, words: "minutes of one CI run" },
  ci: {
    kinds: ["queue"],
    key: "ciRange",
    type: range,
    valueName: "A-B",
    words: "each CI run of the worker's policies lasts a uniform draw in A-B minutes (the others take its middle)",
    noDefault: "ciMinutes",
  },
  speculate: {
    kinds: ["queue"],
    key: "speculate",
    type: integer,
    words: "the worker's checkpoints run at once along a chain",
  },
  "flake-verdict": {
    kinds: ["queue"],
    key: "flakeVerdict",
    type: onOff,
    valueName: "on|off",
    words: "the worker re-runs a red once on the same head before setting a pull request aside",
  },
  "failure-rate": {
    kinds: ["queue"],
    key: "failureRate",
    type: number,
    words: "share of pull requests that are broken",
  },
  "flake-rate": { kinds: ["queue"], key: "flakeRate", type: number, words: "chance a run fails with nothing broken" },
  concurrency: { kinds: ["queue"], key: "concurrency", type: integer, words: "the merge queue's builds at once" },
  "batch-size": { kinds: ["queue"], key: "batchSize", type: integer, words: "the most pull requests in one batch" },
  "sweep-ci": {
    kinds: ["queue"],
    key: "sweepCiMinutes",
    type: numbers,
    valueName: "LIST",
    words: "CI minutes of the CI-time sweep",
  },
  "sweep-failures": {
    kinds: ["queue"],
    key: "sweepFailureRate",
    type: numbers,
    valueName: "LIST",
    words: "failure rates of that sweep",
  },
  "sweep-flakes": {
    kinds: ["queue"],
    key: "sweepFlakeRate",
    type: numbers,
    valueName: "LIST",
    words: "flake rates of that sweep",
  },
};

const policyType = { review: names(REVIEW_POLICIES), queue: names(QUEUE_POLICIES) };
/** A flag's spec for one simulation: the flag's own, or its reading under that simulation's name. */
const specOf = (flag, kind) => ({ ...PARAMETERS[flag], ...(PARAMETERS[flag][kind] ?? {}) });
const typeOf = (flag, kind) => (flag === "policies" ? policyType[kind] : specOf(flag, kind).type);

function defaultWords(flag) {
  const spec = PARAMETERS[flag];
  if (flag === "policies")
    return `${spec.words} (default: review's three; queue's ${policyType.queue.show(defaults.queue.policies)})`;
  const shown = spec.kinds.map((kind) => {
    const s = specOf(flag, kind);
    const v = defaults[kind][s.key];
    const value =
      v === undefined || v === null
        ? s.noDefault
          ? `--${s.noDefault.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
          : "none"
        : s.type.show(s.single ? [v] : v);
    return `${spec.kinds.length > 1 ? `${kind} ` : ""}${value}`;
  });
  const only = spec.kinds.length === 1 ? `${spec.kinds[0]}: ` : "";
  const words = spec.kinds
    .filter((k) => spec[k])
    .map((k) => `; ${k}: ${spec[k].words}`)
    .join("");
  return `${only}${spec.words}${words} (default: ${shown.join("; ")})`;
}

export const options = {
  seed: { type: "string", valueName: "N" },
  params: { type: "string", valueName: "FILE" },
  format: { type: "string", default: "text" },
  ...Object.fromEntries(
    Object.entries(PARAMETERS).map(([flag, spec]) => [
      flag,
      {
        type: "string",
        valueName: spec.valueName ?? (spec.type === integer ? "N" : spec.type === number ? "X" : "VALUE"),
      },
    ]),
  ),
};
export const help = {
  seed: "the seed, 0 to 4294967295; without it one is drawn and printed, so the run can be replayed",
  params: 'a JSON file of parameters (the engine\'s names, e.g. {"ciMinutes": 20}); flags override it',
  ...Object.fromEntries(Object.keys(PARAMETERS).map((flag) => [flag, defaultWords(flag)])),
};

/** The parameters of one run: defaults < --params file < flags, with where each key came from. */
export function paramsOf(kind, values) {
  const params = {};
  const from = {};
  if (values.params !== undefined) {
    let text;
    try {
      text = readFileSync(values.params, "utf8");
    } catch (e) {
      throw new RunError([`--params ${values.params}: ${e.code === "ENOENT" ? "no such file" : e.message}`]);
    }
    let file;
    try {
      file = JSON.parse(text);
    } catch (e) {
      throw new RunError([`${values.params}: $: not valid JSON (${e.message})`]);
    }
    if (!file || typeof file !== "object" || Array.isArray(file))
      throw new RunError([
        `${values.params}: $: expected an object of parameters, found ${Array.isArray(file) ? "an array" : JSON.stringify(file)}`,
      ]);
    for (const [k, v] of Object.entries(file)) {
      params[k] = v;
      from[k] = values.params;
    }
  }
  for (const [flag, spec] of Object.entries(PARAMETERS)) {
    const text = values[flag];
    if (text === undefined) continue;
    if (!spec.kinds.includes(kind))
      throw new UsageError(
        `--${flag} is a parameter of \`prflow sim ${spec.kinds[0]}\`, not of ${kind}\nusage: ${usage}`,
      );
    const s = specOf(flag, kind);
    const t = typeOf(flag, kind);
    const v = t.parse(text);
    if (!t.ok(v)) throw new UsageError(`--${flag}: expected ${t.expected}, found ${JSON.stringify(text)}`);
    params[s.key] = s.single ? v[0] : v;
    from[s.key] = `--${flag}`;
  }
  if (values.seed !== undefined) {
    const seed = Number(values.seed);
    if (!/^\d+$/.test(values.seed.trim()) || seed > 0xffffffff)
      throw new UsageError(
        `--seed: expected a whole number from 0 to 4294967295, found ${JSON.stringify(values.seed)}`,
      );
    params.seed = seed;
    from.seed = "--seed";
  }
  return { params, from };
}

/** The engine's error (`simReview $.stations: ...`) said against what set the field: a flag or the file. */
export function explain(message, from) {
  const text = String(message).replace(/^sim\w+ /, "");
  return text.split("\n").map((part) => {
    const key = /^\$\.([A-Za-z]+)/.exec(part)?.[1];
    const source = key && from[key];
    if (!source) return part;
    return source.startsWith("--")
      ? `${source}: ${part.replace(/^\$\.[A-Za-z]+(\.[a-z]+|\[\d+\])?: /, "")}`
      : `${source}: ${part}`;
  });
}

export async function run(values, positionals) {
  const [kind, ...extra] = positionals;
  if (!KINDS.includes(kind) || extra.length)
    throw new UsageError(
      `expected review or queue, found ${positionals.length ? JSON.stringify(positionals.join(" ")) : "none"}\nusage: ${usage}`,
    );
  const { params, from } = paramsOf(kind, values);
  if (params.seed === undefined || params.seed === null) {
    params.seed = prflow.drawSeed();
    console.error(`seed: ${params.seed} (drawn; --seed ${params.seed} replays this run)`);
  }
  let report;
  try {
    report = simulate[kind](params);
  } catch (e) {
    // A value a flag gave is a usage mistake (exit 2), like a flag's bad type; a file's is a failure.
    const lines = explain(e.message, from);
    if (lines.every((l) => l.startsWith("--"))) throw new UsageError(lines.join("\n"));
    throw new RunError(lines);
  }
  if (values.format === "json") console.log(JSON.stringify(report, null, 2));
  else process.stdout.write(kind === "review" ? reviewText(report) : queueText(report));
  return 0;
}
