//! The stations flow's config section (`stations` in `.github/prflow.json`): the machines and their
//! roles, the WIP limits, the validation gate and every label name the flow writes. The defaults are
//! the article's kit: review and dev WIP 2, a 3-second settle, a `win-verify` gate after approval.

use super::error::ConfigError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a machine does. `any` is the article's machine 7: it asks for whichever side needs it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Opens pull requests (`from:<machine>`) and fixes the bounced ones.
    Dev,
    /// Claims pull requests (`reviewer:<machine>`) and gives them an AI first pass.
    Review,
    /// Reviews when the queue is deep, develops when it is empty.
    #[default]
    Any,
}

/// One machine of the team.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Machine {
    /// `dev`, `review` or `any` (reviews when the queue is deep, develops when it is empty).
    pub role: Role,
    /// The person who looks after it (`@alice`), for pings and the board.
    pub owner: Option<String>,
    /// The GitHub logins its agents comment and review as. Several machines may share one login;
    /// a shared login speaks for each machine that lists it (GitHub cannot tell them apart).
    pub logins: Vec<String>,
}

/// The validation gate (the article's Windows box).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Gate {
    /// The commit status the gate writes itself and the ruleset requires. No run, no status: a skipped
    /// job can never make it pass.
    pub context: String,
    /// When every changed path matches one of these, the gate passes at once without the validation machine.
    pub docs_only: Vec<String>,
    /// Run the gate on every push instead of after approval (the validation machine is usually the
    /// scarcest resource, so the default waits for a person's approval).
    pub on_every_push: bool,
}

impl Default for Gate {
    fn default() -> Self {
        Gate {
            context: "win-verify".into(),
            docs_only: vec!["**/*.md".into(), "docs/**".into(), "**/*.txt".into(), "LICENSE".into()],
            on_every_push: false,
        }
    }
}

/// Label names of the stations flow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct StationLabels {
    /// State: a draft, its author's machine is still building it.
    pub dev: String,
    /// State: waiting for a review station to claim it.
    pub ready_for_review: String,
    /// State: a review station holds it (`reviewer:<machine>`).
    pub reviewing: String,
    /// State: back with the author's machine.
    pub changes_requested: String,
    /// State: approved by a person, waiting for the validation gate.
    pub gate: String,
    /// State: approved and validated on the head commit.
    pub ready_to_merge: String,
    /// Prefix of the label naming the machine that opened it (`from:m1`).
    pub from_prefix: String,
    /// Prefix of the label naming the review station that claimed it (`reviewer:m4`).
    pub reviewer_prefix: String,
    /// Claimed first.
    pub prio_high: String,
}

impl Default for StationLabels {
    fn default() -> Self {
        StationLabels {
            dev: "state:dev".into(),
            ready_for_review: "state:ready-for-review".into(),
            reviewing: "state:reviewing".into(),
            changes_requested: "state:changes-requested".into(),
            gate: "state:win-verify".into(),
            ready_to_merge: "state:ready-to-merge".into(),
            from_prefix: "from:".into(),
            reviewer_prefix: "reviewer:".into(),
            prio_high: "prio:high".into(),
        }
    }
}

impl StationLabels {
    /// The state axis, in the order a pull request usually walks it.
    pub fn states(&self) -> [&str; 6] {
        [
            &self.dev,
            &self.ready_for_review,
            &self.reviewing,
            &self.changes_requested,
            &self.gate,
            &self.ready_to_merge,
        ]
    }

    pub fn named(&self) -> [(&'static str, &str); 9] {
        [
            ("dev", &self.dev),
            ("readyForReview", &self.ready_for_review),
            ("reviewing", &self.reviewing),
            ("changesRequested", &self.changes_requested),
            ("gate", &self.gate),
            ("readyToMerge", &self.ready_to_merge),
            ("fromPrefix", &self.from_prefix),
            ("reviewerPrefix", &self.reviewer_prefix),
            ("prioHigh", &self.prio_high),
        ]
    }
}

/// The `stations` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Stations {
    /// Machine id (`m1`) to its role, owner and logins.
    pub machines: BTreeMap<String, Machine>,
    /// A review station claims nothing more while it holds this many `state:reviewing` pull requests.
    pub review_wip: u32,
    /// A dev machine gets `wip-full` while this many of its pull requests are open and not drafts.
    pub dev_wip: u32,
    /// Seconds a claimer waits before reading its claim back (labels have no compare-and-swap).
    pub settle_seconds: u32,
    /// A machine of role `any` reviews when at least this many unclaimed pull requests wait for review
    /// (not counting its own), and develops otherwise.
    pub deep_queue: u32,
    /// Logins of AI reviewers besides the machines' own: their approvals never count as a person's.
    pub bots: Vec<String>,
    /// The command `prflow station` runs for the AI first pass (the prompt as its argument, the diff on
    /// standard input), e.g. `claude -p`. `--ai` or PRFLOW_AI on the station machine override it.
    pub ai_command: Option<String>,
    /// The validation gate: its status context, the docs-only paths that skip it, when it runs.
    pub gate: Gate,
    /// The flow's label names.
    pub labels: StationLabels,
}

