//! The config file (`.github/prflow.json`): typed, with defaults from the chosen flow's preset, and
//! validated into errors a person can act on (JSON path, what was expected, what was found).
//! A bad config is an input, not a crash: `reconcile` turns it into a plan that changes nothing.

pub mod error;
pub mod followup;
pub mod queue;
pub mod stations;

pub(crate) use error::{check_label_name, check_label_names};
pub use error::{ConfigError, MAX_LABEL_NAME};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which rule set decides the `state:*` axis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Flow {
    /// Several bot reviewers, then a human: `state:*` on the review axis plus a set of `blocker:*`.
    #[default]
    BotPanel,
    /// Dev machines open, review stations pull work under a WIP limit, a person approves, a
    /// validation gate writes a commit status (the `stations` section).
    Stations,
}

/// The whole config file. Every key is optional; the preset of `flow` fills the rest.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Config {
    /// Editors may point this at the published schema; the engine ignores it.
    #[serde(rename = "$schema", skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// The flow preset: `bot-panel` or `stations`.
    pub flow: Flow,
    /// Label names. Every label the tool writes is named here.
    pub labels: Labels,
    /// The bot-panel flow's reviewers.
    pub bot_panel: BotPanel,
    /// The stations flow: machines, WIP limits, the validation gate and its labels.
    pub stations: stations::Stations,
    /// When a pull request counts as stale.
    pub stale: Stale,
    /// `scope:*` labels from changed paths: label name to globs (any glob matching any file adds it;
    /// braces `{a,b}` as actions/labeler reads them; no `!` negation).
    pub scopes: BTreeMap<String, Vec<String>>,
    /// Remove a scope label whose globs no longer match (actions/labeler's `sync-labels`).
    pub scope_sync: bool,
    /// Contexts that must pass, in addition to those the repository's ruleset requires.
    pub required_checks: Vec<String>,
    /// The scheduled follow-up sweep: levels per state, who is pinged, working hours, the board.
    pub followup: followup::Followup,
    /// The merge queue: its labels, the version pull request, ages, the watch budgets and `autoFix`.
    pub queue: queue::QueueConfig,
}

/// Label names. Defaults are the bot-panel preset's names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Labels {
    /// State: a draft, still being built by its author.
    pub draft: String,
    /// State: a review request to a panel bot is live.
    pub bots_reviewing: String,
    /// State: the author's agent holds the ball (changes requested, approvals staled, nobody asked, blocked).
    pub addressing: String,
    /// State: a human could merge this right now.
    pub needs_human: String,
    /// Blocker: GitHub reports a merge conflict.
    pub blocker_conflict: String,
    /// Blocker: a check on the head commit failed.
    pub blocker_checks: String,
    /// Blocker: a panel bot has no verdict on the head commit and was not asked for one.
    pub blocker_unrequested: String,
    /// Human intent: merge this one next. The tool only ever clears it.
    pub merge_next: String,
    /// No real activity (commits, comments, reviews) for `stale.days`.
    pub stale: String,
}

