// The CI simulator: GitHub Actions workflows as a merge queue meets them. Jobs take time on the
// emulator's clock and finish as the test's outcome for that head says (pass, fail, or flaky with a
// seeded probability); a required aggregate job reports once the jobs it waits on are done; `skip-ci`
// makes every job skip at once; a newer run cancels the older one in its concurrency group; and only
// events whose token starts runs start any. Check runs and statuses go through the repository state,
// so the GraphQL and REST readers see them as they see any other; it counts runs and minutes per head.
// Each job that ran leaves a log (the job's own text, or a few lines saying how it ended), which the REST
// route for job logs serves through a signed download URL, as GitHub does.
import { createHash } from "node:crypto";

/** The pull_request activity types a workflow runs on when its `on.pull_request` names none (GitHub's default). */
export const DEFAULT_PULL_REQUEST_TYPES = ["opened", "synchronize", "reopened"];

/**
 * One workflow, as `register` takes it:
 * - `name` ("CI"): the workflow's name (each check run's `workflow`);
 * - `jobs`: `[{ name, minutes, outcome?, log? }]` (a matrix is its expanded list); `minutes` of clock time;
 *   `log` is the job's log text, or `({ sha, number, conclusion, attempt }) => text` (default: a few
 *   lines saying how it ended, an `##[error]` line when it failed);
 * - `aggregate` (null): the required job that needs every other one (e.g. "ci-ok"): it has no check run
 *   until they are all done, then SUCCESS if they all passed, else FAILURE; CANCELLED with its run;
 * - `skipLabel` ("skip-ci"): under this label every job (and the aggregate) is SKIPPED at once, no minutes;
 * - `guard` (null): a commit status context (e.g. "no-skip-ci-label") the workflow writes: `pending` when a
 *   run starts (and it stays so under the label), then `success` or `failure` with the run's jobs. A skipped
 *   required check counts as passing on GitHub, so without a guard a round under `skip-ci` (or the stale
 *   aggregate of that round while the next one runs) reads green: the guard is what keeps it BLOCKED;
 * - `types` (opened, synchronize, reopened, ready_for_review): pull_request activities that start a run;
 *   `labeled`/`unlabeled` start one only for `skipLabel` (the label's own job filter);
 * - `branches` ([]): `push` to these branches runs it too (no pull request: the group is the branch);
 * - `concurrency` ("pr"): runs of one pull request form a group and a new run cancels the one in
 *   progress (`cancel-in-progress: true`); "none" lets them overlap;
 * - `outcome` ("pass"): each head's default (see `setOutcome`); `seed`: the flaky draws' seed.
 */
export class CiSimulator {
  constructor(emulator) {
    this.gh = emulator;
    this.workflows = [];
    this.runs = []; // every run, oldest first: { id, workflow, sha, number, event, action, group, status, conclusion, skipped, startedAt, completedAt, jobs }
    this.outcomes = new Map(); // sha or "#number" -> outcome spec
    this.nextId = 1;
  }

  register({
    name = "CI",
    jobs = [{ name: "test", minutes: 10 }],
    aggregate = null,
    skipLabel = "skip-ci",
    guard = null,
    types = [...DEFAULT_PULL_REQUEST_TYPES, "ready_for_review"],
    branches = [],
    concurrency = "pr",
    outcome = "pass",
    seed = "ci",
  } = {}) {
    const wf = {
      name,
      jobs: jobs.map((j) => ({ minutes: 10, ...j })),
      aggregate,
      skipLabel,
      guard,
      types,
      branches,
      concurrency,
      outcome,
      seed,
    };
    this.workflows.push(wf);
    return wf;
  }

  /**
   * The outcome of the jobs on a head: `target` is a commit sha or `{ number }` (that pull request's every
   * head from now on); `spec` is "pass", "fail", `{ flaky: p }` (each job fails with probability p, drawn
   * from the workflow's seed, the head, the job and the attempt: the same seed gives the same draws), or
   * `{ jobs: { "test (windows)": "fail" }, default: "pass" }`, or `{ failFirst: n }` (a flaky check, made
   * deterministic: the first n runs of this workflow that run jobs for the pull request, whatever its
   * head, fail; every later one passes).
   */
  setOutcome(target, spec) {
    this.outcomes.set(typeof target === "object" ? `#${target.number}` : target, spec);
  }