impl Default for Stations {
    fn default() -> Self {
        Stations {
            machines: BTreeMap::default(),
            review_wip: 2,
            dev_wip: 2,
            settle_seconds: 3,
            deep_queue: 2,
            bots: Vec::new(),
            ai_command: None,
            gate: Gate::default(),
            labels: StationLabels::default(),
        }
    }
}

impl Stations {
    /// The machines a login speaks for (case-insensitive, GitHub logins are).
    pub fn machines_of(&self, login: &str) -> Vec<&str> {
        self.machines
            .iter()
            .filter(|(_, m)| m.logins.iter().any(|l| l.eq_ignore_ascii_case(login)))
            .map(|(id, _)| id.as_str())
            .collect()
    }

    /// Whether a login is a machine or a listed bot: its approval is never a person's.
    pub fn is_machine_or_bot(&self, login: &str) -> bool {
        !self.machines_of(login).is_empty()
            || self.bots.iter().any(|b| b.eq_ignore_ascii_case(login))
            || login.ends_with("[bot]")
    }

    pub fn validate(&self, errors: &mut Vec<ConfigError>) {
        super::error::check_label_names("$.stations.labels", self.labels.named(), errors);
        for (i, glob) in self.gate.docs_only.iter().enumerate() {
            if let Some(expected) = crate::core::glob::labeler_problem(glob) {
                errors.push(ConfigError {
                    path: format!("$.stations.gate.docsOnly[{i}]"),
                    expected,
                    found: format!("{glob:?}"),
                });
            }
        }
        for id in self.machines.keys() {
            let bad = id.is_empty() || id.contains(|c: char| c.is_whitespace() || c == ',');
            if bad {
                errors.push(ConfigError {
                    path: format!("$.stations.machines[{id:?}]"),
                    expected: "a machine id without spaces or commas (it becomes part of a label)".into(),
                    found: format!("{id:?}"),
                });
            }
        }
        for (key, value) in [("reviewWip", self.review_wip), ("devWip", self.dev_wip)] {
            if value == 0 {
                errors.push(ConfigError {
                    path: format!("$.stations.{key}"),
                    expected: "a WIP limit of at least 1".into(),
                    found: "0".into(),
                });
            }
        }
        if self.gate.context.trim().is_empty() {
            errors.push(ConfigError {
                path: "$.stations.gate.context".into(),
                expected: "a commit status context name".into(),
                found: "an empty string".into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::core::config::Config;
    use serde_json::json;

    #[test]
    fn stations_config_problems_name_their_path() {
        let cases = [
            ("the preset is valid", json!({"flow": "stations"}), vec![]),
            (
                "a WIP limit of 0 would stop every claim",
                json!({"flow": "stations", "stations": {"reviewWip": 0}}),
                vec!["$.stations.reviewWip"],
            ),
            (
                "a machine id becomes part of a label",
                json!({"flow": "stations", "stations": {"machines": {"m 1": {}}}}),
                vec!["$.stations.machines[\"m 1\"]"],
            ),
            (
                "two states cannot share a label",
                json!({"flow": "stations", "stations": {"labels": {"gate": "state:dev"}}}),
                vec!["$.stations.labels.gate"],
            ),
            (
                "the gate needs a status context",
                json!({"flow": "stations", "stations": {"gate": {"context": " "}}}),
                vec!["$.stations.gate.context"],
            ),
            (
                "an unknown role is a type error",
                json!({"flow": "stations", "stations": {"machines": {"m1": {"role": "boss"}}}}),
                vec!["$.stations.machines.m1.role"],
            ),
            (
                "the section is checked only for the stations flow",
                json!({"stations": {"reviewWip": 0}}),
                vec![],
            ),
        ];
        for (rule, config, want) in cases {
            let got: Vec<String> = match Config::from_value(config) {
                Ok(_) => vec![],
                Err(errors) => errors.into_iter().map(|e| e.path).collect(),
            };
            assert_eq!(got, want, "{rule}");
        }
    }
}
