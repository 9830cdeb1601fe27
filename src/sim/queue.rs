//! `prflow sim queue`: what landing pull requests on `main` costs in CI, by how the queue runs CI.
//!
//! Pull requests join the queue as Poisson arrivals over working days. A share of them is broken (a
//! build containing one always fails) and any build may fail on a flake. Four ways to land them:
//!
//! - `serial`: one pull request at a time, the `skip-ci` token on every other, so a run is never thrown
//!   away, and landings are capped at working hours over CI time (32 a day at 15 minutes).
//! - `updateEveryBranch`: every queued branch runs CI, and every time `main` moves each one is updated
//!   and runs again: the cap is the same, and every landing pays a run per waiting branch.
//! - `mergeQueue`: up to `concurrency` speculative builds, each of a pull request on top of the ones
//!   before it; the front lands when its build passes, and a failure restarts every build behind it.
//! - `batch`: up to `batchSize` pull requests in one build; a failing batch is split in halves and each
//!   half built again (bisection) until the broken pull request stands alone.
//!
//! A failure of a pull request that is not broken is a flake: it is retried at once. A broken one is
//! set aside (left for its author; it does not come back in the run). CI minutes count every run,
//! thrown away or not, for as long as it ran; runners are never short.
//!
//! Three more are the worker's own, and ask the engine's queue decisions (src/flows/queue/: chain,
//! flake, bisect, sizing) exactly as the worker does, so the simulation and the worker cannot drift:
//!
//! - `chainSerial`: the chain of one.
//! - `chainBatch`: chains of `batchSize`, CI at `speculate` checkpoints, bisected by prefixes.
//! - `chainAdaptive`: the same with the size chosen from the last 50 landings' failure rate.
//!
//! These know nothing the worker does not: a red run is judged by the flake verdict (with
//! `flakeVerdict`, one re-run on the same head before a set-aside), so a flake can set a good pull
//! request aside (a false ejection), and every re-run counts as a CI run. With `ciRange` each of their
//! runs lasts a uniform draw in it; the other policies take its middle.

use super::params::{check, seed_and_runs};
use super::rng::Rng;
use super::stats::{hundredth, spread, tenth, Spread};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum QueuePolicy {
    /// One released pull request at a time (the `skip-ci` token).
    Serial,
    /// Every branch updated and run again whenever `main` moves.
    UpdateEveryBranch,
    /// Speculative builds, `concurrency` at a time.
    MergeQueue,
    /// Batches of `batchSize`, bisected on failure.
    Batch,
    /// The worker: a chain of one, the flake verdict on a red.
    ChainSerial,
    /// The worker: chains of `batchSize`, `speculate` checkpoints, bisected by prefixes.
    ChainBatch,
    /// The worker: chains of at most `batchSize`, the size from the last landings' failure rate.
    ChainAdaptive,
}

/// The queue simulation's parameters; the defaults are a busy team on 15-minute CI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct QueueParams {
    /// The seed every draw comes from (required by the engine; the shells draw one when none is given).
    pub seed: Option<u32>,
    /// Independent runs pooled into each figure.
    pub seeds: u32,
    /// Working days per run, of `dayHours` each; the queue carries over from one day to the next.
    pub days: u32,
    pub day_hours: f64,
    /// Pull requests joining the queue per working day.
    pub arrivals_per_day: f64,
    /// Minutes of one CI run (one build of one branch or one batch).
    pub ci_minutes: f64,
    /// The share of pull requests that are broken: every build containing one fails.
    pub failure_rate: f64,
    /// The chance that a build fails although nothing in it is broken.
    pub flake_rate: f64,
    /// The merge queue's builds at once.
    pub concurrency: u32,
    /// The most pull requests in one batch.
    pub batch_size: u32,
    /// The policies compared, in the order reported.
    pub policies: Vec<QueuePolicy>,
    /// The sweeps: each varies one parameter over these values, the rest as above.
    pub sweep_ci_minutes: Vec<f64>,
    pub sweep_failure_rate: Vec<f64>,
    pub sweep_flake_rate: Vec<f64>,
    /// The worker's policies: checkpoints whose CI runs at once along a chain (1: only its top).
    pub speculate: u32,
    /// The worker's policies: a red that would set a pull request aside is re-run once on the same head
    /// first (the flake verdict's re-run); false, it is set aside at once, as a serial worker without
    /// the verdict does.
    pub flake_verdict: bool,
    /// Bursts in place of the Poisson draw: `size` pull requests every `everyMinutes`, from minute 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst: Option<Burst>,
    /// Each CI run of the worker's policies lasts a uniform draw in this range (minutes); the other
    /// policies, and the serial cap, take its middle. Absent: `ciMinutes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_range: Option<super::Range>,
    /// A board's own arrivals, in place of the Poisson draw (and of `arrivalsPerDay` and
    /// `failureRate`): each run takes these, so a board replayed on the emulator with the worker
    /// meets the same pull requests at the same minutes (issue 19's check against the worker).
    /// Left out of a report when none is given, so the drawn runs' reports stay as they were.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arrivals: Vec<Arrival>,
}

/// Bursty arrivals: `size` pull requests at once every `everyMinutes`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Burst {
    pub size: u32,
    pub every_minutes: f64,
}