  /**
   * "Re-run all jobs" of a run that ran them, on a pull request's current head, as a person does from
   * the Actions page: each pull_request workflow runs again (in its concurrency group); returns the runs.
   */
  rerun({ number }) {
    const pr = this.gh.state.pull(number);
    return this.workflows
      .filter((wf) => wf.types.length)
      .map((wf) => this.start(wf, { sha: pr.headSha, number, event: "pull_request", action: "rerun", skipped: false }));
  }

  /** Called for every event the emulator emits that starts runs. */
  onEvent(event) {
    const { name, payload } = event;
    for (const wf of this.workflows) {
      if (name === "pull_request") {
        const pr = payload.pull_request;
        if (pr.state !== "open") continue;
        const labelEvent = payload.action === "labeled" || payload.action === "unlabeled";
        if (
          labelEvent
            ? payload.label?.name?.toLowerCase() !== wf.skipLabel?.toLowerCase()
            : !wf.types.includes(payload.action)
        )
          continue;
        const skipped = !!wf.skipLabel && pr.labels.some((l) => l.name.toLowerCase() === wf.skipLabel.toLowerCase());
        this.start(wf, { sha: pr.head.sha, number: pr.number, event: name, action: payload.action, skipped });
      } else if (name === "push" && !payload.deleted) {
        const branch = payload.ref.replace(/^refs\/heads\//, "");
        if (wf.branches.includes(branch))
          this.start(wf, { sha: payload.after, number: null, branch, event: name, action: null, skipped: false });
      }
    }
  }

  start(wf, { sha, number, branch, event, action, skipped }) {
    const st = this.gh.state;
    const group = wf.concurrency === "none" ? null : `${wf.name}-${number ? `pr-${number}` : branch}`;
    if (group)
      for (const older of this.runs) if (older.group === group && older.status !== "completed") this.cancel(older);
    const run = {
      id: this.nextId++,
      workflow: wf.name,
      sha,
      number,
      event,
      action,
      group,
      status: "in_progress",
      conclusion: null,
      skipped,
      startedAt: st.now(),
      completedAt: null,
      jobs: [],
      timers: [],
    };
    this.runs.push(run);
    this.asWorkflow(() => {
      if (wf.guard)
        st.status({
          sha,
          context: wf.guard,
          state: "pending",
          description: skipped ? `${wf.skipLabel} is on: checks skipped` : "checks running",
          by: "github-actions[bot]",
        });
      if (skipped) {
        // A job whose `if:` is false is SKIPPED at once, and so is the aggregate that needs it.
        for (const job of wf.jobs)
          run.jobs.push(
            this.job(
              run,
              job,
              st.checkRun({
                sha,
                name: job.name,
                workflow: wf.name,
                status: "COMPLETED",
                conclusion: "SKIPPED",
                run: run.id,
              }),
            ),
          );
        if (wf.aggregate)
          run.jobs.push(
            this.job(
              run,
              { name: wf.aggregate, minutes: 0 },
              st.checkRun({
                sha,
                name: wf.aggregate,
                workflow: wf.name,
                status: "COMPLETED",
                conclusion: "SKIPPED",
                run: run.id,
              }),
            ),
          );
        this.finish(run, "skipped");
        return;
      }
      wf.jobs.forEach((job, i) => {
        const attempt = this.runs.filter((r) => r.sha === sha && r.workflow === wf.name && !r.skipped).length;
        const ofPull =
          number == null
            ? attempt
            : this.runs.filter((r) => r.number === number && r.workflow === wf.name && !r.skipped).length;
        const conclusion = this.conclusion(wf, sha, number, job, attempt, ofPull);
        const check = st.checkRun({ sha, name: job.name, workflow: wf.name, status: "IN_PROGRESS", run: run.id });
        const j = this.job(run, job, check);
        run.jobs.push(j);
        run.timers.push(
          st.clock.after(
            job.minutes * 60_000,
            () => this.asWorkflow(() => this.jobDone(wf, run, j, conclusion)),
            `${wf.name} / ${job.name} on ${sha.slice(0, 7)}`,
          ),
        );
        void i;
      });
    });
    return run;
  }

  job(run, { name, minutes }, check) {
    return {
      name,
      minutes,
      checkRunId: check.id,
      startedAt: this.gh.state.clock.now(),
      conclusion: check.conclusion ?? null,
      log: null,
    };
  }

  jobDone(wf, run, j, conclusion) {
    const st = this.gh.state;
    j.conclusion = conclusion;
    // The log is there before the check run completes, so whoever reacts to the completion can read it.
    const spec = wf.jobs.find((x) => x.name === j.name);
    const attempt = this.runs.filter(
      (r) => r.sha === run.sha && r.workflow === wf.name && !r.skipped && r.id <= run.id,
    ).length;
    j.log = jobLog(
      st.clock.now(),
      { ...j, conclusion },
      typeof spec?.log === "function" ? spec.log({ sha: run.sha, number: run.number, conclusion, attempt }) : spec?.log,
    );
    st.completeCheckRun(j.checkRunId, conclusion);
    const jobs = run.jobs.filter((x) => x.name !== wf.aggregate);
    if (jobs.some((x) => !x.conclusion)) return;
    const ok = jobs.every((x) => x.conclusion === "SUCCESS");
    if (wf.aggregate) {
      const failed = jobs.filter((x) => x.conclusion !== "SUCCESS").map((x) => x.name);
      const agg = { name: wf.aggregate, conclusion: ok ? "SUCCESS" : "FAILURE", startedAt: st.clock.now() };
      const log = jobLog(
        st.clock.now(),
        agg,
        ok ? "every job it needs passed" : `needed jobs did not pass: ${failed.join(", ")}`,
      );
      run.jobs.push({
        ...this.job(
          run,
          { name: wf.aggregate, minutes: 0 },
          st.checkRun({
            sha: run.sha,
            name: wf.aggregate,
            workflow: wf.name,
            status: "COMPLETED",
            conclusion: agg.conclusion,
            run: run.id,
          }),
        ),
        log,
      });
    }
    if (wf.guard)
      st.status({
        sha: run.sha,
        context: wf.guard,
        state: ok ? "success" : "failure",
        description: ok ? "checks passed" : "checks failed",
        by: "github-actions[bot]",
      });
    this.finish(run, ok ? "success" : "failure");
  }

  /**
   * The log of the job whose check run is `checkRunId` (on GitHub, the job id is its check run's id):
   * its text once the job has run, null for no such job, one still running, or one skipped (no log).
   */
  jobLog(checkRunId) {
    for (const run of this.runs) {
      const j = run.jobs.find((x) => x.checkRunId === checkRunId);
      if (j) return j.log;
    }
    return null;
  }

  /** Cancels a run in progress: its running jobs end CANCELLED now, and its aggregate reads CANCELLED (red). */
  cancel(run) {
    const st = this.gh.state;
    for (const t of run.timers) t.cancel();
    const wf = this.workflows.find((w) => w.name === run.workflow);
    this.asWorkflow(() => {
      // The aggregate first, so the suite completes once, with the last cancelled job.
      const running = run.jobs.filter((j) => !j.conclusion);
      if (wf?.aggregate && !run.jobs.some((j) => j.name === wf.aggregate)) {
        run.jobs.push(
          this.job(
            run,
            { name: wf.aggregate, minutes: 0 },
            st.checkRun({
              sha: run.sha,
              name: wf.aggregate,
              workflow: wf.name,
              status: "COMPLETED",
              conclusion: "CANCELLED",
              run: run.id,
            }),
          ),
        );
      }
      for (const j of running) {
        j.log = jobLog(st.clock.now(), { ...j, conclusion: "CANCELLED" }, "##[error]The operation was canceled.");
        st.completeCheckRun(j.checkRunId, (j.conclusion = "CANCELLED"));
      }
      if (wf?.guard)
        st.status({
          sha: run.sha,
          context: wf.guard,
          state: "failure",
          description: "cancelled",
          by: "github-actions[bot]",
        });
    });
    this.finish(run, "cancelled");
  }

  finish(run, conclusion) {
    run.status = "completed";
    run.conclusion = conclusion;
    run.completedAt = this.gh.state.now();
    run.timers = [];
  }

  /** The conclusion a job will have: the head's outcome, else the workflow's; flaky draws are seeded. */
  conclusion(wf, sha, number, job, attempt, ofPull = attempt) {
    const spec =
      this.outcomes.get(sha) ??
      (number != null ? this.outcomes.get(`#${number}`) : undefined) ??
      job.outcome ??
      wf.outcome;
    const one = typeof spec === "object" && spec.jobs ? (spec.jobs[job.name] ?? spec.default ?? "pass") : spec;
    if (one === "pass") return "SUCCESS";
    if (one === "fail") return "FAILURE";
    if (typeof one === "object" && typeof one.flaky === "number")
      return draw(wf.seed, sha, job.name, attempt) < one.flaky ? "FAILURE" : "SUCCESS";
    if (typeof one === "object" && Number.isInteger(one.failFirst))
      return ofPull <= one.failFirst ? "FAILURE" : "SUCCESS";
    throw new Error(`CI outcome ${JSON.stringify(one)}: expected "pass", "fail", { flaky: p } or { failFirst: n }`);
  }

  /**
   * What CI cost, per head: `{ [sha]: { runs, skipped, cancelled, minutes } }` (`runs` counts runs that ran
   * jobs; `minutes` the job minutes spent, a cancelled job counting the time it ran). With `{ number }`,
   * only that pull request's runs; `total` sums every head.
   */
  usage({ number } = {}) {
    const now = this.gh.state.clock.now();
    const heads = {};
    const total = { runs: 0, skipped: 0, cancelled: 0, minutes: 0 };
    for (const r of this.runs) {
      if (number != null && r.number !== number) continue;
      const h = (heads[r.sha] ??= { runs: 0, skipped: 0, cancelled: 0, minutes: 0 });
      const add = (k, v) => ((h[k] += v), (total[k] += v));
      if (r.skipped) {
        add("skipped", 1);
        continue;
      }
      add("runs", 1);
      if (r.conclusion === "cancelled") add("cancelled", 1);
      for (const j of r.jobs) {
        if (!j.minutes) continue;
        const check = this.gh.state.checkRuns.find((c) => c.id === j.checkRunId);
        const end = check?.completedAt ? Date.parse(check.completedAt) : now;
        add("minutes", Math.min(j.minutes, (end - j.startedAt) / 60_000));
      }
    }
    return { heads, total };
  }

  /** CI's own writes are the workflow's GITHUB_TOKEN's: the events they cause start no workflow runs. */
  asWorkflow(fn) {
    return this.gh.state.withTokenKind("app", fn);
  }
}

/**
 * A job's log as GitHub serves it: every line stamped with the time, the job's own text between a header
 * and the closing line, and the exit code's error line when it did not pass.
 */
function jobLog(endedAt, job, text) {
  const stamp = (ms) => `${new Date(ms).toISOString().replace(/Z$/, "0000Z")} `;
  const body = text ?? `${job.name}: ${job.conclusion === "SUCCESS" ? "passed" : String(job.conclusion).toLowerCase()}`;
  const lines = [
    `${stamp(job.startedAt)}##[group]Run ${job.name}`,
    `${stamp(job.startedAt)}##[endgroup]`,
    ...String(body)
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => stamp(endedAt) + l),
  ];
  if (job.conclusion === "FAILURE") lines.push(`${stamp(endedAt)}##[error]Process completed with exit code 1.`);
  return `${lines.join("\n")}\n`;
}

/** A number in [0, 1) from the seed, the head, the job and the attempt: flaky jobs fail reproducibly. */
export function draw(seed, sha, job, attempt) {
  return (
    createHash("sha256").update(`${seed}\u0000${sha}\u0000${job}\u0000${attempt}`).digest().readUInt32BE(0) / 2 ** 32
  );
}
