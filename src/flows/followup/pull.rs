//! One open pull request as the sweep saw it: the row the sweep answers and the board draws.

use super::settings::Action;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One level, as the board and the summary name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LevelRef {
    pub after: u32,
    pub action: Action,
}

/// One open pull request as the sweep saw it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowupPull {
    pub number: u64,
    pub title: String,
    /// The single state label, or none when it carries zero or several (see `problem`).
    pub state: Option<String>,
    /// When the current stay began (RFC 3339), from the timeline.
    pub since: Option<String>,
    /// Minutes in the state (working minutes when working hours are on).
    pub minutes: Option<i64>,
    /// The machine that opened it (`from:<machine>`) or its author.
    pub owner: String,
    /// Claiming review machines (`reviewer:<machine>`).
    pub claimers: Vec<String>,
    pub blockers: Vec<String>,
    /// The highest level reached in this stay.
    pub reached: Option<LevelRef>,
    /// The next level of this state.
    pub next: Option<LevelRef>,
    /// Levels whose comment exists for this stay.
    pub fired: Vec<u32>,
    /// The level this sweep fires, if any.
    pub firing: Option<u32>,
    /// Why the sweep could not follow it up (labels, timeline or comments unreadable, not one state).
    pub problem: Option<String>,
}