/// One pull request joining the queue at `minute` from the start of the first day.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Arrival {
    pub minute: f64,
    /// Every build containing it fails (it is set aside).
    #[serde(default)]
    pub broken: bool,
}

impl Default for QueueParams {
    fn default() -> Self {
        QueueParams {
            seed: None,
            seeds: 20,
            days: 20,
            day_hours: 8.0,
            arrivals_per_day: 40.0,
            ci_minutes: 15.0,
            failure_rate: 0.1,
            flake_rate: 0.05,
            concurrency: 4,
            batch_size: 4,
            policies: vec![
                QueuePolicy::Serial,
                QueuePolicy::UpdateEveryBranch,
                QueuePolicy::MergeQueue,
                QueuePolicy::Batch,
            ],
            sweep_ci_minutes: vec![5.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0],
            sweep_failure_rate: vec![0.0, 0.05, 0.1, 0.2, 0.3],
            sweep_flake_rate: vec![0.0, 0.02, 0.05, 0.1, 0.2],
            speculate: 1,
            flake_verdict: true,
            burst: None,
            ci_range: None,
            arrivals: Vec::new(),
        }
    }
}

/// One policy's results, per working day and per landed pull request, pooled over every seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueOutcome {
    pub policy: QueuePolicy,
    pub landings_per_day: f64,
    pub ci_runs_per_day: f64,
    pub ci_minutes_per_day: f64,
    pub runs_per_landing: f64,
    pub minutes_per_landing: f64,
    /// Broken pull requests set aside per day.
    pub set_aside_per_day: f64,
    /// Pull requests still queued when the last day ends, the mean over runs.
    pub backlog: f64,
    /// Minutes from joining the queue to landing, for the pull requests that landed.
    pub latency: Spread,
    /// The worker's figures, by the names its benchmark reports: landings a day, CI runs per landed
    /// pull request (every run the queue causes, re-runs included), good pull requests set aside per
    /// 100 landed, and the median and 95th percentile of minutes from queued to landed.
    pub landed_per_day: f64,
    pub ci_runs_per_landed: f64,
    pub false_ejections_per100: f64,
    pub p50_wait_minutes: f64,
    pub p95_wait_minutes: f64,
}

/// The policies at one value of a swept parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueSweepPoint {
    pub value: f64,
    /// Working hours over CI time: the serial queue's ceiling on landings a day.
    pub serial_cap_per_day: f64,
    pub policies: Vec<QueueOutcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueSweeps {
    pub ci_minutes: Vec<QueueSweepPoint>,
    pub failure_rate: Vec<QueueSweepPoint>,
    pub flake_rate: Vec<QueueSweepPoint>,
}

/// The queue simulation's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueReport {
    pub seed: u32,
    /// The parameters the run used, defaults filled in.
    pub params: QueueParams,
    /// Working hours over CI time: the most a one-at-a-time queue can land in a day.
    pub serial_cap_per_day: f64,
    pub policies: Vec<QueueOutcome>,
    pub sweeps: QueueSweeps,
}

impl QueueParams {
    fn validate(&self) -> Vec<String> {
        let mut e = Vec::new();
        check(
            &mut e,
            (1..=1000).contains(&self.seeds),
            "seeds",
            "from 1 to 1000",
            self.seeds,
        );
        check(
            &mut e,
            (1..=1000).contains(&self.days),
            "days",
            "from 1 to 1000",
            self.days,
        );
        check(
            &mut e,
            self.day_hours > 0.0 && self.day_hours <= 24.0,
            "dayHours",
            "more than 0, at most 24",
            self.day_hours,
        );
        check(
            &mut e,
            self.arrivals_per_day > 0.0 && self.arrivals_per_day <= 1000.0,
            "arrivalsPerDay",
            "more than 0, at most 1000",
            self.arrivals_per_day,
        );
        let minutes = |e: &mut Vec<String>, field: &str, v: f64| {
            check(e, (0.5..=1440.0).contains(&v), field, "minutes from 0.5 to 1440", v)
        };
        let share = |e: &mut Vec<String>, field: &str, v: f64| {
            check(e, (0.0..=0.9).contains(&v), field, "a share from 0 to 0.9", v)
        };
        minutes(&mut e, "ciMinutes", self.ci_minutes);
        share(&mut e, "failureRate", self.failure_rate);
        share(&mut e, "flakeRate", self.flake_rate);
        check(
            &mut e,
            (1..=100).contains(&self.concurrency),
            "concurrency",
            "from 1 to 100",
            self.concurrency,
        );
        check(
            &mut e,
            (1..=100).contains(&self.batch_size),
            "batchSize",
            "from 1 to 100",
            self.batch_size,
        );
        check(
            &mut e,
            !self.policies.is_empty(),
            "policies",
            "at least one policy",
            "none",
        );
        check(
            &mut e,
            (1..=100).contains(&self.speculate),
            "speculate",
            "from 1 to 100",
            self.speculate,
        );
        if let Some(b) = &self.burst {
            check(
                &mut e,
                (1..=1000).contains(&b.size),
                "burst.size",
                "from 1 to 1000",
                b.size,
            );
            check(
                &mut e,
                (1.0..=1440.0).contains(&b.every_minutes),
                "burst.everyMinutes",
                "minutes from 1 to 1440",
                b.every_minutes,
            );
        }
        if let Some(r) = &self.ci_range {
            r.check(&mut e, "ciRange", 0.5, 1440.0);
        }
        for (i, v) in self.sweep_ci_minutes.iter().enumerate() {
            minutes(&mut e, &format!("sweepCiMinutes[{i}]"), *v);
        }
        for (i, v) in self.sweep_failure_rate.iter().enumerate() {
            share(&mut e, &format!("sweepFailureRate[{i}]"), *v);
        }
        for (i, v) in self.sweep_flake_rate.iter().enumerate() {
            share(&mut e, &format!("sweepFlakeRate[{i}]"), *v);
        }
        let horizon = self.days as f64 * self.day_hours * 60.0;
        check(
            &mut e,
            self.arrivals.len() <= 100_000,
            "arrivals",
            "at most 100000",
            self.arrivals.len(),
        );
        for (i, a) in self.arrivals.iter().enumerate() {
            check(
                &mut e,
                a.minute >= 0.0 && a.minute < horizon,
                &format!("arrivals[{i}].minute"),
                &format!("from 0 to less than the run's {horizon} minutes"),
                a.minute,
            );
        }
        e
    }

