//! Whether a head is green for the queue: every context the ruleset requires has passed (one with
//! no run yet is pending, not missing), and nothing on the head is still running, required or not.
//!
//! A required aggregate has no run in a new round until the jobs it waits on finish, so until then
//! the head shows the round before: when `skip-ci` skipped that round, every aggregate reads
//! `skipped` and the commit looks green halfway through its matrix (#2069). A failure from the round
//! before waits for the round to end: one that finished before the earliest running check started
//! (#2246: the round `skip-ci` cancelled left its aggregates red), or one whose workflow has a newer
//! run still going (#2463: the cancelled round's aggregate went red after the new round started).

use crate::core::checks::newest_runs;
use crate::core::checks::Rollup;
use crate::core::facts::Check;
use crate::core::time::parse_rfc3339;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum GreenState {
    Green,
    Pending,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Green {
    pub state: GreenState,
    /// Failures of this round that count (required ones, or any when nothing is required).
    pub failed: Vec<String>,
    /// Failures left by the round before, waiting for the running round to end.
    pub round_before: Vec<String>,
    /// Checks still running on the head.
    pub running: Vec<String>,
    /// Required contexts with no run on the head yet (pending, not missing).
    pub not_reported: Vec<String>,
}

fn label(c: &Check) -> String {
    match &c.workflow {
        Some(w) if !w.is_empty() => format!("{w} / {}", c.name),
        _ => c.name.clone(),
    }
}

fn time(s: &Option<String>) -> Option<i64> {
    s.as_deref().and_then(parse_rfc3339)
}

pub fn green(checks: &[Check], required: &[String]) -> Green {
    // The newest run of each context, by the one reduction checkRollup uses: a queued re-run with no
    // start time yet is the newest word on its context, so the CANCELLED run it replaces waits.
    let newest = newest_runs(checks);
    let running: Vec<&Check> = newest
        .values()
        .filter(|(_, v)| *v == Rollup::Pending)
        .map(|(c, _)| *c)
        .collect();
    let earliest_running = running.iter().filter_map(|c| time(&c.started_at)).min();
    let round_before = |f: &Check| {
        let finished_before =
            matches!((time(&f.completed_at), earliest_running), (Some(done), Some(start)) if done < start);
        let newer_run = running.iter().any(|r| {
            r.workflow.is_some()
                && r.workflow == f.workflow
                && match (r.run_id, f.run_id) {
                    (Some(a), Some(b)) => a > b,
                    _ => matches!((time(&r.started_at), time(&f.started_at)), (Some(a), Some(b)) if a > b),
                }
        });
        finished_before || newer_run
    };
    let counts = |c: &Check| required.is_empty() || required.iter().any(|r| r == &c.name);
    let mut g = Green {
        state: GreenState::Green,
        failed: vec![],
        round_before: vec![],
        running: vec![],
        not_reported: vec![],
    };
    for &(c, verdict) in newest.values() {
        match verdict {
            Rollup::Pending => g.running.push(label(c)),
            Rollup::Failing if counts(c) => {
                if round_before(c) {
                    g.round_before.push(label(c));
                } else {
                    g.failed.push(label(c));
                }
            }
            _ => {}
        }
    }
    for r in required {
        if !newest.keys().any(|(_, name)| *name == r.as_str()) {
            g.not_reported.push(r.clone());
        }
    }
    g.state = if !g.failed.is_empty() {
        GreenState::Failed
    } else if !g.running.is_empty() || !g.not_reported.is_empty() || !g.round_before.is_empty() {
        GreenState::Pending
    } else {
        GreenState::Green
    };
    g
}
