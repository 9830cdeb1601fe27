// The simulations' reports (engine.sim) as words and pictures: the text `prflow sim` prints and the
// SVG plots the build writes into docs/ and the page draws. Only formatting lives here; every number is
// the engine's. Deterministic: the same report gives the same bytes (the build checks the SVGs).

export const REVIEW_POLICY_WORDS = { roundRobin: "round-robin push", leastLoaded: "least-loaded push", pull: "pull" };
export const QUEUE_POLICY_WORDS = {
  serial: "one at a time (skip-ci)",
  updateEveryBranch: "update every branch",
  mergeQueue: "merge queue",
  batch: "batches, bisected",
  chainSerial: "worker: chain of one",
  chainBatch: "worker: chains",
  chainAdaptive: "worker: adaptive chains",
};
const COLORS = ["#cf222e", "#bf8700", "#1a7f37", "#0969da", "#8250df", "#57606a"];

const f1 = (x) => Number(x).toFixed(1);
const f2 = (x) => Number(x).toFixed(2);
const pct = (x) => `${Math.round(Number(x) * 1000) / 10}%`;
const pad = (s, n) => String(s).padStart(n);
const padEnd = (s, n) => String(s).padEnd(n);

/** The review policy as people say it, with pull's WIP limit. */
export function reviewPolicyName(policy, params) {
  return policy === "pull" ? `pull (WIP ${params.reviewWip})` : (REVIEW_POLICY_WORDS[policy] ?? policy);
}

/** The queue policy as people say it, with the merge queue's builds and the batch size. */
export function queuePolicyName(policy, params) {
  if (policy === "mergeQueue") return `merge queue (${params.concurrency} builds)`;
  if (policy === "batch") return `batches of ${params.batchSize}, bisected`;
  const spec = params.speculate > 1 ? `, ${params.speculate} checkpoints` : "";
  if (policy === "chainBatch") return `worker: chains of ${params.batchSize}${spec}`;
  if (policy === "chainAdaptive") return `worker: chains up to ${params.batchSize}${spec}`;
  return QUEUE_POLICY_WORDS[policy] ?? policy;
}

/** The sentence beside the article's 41 minutes. */
export function articleLine(report) {
  const a = report.article;
  const d = a.difference;
  const rel = d === 0 ? "the same" : `${d > 0 ? "+" : ""}${f1(d)} min`;
  return `At ${f2(a.utilization)} utilization (${f2(a.arrivalsPerHour)} PRs/h) pull's median wait is ${f1(a.pull.p50)} min; the article says ${f1(a.articleMedian)} (ours ${rel}).`;
}