    fn serial_cap(&self) -> f64 {
        hundredth(self.day_hours * 60.0 / self.ci_mean())
    }

    /// One CI run's minutes on average: the middle of `ciRange`, or `ciMinutes`.
    fn ci_mean(&self) -> f64 {
        self.ci_range.map_or(self.ci_minutes, |r| (r.min + r.max) / 2.0)
    }
}

/// Runs the queue simulation; the errors name the parameter.
pub fn queue(params: &QueueParams) -> Result<QueueReport, Vec<String>> {
    let (seed, runs) = seed_and_runs(params.seed, params.seeds, params.validate())?;
    let outcomes =
        |p: &QueueParams| -> Vec<QueueOutcome> { p.policies.iter().map(|&policy| pooled(p, &runs, policy)).collect() };
    let sweep = |values: &[f64], set: &dyn Fn(&mut QueueParams, f64)| -> Vec<QueueSweepPoint> {
        values
            .iter()
            .map(|&value| {
                let mut p = params.clone();
                set(&mut p, value);
                QueueSweepPoint {
                    value,
                    serial_cap_per_day: p.serial_cap(),
                    policies: outcomes(&p),
                }
            })
            .collect()
    };
    Ok(QueueReport {
        seed,
        params: QueueParams {
            seed: Some(seed),
            ..params.clone()
        },
        serial_cap_per_day: params.serial_cap(),
        policies: outcomes(params),
        sweeps: QueueSweeps {
            ci_minutes: sweep(&params.sweep_ci_minutes, &|p, v| {
                p.ci_minutes = v;
                p.ci_range = None;
            }),
            failure_rate: sweep(&params.sweep_failure_rate, &|p, v| p.failure_rate = v),
            flake_rate: sweep(&params.sweep_flake_rate, &|p, v| p.flake_rate = v),
        },
    })
}

fn pooled(p: &QueueParams, runs: &[u64], policy: QueuePolicy) -> QueueOutcome {
    let tallies: Vec<Tally> = runs.iter().map(|&s| simulate(p, s, policy)).collect();
    let days = p.days as f64 * runs.len() as f64;
    let landed: usize = tallies.iter().map(|t| t.latencies.len()).sum();
    let ci_runs: u64 = tallies.iter().map(|t| t.runs).sum();
    let minutes: f64 = tallies.iter().map(|t| t.minutes).sum();
    let per_landing = |x: f64| if landed == 0 { 0.0 } else { x / landed as f64 };
    let latency = spread(tallies.iter().flat_map(|t| t.latencies.iter().copied()).collect());
    let false_ejections: u64 = tallies.iter().map(|t| t.false_ejections).sum();
    QueueOutcome {
        policy,
        landings_per_day: hundredth(landed as f64 / days),
        ci_runs_per_day: hundredth(ci_runs as f64 / days),
        ci_minutes_per_day: tenth(minutes / days),
        runs_per_landing: hundredth(per_landing(ci_runs as f64)),
        minutes_per_landing: tenth(per_landing(minutes)),
        set_aside_per_day: hundredth(tallies.iter().map(|t| t.set_aside).sum::<u64>() as f64 / days),
        backlog: tenth(tallies.iter().map(|t| t.backlog as f64).sum::<f64>() / runs.len() as f64),
        landed_per_day: hundredth(landed as f64 / days),
        ci_runs_per_landed: hundredth(per_landing(ci_runs as f64)),
        false_ejections_per100: hundredth(per_landing(false_ejections as f64 * 100.0)),
        p50_wait_minutes: latency.p50,
        p95_wait_minutes: latency.p95,
        latency,
    }
}

/// A pull request joining the queue.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Job {
    pub arrival: f64,
    pub broken: bool,
}

