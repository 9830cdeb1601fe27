//! `prflow sim review`: why review stations pull their work instead of having it pushed to them.
//!
//! Dev machines open pull requests as Poisson arrivals; each pull request needs one review at one
//! station, an AI first pass and then a person's gate, one pull request at a time per station. Push
//! decides the station when the pull request opens (round robin, or the station holding the fewest),
//! which is when least is known about it: a two-hour review at the head of one station's line holds
//! everything pushed behind it while the other station idles. Pull lets a station claim only while it
//! holds fewer than its WIP limit, in the claim order (priority first, then the oldest). Only the wait
//! from opening to the start of the review is counted, the figure people chase in chat.
//!
//! Every policy sees the same pull requests for a seed (common random numbers): each dev machine draws
//! its gaps and its reviews from its own stream, so a difference between policies is the policy's.

use super::agenda::Agenda;
use super::params::{check, seed_and_runs, Range};
use super::rng::{exp, Rng};
use super::stats::{hundredth, spread, tenth, Spread};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a pull request finds its station.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Policy {
    /// Pushed at opening to the stations in turn.
    RoundRobin,
    /// Pushed at opening to the station holding the fewest pull requests (the lowest number on a tie).
    LeastLoaded,
    /// Claimed by a station holding fewer than `reviewWip`, from the one queue, in `claimOrder`.
    Pull,
}

/// Which open pull request a station takes next.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ClaimOrder {
    /// `prio:high` first, then the oldest (the article's claim script).
    #[default]
    PriorityThenOldest,
    /// The oldest, whatever its priority.
    Oldest,
}

/// The review simulation's parameters; every field has the article's value as its default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ReviewParams {
    /// The seed every draw comes from. Required by the engine; the CLI and the page draw one when none
    /// is given, and print it, so every run can be replayed.
    pub seed: Option<u32>,
    /// Independent runs pooled into each figure.
    pub seeds: u32,
    /// Working hours of arrivals per run (every pull request opened in them is reviewed to the end).
    pub hours: f64,
    /// Dev machines; the arrivals are split evenly between them.
    pub dev_machines: u32,
    /// Pull requests an hour from all dev machines together; each run draws its rate uniformly here.
    pub arrivals_per_hour: Range,
    /// Review stations.
    pub stations: u32,
    /// The AI first pass, minutes.
    pub ai_minutes: f64,
    /// The person's gate on an ordinary pull request: log-normal with this median, minutes.
    pub human_median_minutes: f64,
    /// The spread of that log-normal (sigma of its logarithm): 0.5 makes the mean gate 17 minutes and,
    /// with the defaults, the mean review the article's 34 minutes.
    pub human_sigma: f64,
    /// The share of heavy pull requests, whose gate takes instead a uniform time in `heavyMinutes`.
    pub heavy_share: f64,
    pub heavy_minutes: Range,
    /// The share of pull requests labelled `prio:high`.
    pub high_priority_share: f64,
    pub claim_order: ClaimOrder,
    /// Pull requests a station may hold (claimed or under review) under the pull policy.
    pub review_wip: u32,
    /// The policies compared, in the order reported.
    pub policies: Vec<Policy>,
    /// The utilizations of the sweep (arrivals times mean review over stations).
    pub utilizations: Vec<f64>,
    /// The utilization the article quotes a pull median for, and that median in minutes.
    pub article_utilization: f64,
    pub article_median_minutes: f64,
    /// Open (unfinished) pull requests a dev machine may have before it stops opening new ones; shown
    /// at `devWipUtilization` against no limit. 0 means no limit.
    pub dev_wip: u32,
    pub dev_wip_utilization: f64,
}