/** `prflow sim review` as text. */
export function reviewText(report) {
  const p = report.params;
  const name = (policy) => reviewPolicyName(policy, p);
  const lines = [
    `prflow sim review, seed ${report.seed} (the same seed replays this run: --seed ${report.seed})`,
    `${p.devMachines} dev machines opening ${p.arrivalsPerHour.min}-${p.arrivalsPerHour.max} pull requests an hour in all (Poisson), ${p.stations} review stations;`,
    `a review: ${p.aiMinutes}-min AI pass, then a person's gate (median ${p.humanMedianMinutes} min; ${pct(p.heavyShare)} heavy, ${p.heavyMinutes.min}-${p.heavyMinutes.max} min); mean ${f1(report.meanReviewMinutes)} min;`,
    `utilization ${f2(report.utilization.min)}-${f2(report.utilization.max)}; ${p.hours} working hours x ${p.seeds} seeds; wait = opening to start of review.`,
    "",
    `${padEnd("Wait, minutes", 22)}${["p50", "p90", "p95", "max", "mean"].map((h) => pad(h, 8)).join("")}`,
  ];
  for (const row of report.policies) {
    const w = row.waits;
    lines.push(
      `${padEnd(name(row.policy), 22)}${[w.p50, w.p90, w.p95, w.max, w.mean].map((x) => pad(f1(x), 8)).join("")}`,
    );
  }
  lines.push("", articleLine(report), "", "Utilization sweep: median / p95 wait, minutes");
  const cols = report.sweep[0]?.policies.map((x) => x.policy) ?? [];
  lines.push(`${padEnd("util", 6)}${padEnd("PRs/h", 7)}${cols.map((c) => pad(name(c), 20)).join("")}`);
  for (const pt of report.sweep) {
    lines.push(
      `${padEnd(f2(pt.utilization), 6)}${padEnd(f2(pt.arrivalsPerHour), 7)}${pt.policies.map((x) => pad(`${f1(x.waits.p50)} / ${f1(x.waits.p95)}`, 20)).join("")}`,
    );
  }
  const d = report.devWip;
  lines.push(
    "",
    `Dev WIP limit at ${f2(d.utilization)} utilization (${f2(d.arrivalsPerHour)} an hour offered), ${name("pull")}:`,
    `${padEnd("", 18)}${["p50 wait", "p95 wait", "max wait", "open, most", "opened/h", "held, mean"].map((h) => pad(h, 11)).join("")}`,
  );
  for (const arm of [d.without, d.with]) {
    const label = arm.devWip ? `${arm.devWip} per machine` : "no limit";
    lines.push(
      `${padEnd(label, 18)}${[f1(arm.waits.p50), f1(arm.waits.p95), f1(arm.waits.max), arm.maxOpen, f2(arm.openedPerHour), f1(arm.held.mean)].map((x) => pad(x, 11)).join("")}`,
    );
  }
  lines.push(
    `With the limit a dev machine opens nothing while ${d.with.devWip} of its own are unfinished: at most ${d.with.maxOpen} open, short waits;`,
    `the wait moves upstream instead (${f1(d.with.held.mean)} min held on average; ${f2(d.with.openedPerHour)} opened an hour instead of ${f2(d.without.openedPerHour)}).`,
  );
  return `${lines.join("\n")}\n`;
}

