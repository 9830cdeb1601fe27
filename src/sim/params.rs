//! What both simulations' parameters share: a closed interval, the check that names a bad field by its
//! path, and the seeds of the runs drawn from the one seed given.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Display;

/// A closed interval; a run draws uniformly inside it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub min: f64,
    pub max: f64,
}

impl Range {
    pub(crate) fn check(&self, errors: &mut Vec<String>, field: &str, lo: f64, hi: f64) {
        check(
            errors,
            self.min >= lo && self.min <= hi,
            &format!("{field}.min"),
            &format!("from {lo} to {hi}"),
            self.min,
        );
        check(
            errors,
            self.max >= self.min && self.max <= hi,
            &format!("{field}.max"),
            &format!("from min ({}) to {hi}", self.min),
            self.max,
        );
    }
}

/// Adds `$.field: expected ..., found ...` unless `ok`.
pub(crate) fn check(errors: &mut Vec<String>, ok: bool, field: &str, expected: &str, found: impl Display) {
    if !ok {
        errors.push(format!("$.{field}: expected {expected}, found {found}"));
    }
}

/// The seed of each run, drawn from the one seed given.
pub(crate) fn run_seeds(seed: u32, count: u32) -> Vec<u64> {
    let mut sm = super::rng::SplitMix64::new(u64::from(seed));
    (0..count).map(|_| sm.next_u64()).collect()
}

/// The seed and each run's seed, or every problem of the parameters (a missing seed first).
pub(crate) fn seed_and_runs(
    seed: Option<u32>,
    runs: u32,
    mut errors: Vec<String>,
) -> Result<(u32, Vec<u64>), Vec<String>> {
    match seed {
        Some(seed) if errors.is_empty() => Ok((seed, run_seeds(seed, runs))),
        Some(_) => Err(errors),
        None => {
            errors.insert(
                0,
                "$.seed: missing; the engine has no randomness of its own (the CLI and the page draw one)".into(),
            );
            Err(errors)
        }
    }
}