impl Default for ReviewParams {
    fn default() -> Self {
        ReviewParams {
            seed: None,
            seeds: 20,
            hours: 200.0,
            dev_machines: 3,
            arrivals_per_hour: Range { min: 2.5, max: 3.0 },
            stations: 2,
            ai_minutes: 6.0,
            human_median_minutes: 15.0,
            human_sigma: 0.5,
            heavy_share: 0.15,
            heavy_minutes: Range { min: 60.0, max: 120.0 },
            high_priority_share: 0.0,
            claim_order: ClaimOrder::PriorityThenOldest,
            review_wip: 2,
            policies: vec![Policy::RoundRobin, Policy::LeastLoaded, Policy::Pull],
            utilizations: (0..10).map(|i| (50 + 5 * i) as f64 / 100.0).collect(),
            article_utilization: 0.85,
            article_median_minutes: 41.0,
            dev_wip: 2,
            dev_wip_utilization: 0.95,
        }
    }
}

/// One policy's waits from opening to the start of review, pooled over every seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PolicyWaits {
    pub policy: Policy,
    pub waits: Spread,
}

/// The waits at one utilization of the sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SweepPoint {
    pub utilization: f64,
    pub arrivals_per_hour: f64,
    pub policies: Vec<PolicyWaits>,
}

/// Our pull median at the article's utilization, beside the article's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArticleCheck {
    pub utilization: f64,
    pub arrivals_per_hour: f64,
    pub pull: Spread,
    pub article_median: f64,
    /// Ours minus the article's, minutes.
    pub difference: f64,
}

/// One side of the dev WIP comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DevWipArm {
    /// The limit, 0 for none.
    pub dev_wip: u32,
    /// Waits from opening to the start of review (pull policy).
    pub waits: Spread,
    /// How long finished work waited on its dev machine before it could be opened.
    pub held: Spread,
    /// Pull requests opened per working hour.
    pub opened_per_hour: f64,
    /// The most pull requests open at once in any run.
    pub max_open: u64,
    /// The mean of each run's largest number open at once.
    pub mean_max_open: f64,
}

/// What a dev machine's WIP limit does to the queue when arrivals run close to capacity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DevWipEffect {
    pub utilization: f64,
    pub arrivals_per_hour: f64,
    pub without: DevWipArm,
    pub with: DevWipArm,
}

/// The review simulation's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewReport {
    pub seed: u32,
    /// The parameters the run used, defaults filled in: give them back with the seed to replay it.
    pub params: ReviewParams,
    /// The model's mean review (AI pass and gate), minutes.
    pub mean_review_minutes: f64,
    /// The utilization at the lowest and the highest arrival rate of `arrivalsPerHour`.
    pub utilization: Range,
    pub policies: Vec<PolicyWaits>,
    pub article: ArticleCheck,
    pub sweep: Vec<SweepPoint>,
    pub dev_wip: DevWipEffect,
}