impl Default for Labels {
    fn default() -> Self {
        Labels {
            draft: "state:draft".into(),
            bots_reviewing: "state:bots-reviewing".into(),
            addressing: "state:addressing".into(),
            needs_human: "state:needs-human".into(),
            blocker_conflict: "blocker:conflict".into(),
            blocker_checks: "blocker:checks".into(),
            blocker_unrequested: "blocker:unrequested".into(),
            merge_next: "merge-next".into(),
            stale: "stale".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct BotPanel {
    /// Logins of the bot reviewers whose verdicts make a round.
    pub bots: Vec<String>,
    /// Logins of the humans who merge.
    pub humans: Vec<String>,
    /// Request the humans' review once every bot has formally approved the head commit.
    pub request_humans_when_approved: bool,
}

impl Default for BotPanel {
    fn default() -> Self {
        BotPanel {
            bots: Vec::new(),
            humans: Vec::new(),
            request_humans_when_approved: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Stale {
    /// Days without real activity before `stale` is set; 0 turns the label off.
    pub days: u32,
}

impl Default for Stale {
    fn default() -> Self {
        Stale { days: 14 }
    }
}

/// A config file read: the config or every problem in it, and which optional sections it names (the
/// label catalogue lists the queue's and the board's labels only for a team that uses them).
pub struct Loaded {
    pub config: Result<Config, Vec<ConfigError>>,
    pub has_queue: bool,
    pub has_followup: bool,
}

/// What JSON text is, in words, from its first byte (the text is JSON).
fn text_kind(text: &str) -> &'static str {
    match text.trim_start().as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// Reads and validates the config file's text. Text that is not JSON (an empty file too), or JSON
/// that is not an object, is one error at `$`. Straight from the text, never through a
/// `serde_json::Value`: that tree's parser, printer and map were 16 KB of the page's Wasm.
pub fn load(text: &str) -> Loaded {
    let refused = |error: ConfigError| Loaded {
        config: Err(vec![error]),
        has_queue: false,
        has_followup: false,
    };
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
        return refused(ConfigError {
            path: "$".into(),
            expected: "JSON".into(),
            found: format!("a syntax error ({e})"),
        });
    }
    // Only an object is a config: serde would read `[]` as a struct of defaults, so an array (or a
    // number, a string, null) would silently be the preset.
    if text_kind(text) != "an object" {
        return refused(ConfigError {
            path: "$".into(),
            expected: "a JSON object".into(),
            found: text_kind(text).into(),
        });
    }
    let mut value: serde_json::Value = serde_json::from_str(text).expect("checked to be JSON above");
    let has = |key: &str| value.get(key).is_some();
    let (has_queue, has_followup) = (has("queue"), has("followup"));
    let given: Vec<String> = value
        .get("followup")
        .and_then(|f| f.as_object())
        .map(|f| f.keys().cloned().collect())
        .unwrap_or_default();
    // serde stops at the first mistake; each one is kept and its key taken out (its default then
    // stands) so the next read meets the next mistake: a config with three mistakes reports three.
    // The first read is the text's, so a repeated key is reported too.
    let mut errors = Vec::new();
    let mut read = crate::codec::from_str::<Config>(text);
    let config = loop {
        match read {
            Ok(config) => break config,
            Err(e) => {
                let removed = crate::codec::remove_at(&mut value, &e.segments);
                errors.push(serde_error(&e));
                if !removed || errors.len() >= 50 {
                    return Loaded {
                        config: Err(errors),
                        has_queue,
                        has_followup,
                    };
                }
                // Read again as text, so the Wasm carries one reader of the config (serde_json's of text).
                read = crate::codec::from_str(&value.to_string());
            }
        }
    };
    Loaded {
        config: Config::checked(config, &given, errors),
        has_queue,
        has_followup,
    }
}

impl Config {
    /// Parse and validate a config value (`load` on its text).
    pub fn from_value(value: serde_json::Value) -> Result<Config, Vec<ConfigError>> {
        load(&value.to_string()).config
    }

    /// A config read, `given` the keys its `followup` names, with the errors its reading met and those
    /// of the checks serde cannot express: all of them, not just the first.
    fn checked(mut config: Config, given: &[String], mut errors: Vec<ConfigError>) -> Result<Config, Vec<ConfigError>> {
        config.followup.inherit(&config.stations.labels, given);
        errors.extend(config.validate());
        if errors.is_empty() {
            Ok(config)
        } else {
            Err(errors)
        }
    }

    /// Semantic checks serde cannot express.
    pub fn validate(&self) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        check_label_names("$.labels", self.labels.named(), &mut errors);
        for (i, bot) in self.bot_panel.bots.iter().enumerate() {
            if bot.trim().is_empty() {
                errors.push(ConfigError {
                    path: format!("$.botPanel.bots[{i}]"),
                    expected: "a GitHub login".into(),
                    found: "an empty string".into(),
                });
            }
            if self.bot_panel.humans.iter().any(|h| h.eq_ignore_ascii_case(bot)) {
                errors.push(ConfigError {
                    path: format!("$.botPanel.bots[{i}]"),
                    expected: "a login that is not also in botPanel.humans".into(),
                    found: format!("{bot:?}"),
                });
            }
        }
        if self.flow == Flow::Stations {
            self.stations.validate(&mut errors);
        }
        errors.extend(self.queue.validate());
        for (name, globs) in &self.scopes {
            check_label_name(&format!("$.scopes[{name:?}]"), name, &mut errors);
            if globs.is_empty() {
                errors.push(ConfigError {
                    path: format!("$.scopes[{name:?}]"),
                    expected: "at least one glob".into(),
                    found: "an empty list".into(),
                });
            }
            for (i, glob) in globs.iter().enumerate() {
                if let Some(expected) = crate::core::glob::labeler_problem(glob) {
                    errors.push(ConfigError {
                        path: format!("$.scopes[{name:?}][{i}]"),
                        expected,
                        found: format!("{glob:?}"),
                    });
                }
            }
        }
        self.followup.validate(&mut errors);
        errors
    }
}

impl Labels {
    /// Every configurable label with its config key, for validation and for `prflow labels`.
    pub fn named(&self) -> [(&'static str, &str); 9] {
        [
            ("draft", &self.draft),
            ("botsReviewing", &self.bots_reviewing),
            ("addressing", &self.addressing),
            ("needsHuman", &self.needs_human),
            ("blockerConflict", &self.blocker_conflict),
            ("blockerChecks", &self.blocker_checks),
            ("blockerUnrequested", &self.blocker_unrequested),
            ("mergeNext", &self.merge_next),
            ("stale", &self.stale),
        ]
    }

    /// The state axis: exactly one of these belongs on every open pull request.
    pub fn states(&self) -> [&str; 4] {
        [&self.draft, &self.bots_reviewing, &self.addressing, &self.needs_human]
    }
}

/// serde's names for Rust types in plain words, with the unit a key's name gives (`timeoutMinutes`).
fn plain(expected: &str, path: &str) -> String {
    let key = path.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
    let unit = ["minutes", "seconds", "hours", "days", "polls"]
        .into_iter()
        .find(|u| key.ends_with(u));
    match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" => match unit {
            Some(u) => format!("a whole number of {u}, at least 0"),
            None => "a whole number, at least 0".to_string(),
        },
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a map" => "an object".to_string(),
        e if e.starts_with("struct ") => "an object".to_string(),
        e => e.to_string(),
    }
}

/// Turns serde's message ("invalid type: integer `3`, expected a string") into expected/found.
fn serde_error(e: &crate::codec::PathError) -> ConfigError {
    let path = e.path.clone();
    let msg = e.message.clone();
    let (expected, found) = if let Some(rest) = msg
        .strip_prefix("invalid type: ")
        .or_else(|| msg.strip_prefix("invalid value: "))
    {
        match rest.split_once(", expected ") {
            Some((found, expected)) => (expected.to_string(), found.to_string()),
            None => ("a valid value".to_string(), rest.to_string()),
        }
    } else if let Some(rest) = msg.strip_prefix("unknown field ") {
        match rest.split_once(", expected ") {
            Some((field, expected)) => (format!("a known key ({expected})"), format!("the key {field}")),
            None => ("a known key".to_string(), rest.to_string()),
        }
    } else if let Some(rest) = msg.strip_prefix("unknown variant ") {
        match rest.split_once(", expected ") {
            Some((variant, expected)) => (expected.to_string(), variant.to_string()),
            None => ("a known value".to_string(), rest.to_string()),
        }
    } else if let Some(field) = msg.strip_prefix("missing field ") {
        (format!("the key {field}"), "nothing".to_string())
    } else {
        ("a valid value".to_string(), msg)
    };
    let expected = plain(&expected, &path);
    ConfigError { path, expected, found }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn three_mistakes_are_three_errors_in_plain_words() {
        let errors = Config::from_value(json!({
            "queue": { "watch": { "timeoutMinutes": -5 } },
            "labels": { "draft": 3 },
            "nonsense": true,
        }))
        .expect_err("three mistakes");
        let by_path: std::collections::BTreeMap<&str, &str> =
            errors.iter().map(|e| (e.path.as_str(), e.expected.as_str())).collect();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert_eq!(
            by_path.get("$.queue.watch.timeoutMinutes"),
            Some(&"a whole number of minutes, at least 0"),
            "{errors:?}"
        );
        assert_eq!(by_path.get("$.labels.draft"), Some(&"a string"), "{errors:?}");
        assert!(by_path.contains_key("$.nonsense"), "{errors:?}");
    }

    #[test]
    fn a_glob_the_labeler_reads_otherwise_is_an_error_naming_it() {
        // Issue 18: `!docs/**` and an unclosed brace matched nothing and said nothing.
        let errors = Config::from_value(json!({
            "scopes": { "scope:docs": ["{docs,guides/**", "!docs/**", "{src,lib}/**"] },
        }))
        .expect_err("two bad globs");
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [r#"$.scopes["scope:docs"][0]"#, r#"$.scopes["scope:docs"][1]"#],
            "{errors:?}"
        );
        assert!(errors[1].expected.contains("negated"), "{errors:?}");
    }

    #[test]
    fn anything_but_an_object_is_an_error() {
        // Issue 15 item 9: serde reads `[]` as a struct of defaults, so an array was the preset.
        for (value, found) in [
            (json!(null), "null"),
            (json!([]), "an array"),
            (json!("{}"), "a string"),
            (json!(1), "a number"),
        ] {
            let errors = Config::from_value(value).expect_err(found);
            assert_eq!(
                errors,
                vec![ConfigError {
                    path: "$".into(),
                    expected: "a JSON object".into(),
                    found: found.into()
                }]
            );
        }
    }

    #[test]
    fn empty_config_is_the_preset() {
        let c = Config::from_value(json!({})).unwrap();
        assert_eq!(c.labels.needs_human, "state:needs-human");
        assert_eq!(c.stale.days, 14);
    }

    #[test]
    fn type_error_names_path_expected_found() {
        let e = Config::from_value(json!({"botPanel": {"bots": ["a", 3]}})).unwrap_err();
        assert_eq!(
            e,
            vec![ConfigError {
                path: "$.botPanel.bots[1]".into(),
                expected: "a string".into(),
                found: "integer `3`".into()
            }]
        );
    }

    #[test]
    fn unknown_key_is_an_error() {
        let e = Config::from_value(json!({"stale": {"dayz": 3}})).unwrap_err();
        assert_eq!(e[0].path, "$.stale.dayz");
        assert!(e[0].found.contains("dayz"), "{:?}", e);
    }

    #[test]
    fn duplicate_label_names_are_reported_once_each() {
        let e = Config::from_value(json!({"labels": {"stale": "merge-next"}})).unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, "$.labels.stale");
    }
}
