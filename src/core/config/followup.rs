//! The `followup` section of the config: levels per state label, who is pinged, the working-hours
//! clock and the board. Levels are keyed by state label name so the sweep works for any preset's
//! states; the article's table for the stations flow is the default, and a state given in the
//! config replaces that state's default levels (an empty list turns the state's follow-up off).

use super::error::ConfigError;
use super::stations::StationLabels;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a level does when it fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Comment mentioning `who`.
    Ping,
    /// Comment mentioning `who` (usually the person on duty), worded as an escalation.
    Escalate,
    /// Comment mentioning `who`, and tell the development side to open no new pull request while
    /// any pull request is past this level (`stopTheLine` in the sweep's result).
    StopTheLine,
    /// Remove the `reviewer:*` claim and put the pull request back in the queue, unless a verdict
    /// (approval or changes requested) came in since the state began.
    ReleaseClaim,
}

impl Action {
    pub fn word(self) -> &'static str {
        match self {
            Action::Ping => "ping",
            Action::Escalate => "escalate",
            Action::StopTheLine => "stop-the-line",
            Action::ReleaseClaim => "release-claim",
        }
    }
}

/// One level of one state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Level {
    /// Minutes in the state (working minutes when `workingHours.enabled`) before it fires.
    pub after: u32,
    /// What it does: `ping`, `escalate`, `stop-the-line` or `release-claim`.
    pub action: Action,
    /// Who is mentioned: `author`, `claimer`, `reviewers`, `onDuty`, `gateOwner`, `everyone`, or a
    /// login written `@login`. Resolved through `people`, so a shift change is a one-line edit there.
    /// Empty means the action's usual audience: ping → author, escalate → onDuty,
    /// stop-the-line → everyone, release-claim → claimer.
    #[serde(default)]
    pub who: Vec<String>,
    /// One sentence saying what should happen next; the default levels carry one each.
    #[serde(default)]
    pub message: Option<String>,
}

impl Level {
    /// `who`, or the action's usual audience when the config left it empty.
    pub fn recipients(&self) -> Vec<String> {
        if !self.who.is_empty() {
            return self.who.clone();
        }
        let role = match self.action {
            Action::Ping => "author",
            Action::Escalate => "onDuty",
            Action::StopTheLine => "everyone",
            Action::ReleaseClaim => "claimer",
        };
        vec![role.to_string()]
    }
}

/// The people the levels name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct People {
    /// Everyone who can act (`everyone`); when empty, `botPanel.humans`.
    pub humans: Vec<String>,
    /// The person on duty (`onDuty`); also the fallback when a role resolves to nobody.
    pub on_duty: Option<String>,
    /// Machine id (the `m4` of `from:m4` / `reviewer:m4`) to the person who looks after it.
    pub machine_owners: BTreeMap<String, String>,
    /// Who owns the validation gate (`gateOwner`), e.g. whoever maintains the Windows box.
    pub gate_owner: Option<String>,
    /// The owners of the review machines (`reviewers`).
    pub reviewers: Vec<String>,
}

/// Week days, for working hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Day {
    Mon,
    Tue,
    Wed,
    Thu,
    Fri,
    Sat,
    Sun,
}

impl Day {
    /// 0 = Monday.
    pub fn index(self) -> u32 {
        self as u32
    }
}

/// Count only the team's working hours, so Monday morning does not open with a weekend's escalations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct WorkingHours {
    /// Count only working minutes toward a level, so a night or a weekend fires nothing.
    pub enabled: bool,
    /// A fixed offset from UTC in minutes (480 for UTC+08:00). Wins over `zone`.
    pub utc_offset_minutes: Option<i32>,
    /// A zone from the engine's small built-in table (see src/followup/clock.rs), with its
    /// daylight-saving rule; anything else is written as `utcOffsetMinutes`.
    pub zone: String,
    /// The working days (`mon` .. `sun`).
    pub days: Vec<Day>,
    /// Local start of the working day, `HH:MM`.
    pub start: String,
    /// Local end of the working day, `HH:MM`, after `start`.
    pub end: String,
}

impl Default for WorkingHours {
    fn default() -> Self {
        WorkingHours {
            enabled: false,
            utc_offset_minutes: None,
            zone: "UTC".into(),
            days: vec![Day::Mon, Day::Tue, Day::Wed, Day::Thu, Day::Fri],
            start: "09:00".into(),
            end: "18:00".into(),
        }
    }
}

/// The board issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Board {
    /// Write the board at all.
    pub enabled: bool,
    /// The label that finds the board issue (created with it when missing).
    pub label: String,
    /// The title when it is created.
    pub title: String,
    /// Label name prefixes shown in the board's blockers column.
    pub blocker_prefixes: Vec<String>,
    /// The order of state groups; states not listed follow alphabetically.
    pub order: Vec<String>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            enabled: true,
            label: "flow:board".into(),
            title: "Pull request board".into(),
            blocker_prefixes: vec!["blocker:".into(), "needs-rebase".into()],
            order: [
                "state:dev",
                "state:draft",
                "state:ready-for-review",
                "state:reviewing",
                "state:bots-reviewing",
                "state:changes-requested",
                "state:addressing",
                "state:win-verify",
                "state:ready-to-merge",
                "state:needs-human",
            ]
            .map(String::from)
            .to_vec(),
        }
    }
}