impl ReviewParams {
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
            self.hours > 0.0 && self.hours <= 20_000.0,
            "hours",
            "more than 0, at most 20000",
            self.hours,
        );
        check(
            &mut e,
            (1..=50).contains(&self.dev_machines),
            "devMachines",
            "from 1 to 50",
            self.dev_machines,
        );
        self.arrivals_per_hour.check(&mut e, "arrivalsPerHour", 0.0, 1000.0);
        check(
            &mut e,
            (1..=50).contains(&self.stations),
            "stations",
            "from 1 to 50",
            self.stations,
        );
        check(
            &mut e,
            (0.0..=10_000.0).contains(&self.ai_minutes),
            "aiMinutes",
            "from 0 to 10000",
            self.ai_minutes,
        );
        check(
            &mut e,
            self.human_median_minutes > 0.0 && self.human_median_minutes <= 10_000.0,
            "humanMedianMinutes",
            "more than 0, at most 10000",
            self.human_median_minutes,
        );
        check(
            &mut e,
            (0.0..=3.0).contains(&self.human_sigma),
            "humanSigma",
            "from 0 to 3",
            self.human_sigma,
        );
        check(
            &mut e,
            (0.0..=1.0).contains(&self.heavy_share),
            "heavyShare",
            "a share from 0 to 1",
            self.heavy_share,
        );
        self.heavy_minutes.check(&mut e, "heavyMinutes", 0.0, 10_000.0);
        check(
            &mut e,
            (0.0..=1.0).contains(&self.high_priority_share),
            "highPriorityShare",
            "a share from 0 to 1",
            self.high_priority_share,
        );
        check(
            &mut e,
            (1..=100).contains(&self.review_wip),
            "reviewWip",
            "from 1 to 100",
            self.review_wip,
        );
        check(
            &mut e,
            !self.policies.is_empty(),
            "policies",
            "at least one policy",
            "none",
        );
        for (i, u) in self.utilizations.iter().enumerate() {
            check(
                &mut e,
                *u > 0.0 && *u <= 1.5,
                &format!("utilizations[{i}]"),
                "more than 0, at most 1.5",
                u,
            );
        }
        check(
            &mut e,
            self.article_utilization > 0.0 && self.article_utilization <= 1.5,
            "articleUtilization",
            "more than 0, at most 1.5",
            self.article_utilization,
        );
        check(
            &mut e,
            self.dev_wip <= 100,
            "devWip",
            "from 0 (no limit) to 100",
            self.dev_wip,
        );
        check(
            &mut e,
            self.dev_wip_utilization > 0.0 && self.dev_wip_utilization <= 1.5,
            "devWipUtilization",
            "more than 0, at most 1.5",
            self.dev_wip_utilization,
        );
        e
    }

    /// The mean review the parameters imply: AI pass plus the mixture of the two gates.
    pub fn mean_review(&self) -> f64 {
        let light = self.human_median_minutes * exp(self.human_sigma * self.human_sigma / 2.0);
        let heavy = (self.heavy_minutes.min + self.heavy_minutes.max) / 2.0;
        self.ai_minutes + (1.0 - self.heavy_share) * light + self.heavy_share * heavy
    }

    /// Arrivals per hour that load the stations to `utilization`.
    fn rate_for(&self, utilization: f64) -> f64 {
        utilization * self.stations as f64 * 60.0 / self.mean_review()
    }

    fn utilization_of(&self, rate: f64) -> f64 {
        rate * self.mean_review() / (60.0 * self.stations as f64)
    }
}

/// Runs the review simulation; the errors name the parameter (`$.stations: ...`).
pub fn review(params: &ReviewParams) -> Result<ReviewReport, Vec<String>> {
    let (seed, runs) = seed_and_runs(params.seed, params.seeds, params.validate())?;
    let base_rates: Vec<f64> = runs
        .iter()
        .map(|&s| Rng::new(s, 1).uniform(params.arrivals_per_hour.min, params.arrivals_per_hour.max))
        .collect();
    let pool = |rate: &dyn Fn(usize) -> f64, policy: Policy, wip: u32| {
        let outs: Vec<RunOut> = runs
            .iter()
            .enumerate()
            .map(|(i, &s)| simulate(params, s, rate(i), policy, wip))
            .collect();
        outs
    };
    let waits_of = |outs: &[RunOut]| spread(outs.iter().flat_map(|o| o.waits.iter().copied()).collect());
    let at = |utilization: f64| {
        let rate = params.rate_for(utilization);
        SweepPoint {
            utilization,
            arrivals_per_hour: hundredth(rate),
            policies: params
                .policies
                .iter()
                .map(|&policy| PolicyWaits {
                    policy,
                    waits: waits_of(&pool(&|_| rate, policy, 0)),
                })
                .collect(),
        }
    };
    let policies = params
        .policies
        .iter()
        .map(|&policy| PolicyWaits {
            policy,
            waits: waits_of(&pool(&|i| base_rates[i], policy, 0)),
        })
        .collect();
    let article_rate = params.rate_for(params.article_utilization);
    let article_pull = waits_of(&pool(&|_| article_rate, Policy::Pull, 0));
    let dev_rate = params.rate_for(params.dev_wip_utilization);
    let arm = |dev_wip: u32| {
        let outs = pool(&|_| dev_rate, Policy::Pull, dev_wip);
        let opened: usize = outs.iter().map(|o| o.waits.len()).sum();
        DevWipArm {
            dev_wip,
            waits: waits_of(&outs),
            held: spread(outs.iter().flat_map(|o| o.held.iter().copied()).collect()),
            opened_per_hour: hundredth(opened as f64 / (params.hours * runs.len() as f64)),
            max_open: outs.iter().map(|o| o.max_open as u64).max().unwrap_or(0),
            mean_max_open: tenth(outs.iter().map(|o| o.max_open as f64).sum::<f64>() / outs.len() as f64),
        }
    };
    Ok(ReviewReport {
        seed,
        params: ReviewParams {
            seed: Some(seed),
            ..params.clone()
        },
        mean_review_minutes: tenth(params.mean_review()),
        utilization: Range {
            min: hundredth(params.utilization_of(params.arrivals_per_hour.min)),
            max: hundredth(params.utilization_of(params.arrivals_per_hour.max)),
        },
        policies,
        article: ArticleCheck {
            utilization: params.article_utilization,
            arrivals_per_hour: hundredth(article_rate),
            difference: tenth(article_pull.p50 - params.article_median_minutes),
            pull: article_pull,
            article_median: params.article_median_minutes,
        },
        sweep: params.utilizations.iter().map(|&u| at(u)).collect(),
        dev_wip: DevWipEffect {
            utilization: params.dev_wip_utilization,
            arrivals_per_hour: hundredth(dev_rate),
            without: arm(0),
            with: arm(params.dev_wip),
        },
    })
}