/// The arrivals of one run. The broken draw is a uniform compared with the rate, so runs at a higher
/// failure rate break a superset of the same pull requests (the sweep moves one thing at a time).
pub(crate) fn arrivals(p: &QueueParams, run_seed: u64) -> Vec<Job> {
    if !p.arrivals.is_empty() {
        let mut jobs: Vec<Job> = p
            .arrivals
            .iter()
            .map(|a| Job {
                arrival: a.minute,
                broken: a.broken,
            })
            .collect();
        jobs.sort_by(|a, b| a.arrival.total_cmp(&b.arrival));
        return jobs;
    }
    let mut rng = Rng::new(run_seed, 2);
    let horizon = p.days as f64 * p.day_hours * 60.0;
    if let Some(b) = p.burst {
        let mut jobs = Vec::new();
        let mut t = 0.0;
        while t < horizon {
            for _ in 0..b.size {
                jobs.push(Job {
                    arrival: t,
                    broken: rng.unit() < p.failure_rate,
                });
            }
            t += b.every_minutes;
        }
        return jobs;
    }
    let mean_gap = p.day_hours * 60.0 / p.arrivals_per_day;
    let mut jobs = Vec::new();
    let mut t = 0.0;
    loop {
        t += rng.exponential(mean_gap);
        let broken = rng.unit() < p.failure_rate;
        if t >= horizon {
            return jobs;
        }
        jobs.push(Job { arrival: t, broken });
    }
}

#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub runs: u64,
    pub minutes: f64,
    pub latencies: Vec<f64>,
    pub set_aside: u64,
    /// Set aside although not broken: a flake judged real.
    pub false_ejections: u64,
    pub backlog: usize,
}

impl Tally {
    fn land(&mut self, job: &Job, at: f64) {
        self.latencies.push(at - job.arrival);
    }
}

pub(crate) fn simulate(p: &QueueParams, run_seed: u64, policy: QueuePolicy) -> Tally {
    let jobs = arrivals(p, run_seed);
    let mut sim = Sim {
        p,
        jobs: &jobs,
        horizon: p.days as f64 * p.day_hours * 60.0,
        flakes: Rng::new(run_seed, 3),
        tally: Tally::default(),
        next: 0,
    };
    match policy {
        QueuePolicy::Serial => sim.batches(1),
        QueuePolicy::Batch => sim.batches(p.batch_size as usize),
        QueuePolicy::MergeQueue => sim.merge_queue(p.concurrency as usize),
        QueuePolicy::UpdateEveryBranch => sim.update_every_branch(),
        QueuePolicy::ChainSerial => sim.chains(Sizing::Fixed(1), run_seed),
        QueuePolicy::ChainBatch => sim.chains(Sizing::Fixed(p.batch_size), run_seed),
        QueuePolicy::ChainAdaptive => sim.chains(Sizing::Adaptive(p.batch_size), run_seed),
    }
    let mut tally = sim.tally;
    tally.backlog = jobs.len() - tally.latencies.len() - tally.set_aside as usize;
    tally
}

struct Sim<'a> {
    p: &'a QueueParams,
    jobs: &'a [Job],
    horizon: f64,
    flakes: Rng,
    tally: Tally,
    /// The first job that has not joined the queue yet.
    next: usize,
}

