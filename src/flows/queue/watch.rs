//! `watchStep`: what one poll of the watched pull request means. The conditions are tested in the
//! README's order and the first that matches decides, because a pull request whose `skip-ci` went
//! back on or whose branch moved is one whose check results say nothing.

use super::config::WatchConfig;
use super::green::{green, GreenState};
use crate::core::checks::required_contexts;
use crate::core::config::Config;
use crate::core::facts::Check;
use crate::core::time::parse_rfc3339;
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
/// The name in `Poll::unknown` of the rules (the facts' `requiredChecks`).
pub const RULES_UNKNOWN: &str = "requiredChecks";
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
    /// What the repository requires of the head (branch protection and rulesets), as read, like
    /// `facts.requiredChecks`; the engine adds the config's `requiredChecks` itself.
    pub required_checks: Vec<String>,
    /// Facts this poll could not read. `requiredChecks` there means the rules are unknown: then no
    /// poll concludes from the checks (a required one may not have reported, a failing one may not
    /// be required), it waits.
    pub unknown: Vec<String>,
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

/// One poll of the watch: the required contexts are the core's one union of the repository's
/// (`poll.requiredChecks`) and the config's, as reconcile and triage read them.
pub fn step(poll: &Poll, state: &WatchState, config: &Config) -> Step {
    let required = required_contexts(&poll.required_checks, config);
    decide(
        poll,
        state,
        &config.queue.labels.skip_ci,
        &config.queue.watch,
        &required,
    )
}

/// The cycle's watch: `step`'s required contexts (the repository's and the config's), with the
/// watch section the cycle's options may override (its timeout).
pub fn cycle_step(poll: &Poll, state: &WatchState, config: &Config, cfg: &WatchConfig) -> Step {
    let required = required_contexts(&poll.required_checks, config);
    decide(poll, state, &config.queue.labels.skip_ci, cfg, &required)
}

/// The repository's contexts only, without the config's: kept for the unit tests below that pin
/// what the config adds.
#[cfg(test)]
pub fn watch_step(poll: &Poll, state: &WatchState, skip_ci_label: &str, cfg: &WatchConfig) -> Step {
    decide(poll, state, skip_ci_label, cfg, &poll.required_checks)
}

fn decide(poll: &Poll, state: &WatchState, skip_ci_label: &str, cfg: &WatchConfig, required: &[String]) -> Step {
    let mut s = state.clone();
    let done = |outcome: &str, s: WatchState, detail: String| Step {
        outcome: outcome.into(),
        state: s,
        detail,
    };
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
    let g = green(&poll.checks, required);
    if poll.unknown.iter().any(|u| u == RULES_UNKNOWN) {
        // Unknown never demotes: without the rules no failure sets it aside and no green counts.
        s.green_polls = 0;
    } else if g.state == GreenState::Failed {
        return done(CHECKS_FAILED, s, g.failed.join(", "));
    } else if g.state == GreenState::Green {
        if s.bypass_only {
            return done(AWAITING_BYPASS, s, "green; only a bypass merges it".into());
        }
        s.green_polls += 1;
        let budget = if mergeable(&poll.merge_state_status) {
            cfg.green_polls_mergeable
        } else {
            cfg.green_polls_blocked
        };
        if s.green_polls >= budget {
            let n = s.green_polls;
            return done(
                NOT_MERGING,
                s,
                format!(
                    "green for {n} polls in a row without merging ({})",
                    poll.merge_state_status
                ),
            );
        }
    } else {
        s.green_polls = 0;
    }
    if let (Some(now), Some(start)) = (parse_rfc3339(&poll.now), parse_rfc3339(&s.started_at)) {
        if now - start >= i64::from(cfg.timeout_minutes) * 60 {
            return done(
                TIMEOUT,
                s,
                format!(
                    "past {} minutes{}",
                    cfg.timeout_minutes,
                    waiting_on(&poll.checks, required)
                ),
            );
        }
    }
    if poll.stop_requested {
        return done(STOPPED, s, "a stop signal arrived".into());
    }
    done(CONTINUE, s, String::new())
}

