//! The queue as a lane: every pull request the worker will land, in the order it lands them (the one
//! in flight, then the candidates in pick order), each with its position and an estimated landing
//! time, and the landings of today with their CI runs. The estimate is the queue's own arithmetic on
//! facts: each landing takes one CI run (serial landing; batches only make it sooner), and a CI run
//! takes as long as the median of the last landings' runs took. With no timed landing there is no
//! estimate, and the words say so rather than guessing a number.

use super::triage::Report;
use super::Ctx;
use crate::core::facts::{Check, Landing, RepoFact};
use crate::core::time::{format_rfc3339, parse_rfc3339};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How many of the newest landings time a CI run: recent enough to follow a slower CI, enough that
/// one odd run does not move the median.
pub const TIMED_LANDINGS: usize = 10;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueLane")]
pub struct Lane {
    /// In landing order: position 1 lands first.
    pub entries: Vec<LaneEntry>,
    /// The next landing (position 1), if anything is in the lane.
    pub next: Option<u64>,
    /// Minutes one CI run takes, as the estimate reads it; none without a timed landing.
    pub ci_minutes: Option<i64>,
    /// Where `ciMinutes` comes from, in words (or why there is none).
    pub basis: String,
    /// The lane in one line: `next to land: #22 about 14:20; then #23, #25`, or `nothing queued`.
    pub summary: String,
    /// Landings since midnight (UTC) of `now`, newest first, each with its CI runs.
    pub landed_today: Vec<LandedToday>,
}