impl Sim<'_> {
    fn next_arrival(&self) -> f64 {
        self.jobs.get(self.next).map_or(f64::INFINITY, |j| j.arrival)
    }

    /// Does a build of these jobs pass? Drawn once per finished build, in the order builds finish.
    fn passes(&mut self, ids: impl IntoIterator<Item = usize>) -> bool {
        let flaked = self.flakes.chance(self.p.flake_rate);
        !flaked && ids.into_iter().all(|i| !self.jobs[i].broken)
    }

    /// One build at a time of up to `size` queued pull requests; a failing batch is bisected. Size 1 is
    /// the serial queue: the token goes to the oldest, which runs until it lands or is set aside.
    fn batches(&mut self, size: usize) {
        let ci = self.p.ci_mean();
        let mut queue: VecDeque<usize> = VecDeque::new();
        let mut halves: VecDeque<Vec<usize>> = VecDeque::new();
        let mut t = 0.0;
        loop {
            while self.next_arrival() <= t {
                queue.push_back(self.next);
                self.next += 1;
            }
            let batch = match halves.pop_front() {
                Some(b) => b,
                None if !queue.is_empty() => queue.drain(..size.min(queue.len())).collect(),
                None if self.next < self.jobs.len() => {
                    t = self.next_arrival();
                    continue;
                }
                None => return,
            };
            self.tally.runs += 1;
            if t + ci > self.horizon {
                self.tally.minutes += self.horizon - t;
                return;
            }
            self.tally.minutes += ci;
            t += ci;
            if self.passes(batch.iter().copied()) {
                for &i in &batch {
                    self.tally.land(&self.jobs[i], t);
                }
            } else if batch.len() == 1 {
                if self.jobs[batch[0]].broken {
                    self.tally.set_aside += 1;
                } else {
                    halves.push_front(batch);
                }
            } else {
                let (a, b) = batch.split_at(batch.len().div_ceil(2));
                halves.push_front(b.to_vec());
                halves.push_front(a.to_vec());
            }
        }
    }

    /// Speculative builds: the first `concurrency` queued pull requests each have a build of itself on
    /// top of the ones before it. Builds start in queue order and take equal time, so the front's
    /// always finishes first: it lands, or it fails and every build behind it (which contains it)
    /// starts again.
    fn merge_queue(&mut self, concurrency: usize) {
        let ci = self.p.ci_mean();
        // (job, start of its build)
        let mut queue: VecDeque<(usize, Option<f64>)> = VecDeque::new();
        loop {
            let finish = queue.front().and_then(|(_, s)| *s).map_or(f64::INFINITY, |s| s + ci);
            let arrival = self.next_arrival();
            let t = finish.min(arrival);
            if t == f64::INFINITY || t > self.horizon {
                break;
            }
            if arrival < finish {
                queue.push_back((self.next, None));
                self.next += 1;
            } else {
                let (front, _) = queue.pop_front().expect("a build finished");
                self.tally.minutes += ci;
                if self.passes([front]) {
                    self.tally.land(&self.jobs[front], t);
                } else {
                    for (_, start) in queue.iter_mut() {
                        if let Some(s) = start.take() {
                            self.tally.minutes += t - s;
                        }
                    }
                    if self.jobs[front].broken {
                        self.tally.set_aside += 1;
                    } else {
                        queue.push_front((front, None));
                    }
                }
            }
            for (_, start) in queue.iter_mut().take(concurrency) {
                if start.is_none() {
                    *start = Some(t);
                    self.tally.runs += 1;
                }
            }
        }
        for (_, start) in queue {
            if let Some(s) = start {
                self.tally.minutes += self.horizon - s;
            }
        }
    }

    /// Every queued branch runs; when one lands, every other is updated with `main` and runs again.
    fn update_every_branch(&mut self) {
        let ci = self.p.ci_mean();
        // (job, start of its current run), in queue order.
        let mut queue: Vec<(usize, f64)> = Vec::new();
        // Each finish rebuilds the line into the spare buffer and swaps: one new buffer per finish
        // held every waiting branch, which a month of a growing line (thousands waiting, thousands of
        // finishes) piles up in an allocator that frees nothing until the call ends.
        let mut spare: Vec<(usize, f64)> = Vec::new();
        loop {
            let finish = queue.iter().map(|&(_, s)| s + ci).fold(f64::INFINITY, f64::min);
            let arrival = self.next_arrival();
            let t = finish.min(arrival);
            if t == f64::INFINITY || t > self.horizon {
                break;
            }
            if arrival < finish {
                queue.push((self.next, arrival));
                self.next += 1;
                self.tally.runs += 1;
                continue;
            }
            // Every run finishing now, in queue order: the first green one lands.
            let mut landed = false;
            let keep = &mut spare;
            keep.clear();
            for &(job, start) in queue.iter() {
                if start + ci != t {
                    keep.push((job, start));
                    continue;
                }
                self.tally.minutes += ci;
                if self.passes([job]) && !landed {
                    self.tally.land(&self.jobs[job], t);
                    landed = true;
                } else if self.jobs[job].broken {
                    self.tally.set_aside += 1;
                } else {
                    // A flake, or green but behind a branch that just landed: run again.
                    keep.push((job, t));
                    self.tally.runs += 1;
                }
            }
            if landed {
                for (_, start) in keep.iter_mut() {
                    if *start < t {
                        self.tally.minutes += t - *start;
                        *start = t;
                        self.tally.runs += 1;
                    }
                }
            }
            std::mem::swap(&mut queue, &mut spare);
        }
        for (_, start) in queue {
            self.tally.minutes += self.horizon - start;
        }
    }
}

/// How the worker's policies size a chain.
#[derive(Clone, Copy)]
enum Sizing {
    Fixed(u32),
    /// At most this many, by `batchSize` from the last landings.
    Adaptive(u32),
}

/// The outcomes the adaptive size reads: the last this many landed or set aside.
const RECENT: usize = 50;

