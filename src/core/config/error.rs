//! One problem in the config, and the label-name checks every section makes: below the config and its
//! sections, so each section reports without importing the config that holds it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One problem in the config, located by JSON path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigError {
    /// Where, as a JSON path from the root (`$.botPanel.bots[0]`).
    pub path: String,
    /// What a valid value looks like.
    pub expected: String,
    /// What was there.
    pub found: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: expected {}, found {}", self.path, self.expected, self.found)
    }
}

/// GitHub rejects label names longer than this.
pub const MAX_LABEL_NAME: usize = 50;

/// A section's label names (`named()`, key and name), each a valid name and none used twice in it.
pub(crate) fn check_label_names<'a>(
    section: &str,
    named: impl IntoIterator<Item = (&'static str, &'a str)>,
    errors: &mut Vec<ConfigError>,
) {
    let mut seen: BTreeMap<&str, String> = BTreeMap::default();
    for (key, name) in named {
        let path = format!("{section}.{key}");
        check_label_name(&path, name, errors);
        if let Some(other) = seen.insert(name, path.clone()) {
            errors.push(ConfigError {
                path,
                expected: format!("a label name not already used by {other}"),
                found: format!("{name:?}"),
            });
        }
    }
}

pub(crate) fn check_label_name(path: &str, name: &str, errors: &mut Vec<ConfigError>) {
    if name.trim().is_empty() || name.chars().count() > MAX_LABEL_NAME || name.contains(',') {
        errors.push(ConfigError {
            path: path.to_string(),
            expected: format!("a label name of 1 to {MAX_LABEL_NAME} characters without commas"),
            found: format!("{name:?}"),
        });
    }
}