/** `prflow sim queue` as text. */
export function queueText(report) {
  const p = report.params;
  const name = (policy) => queuePolicyName(policy, p);
  const ci = p.ciRange ? `${p.ciRange.min}-${p.ciRange.max} (uniform)` : p.ciMinutes;
  const ciMean = p.ciRange ? (p.ciRange.min + p.ciRange.max) / 2 : p.ciMinutes;
  const lines = [
    `prflow sim queue, seed ${report.seed} (the same seed replays this run: --seed ${report.seed})`,
    ...(p.arrivals?.length
      ? [
          `a board of ${p.arrivals.length} pull requests joins the queue at its own minutes (${p.arrivals.filter((a) => a.broken).length} broken); ${p.dayHours}-hour days x ${p.days} days x ${p.seeds} seeds;`,
          `CI ${p.ciMinutes} min a run; ${pct(p.flakeRate)} of runs flaky (a flake is retried, a broken one set aside).`,
        ]
      : [
          `${p.burst ? `${p.burst.size} pull requests join the queue every ${p.burst.everyMinutes} min` : `${p.arrivalsPerDay} pull requests a day join the queue (Poisson)`}; ${p.dayHours}-hour days x ${p.days} days x ${p.seeds} seeds;`,
          `CI ${ci} min a run; ${pct(p.failureRate)} of pull requests broken, ${pct(p.flakeRate)} of runs flaky (a flake is retried, a broken one set aside).`,
        ]),
    `One at a time caps landings at ${p.dayHours} h / ${ciMean} min = ${f1(report.serialCapPerDay)} a day.`,
    "",
  ];
  const heads = ["landed/d", "runs/d", "CI min/d", "runs/PR", "min/PR", "aside/d", "backlog", "p50 land"];
  lines.push(`${padEnd("per working day", 28)}${heads.map((h) => pad(h, 9)).join("")}`);
  for (const o of report.policies) {
    const cells = [
      f2(o.landingsPerDay),
      f2(o.ciRunsPerDay),
      f1(o.ciMinutesPerDay),
      f2(o.runsPerLanding),
      f1(o.minutesPerLanding),
      f2(o.setAsidePerDay),
      f1(o.backlog),
      f1(o.latency.p50),
    ];
    lines.push(`${padEnd(name(o.policy), 28)}${cells.map((c) => pad(c, 9)).join("")}`);
  }
  lines.push(
    "(runs/PR and min/PR are per landed pull request; backlog is what is still queued at the end; p50 land is minutes from joining to landing)",
  );
  const worker = report.policies.filter((o) => o.policy.startsWith("chain"));
  if (worker.length) {
    // The worker's policies judge a red as the worker does, so a flake can set a good one aside.
    lines.push(
      "",
      `${padEnd("the worker's figures", 28)}${["landed/d", "runs/PR", "false/100", "p50 wait", "p95 wait"].map((h) => pad(h, 10)).join("")}`,
    );
    for (const o of worker) {
      const cells = [
        f2(o.landedPerDay),
        f2(o.ciRunsPerLanded),
        f2(o.falseEjectionsPer100),
        f1(o.p50WaitMinutes),
        f1(o.p95WaitMinutes),
      ];
      lines.push(`${padEnd(name(o.policy), 28)}${cells.map((c) => pad(c, 10)).join("")}`);
    }
    lines.push(
      `(false/100: good pull requests set aside per 100 landed, a flake judged real${p.flakeVerdict ? " after its one re-run" : "; no re-run before a set-aside"})`,
    );
  }
  // The sweeps name the policies short, so four columns fit in 90.
  const short = {
    serial: "one at a time",
    updateEveryBranch: "every branch",
    mergeQueue: `merge queue x${p.concurrency}`,
    batch: `batches of ${p.batchSize}`,
  };
  const sweep = (title, points, fmt) => {
    if (!points.length) return;
    lines.push("", `${title}: landings a day (CI runs per landing)`);
    lines.push(
      `${padEnd("", 8)}${pad("cap", 6)}${points[0].policies.map((o) => pad(short[o.policy] ?? o.policy, 19)).join("")}`,
    );
    for (const pt of points) {
      lines.push(
        `${padEnd(fmt(pt.value), 8)}${pad(f1(pt.serialCapPerDay), 6)}${pt.policies.map((o) => pad(`${f2(o.landingsPerDay)} (${f2(o.runsPerLanding)})`, 19)).join("")}`,
      );
    }
  };
  sweep("By CI minutes", report.sweeps.ciMinutes, (v) => `${v} min`);
  sweep("By failure rate", report.sweeps.failureRate, pct);
  sweep("By flake rate", report.sweeps.flakeRate, pct);
  return `${lines.join("\n")}\n`;
}

// ---- SVG

const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const n = (x) => (Math.round(x * 10) / 10).toString();

/** A "nice" step for an axis reaching `max` with about `ticks` ticks. */
function niceStep(max, ticks = 5) {
  const raw = Math.max(max, 1e-9) / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  return step;
}