/// The `followup` config section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Followup {
    /// Per state label, its levels. A state named here replaces its default levels; `[]` turns it off.
    /// Defaults: the table in the README's follow-up section, keyed by the stations flow's states.
    pub levels: BTreeMap<String, Vec<Level>>,
    /// Who `who` names: humans, the person on duty, machine owners, the gate's owner, reviewers.
    pub people: People,
    /// When minutes count toward a level.
    pub working_hours: WorkingHours,
    /// The board issue every sweep keeps current.
    pub board: Board,
    /// Labels with this prefix are the state axis: exactly one belongs on every open pull request.
    pub state_prefix: String,
    /// `from:<machine>`: the machine that opened the pull request. Default: `stations.labels.fromPrefix`.
    pub author_prefix: String,
    /// `reviewer:<machine>`: the review machine that claimed it. Default: `stations.labels.reviewerPrefix`.
    pub claim_prefix: String,
    /// Where a released claim goes back to. Default: `stations.labels.readyForReview`.
    pub queue_state: String,
}

impl Default for Followup {
    fn default() -> Self {
        Followup {
            levels: BTreeMap::default(),
            people: People::default(),
            working_hours: WorkingHours::default(),
            board: Board::default(),
            state_prefix: "state:".into(),
            author_prefix: "from:".into(),
            claim_prefix: "reviewer:".into(),
            queue_state: "state:ready-for-review".into(),
        }
    }
}

/// The recipients a `who` entry may name besides `@login`.
pub const ROLES: [&str; 6] = ["author", "claimer", "reviewers", "onDuty", "gateOwner", "everyone"];

fn level(after: u32, action: Action, who: &str, message: &str) -> Level {
    Level {
        after,
        action,
        who: vec![who.to_string()],
        message: Some(message.to_string()),
    }
}

/// The config keys of this section that, when absent, follow the stations flow's label names, so a
/// team that renames its labels once does not have to rename them twice.
pub const INHERITED_KEYS: [&str; 3] = ["authorPrefix", "claimPrefix", "queueState"];

/// The article's table, keyed by the stations flow's state names as configured.
pub fn default_levels(names: &StationLabels) -> BTreeMap<String, Vec<Level>> {
    use Action::*;
    let mut m = BTreeMap::default();
    m.insert(
        names.ready_for_review.clone(),
        vec![
            level(
                60,
                Ping,
                "reviewers",
                "No review machine has claimed it yet; a free one should take it.",
            ),
            level(
                120,
                Escalate,
                "onDuty",
                "It is still unclaimed: the review side may be short of capacity.",
            ),
            level(
                240,
                StopTheLine,
                "everyone",
                "The review queue is too long: development machines open no new pull request until it drains.",
            ),
        ],
    );
    m.insert(
        names.reviewing.clone(),
        vec![
            level(90, Ping, "claimer", "It was claimed but has no verdict yet."),
            level(
                180,
                ReleaseClaim,
                "claimer",
                "Claiming without working is the most common leak in a pull system.",
            ),
        ],
    );
    m.insert(
        names.changes_requested.clone(),
        vec![
            level(
                120,
                Ping,
                "author",
                "Changes were requested; push the fix and comment `/ready`.",
            ),
            level(480, Escalate, "onDuty", "The requested changes have not come back."),
        ],
    );
    m.insert(
        names.gate.clone(),
        vec![
            level(
                60,
                Ping,
                "gateOwner",
                "The validation gate is silent; its runner may be offline.",
            ),
            level(
                120,
                Escalate,
                "onDuty",
                "The validation gate is still silent and merges wait on it.",
            ),
        ],
    );
    m.insert(
        names.ready_to_merge.clone(),
        vec![level(30, Ping, "author", "It is approved and validated; merge it.")],
    );
    m.insert(
        names.dev.clone(),
        vec![level(
            1440,
            Ping,
            "author",
            "It has been a draft for a day; finish it or close it.",
        )],
    );
    m
}

impl Followup {
    /// Takes the stations flow's names for every key in `INHERITED_KEYS` the config left out.
    pub fn inherit(&mut self, names: &StationLabels, given: &[String]) {
        let absent = |key: &str| !given.iter().any(|g| g == key);
        if absent("authorPrefix") {
            self.author_prefix = names.from_prefix.clone();
        }
        if absent("claimPrefix") {
            self.claim_prefix = names.reviewer_prefix.clone();
        }
        if absent("queueState") {
            self.queue_state = names.ready_for_review.clone();
        }
    }

    /// The default table (keyed by `names`) with the config's states laid over it, each state's
    /// levels ascending.
    pub fn effective_levels(&self, names: &StationLabels) -> BTreeMap<String, Vec<Level>> {
        let mut levels = default_levels(names);
        for (state, list) in &self.levels {
            levels.insert(state.clone(), list.clone());
        }
        for list in levels.values_mut() {
            list.sort_by_key(|l| l.after);
        }
        levels
    }

