//! Batch size from evidence, and admission: both read one model of a chain's yield, so the size the
//! worker picks and the capacity it promises agree.
//!
//! The model: each pull request is broken with chance `p`, independently. A chain of `b` lands all
//! `b` on one run when none is broken; otherwise bisection by prefixes lands the prefix below the
//! first broken one after `ceil(log2 b)` more runs and one re-run of the last step (the flake
//! verdict's, before a set-aside). Landings per run is the expected landings over the expected runs.
//! The size chosen is the one with the most landings per run between 1 and `max`; 1 is among them,
//! so by the model batch mode never lands fewer than serial. The failure rate comes from the last
//! landings, with one success and one failure assumed beforehand: with no evidence it reads 0.5 and
//! the queue starts serial, growing the chain as landings prove the queue healthy.

use crate::core::config::queue::QueueConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Expected landings per CI run of a chain of `b` when each pull request is broken with chance `p`.
pub fn landings_per_run(b: u32, p: f64) -> f64 {
    let b = b.max(1);
    let q = 1.0 - p.clamp(0.0, 1.0);
    let clean = q.powi(b as i32);
    let prefix: f64 = (1..=b)
        .map(|j| q.powi(j as i32 - 1) * (1.0 - q) * f64::from(j - 1))
        .sum();
    let steps = f64::from(32 - (b - 1).leading_zeros()); // ceil(log2 b)
    (clean * f64::from(b) + prefix) / (1.0 + (1.0 - clean) * (steps + 1.0))
}

/// The failure rate the last landings show: set aside over all, with one of each assumed beforehand.
pub fn failure_rate(landed: u32, set_aside: u32) -> f64 {
    (f64::from(set_aside) + 1.0) / (f64::from(landed) + f64::from(set_aside) + 2.0)
}

/// The last landings, as the worker counted them.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Recent {
    /// Pull requests landed among the last landings.
    #[serde(default)]
    pub landed: u32,
    /// Pull requests set aside as broken among them.
    #[serde(default)]
    pub set_aside: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchSize {
    pub size: u32,
    /// The failure rate the size was chosen for.
    pub failure_rate: f64,
    /// The model's landings per run at this size, and at 1 (serial).
    pub landings_per_run: f64,
    pub serial_landings_per_run: f64,
    /// The size and why, in words (the log's and the page's line).
    pub reason: String,
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The chain's size: `queue.batch.max`, or with `adaptive` the best for the last landings' failures.
pub fn batch_size(cfg: &QueueConfig, recent: &Recent) -> BatchSize {
    let max = cfg.batch.max.max(1);
    let p = failure_rate(recent.landed, recent.set_aside);
    let serial = landings_per_run(1, p);
    let (size, reason) = if !cfg.batch.adaptive || max == 1 {
        (max, format!("batch size {max} (queue.batch.max, fixed)"))
    } else {
        // Ties go to the smaller chain: as many landings for fewer pull requests at stake.
        let best = (1..=max).fold(1, |best, b| {
            if landings_per_run(b, p) > landings_per_run(best, p) + 1e-12 {
                b
            } else {
                best
            }
        });
        let seen = recent.landed + recent.set_aside;
        let why = format!(
            "{} set aside of the last {seen} landings (read as a failure rate of {:.0}%): {best} lands the most per CI run ({:.2}, serial {:.2})",
            recent.set_aside,
            p * 100.0,
            landings_per_run(best, p),
            serial
        );
        (best, format!("batch size {best} of at most {max}: {why}"))
    };
    BatchSize {
        size,
        failure_rate: round(p),
        landings_per_run: round(landings_per_run(size, p)),
        serial_landings_per_run: round(serial),
        reason,
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdmissionInput {
    /// The time now (RFC 3339): the engine has no clock.
    pub now: String,
    /// The pull request's place in the queue's order, 1 for the next to go.
    pub position: u32,
    /// The measured minutes of one CI run (the mean of the recent ones).
    pub ci_minutes: f64,
    #[serde(default)]
    pub recent: Recent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Admission {
    pub admitted: bool,
    pub position: u32,
    /// The most the queue admits: `queue.admit`, or what lands within `queue.targetWaitMinutes`.
    pub limit: u32,
    /// What the queue lands an hour at the chosen size, measured CI time and failure rate.
    pub landings_per_hour: f64,
    /// When the pull requests ahead will have landed (RFC 3339).
    pub estimated_start: String,
    /// `queue full: position N, estimated start HH:MM` (UTC) when not admitted.
    pub reason: String,
}

pub fn admission(cfg: &QueueConfig, i: &AdmissionInput) -> Result<Admission, String> {
    let now = crate::core::time::parse_rfc3339(&i.now)
        .ok_or_else(|| format!("$.now: expected an RFC 3339 time, found {:?}", i.now))?;
    if !(i.ci_minutes.is_finite() && i.ci_minutes > 0.0) {
        return Err(format!("$.ciMinutes: expected minutes above 0, found {}", i.ci_minutes));
    }
    if i.position == 0 {
        return Err("$.position: expected a place from 1, found 0".into());
    }
    let size = batch_size(cfg, &i.recent);
    let per_hour = landings_per_run(size.size, size.failure_rate) * 60.0 / i.ci_minutes;
    let limit = cfg
        .admit
        .unwrap_or_else(|| (per_hour * f64::from(cfg.target_wait_minutes) / 60.0).floor() as u32)
        .max(1);
    let wait_secs = (f64::from(i.position - 1) / per_hour * 3600.0).round() as i64;
    let start = crate::core::time::format_rfc3339(now + wait_secs);
    let admitted = i.position <= limit;
    let hhmm = start.get(11..16).unwrap_or("").to_string();
    let reason = if admitted {
        format!(
            "admitted: position {} of at most {limit} (the queue lands about {per_hour:.1} an hour)",
            i.position
        )
    } else {
        format!("queue full: position {}, estimated start {hhmm}", i.position)
    };
    Ok(Admission {
        admitted,
        position: i.position,
        limit,
        landings_per_hour: round(per_hour),
        estimated_start: start,
        reason,
    })
}