impl Sim<'_> {
    /// One CI run's minutes: a draw in `ciRange`, or `ciMinutes`.
    fn ci_draw(&self, durations: &mut Rng) -> f64 {
        match self.p.ci_range {
            Some(r) => r.min + durations.unit() * (r.max - r.min),
            None => self.p.ci_minutes,
        }
    }

    /// The worker's loop: compose a chain, run CI at its checkpoints, land the longest green prefix,
    /// judge a red, bisect, set aside, chain the rest again. Every choice is the engine's decision.
    fn chains(&mut self, sizing: Sizing, run_seed: u64) {
        use crate::flows::queue::{bisect, chain, flake, sizing};
        let mut durations = Rng::new(run_seed, 4);
        let mut cfg = crate::core::config::queue::QueueConfig::default();
        let mut queue: VecDeque<usize> = VecDeque::new();
        let mut recent: VecDeque<bool> = VecDeque::new();
        let mut t = 0.0;
        loop {
            while self.next_arrival() <= t {
                queue.push_back(self.next);
                self.next += 1;
            }
            if queue.is_empty() {
                if self.next >= self.jobs.len() {
                    return;
                }
                t = self.next_arrival();
                continue;
            }
            let size = match sizing {
                Sizing::Fixed(n) => n,
                Sizing::Adaptive(max) => {
                    cfg.batch = crate::core::config::queue::BatchConfig { max, adaptive: true };
                    let set_aside = recent.iter().filter(|&&x| x).count() as u32;
                    sizing::batch_size(
                        &cfg,
                        &sizing::Recent {
                            landed: recent.len() as u32 - set_aside,
                            set_aside,
                        },
                    )
                    .size
                }
            };
            // Nothing here collides or waits: the first `size` queued are the chain.
            let head: Vec<chain::Queued> = queue
                .iter()
                .take(size as usize)
                .map(|&j| chain::Queued {
                    number: j as u64,
                    waiting_on: Vec::new(),
                })
                .collect();
            let composed = chain::compose(&head, &[], size, self.p.speculate);
            let ids: Vec<usize> = composed.batch.iter().map(|&n| n as usize).collect();
            queue.drain(..ids.len());
            let n = ids.len();
            let position = |number: u64| composed.batch.iter().position(|&x| x == number).expect("in the chain") + 1;
            let mut tests: Vec<usize> = composed.checkpoints.iter().map(|&c| position(c)).collect();
            let (mut green, mut red, mut landed) = (0usize, None::<usize>, 0usize);
            // The red prefix last judged with a set-aside at stake.
            let mut verified = 0usize;
            loop {
                // The tests of a round run at once; the round lasts as long as its longest run.
                let mut round = 0.0f64;
                let mut failed: Vec<usize> = Vec::new();
                for &at in &tests {
                    let d = self.ci_draw(&mut durations);
                    round = round.max(d);
                    self.tally.runs += 1;
                    self.tally.minutes += d;
                    if self.passes(ids[..at].iter().copied()) {
                        green = green.max(at);
                    } else {
                        failed.push(at);
                    }
                }
                if t + round > self.horizon {
                    return;
                }
                t += round;
                // A red below a green prefix was a flake: the green one holds it.
                let first_red = failed.into_iter().filter(|&at| at > green).min();
                if let Some(at) = first_red {
                    let stake = at == green + 1;
                    match self.judge(&ids[..at], stake, &mut t, &mut durations) {
                        None => return,
                        Some(flake::Verdict::Flake) => green = green.max(at),
                        Some(_) => {
                            red = Some(red.map_or(at, |r: usize| r.min(at)));
                            if stake {
                                verified = at;
                            }
                        }
                    }
                }
                if red.is_some_and(|r| r <= green) {
                    red = None;
                }
                let Some(r) = red.filter(|_| green < n) else {
                    // Green to the top (or a flake judged so): the whole chain lands.
                    if green < n {
                        // Reached only when no test was red above the green prefix and the top was not tested:
                        // test the top.
                        tests = vec![n];
                        continue;
                    }
                    for &j in &ids[landed..] {
                        self.land(j, t, &mut recent);
                    }
                    break;
                };
                let step = bisect::step(&bisect::BisectInput {
                    chain: composed.batch.clone(),
                    green: green as u32,
                    red: r as u32,
                })
                .expect("0 <= green < red <= n");
                if step.set_aside.is_some() && verified != r {
                    // That red was judged higher in the bisection, with nothing at stake: judged again
                    // now that it sets a pull request aside (the re-run before a set-aside).
                    match self.judge(&ids[..r], true, &mut t, &mut durations) {
                        None => return,
                        Some(flake::Verdict::Flake) => {
                            green = r;
                            red = None;
                            tests = if green < n { vec![n] } else { Vec::new() };
                            if green == n {
                                for &j in &ids[landed..] {
                                    self.land(j, t, &mut recent);
                                }
                                break;
                            }
                            continue;
                        }
                        Some(_) => verified = r,
                    }
                }
                for &j in &ids[landed..step.land.len()] {
                    self.land(j, t, &mut recent);
                }
                landed = step.land.len();
                if let Some(bad) = step.set_aside {
                    let bad = bad as usize;
                    self.tally.set_aside += 1;
                    if !self.jobs[bad].broken {
                        self.tally.false_ejections += 1;
                    }
                    remember(&mut recent, true);
                    // The rest go back to the front, to be chained again on the new base.
                    for &j in step.rechain.iter().rev() {
                        queue.push_front(j as usize);
                    }
                    break;
                }
                tests = vec![position(step.test.expect("a step tests or sets aside"))];
            }
        }
    }

    /// The flake verdict on a red prefix, re-running it on the same head while the verdict asks; None
    /// when the run's time ends first.
    fn judge(
        &mut self,
        prefix: &[usize],
        stake: bool,
        t: &mut f64,
        durations: &mut Rng,
    ) -> Option<crate::flows::queue::flake::Verdict> {
        use crate::flows::queue::flake;
        let red = flake::Attempt {
            conclusion: "failure".into(),
            runner_lost: false,
            tests_failed: None,
            tests_total: None,
        };
        let mut asks = flake::FlakeInput {
            job: "ci".into(),
            attempts: vec![red],
            base_history: Vec::new(),
            sets_aside: self.p.flake_verdict && stake,
        };
        loop {
            let verdict = flake::verdict(&asks).expect("at least one attempt").verdict;
            if verdict != flake::Verdict::Rerun {
                return Some(verdict);
            }
            let d = self.ci_draw(durations);
            self.tally.runs += 1;
            self.tally.minutes += d;
            if *t + d > self.horizon {
                return None;
            }
            *t += d;
            let pass = self.passes(prefix.iter().copied());
            asks.attempts.push(flake::Attempt {
                conclusion: if pass { "success" } else { "failure" }.into(),
                ..asks.attempts[0].clone()
            });
        }
    }

    fn land(&mut self, job: usize, at: f64, recent: &mut VecDeque<bool>) {
        self.tally.land(&self.jobs[job], at);
        remember(recent, false);
    }
}