/// What a watch that timed out was still waiting on, each context by name with its state: a running
/// check's status, a required context with no run on the head, a failure of the round before that
/// the running round has yet to replace. Empty when nothing was pending (it sat green, say).
fn waiting_on(checks: &[Check], required: &[String]) -> String {
    let g = green(checks, required);
    let newest = crate::core::checks::newest_runs(checks);
    let mut parts: Vec<String> = Vec::new();
    for &(c, verdict) in newest.values() {
        if verdict == crate::core::checks::Rollup::Pending {
            let name = match &c.workflow {
                Some(w) if !w.is_empty() => format!("{w} / {}", c.name),
                _ => c.name.clone(),
            };
            parts.push(format!("{name} ({})", c.status.to_lowercase().replace('_', " ")));
        }
    }
    parts.extend(
        g.round_before
            .iter()
            .map(|n| format!("{n} (failed in the round before; a new round runs)")),
    );
    parts.extend(
        g.not_reported
            .iter()
            .map(|n| format!("{n} (required, not reported on the head)")),
    );
    if parts.is_empty() {
        String::new()
    } else {
        format!("; still waiting on: {}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::checks::{check_rollup, Rollup};

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
        vec![
            run(1, "COMPLETED", Some("CANCELLED"), Some("2026-01-01T00:00:00Z")),
            run(2, "QUEUED", None, None),
        ]
    }

    #[test]
    fn a_cancelled_run_beside_its_queued_rerun_is_pending_for_every_caller() {
        let checks = cancelled_and_requeued();
        let required = vec!["ci".to_string()];
        assert_eq!(check_rollup(&checks, &required).state, Rollup::Pending);
        assert_eq!(green(&checks, &required).state, GreenState::Pending);
        let poll = Poll {
            state: "OPEN".into(),
            auto_merge: true,
            head_sha: "h".into(),
            merge_state_status: "BLOCKED".into(),
            checks,
            required_checks: required,
            now: "2026-01-01T00:06:00Z".into(),
            ..Poll::default()
        };
        let state = WatchState {
            pushed_head: "h".into(),
            started_at: "2026-01-01T00:00:00Z".into(),
            ..WatchState::default()
        };
        let step = watch_step(&poll, &state, "skip-ci", &WatchConfig::default());
        assert_eq!(step.outcome, CONTINUE, "{}", step.detail);
    }

    fn failing_lint_poll(required: &[&str], unknown: &[&str]) -> Poll {
        let check = |name: &str, conclusion: &str| Check {
            name: name.into(),
            status: "COMPLETED".into(),
            conclusion: Some(conclusion.into()),
            ..Check::default()
        };
        Poll {
            state: "OPEN".into(),
            auto_merge: true,
            head_sha: "h".into(),
            merge_state_status: "BLOCKED".into(),
            checks: vec![check("ci", "SUCCESS"), check("lint", "FAILURE")],
            required_checks: required.iter().map(|r| r.to_string()).collect(),
            unknown: unknown.iter().map(|u| u.to_string()).collect(),
            now: "2026-01-01T00:06:00Z".into(),
            ..Poll::default()
        }
    }

    #[test]
    fn the_config_required_checks_count_in_the_watch_as_in_reconcile() {
        // Issue 11: the union of the ruleset's contexts and the config's was left to the shell, which
        // passed the ruleset's only; a failing `lint` the config requires went unnoticed.
        let state = WatchState {
            pushed_head: "h".into(),
            started_at: "2026-01-01T00:00:00Z".into(),
            ..WatchState::default()
        };
        let config = Config::from_value(serde_json::json!({ "requiredChecks": ["lint"] })).expect("config");
        let poll = failing_lint_poll(&["ci"], &[]);
        assert_eq!(required_contexts(&poll.required_checks, &config), ["ci", "lint"]);
        assert_eq!(step(&poll, &state, &config).outcome, CHECKS_FAILED);
        assert_eq!(
            step(&poll, &state, &Config::default()).outcome,
            CONTINUE,
            "lint is not required without the config"
        );
    }

    #[test]
    fn unknown_rules_set_nothing_aside_and_count_no_green_poll() {
        let state = WatchState {
            pushed_head: "h".into(),
            started_at: "2026-01-01T00:00:00Z".into(),
            green_polls: 3,
            ..WatchState::default()
        };
        let step = step(&failing_lint_poll(&[], &[RULES_UNKNOWN]), &state, &Config::default());
        assert_eq!(
            (step.outcome.as_str(), step.state.green_polls),
            (CONTINUE, 0),
            "{}",
            step.detail
        );
    }
}