pub use crate::core::lane::LaneEntry;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LandedToday {
    pub number: u64,
    pub title: String,
    pub merged_at: String,
    /// From the first run's start to the last run's end; none when its runs carry no times.
    pub ci_minutes: Option<i64>,
    pub runs: Vec<LandedRun>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LandedRun {
    pub name: String,
    pub workflow: Option<String>,
    pub conclusion: Option<String>,
    pub minutes: Option<i64>,
    pub id: Option<u64>,
    pub run_id: Option<u64>,
    pub url: Option<String>,
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `HH:MM` of a time in seconds (UTC, the facts' clock).
pub fn clock(secs: i64) -> String {
    let t = format_rfc3339(secs);
    t.get(11..16).unwrap_or("").to_string()
}

/// Seconds a set of checks took, from the first start to the last completion; none when untimed.
pub fn span(checks: &[Check]) -> Option<i64> {
    let start = checks
        .iter()
        .filter_map(|c| c.started_at.as_deref().and_then(parse_rfc3339))
        .min()?;
    let end = checks
        .iter()
        .filter_map(|c| c.completed_at.as_deref().and_then(parse_rfc3339))
        .max()?;
    (end >= start).then_some(end - start)
}

/// The median of the newest landings' CI spans, in seconds, and how many were timed.
pub fn ci_estimate(landed: &[Landing]) -> (Option<i64>, usize) {
    let mut newest: Vec<&Landing> = landed.iter().collect();
    newest.sort_by_key(|l| std::cmp::Reverse(parse_rfc3339(&l.merged_at).unwrap_or(i64::MIN)));
    let mut spans: Vec<i64> = newest
        .iter()
        .filter_map(|l| span(&l.checks))
        .take(TIMED_LANDINGS)
        .collect();
    spans.sort();
    let n = spans.len();
    let median = match n {
        0 => None,
        _ if n % 2 == 1 => Some(spans[n / 2]),
        _ => Some((spans[n / 2 - 1] + spans[n / 2]) / 2),
    };
    (median, n)
}

/// The lane of a triage report: in flight first (its run started at its checks' first start), then
/// the candidates; each lands one CI run after the one before it.
pub fn lane(ctx: &Ctx, report: &Report) -> Lane {
    let numbers: Vec<u64> = report.in_flight.iter().chain(report.order.iter()).copied().collect();
    let unread = ctx.facts.repo_unknown(RepoFact::Landed);
    let (run, timed) = if unread {
        (None, 0)
    } else {
        ci_estimate(&ctx.facts.landed)
    };
    let basis = match (unread, run) {
        (true, _) => "no estimate: the recent landings could not be read".to_string(),
        (false, None) => "no estimate yet: no recent landing has timed CI runs".to_string(),
        (false, Some(s)) => format!(
            "one CI run takes about {} (the median of the last {timed} landing{})",
            crate::core::time::duration(minutes(s)),
            if timed == 1 { "" } else { "s" }
        ),
    };
    let of = numbers.len();
    let mut at: Option<i64> = None;
    let entries: Vec<LaneEntry> = numbers
        .iter()
        .enumerate()
        .map(|(i, &number)| {
            let eta = match (run, ctx.now) {
                (Some(run), Some(now)) => {
                    let started = if i == 0 && report.in_flight.contains(&number) {
                        ctx.by_number.get(&number).and_then(|p| head_start(&p.checks))
                    } else {
                        None
                    };
                    let t = match at {
                        Some(prev) => prev + run,
                        None => started.map_or(now + run, |s| (s + run).max(now)),
                    };
                    at = Some(t);
                    Some(t)
                }
                _ => None,
            };
            let words = match eta {
                Some(t) => format!("{} of {of}, about {}", ordinal(i + 1), clock(t)),
                None => format!("{} of {of}", ordinal(i + 1)),
            };
            LaneEntry {
                number,
                position: i + 1,
                of,
                eta: eta.map(format_rfc3339),
                words,
            }
        })
        .collect();
    let summary = match entries.split_first() {
        None => "nothing queued to land".to_string(),
        Some((first, rest)) => {
            let when = first
                .eta
                .as_deref()
                .and_then(parse_rfc3339)
                .map(|t| format!(" about {}", clock(t)))
                .unwrap_or_default();
            let then = if rest.is_empty() {
                String::new()
            } else {
                format!(
                    "; then {}",
                    super::why::numbers(&rest.iter().map(|e| e.number).collect::<Vec<_>>())
                )
            };
            format!("next to land: #{}{when}{then}", first.number)
        }
    };
    Lane {
        next: entries.first().map(|e| e.number),
        entries,
        ci_minutes: run.map(minutes),
        basis,
        summary,
        landed_today: landed_today(ctx),
    }
}

fn minutes(secs: i64) -> i64 {
    (secs + 59) / 60
}

/// When the head's current CI began: the first start among its checks.
fn head_start(checks: &[Check]) -> Option<i64> {
    checks
        .iter()
        .filter_map(|c| c.started_at.as_deref().and_then(parse_rfc3339))
        .min()
}

/// Landings since midnight UTC of `now`, newest first.
fn landed_today(ctx: &Ctx) -> Vec<LandedToday> {
    let Some(now) = ctx.now else { return Vec::new() };
    let midnight = now - now.rem_euclid(86_400);
    let mut today: Vec<(&Landing, i64)> = ctx
        .facts
        .landed
        .iter()
        .filter_map(|l| parse_rfc3339(&l.merged_at).map(|t| (l, t)))
        .filter(|(_, t)| *t >= midnight && *t <= now)
        .collect();
    today.sort_by_key(|(l, t)| (std::cmp::Reverse(*t), l.number));
    today
        .into_iter()
        .map(|(l, _)| LandedToday {
            number: l.number,
            title: l.title.clone(),
            merged_at: l.merged_at.clone(),
            ci_minutes: span(&l.checks).map(minutes),
            runs: l
                .checks
                .iter()
                .map(|c| LandedRun {
                    name: c.name.clone(),
                    workflow: c.workflow.clone(),
                    conclusion: c.conclusion.clone(),
                    minutes: span(std::slice::from_ref(c)).map(minutes),
                    id: c.id,
                    run_id: c.run_id,
                    url: c.url.clone(),
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_people_say_them() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]
        );
    }

    fn landing(n: u64, merged: &str, start: &str, end: &str) -> Landing {
        let check = Check {
            name: "test".into(),
            status: "COMPLETED".into(),
            conclusion: Some("SUCCESS".into()),
            started_at: Some(start.into()),
            completed_at: Some(end.into()),
            ..Check::default()
        };
        Landing {
            number: n,
            merged_at: merged.into(),
            checks: vec![check],
            ..Landing::default()
        }
    }

    #[test]
    fn the_estimate_is_the_median_of_the_newest_timed_landings() {
        // 10, 20 and 90 minutes: the median is 20, not the mean (40).
        let landed = vec![
            landing(
                1,
                "2026-11-30T09:00:00Z",
                "2026-11-30T08:00:00Z",
                "2026-11-30T08:10:00Z",
            ),
            landing(
                2,
                "2026-11-30T10:00:00Z",
                "2026-11-30T09:00:00Z",
                "2026-11-30T09:20:00Z",
            ),
            landing(
                3,
                "2026-11-30T11:00:00Z",
                "2026-11-30T09:00:00Z",
                "2026-11-30T10:30:00Z",
            ),
        ];
        assert_eq!(ci_estimate(&landed), (Some(20 * 60), 3));
        assert_eq!(
            ci_estimate(&[]),
            (None, 0),
            "no landing: no estimate, never a guessed number"
        );
        // Only the newest TIMED_LANDINGS count: twelve old slow ones and ten new quick ones.
        let mut many: Vec<Landing> = (0..12)
            .map(|i| {
                landing(
                    i,
                    "2026-11-01T09:00:00Z",
                    "2026-11-01T08:00:00Z",
                    "2026-11-01T09:00:00Z",
                )
            })
            .collect();
        many.extend((20..30).map(|i| {
            landing(
                i,
                "2026-11-30T09:00:00Z",
                "2026-11-30T08:00:00Z",
                "2026-11-30T08:05:00Z",
            )
        }));
        assert_eq!(ci_estimate(&many), (Some(5 * 60), TIMED_LANDINGS));
    }
}