    pub fn validate(&self, errors: &mut Vec<ConfigError>) {
        for (state, list) in &self.levels {
            let base = format!("$.followup.levels[{state:?}]");
            if !state.starts_with(&self.state_prefix) {
                errors.push(ConfigError {
                    path: base.clone(),
                    expected: format!("a state label starting with {:?}", self.state_prefix),
                    found: format!("{state:?}"),
                });
            }
            for (i, l) in list.iter().enumerate() {
                let path = format!("{base}[{i}]");
                if l.after == 0 {
                    errors.push(ConfigError {
                        path: format!("{path}.after"),
                        expected: "minutes greater than 0".into(),
                        found: "0".into(),
                    });
                }
                if list[..i].iter().any(|p| p.after == l.after) {
                    errors.push(ConfigError {
                        path: format!("{path}.after"),
                        expected: "minutes not already used by another level of this state".into(),
                        found: l.after.to_string(),
                    });
                }
                for (j, w) in l.who.iter().enumerate() {
                    let ok = ROLES.contains(&w.as_str())
                        || (w.len() > 1 && w.starts_with('@') && !w[1..].contains(char::is_whitespace));
                    if !ok {
                        errors.push(ConfigError {
                            path: format!("{path}.who[{j}]"),
                            expected: format!("one of {} or @login", ROLES.join(", ")),
                            found: format!("{w:?}"),
                        });
                    }
                }
            }
        }
        let wh = &self.working_hours;
        let start = crate::core::zones::parse_hhmm(&wh.start);
        let end = crate::core::zones::parse_hhmm(&wh.end);
        if start.is_none() {
            errors.push(ConfigError {
                path: "$.followup.workingHours.start".into(),
                expected: "a local time HH:MM".into(),
                found: format!("{:?}", wh.start),
            });
        }
        if end.is_none() {
            errors.push(ConfigError {
                path: "$.followup.workingHours.end".into(),
                expected: "a local time HH:MM".into(),
                found: format!("{:?}", wh.end),
            });
        }
        if let (Some(s), Some(e)) = (start, end) {
            if e <= s {
                errors.push(ConfigError {
                    path: "$.followup.workingHours.end".into(),
                    expected: format!("a time after start ({})", wh.start),
                    found: format!("{:?}", wh.end),
                });
            }
        }
        match wh.utc_offset_minutes {
            Some(m) if !(-720..=840).contains(&m) => errors.push(ConfigError {
                path: "$.followup.workingHours.utcOffsetMinutes".into(),
                expected: "minutes between -720 and 840".into(),
                found: m.to_string(),
            }),
            Some(_) => {}
            None => {
                if crate::core::zones::zone(&wh.zone).is_none() {
                    errors.push(ConfigError {
                        path: "$.followup.workingHours.zone".into(),
                        expected: format!(
                            "one of the built-in zones ({}) or utcOffsetMinutes instead",
                            crate::core::zones::zone_names().join(", ")
                        ),
                        found: format!("{:?}", wh.zone),
                    });
                }
            }
        }
        if wh.enabled && wh.days.is_empty() {
            errors.push(ConfigError {
                path: "$.followup.workingHours.days".into(),
                expected: "at least one day".into(),
                found: "an empty list".into(),
            });
        }
        for (path, prefix) in [
            ("statePrefix", &self.state_prefix),
            ("authorPrefix", &self.author_prefix),
            ("claimPrefix", &self.claim_prefix),
        ] {
            if prefix.trim().is_empty() {
                errors.push(ConfigError {
                    path: format!("$.followup.{path}"),
                    expected: "a label prefix".into(),
                    found: "an empty string".into(),
                });
            }
        }
        if !self.queue_state.starts_with(&self.state_prefix) {
            errors.push(ConfigError {
                path: "$.followup.queueState".into(),
                expected: format!("a state label starting with {:?}", self.state_prefix),
                found: format!("{:?}", self.queue_state),
            });
        }
        if self.board.label.trim().is_empty() || self.board.label.chars().count() > super::error::MAX_LABEL_NAME {
            errors.push(ConfigError {
                path: "$.followup.board.label".into(),
                expected: "a label name".into(),
                found: format!("{:?}", self.board.label),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_who_is_the_actions_usual_audience() {
        // (action, who when the config names nobody)
        for (action, who) in [
            (Action::Ping, "author"),
            (Action::Escalate, "onDuty"),
            (Action::StopTheLine, "everyone"),
            (Action::ReleaseClaim, "claimer"),
        ] {
            let level = Level {
                after: 10,
                action,
                who: vec![],
                message: None,
            };
            assert_eq!(level.recipients(), vec![who.to_string()], "{action:?}");
        }
        let named = Level {
            after: 10,
            action: Action::Ping,
            who: vec!["@lead".into()],
            message: None,
        };
        assert_eq!(
            named.recipients(),
            vec!["@lead".to_string()],
            "a named audience is kept"
        );
    }
}
