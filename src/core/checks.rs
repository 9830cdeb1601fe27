//! The check rollup of a head commit: passing, pending or failing.
//!
//! The classifier lists what does NOT block (SUCCESS, NEUTRAL, SKIPPED, and anything still running)
//! and blocks on everything else. The direction is the point: the rollup mixes two closed enums
//! (check conclusions, status states) and an outcome a list forgets must not read as green, because
//! a false failure parks a pull request on an agent who looks, while a false success invites a merge.
//!
//! Before judging, each context collapses to its newest run, keyed by workflow + name (a bare job
//! name is unique only within its workflow): a re-run does not evict the run it replaced, so the
//! superseded CANCELLED sibling must not block, while a CANCELLED newest run must.

use crate::core::facts::Check;
use crate::core::time::parse_rfc3339;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Rollup {
    Passing,
    Pending,
    Failing,
}

impl Rollup {
    pub fn as_str(self) -> &'static str {
        match self {
            Rollup::Passing => "passing",
            Rollup::Pending => "pending",
            Rollup::Failing => "failing",
        }
    }
}

/// The rollup with the contexts behind it, as `checkRollup()` returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckRollup {
    pub state: Rollup,
    /// Contexts whose newest run blocks, as `workflow / name` (or `name` for a status).
    pub failing: Vec<String>,
    /// Contexts still running, or required and not yet reported.
    pub pending: Vec<String>,
    pub passing: Vec<String>,
}

/// Outcomes of a completed run that do not block a merge.
pub const NON_BLOCKING_CONCLUSIONS: [&str; 3] = ["SUCCESS", "NEUTRAL", "SKIPPED"];
/// Statuses (and status-context states) that mean "still running".
pub const PENDING_STATUSES: [&str; 6] = ["QUEUED", "IN_PROGRESS", "WAITING", "REQUESTED", "PENDING", "EXPECTED"];

/// The contexts a head must pass: what the repository requires (branch protection and rulesets, read
/// into facts) and the config's `requiredChecks`, each once, the repository's first. One union for
/// reconcile, the queue's triage and its watch, so no shell computes it.
pub fn required_contexts(repository: &[String], config: &crate::core::config::Config) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(repository.len() + config.required_checks.len());
    for c in repository.iter().chain(&config.required_checks) {
        if !out.contains(c) {
            out.push(c.clone());
        }
    }
    out
}

pub fn check_rollup(checks: &[Check], required: &[String]) -> CheckRollup {
    rollup_of(checks, required, true)
}

/// The state and the failing contexts only: what a decision reads, without naming every passing
/// context (the reconciler asks this for every pull request of the board).
pub fn check_verdict(checks: &[Check], required: &[String]) -> (Rollup, Vec<String>) {
    let r = rollup_of(checks, required, false);
    (r.state, r.failing)
}

/// `workflow / name` for a check run, the bare name for a status (which has no workflow).
pub fn context_label(workflow: &str, name: &str) -> String {
    if workflow.is_empty() {
        name.to_string()
    } else {
        [workflow, " / ", name].concat()
    }
}

/// The one reduction every caller judges checks by (the rollup, the queue's green and watch): each
/// context, keyed by workflow + name, collapsed to its newest run, with that run's outcome; in key order.
pub fn newest_runs(checks: &[Check]) -> Newest<'_> {
    // A sorted Vec, not a map: a pull request has a handful of contexts, and a map per pull request
    // per question allocated a node for each. Runs are ordered only when two share a context (a re-run):
    // most contexts have one run, and their timestamps need not be parsed at all. The sort is stable,
    // so of two runs equal in every key the first kept wins, as the map's entry did.
    let mut runs: Vec<Run<'_>> = checks
        .iter()
        .map(|c| ((c.workflow.as_deref().unwrap_or(""), c.name.as_str()), (c, outcome(c))))
        .collect();
    // Contexts listed in strictly rising order (GitHub's usual listing, with no re-run) are sorted and
    // each once already: one pass of comparisons instead of the sort's and the dedup's.
    if runs.windows(2).all(|w| w[0].0 < w[1].0) {
        return Newest(runs);
    }
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    // Each context's runs are adjacent now: the first one kept takes a later one's place when older.
    runs.dedup_by(|later, kept| {
        if later.0 != kept.0 {
            return false;
        }
        let ((current, current_verdict), (check, verdict)) = (kept.1, later.1);
        if order_key(current, current_verdict) < order_key(check, verdict) {
            *kept = *later;
        }
        true
    });
    Newest(runs)
}

/// Each context's newest run, sorted by (workflow, name), one entry per context.
pub struct Newest<'a>(Vec<Run<'a>>);

/// A context (workflow, name) and its run with that run's outcome.
pub type Run<'a> = ((&'a str, &'a str), (&'a Check, Rollup));