/// One pull request of one run.
#[derive(Debug, Clone)]
struct Pr {
    machine: usize,
    /// When its dev machine had it ready, and when it was opened (later when the dev WIP held it).
    ready: f64,
    open: f64,
    review: f64,
    high: bool,
}

/// A dev machine's own stream of work: the gap before each pull request, then its review.
struct DevMachine {
    rng: Rng,
    mean_gap: f64,
    open: usize,
    /// A pull request that is ready but held back by the dev WIP limit.
    held: Option<Pr>,
}

impl DevMachine {
    fn next_item(&mut self, machine: usize, after: f64, p: &ReviewParams) -> Pr {
        let ready = after + self.rng.exponential(self.mean_gap);
        let gate = if self.rng.chance(p.heavy_share) {
            self.rng.uniform(p.heavy_minutes.min, p.heavy_minutes.max)
        } else {
            self.rng.lognormal(p.human_median_minutes, p.human_sigma)
        };
        let high = self.rng.chance(p.high_priority_share);
        Pr {
            machine,
            ready,
            open: ready,
            review: p.ai_minutes + gate,
            high,
        }
    }
}

#[derive(Default)]
struct Station {
    /// Assigned or claimed, not started.
    holding: Vec<usize>,
    reviewing: Option<usize>,
}

impl Station {
    fn load(&self) -> usize {
        self.holding.len() + usize::from(self.reviewing.is_some())
    }
}

enum Event {
    Ready(usize),
    Done(usize),
}

struct RunOut {
    waits: Vec<f64>,
    /// The waits of the `prio:high` pull requests alone.
    high_waits: Vec<f64>,
    held: Vec<f64>,
    max_open: usize,
}