function frame({ width, height, title, subtitle }, body) {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="22" font-size="15" font-weight="600" fill="#1f2328">${esc(title)}</text>`,
    subtitle ? `<text x="16" y="40" fill="#59636e">${esc(subtitle)}</text>` : "",
    ...body,
    "</svg>",
    "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** Axes with a y scale from 0 to a nice maximum; returns the scale and the axis elements. */
function axes({ left, top, w, h, yMax, yLabel }) {
  const step = niceStep(yMax);
  const top_ = Math.ceil(yMax / step) * step || step;
  const y = (v) => top + h - (v / top_) * h;
  const out = [];
  for (let v = 0; v <= top_ + 1e-9; v += step) {
    out.push(`<line x1="${left}" x2="${left + w}" y1="${n(y(v))}" y2="${n(y(v))}" stroke="#d1d9e0" stroke-width="1"/>`);
    out.push(`<text x="${left - 6}" y="${n(y(v) + 4)}" text-anchor="end" fill="#59636e">${n(v)}</text>`);
  }
  out.push(
    `<text transform="translate(${left - 40} ${n(top + h / 2)}) rotate(-90)" text-anchor="middle" fill="#59636e">${esc(yLabel)}</text>`,
  );
  return { y, out };
}

function legend(items, x, y) {
  return items.map((it, i) => {
    const yy = y + i * 18;
    const mark = it.dash
      ? `<line x1="${x}" x2="${x + 18}" y1="${yy - 4}" y2="${yy - 4}" stroke="${it.color}" stroke-width="2" stroke-dasharray="5 3"/>`
      : `<rect x="${x}" y="${yy - 10}" width="18" height="10" fill="${it.color}"/>`;
    return `${mark}<text x="${x + 24}" y="${yy}" fill="#1f2328">${esc(it.label)}</text>`;
  });
}

/** Grouped bars: the waits (p50, p90, p95, max) of each review policy. */
export function waitsSvg(report) {
  const p = report.params;
  const stats = [
    ["p50", "median"],
    ["p90", "p90"],
    ["p95", "p95"],
    ["max", "max"],
  ];
  const width = 720,
    height = 400,
    left = 70,
    top = 60,
    w = 470,
    h = 280;
  const yMax = Math.max(...report.policies.map((r) => r.waits.max));
  const { y, out } = axes({ left, top, w, h, yMax, yLabel: "wait, minutes" });
  const group = w / stats.length;
  const bar = (group - 16) / report.policies.length;
  const body = [...out];
  stats.forEach(([key, label], si) => {
    report.policies.forEach((row, pi) => {
      const x = left + si * group + 8 + pi * bar;
      const v = row.waits[key];
      body.push(
        `<rect x="${n(x)}" y="${n(y(v))}" width="${n(bar - 2)}" height="${n(top + h - y(v))}" fill="${COLORS[pi % COLORS.length]}"><title>${esc(`${reviewPolicyName(row.policy, p)} ${label}: ${f1(v)} min`)}</title></rect>`,
      );
      body.push(
        `<text x="${n(x + (bar - 2) / 2)}" y="${n(y(v) - 4)}" text-anchor="middle" font-size="10" fill="#1f2328">${Math.round(v)}</text>`,
      );
    });
    body.push(
      `<text x="${n(left + si * group + group / 2)}" y="${top + h + 18}" text-anchor="middle" fill="#1f2328">${label}</text>`,
    );
  });
  body.push(
    ...legend(
      report.policies.map((r, i) => ({ label: reviewPolicyName(r.policy, p), color: COLORS[i % COLORS.length] })),
      left + w + 24,
      top + 16,
    ),
  );
  return frame(
    {
      width,
      height,
      title: "Wait from opening to start of review, by policy",
      subtitle: `${p.stations} stations, ${p.arrivalsPerHour.min}-${p.arrivalsPerHour.max} PRs/h (utilization ${f2(report.utilization.min)}-${f2(report.utilization.max)}), mean review ${f1(report.meanReviewMinutes)} min, ${p.hours} h x ${p.seeds} seeds, seed ${report.seed}`,
    },
    body,
  );
}

/** Lines over a numeric x: one solid line (and optionally one dashed) per series. */
function linesSvg({ title, subtitle, xs, xLabel, yLabel, series, xFmt = (x) => x, extra = [], guide = null }) {
  const width = 720,
    height = 400,
    left = 70,
    top = 60,
    w = 450,
    h = 280;
  const all = [...series.flatMap((s) => [...s.values, ...(s.dashed ?? [])]), ...(guide?.values ?? [])];
  const { y, out } = axes({ left, top, w, h, yMax: Math.max(...all, 1), yLabel });
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const x = (v) => left + (x1 === x0 ? w / 2 : ((v - x0) / (x1 - x0)) * w);
  const body = [...out];
  for (const v of xs)
    body.push(`<text x="${n(x(v))}" y="${top + h + 16}" text-anchor="middle" fill="#59636e">${esc(xFmt(v))}</text>`);
  body.push(
    `<text x="${n(left + w / 2)}" y="${top + h + 34}" text-anchor="middle" fill="#59636e">${esc(xLabel)}</text>`,
  );
  const path = (vals) => vals.map((v, i) => `${i ? "L" : "M"}${n(x(xs[i]))} ${n(y(v))}`).join(" ");
  if (guide)
    body.push(
      `<path d="${path(guide.values)}" fill="none" stroke="#8c959f" stroke-width="1.5" stroke-dasharray="2 3"><title>${esc(guide.label)}</title></path>`,
    );
  for (const e of extra) body.push(e({ x, y }));
  series.forEach((s) => {
    body.push(`<path d="${path(s.values)}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    s.values.forEach(
      (v, i) =>
        void body.push(
          `<circle cx="${n(x(xs[i]))}" cy="${n(y(v))}" r="3" fill="${s.color}"><title>${esc(`${s.label} at ${xFmt(xs[i])}: ${f1(v)}`)}</title></circle>`,
        ),
    );
    if (s.dashed)
      body.push(
        `<path d="${path(s.dashed)}" fill="none" stroke="${s.color}" stroke-width="1.5" stroke-dasharray="5 3"/>`,
      );
  });
  const items = series.map((s) => ({ label: s.label, color: s.color, dash: false }));
  return frame({ width, height, title, subtitle }, [...body, ...legend(items, left + w + 24, top + 16)]);
}

