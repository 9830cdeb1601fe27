//! `watchStep`: what one poll of the watched pull request means. The conditions are tested in the
//! README's order and the first that matches decides, because a pull request whose `skip-ci` went
//! back on or whose branch moved is one whose check results say nothing.

use super::config::WatchConfig;
use super::green::{green, GreenState};
use crate::facts::Check;
use crate::time::parse_rfc3339;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const MERGED: &str = "merged";
pub const CLOSED: &str = "closed";
pub const ERROR: &str = "error";
pub const AUTO_MERGE_DISABLED: &str = "auto-merge-disabled";
pub const SKIP_CI_LABELLED: &str = "skip-ci-labelled";
pub const HEAD_MOVED: &str = "head-moved";
pub const BEHIND_AGAIN: &str = "behind-again";
pub const CHECKS_FAILED: &str = "checks-failed";
pub const AWAITING_BYPASS: &str = "awaiting-bypass";
pub const NOT_MERGING: &str = "not-merging";
pub const TIMEOUT: &str = "timeout";
pub const STOPPED: &str = "stopped";
/// Not an outcome: poll again.
pub const CONTINUE: &str = "continue";

/// What one poll saw.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Poll {
    /// Re-reading the pull request failed.
    pub read_failed: bool,
    /// OPEN, MERGED or CLOSED.
    pub state: String,
    pub auto_merge: bool,
    pub labels: Vec<String>,
    pub head_sha: String,
    pub merge_state_status: String,
    pub checks: Vec<Check>,
    pub required_contexts: Vec<String>,
    pub now: String,
    /// SIGINT or SIGTERM arrived.
    pub stop_requested: bool,
}

/// What the watch carries from poll to poll.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct WatchState {
    /// The commit the worker pushed (or found up to date).
    pub pushed_head: String,
    pub started_at: String,
    /// Only a bypass merges it: never armed, so auto-merge is not read.
    pub bypass_only: bool,
    pub read_failures: u32,
    pub green_polls: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// An outcome, or `continue`.
    pub outcome: String,
    pub state: WatchState,
    pub detail: String,
}

fn mergeable(state: &str) -> bool {
    matches!(state, "CLEAN" | "UNSTABLE" | "HAS_HOOKS")
}

pub fn watch_step(poll: &Poll, state: &WatchState, skip_ci_label: &str, cfg: &WatchConfig) -> Step {
    let mut s = state.clone();
    let done = |outcome: &str, s: WatchState, detail: String| Step { outcome: outcome.into(), state: s, detail };
    if poll.read_failed {
        s.read_failures += 1;
        return if s.read_failures >= cfg.read_failures {
            let n = s.read_failures;
            done(ERROR, s, format!("{n} failed reads in a row"))
        } else {
            let n = s.read_failures;
            done(CONTINUE, s, format!("read failed ({n} in a row); retrying"))
        };
    }
    s.read_failures = 0;
    if poll.state == "MERGED" {
        return done(MERGED, s, String::new());
    }
    if poll.state != "OPEN" {
        return done(CLOSED, s, format!("state {}", poll.state));
    }
    if !s.bypass_only && !poll.auto_merge {
        return done(AUTO_MERGE_DISABLED, s, "auto-merge was switched off".into());
    }
    if poll.labels.iter().any(|l| l == skip_ci_label) {
        return done(SKIP_CI_LABELLED, s, format!("`{skip_ci_label}` went back on"));
    }
    if poll.head_sha != s.pushed_head {
        let detail = format!("head is {}, not {}", poll.head_sha, s.pushed_head);
        return done(HEAD_MOVED, s, detail);
    }
    if matches!(poll.merge_state_status.as_str(), "BEHIND" | "DIRTY") {
        return done(BEHIND_AGAIN, s, poll.merge_state_status.clone());
    }
    let g = green(&poll.checks, &poll.required_contexts);
    if g.state == GreenState::Failed {
        return done(CHECKS_FAILED, s, g.failed.join(", "));
    }
    if g.state == GreenState::Green {
        if s.bypass_only {
            return done(AWAITING_BYPASS, s, "green; only a bypass merges it".into());
        }
        s.green_polls += 1;
        let budget = if mergeable(&poll.merge_state_status) { cfg.green_polls_mergeable } else { cfg.green_polls_blocked };
        if s.green_polls >= budget {
            let n = s.green_polls;
            return done(NOT_MERGING, s, format!("green for {n} polls in a row without merging ({})", poll.merge_state_status));
        }
    } else {
        s.green_polls = 0;
    }
    if let (Some(now), Some(start)) = (parse_rfc3339(&poll.now), parse_rfc3339(&s.started_at)) {
        if now - start >= i64::from(cfg.timeout_minutes) * 60 {
            return done(TIMEOUT, s, format!("past {} minutes", cfg.timeout_minutes));
        }
    }
    if poll.stop_requested {
        return done(STOPPED, s, "a stop signal arrived".into());
    }
    done(CONTINUE, s, String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{check_rollup, Rollup};

    /// A CANCELLED run beside its queued re-run (no start time yet), as GitHub shows a re-run.
    fn cancelled_and_requeued() -> Vec<Check> {
        let run = |id: u64, status: &str, conclusion: Option<&str>, started: Option<&str>| Check {
            name: "ci".into(),
            workflow: Some("CI".into()),
            status: status.into(),
            conclusion: conclusion.map(Into::into),
            started_at: started.map(Into::into),
            completed_at: started.map(|_| "2026-01-01T00:05:00Z".to_string()),
            id: Some(id),
            run_id: Some(id),
            ..Check::default()
        };
        vec![run(1, "COMPLETED", Some("CANCELLED"), Some("2026-01-01T00:00:00Z")), run(2, "QUEUED", None, None)]
    }

    #[test]
    fn a_cancelled_run_beside_its_queued_rerun_is_pending_for_every_caller() {
        let checks = cancelled_and_requeued();
        let required = vec!["ci".to_string()];
        assert_eq!(check_rollup(&checks, &required).state, Rollup::Pending);
        assert_eq!(green(&checks, &required).state, GreenState::Pending);
        let poll = Poll { state: "OPEN".into(), auto_merge: true, head_sha: "h".into(), merge_state_status: "BLOCKED".into(), checks, required_contexts: required, now: "2026-01-01T00:06:00Z".into(), ..Poll::default() };
        let state = WatchState { pushed_head: "h".into(), started_at: "2026-01-01T00:00:00Z".into(), ..WatchState::default() };
        let step = watch_step(&poll, &state, "skip-ci", &WatchConfig::default());
        assert_eq!(step.outcome, CONTINUE, "{}", step.detail);
    }
}