impl<'a> Newest<'a> {
    pub fn iter(&self) -> std::slice::Iter<'_, Run<'a>> {
        self.0.iter()
    }

    pub fn keys(&self) -> impl Iterator<Item = &(&'a str, &'a str)> + '_ {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &(&'a Check, Rollup)> + '_ {
        self.0.iter().map(|(_, v)| v)
    }
}

/// `all`: name every context; else only the failing ones (the verdict's), with pending only counted.
fn rollup_of(checks: &[Check], required: &[String], all: bool) -> CheckRollup {
    let newest = newest_runs(checks);
    let mut rollup = CheckRollup {
        state: Rollup::Passing,
        failing: vec![],
        pending: vec![],
        passing: vec![],
    };
    // Counted whether named or not: the state reads the count, so both answers share it.
    let mut pending = 0;
    for ((workflow, name), (_, verdict)) in newest.iter() {
        match verdict {
            Rollup::Passing if all => rollup.passing.push(context_label(workflow, name)),
            Rollup::Passing => {}
            Rollup::Pending => {
                pending += 1;
                if all {
                    rollup.pending.push(context_label(workflow, name));
                }
            }
            Rollup::Failing => rollup.failing.push(context_label(workflow, name)),
        }
    }
    for context in required {
        if !newest.keys().any(|(_, name)| name == context) {
            pending += 1;
            if all {
                rollup.pending.push(format!("{context} (required, not reported yet)"));
            }
        }
    }
    rollup.state = if !rollup.failing.is_empty() {
        Rollup::Failing
    } else if pending > 0 {
        Rollup::Pending
    } else {
        Rollup::Passing
    };
    rollup
}

/// One run on its own: pending while running, passing only on a listed conclusion.
pub fn outcome(check: &Check) -> Rollup {
    // Compared without case and without allocating: this runs for every check of every pull request.
    let status = check.status.as_str();
    let one_of = |word: &str, list: &[&str]| list.iter().any(|x| x.eq_ignore_ascii_case(word));
    if one_of(status, &PENDING_STATUSES) {
        return Rollup::Pending;
    }
    match check.conclusion.as_deref() {
        Some(c) if one_of(c, &NON_BLOCKING_CONCLUSIONS) => Rollup::Passing,
        // A status context reports its state as the status, with no conclusion.
        None if status.eq_ignore_ascii_case("SUCCESS") => Rollup::Passing,
        _ => Rollup::Failing,
    }
}

/// Newest first by start time, then by id; the rest only makes the order total, so that
/// the order checks arrive in can never change the verdict. A run still waiting to start has no start
/// time yet and is the newest word on its context: a queued re-run supersedes the CANCELLED run it
/// replaces instead of leaving that run to block.
/// The workflow run's id comes before the check's: a re-run's new workflow run is newer.
type OrderKey<'a> = (i64, u64, u64, i64, &'a str, &'a str);

fn order_key(c: &Check, verdict: Rollup) -> OrderKey<'_> {
    let not_started = if verdict == Rollup::Pending { i64::MAX } else { i64::MIN };
    let started = c.started_at.as_deref().and_then(parse_rfc3339).unwrap_or(not_started);
    let completed = c.completed_at.as_deref().and_then(parse_rfc3339).unwrap_or(i64::MAX);
    (
        started,
        c.run_id.unwrap_or(0),
        c.id.unwrap_or(0),
        completed,
        &c.status,
        c.conclusion.as_deref().unwrap_or(""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, status: &str, conclusion: Option<&str>) -> Check {
        Check {
            name: name.into(),
            status: status.into(),
            conclusion: conclusion.map(Into::into),
            ..Check::default()
        }
    }

    /// The verdict names only the failing contexts, and its state is always the full rollup's: a pending
    /// run or a required context not reported yet is counted there without being named.
    #[test]
    fn the_verdict_is_the_rollups_state_and_failures() {
        let pass = run("a", "COMPLETED", Some("SUCCESS"));
        let wait = run("b", "IN_PROGRESS", None);
        let fail = run("c", "COMPLETED", Some("FAILURE"));
        let boards: [(Vec<Check>, Vec<String>); 6] = [
            (vec![], vec![]),
            (vec![pass.clone()], vec![]),
            (vec![pass.clone(), wait.clone()], vec![]),
            (vec![pass.clone()], vec!["required".into()]),
            (vec![pass.clone(), wait.clone(), fail.clone()], vec!["required".into()]),
            (vec![fail], vec![]),
        ];
        let states: Vec<Rollup> = boards
            .iter()
            .map(|(checks, required)| {
                let full = check_rollup(checks, required);
                assert_eq!(check_verdict(checks, required), (full.state, full.failing.clone()));
                full.state
            })
            .collect();
        use Rollup::*;
        assert_eq!(states, [Passing, Passing, Pending, Pending, Failing, Failing]);
    }
}