/** The utilization sweep: median (solid) and p95 (dashed) wait per policy. */
export function sweepSvg(report) {
  const p = report.params;
  const xs = report.sweep.map((pt) => pt.utilization);
  const policies = report.sweep[0]?.policies.map((x) => x.policy) ?? [];
  const a = report.article;
  return linesSvg({
    title: "Median (solid) and p95 (dashed) wait by utilization",
    subtitle: `${p.stations} stations, mean review ${f1(report.meanReviewMinutes)} min, ${p.hours} h x ${p.seeds} seeds, seed ${report.seed}; pull's median at ${f2(a.utilization)}: ${f1(a.pull.p50)} (article ${a.articleMedian})`,
    xs,
    xLabel: "utilization (arrivals x mean review / stations)",
    yLabel: "wait, minutes",
    xFmt: f2,
    series: policies.map((policy, i) => ({
      label: reviewPolicyName(policy, p),
      color: COLORS[i % COLORS.length],
      values: report.sweep.map((pt) => pt.policies[i].waits.p50),
      dashed: report.sweep.map((pt) => pt.policies[i].waits.p95),
    })),
    extra: [
      ({ x, y }) =>
        `<circle cx="${n(x(a.utilization))}" cy="${n(y(a.articleMedian))}" r="5" fill="none" stroke="#1f2328" stroke-width="1.5"><title>the article: ${a.articleMedian} min</title></circle><text x="${n(x(a.utilization) - 8)}" y="${n(y(a.articleMedian) - 8)}" text-anchor="end" font-size="11" fill="#1f2328">article ${a.articleMedian}</text>`,
    ],
  });
}

/** Landings a day by CI time, per queue policy, with the serial cap (working hours / CI time). */
export function landingsSvg(report) {
  const p = report.params;
  const pts = report.sweeps.ciMinutes;
  const xs = pts.map((pt) => pt.value);
  const policies = pts[0]?.policies.map((o) => o.policy) ?? [];
  return linesSvg({
    title: "Landings per working day by CI time",
    subtitle: `${p.arrivalsPerDay} PRs/day join; ${pct(p.failureRate)} broken, ${pct(p.flakeRate)} flaky runs; ${p.dayHours}-h days x ${p.days} x ${p.seeds} seeds, seed ${report.seed}; grey: ${p.dayHours} h / CI time`,
    xs,
    xLabel: "CI minutes per run",
    yLabel: "landings per day",
    series: policies.map((policy, i) => ({
      label: queuePolicyName(policy, p),
      color: COLORS[i % COLORS.length],
      values: pts.map((pt) => pt.policies[i].landingsPerDay),
    })),
    // The serial cap, cut at twice the arrivals so a short CI time does not flatten the plot.
    guide: {
      label: `${p.dayHours} h / CI time`,
      values: pts.map((pt) => Math.min(pt.serialCapPerDay, p.arrivalsPerDay * 2)),
    },
  });
}