/// One run: `rate` pull requests an hour in all, under `policy`; `dev_wip` 0 for no dev limit.
fn simulate(p: &ReviewParams, run_seed: u64, rate: f64, policy: Policy, dev_wip: u32) -> RunOut {
    let horizon = p.hours * 60.0;
    let machines = p.dev_machines as usize;
    let mut devs: Vec<DevMachine> = (0..machines)
        .map(|m| DevMachine {
            rng: Rng::new(run_seed, 100 + m as u64),
            mean_gap: 60.0 * machines as f64 / rate,
            open: 0,
            held: None,
        })
        .collect();
    let mut agenda = Agenda::default();
    let mut next: Vec<Pr> = Vec::with_capacity(machines);
    for (m, dev) in devs.iter_mut().enumerate() {
        let item = dev.next_item(m, 0.0, p);
        if item.ready < horizon {
            agenda.at(item.ready, Event::Ready(m));
        }
        next.push(item);
    }
    let mut prs: Vec<Pr> = Vec::new();
    let mut stations: Vec<Station> = (0..p.stations).map(|_| Station::default()).collect();
    let mut pool: Vec<usize> = Vec::new();
    let mut turn = 0usize;
    let mut out = RunOut {
        waits: Vec::new(),
        high_waits: Vec::new(),
        held: Vec::new(),
        max_open: 0,
    };
    let mut open_now = 0usize;
    let order = |prs: &[Pr], id: usize| {
        (
            u8::from(p.claim_order == ClaimOrder::PriorityThenOldest && !prs[id].high),
            id,
        )
    };
    let best = |prs: &[Pr], ids: &[usize]| (0..ids.len()).min_by_key(|&i| order(prs, ids[i]));

    while let Some((t, event)) = agenda.pop() {
        let mut opening: Vec<Pr> = Vec::new();
        match event {
            Event::Ready(m) => {
                let item = next[m].clone();
                if dev_wip == 0 || devs[m].open < dev_wip as usize {
                    opening.push(item);
                } else {
                    devs[m].held = Some(item);
                }
            }
            Event::Done(s) => {
                let id = stations[s]
                    .reviewing
                    .take()
                    .expect("a station finishing holds a pull request");
                let m = prs[id].machine;
                devs[m].open -= 1;
                open_now -= 1;
                if let Some(item) = devs[m].held.take() {
                    opening.push(Pr { open: t, ..item });
                }
            }
        }
        for item in opening {
            let m = item.machine;
            out.held.push(item.open - item.ready);
            devs[m].open += 1;
            open_now += 1;
            out.max_open = out.max_open.max(open_now);
            let id = prs.len();
            prs.push(item);
            // The machine's next pull request is counted from this opening: a held machine pauses.
            let following = devs[m].next_item(m, t, p);
            if following.ready < horizon {
                agenda.at(following.ready, Event::Ready(m));
            }
            next[m] = following;
            match policy {
                Policy::RoundRobin => {
                    let s = turn % stations.len();
                    stations[s].holding.push(id);
                    turn += 1;
                }
                Policy::LeastLoaded => {
                    let s = (0..stations.len())
                        .min_by_key(|&s| (stations[s].load(), s))
                        .expect("at least one station");
                    stations[s].holding.push(id);
                }
                Policy::Pull => pool.push(id),
            }
        }
        if policy == Policy::Pull {
            // Claims, one at a time, by the station holding the fewest, while any may claim.
            while !pool.is_empty() {
                let Some(s) = (0..stations.len())
                    .filter(|&s| stations[s].load() < p.review_wip as usize)
                    .min_by_key(|&s| (stations[s].load(), s))
                else {
                    break;
                };
                let i = best(&prs, &pool).expect("pool is not empty");
                stations[s].holding.push(pool.remove(i));
            }
        }
        for (s, station) in stations.iter_mut().enumerate() {
            if station.reviewing.is_none() {
                if let Some(i) = best(&prs, &station.holding) {
                    let id = station.holding.remove(i);
                    out.waits.push(t - prs[id].open);
                    if prs[id].high {
                        out.high_waits.push(t - prs[id].open);
                    }
                    station.reviewing = Some(id);
                    agenda.at(t + prs[id].review, Event::Done(s));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::params::run_seeds;

    fn params() -> ReviewParams {
        ReviewParams {
            seed: Some(1),
            seeds: 4,
            hours: 100.0,
            ..ReviewParams::default()
        }
    }

    fn waits(p: &ReviewParams, policy: Policy, rate: f64, dev_wip: u32) -> Vec<f64> {
        run_seeds(p.seed.unwrap(), p.seeds)
            .iter()
            .flat_map(|&s| simulate(p, s, rate, policy, dev_wip).waits)
            .collect()
    }

    #[test]
    fn the_article_mean_review_is_34_minutes() {
        let mean = ReviewParams::default().mean_review();
        assert!((mean - 34.0).abs() < 0.1, "{mean}");
    }

    #[test]
    fn every_policy_reviews_the_same_pull_requests() {
        let p = params();
        let n: Vec<usize> = [Policy::RoundRobin, Policy::LeastLoaded, Policy::Pull]
            .iter()
            .map(|&pol| waits(&p, pol, 2.75, 0).len())
            .collect();
        assert!(n[0] > 800, "about 2.75 an hour for 400 hours: {n:?}");
        assert!(n.iter().all(|&x| x == n[0]), "{n:?}");
    }

    #[test]
    fn pulling_with_a_wip_of_one_never_leaves_a_station_idle_beside_a_waiting_pull_request() {
        // With WIP 1 and one shared line, a pull request waits only while every station is busy, so
        // its waits are at most push's at every quantile that matters.
        let p = ReviewParams {
            review_wip: 1,
            ..params()
        };
        let pull = spread(waits(&p, Policy::Pull, 3.0, 0));
        let rr = spread(waits(&p, Policy::RoundRobin, 3.0, 0));
        let ll = spread(waits(&p, Policy::LeastLoaded, 3.0, 0));
        assert!(pull.mean < ll.mean && ll.mean < rr.mean, "{pull:?} {ll:?} {rr:?}");
        assert!(pull.p95 < ll.p95 && pull.max <= ll.max, "{pull:?} {ll:?}");
    }

    #[test]
    fn one_station_makes_every_policy_the_same() {
        let p = ReviewParams {
            stations: 1,
            review_wip: 1,
            ..params()
        };
        let a = waits(&p, Policy::RoundRobin, 1.2, 0);
        assert_eq!(a, waits(&p, Policy::LeastLoaded, 1.2, 0));
        assert_eq!(a, waits(&p, Policy::Pull, 1.2, 0));
    }

    #[test]
    fn the_dev_wip_limit_caps_what_is_open_and_moves_the_wait_upstream() {
        let p = params();
        let rate = p.rate_for(0.95);
        let seeds = run_seeds(1, 4);
        let free: Vec<RunOut> = seeds.iter().map(|&s| simulate(&p, s, rate, Policy::Pull, 0)).collect();
        let held: Vec<RunOut> = seeds.iter().map(|&s| simulate(&p, s, rate, Policy::Pull, 2)).collect();
        assert!(held.iter().all(|o| o.max_open <= 6), "3 machines x 2");
        assert!(free.iter().map(|o| o.max_open).max().unwrap() > 6);
        assert!(
            free.iter().all(|o| o.held.iter().all(|&h| h == 0.0)),
            "no limit, nothing held"
        );
        assert!(held.iter().any(|o| o.held.iter().any(|&h| h > 0.0)));
        let p95 = |outs: &[RunOut]| spread(outs.iter().flat_map(|o| o.waits.clone()).collect()).p95;
        assert!(p95(&held) < p95(&free));
    }

    #[test]
    fn high_priority_goes_first_only_under_its_claim_order() {
        let p = ReviewParams {
            high_priority_share: 0.2,
            review_wip: 1,
            ..params()
        };
        let high = |p: &ReviewParams| {
            spread(
                run_seeds(1, 4)
                    .iter()
                    .flat_map(|&s| simulate(p, s, 3.0, Policy::Pull, 0).high_waits)
                    .collect(),
            )
        };
        let first = high(&p);
        let oldest = high(&ReviewParams {
            claim_order: ClaimOrder::Oldest,
            ..p.clone()
        });
        assert_eq!(first.count, oldest.count);
        assert!(first.count > 100);
        assert!(first.p90 * 2.0 < oldest.p90, "{first:?} {oldest:?}");
    }

    #[test]
    fn a_missing_seed_and_bad_fields_are_named() {
        let p = ReviewParams {
            seed: None,
            stations: 0,
            heavy_share: 2.0,
            ..ReviewParams::default()
        };
        let e = review(&p).unwrap_err();
        assert!(e[0].starts_with("$.seed: missing"), "{e:?}");
        assert!(
            e.iter()
                .any(|m| m.starts_with("$.stations: expected from 1 to 50, found 0")),
            "{e:?}"
        );
        assert!(e.iter().any(|m| m.starts_with("$.heavyShare:")), "{e:?}");
    }
}