fn remember(recent: &mut VecDeque<bool>, set_aside: bool) {
    recent.push_back(set_aside);
    if recent.len() > RECENT {
        recent.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::params::run_seeds;

    fn params() -> QueueParams {
        QueueParams {
            seed: Some(3),
            seeds: 4,
            days: 10,
            ..QueueParams::default()
        }
    }

    fn run(p: &QueueParams, policy: QueuePolicy) -> QueueOutcome {
        pooled(p, &run_seeds(p.seed.unwrap(), p.seeds), policy)
    }

    #[test]
    fn one_at_a_time_lands_at_most_working_hours_over_ci_time() {
        let p = QueueParams {
            arrivals_per_day: 60.0,
            failure_rate: 0.0,
            flake_rate: 0.0,
            ..params()
        };
        let serial = run(&p, QueuePolicy::Serial);
        assert_eq!(p.serial_cap(), 32.0);
        assert!(
            serial.landings_per_day <= 32.0 && serial.landings_per_day > 31.0,
            "{serial:?}"
        );
        assert_eq!(serial.runs_per_landing, 1.0, "nothing fails, nothing is thrown away");
        assert!(serial.backlog > 200.0, "60 a day against 32: the queue grows");
    }

    #[test]
    fn updating_every_branch_lands_no_more_and_pays_a_run_per_waiting_branch() {
        let p = QueueParams {
            arrivals_per_day: 60.0,
            failure_rate: 0.0,
            flake_rate: 0.0,
            ..params()
        };
        let serial = run(&p, QueuePolicy::Serial);
        let every = run(&p, QueuePolicy::UpdateEveryBranch);
        assert!(every.landings_per_day <= serial.landings_per_day + 0.5, "{every:?}");
        assert!(every.runs_per_landing > 20.0 * serial.runs_per_landing, "{every:?}");
    }

    #[test]
    fn concurrency_and_batches_lift_the_cap() {
        let p = QueueParams {
            arrivals_per_day: 60.0,
            failure_rate: 0.0,
            flake_rate: 0.0,
            ..params()
        };
        let mq = run(&p, QueuePolicy::MergeQueue);
        let batch = run(&p, QueuePolicy::Batch);
        assert!(
            mq.landings_per_day > 55.0 && batch.landings_per_day > 55.0,
            "{mq:?} {batch:?}"
        );
        assert_eq!(mq.runs_per_landing, 1.0);
        assert!(batch.runs_per_landing < 0.75, "several land on one run: {batch:?}");
    }

    #[test]
    fn a_merge_queue_of_one_build_is_the_serial_queue() {
        // Two different loops over the same arrivals and flakes: they must agree run for run.
        let p = QueueParams {
            concurrency: 1,
            ..params()
        };
        assert_eq!(
            QueueOutcome {
                policy: QueuePolicy::Serial,
                ..run(&p, QueuePolicy::MergeQueue)
            },
            run(&p, QueuePolicy::Serial)
        );
    }

    #[test]
    fn broken_pull_requests_are_set_aside_by_every_policy_and_cost_runs() {
        // Below every policy's capacity, so the queue's length is the arrivals', not a growing backlog's.
        let p = QueueParams {
            arrivals_per_day: 20.0,
            failure_rate: 0.2,
            flake_rate: 0.0,
            ..params()
        };
        let clean = QueueParams {
            failure_rate: 0.0,
            ..p.clone()
        };
        for policy in [
            QueuePolicy::Serial,
            QueuePolicy::MergeQueue,
            QueuePolicy::Batch,
            QueuePolicy::UpdateEveryBranch,
        ] {
            let (broken, ok) = (run(&p, policy), run(&clean, policy));
            assert!(broken.set_aside_per_day > 3.0, "{policy:?}: {broken:?}");
            assert_eq!(ok.set_aside_per_day, 0.0);
            // Updating every branch is the exception: a broken branch fails on its first run, which
            // runs beside the others anyway, and leaves the line shorter for the restarts after it.
            if policy != QueuePolicy::UpdateEveryBranch {
                assert!(
                    broken.runs_per_landing > ok.runs_per_landing,
                    "{policy:?}: {broken:?} vs {ok:?}"
                );
            }
        }
    }

    #[test]
    fn flakes_cost_runs_but_set_nothing_aside() {
        let p = QueueParams {
            failure_rate: 0.0,
            flake_rate: 0.2,
            ..params()
        };
        for policy in [QueuePolicy::Serial, QueuePolicy::MergeQueue, QueuePolicy::Batch] {
            let o = run(&p, policy);
            assert_eq!(o.set_aside_per_day, 0.0, "{policy:?}");
            let clean = run(
                &QueueParams {
                    flake_rate: 0.0,
                    ..p.clone()
                },
                policy,
            );
            assert!(o.runs_per_landing > clean.runs_per_landing, "{policy:?}");
        }
    }

    #[test]
    fn a_board_of_its_own_replaces_the_draw() {
        // Six at the start, the fourth broken, no flakes: serial pays one run each, the broken one's
        // included, for five landings; the seed changes nothing.
        let arrivals: Vec<Arrival> = (0..6)
            .map(|i| Arrival {
                minute: i as f64,
                broken: i == 3,
            })
            .collect();
        let p = QueueParams {
            days: 1,
            flake_rate: 0.0,
            arrivals,
            ..params()
        };
        let serial = run(&p, QueuePolicy::Serial);
        assert_eq!(
            (
                serial.landings_per_day,
                serial.set_aside_per_day,
                serial.runs_per_landing,
                serial.minutes_per_landing
            ),
            (5.0, 1.0, 1.2, 18.0)
        );
        assert_eq!(
            run(
                &QueueParams {
                    seed: Some(99),
                    ..p.clone()
                },
                QueuePolicy::Serial
            ),
            serial
        );
        let late = QueueParams {
            arrivals: vec![Arrival {
                minute: 480.0,
                broken: false,
            }],
            ..p
        };
        assert_eq!(
            late.validate(),
            vec!["$.arrivals[0].minute: expected from 0 to less than the run's 480 minutes, found 480"]
        );
    }

    /// The goal workload: 8 pull requests every 15 minutes around the clock, CI 15-25 minutes.
    fn goal(failure_rate: f64) -> QueueParams {
        QueueParams {
            seed: Some(1),
            seeds: 3,
            days: 5,
            day_hours: 24.0,
            burst: Some(Burst {
                size: 8,
                every_minutes: 15.0,
            }),
            ci_range: Some(crate::sim::Range { min: 15.0, max: 25.0 }),
            failure_rate,
            flake_rate: 0.05,
            batch_size: 8,
            ..params()
        }
    }

    #[test]
    fn the_worker_s_chains_meet_the_goals_on_the_goal_workload() {
        let p = goal(0.05);
        let serial = run(&p, QueuePolicy::ChainSerial);
        for policy in [QueuePolicy::ChainBatch, QueuePolicy::ChainAdaptive] {
            let o = run(&p, policy);
            assert!(
                o.landed_per_day >= 2.5 * serial.landed_per_day && o.landed_per_day >= 160.0,
                "{policy:?}: {o:?} against {serial:?}"
            );
            assert!(o.ci_runs_per_landed <= 0.45, "{policy:?}: {o:?}");
            assert!(o.false_ejections_per100 <= 0.2, "{policy:?}: {o:?}");
        }
    }

    #[test]
    fn at_one_in_five_broken_adaptive_chains_land_no_fewer_than_serial() {
        let p = goal(0.2);
        let serial = run(&p, QueuePolicy::ChainSerial);
        let adaptive = run(&p, QueuePolicy::ChainAdaptive);
        assert!(
            adaptive.landed_per_day >= serial.landed_per_day,
            "{adaptive:?} against {serial:?}"
        );
    }

    #[test]
    fn without_the_verdict_s_re_run_a_flake_sets_good_pull_requests_aside() {
        let p = QueueParams {
            failure_rate: 0.0,
            flake_rate: 0.05,
            arrivals_per_day: 20.0,
            ..params()
        };
        let with = run(&p, QueuePolicy::ChainSerial);
        let without = run(
            &QueueParams {
                flake_verdict: false,
                ..p.clone()
            },
            QueuePolicy::ChainSerial,
        );
        assert!(
            without.false_ejections_per100 > 2.0,
            "about one run in twenty flakes: {without:?}"
        );
        assert!(
            with.false_ejections_per100 < without.false_ejections_per100 / 5.0,
            "{with:?}"
        );
        assert_eq!(
            run(&p, QueuePolicy::Serial).false_ejections_per100,
            0.0,
            "the old model retries a flake as if it knew"
        );
    }

    #[test]
    fn a_clean_chain_of_eight_lands_on_one_run_and_speculation_spends_more() {
        let p = QueueParams {
            burst: Some(Burst {
                size: 8,
                every_minutes: 60.0,
            }),
            failure_rate: 0.0,
            flake_rate: 0.0,
            batch_size: 8,
            ..params()
        };
        let one = run(&p, QueuePolicy::ChainBatch);
        assert_eq!(one.ci_runs_per_landed, 0.13, "one run for eight: {one:?}");
        let two = run(&QueueParams { speculate: 2, ..p }, QueuePolicy::ChainBatch);
        assert_eq!(two.ci_runs_per_landed, 0.25, "two checkpoints, two runs: {two:?}");
    }

    #[test]
    fn every_arrival_is_landed_set_aside_or_still_queued() {
        let p = params();
        for policy in [
            QueuePolicy::Serial,
            QueuePolicy::UpdateEveryBranch,
            QueuePolicy::MergeQueue,
            QueuePolicy::Batch,
            QueuePolicy::ChainSerial,
            QueuePolicy::ChainBatch,
            QueuePolicy::ChainAdaptive,
        ] {
            for s in run_seeds(3, 3) {
                let t = simulate(&p, s, policy);
                assert_eq!(
                    t.latencies.len() + t.set_aside as usize + t.backlog,
                    arrivals(&p, s).len(),
                    "{policy:?}"
                );
                assert!(
                    t.latencies.iter().all(|&l| l >= p.ci_minutes - 1e-9),
                    "{policy:?}: nothing lands before a run"
                );
            }
        }
    }
}
