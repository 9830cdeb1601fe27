//! How long a pull request has sat in its one state label (from the timeline, in the follow-up's
//! clock), and the stop-the-line rule read from it. Core, because two flows ask it: the follow-up
//! sweep (which pings and draws the board) and `prflow claim dev` (which answers `stop-the-line`);
//! one rule here means the board and the claim never disagree.

use crate::core::clock::{last_applied, Clock};
use crate::core::config::followup::{Action, Level};
use crate::core::config::Config;
use crate::core::facts::{Facts, PullFact, PullRequest};
use crate::core::time::{duration, parse_rfc3339};

/// The current stay of a pull request in its state.
pub struct Stay {
    pub state: String,
    /// When the state label was last applied (seconds since the epoch).
    pub since: i64,
    /// Minutes in the state, working minutes when working hours are on.
    pub minutes: i64,
}

/// Why a stay could not be measured: the problem in words, and the state when it was known.
pub struct NoStay {
    pub state: Option<String>,
    pub problem: String,
}

/// The stay of `pr` at `now`, or why it is unknown (labels or timeline unreadable, not one state).
pub fn stay(pr: &PullRequest, config: &Config, clock: &Clock, now: i64) -> Result<Stay, NoStay> {
    let f = &config.followup;
    if pr.unknown(PullFact::Labels) {
        return Err(NoStay {
            state: None,
            problem: "its labels could not be read; it was not followed up".into(),
        });
    }
    let states: Vec<&String> = pr.labels.iter().filter(|l| l.starts_with(&f.state_prefix)).collect();
    if states.len() != 1 {
        let list = states.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ");
        let problem = if states.is_empty() {
            format!(
                "carries no `{}*` label; every open pull request needs exactly one",
                f.state_prefix
            )
        } else {
            format!("carries {} `{}*` labels ({list}); exactly one is true and the sweep does not choose, so a person must remove the wrong ones", states.len(), f.state_prefix)
        };
        return Err(NoStay { state: None, problem });
    }
    let state = states[0].clone();
    if pr.unknown(PullFact::Timeline) {
        let problem = format!("its timeline could not be read, so its time in `{state}` is unknown");
        return Err(NoStay {
            state: Some(state),
            problem,
        });
    }
    let Some(since) = last_applied(pr, &state) else {
        let problem = format!("no timeline event shows when `{state}` was applied, so its time in state is unknown");
        return Err(NoStay {
            state: Some(state),
            problem,
        });
    };
    Ok(Stay {
        minutes: clock.minutes(since, now),
        state,
        since,
    })
}

/// The stop-the-line level this stay has passed, if its state has one. A condition, not an event:
/// on while any pull request is past the level.
pub fn stop_level<'a>(levels: &'a [Level], stay: &Stay) -> Option<&'a Level> {
    levels
        .iter()
        .find(|l| l.action == Action::StopTheLine && i64::from(l.after) <= stay.minutes)
}

/// The line a stopped pull request adds to the reasons.
pub fn stop_reason(number: u64, stay: &Stay, level: &Level) -> String {
    format!(
        "#{number} has waited {} in `{}` (stop the line at {})",
        duration(stay.minutes),
        stay.state,
        duration(i64::from(level.after))
    )
}

/// Whether development should open nothing new, and one line per pull request holding the line.
pub fn stop_the_line(facts: &Facts, config: &Config) -> (bool, Vec<String>) {
    let now = parse_rfc3339(&facts.now).unwrap_or(0);
    let clock = Clock::new(&config.followup.working_hours);
    let levels = config.followup.effective_levels(&config.stations.labels);
    let mut pulls: Vec<&PullRequest> = facts.pull_requests.iter().collect();
    pulls.sort_by_key(|p| p.number);
    let mut reasons = Vec::new();
    for pr in pulls {
        let Ok(stay) = stay(pr, config, &clock, now) else {
            continue;
        };
        if let Some(level) = levels.get(&stay.state).and_then(|l| stop_level(l, &stay)) {
            reasons.push(stop_reason(pr.number, &stay, level));
        }
    }
    (!reasons.is_empty(), reasons)
}
