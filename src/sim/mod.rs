//! Simulations behind two claims of the seeds: review stations should pull their work (`review`), and a
//! merge queue that runs one pull request at a time caps landings at working hours over CI time
//! (`queue`). Pure and deterministic for a seed: the seed is an input (the shells draw one when none
//! is given and print it), and every draw comes from the generator in `rng`, never from the platform.

pub mod agenda;
pub mod queue;
pub mod review;
pub mod rng;
pub mod stats;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Display;

pub use queue::{queue, QueueParams, QueueReport};
pub use review::{review, ReviewParams, ReviewReport};

/// A closed interval; a run draws uniformly inside it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub min: f64,
    pub max: f64,
}

impl Range {
    fn check(&self, errors: &mut Vec<String>, field: &str, lo: f64, hi: f64) {
        check(errors, self.min >= lo && self.min <= hi, &format!("{field}.min"), &format!("from {lo} to {hi}"), self.min);
        check(errors, self.max >= self.min && self.max <= hi, &format!("{field}.max"), &format!("from min ({}) to {hi}", self.min), self.max);
    }
}

/// Adds `$.field: expected ..., found ...` unless `ok`.
fn check(errors: &mut Vec<String>, ok: bool, field: &str, expected: &str, found: impl Display) {
    if !ok {
        errors.push(format!("$.{field}: expected {expected}, found {found}"));
    }
}

/// The seed of each run, drawn from the one seed given.
pub(crate) fn run_seeds(seed: u32, count: u32) -> Vec<u64> {
    let mut sm = rng::SplitMix64::new(u64::from(seed));
    (0..count).map(|_| sm.next_u64()).collect()
}

/// The seed and each run's seed, or every problem of the parameters (a missing seed first).
fn seed_and_runs(seed: Option<u32>, runs: u32, mut errors: Vec<String>) -> Result<(u32, Vec<u64>), Vec<String>> {
    match seed {
        Some(seed) if errors.is_empty() => Ok((seed, run_seeds(seed, runs))),
        Some(_) => Err(errors),
        None => {
            errors.insert(0, "$.seed: missing; the engine has no randomness of its own (the CLI and the page draw one)".into());
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    // The simulations answer through the engine's one request vocabulary (src/api.rs), like every decision.
    fn run(name: &str, input: &str) -> Result<String, String> {
        crate::Engine::preset().call(name, input)
    }

    #[test]
    fn json_errors_name_the_field() {
        let e = run("simReview", r#"{"seed": 1, "stations": "two"}"#).unwrap_err();
        assert!(e.starts_with("simReview $.stations: invalid type: string \"two\""), "{e}");
        let e = run("simReview", r#"{"seed": 1, "stationz": 2}"#).unwrap_err();
        assert!(e.contains("unknown field `stationz`"), "{e}");
        let e = run("simQueue", r#"{"seed": 1, "ciMinutes": 0, "flakeRate": 0.95}"#).unwrap_err();
        assert_eq!(e, "simQueue $.ciMinutes: expected minutes from 0.5 to 1440, found 0
$.flakeRate: expected a share from 0 to 0.9, found 0.95");
        let d: serde_json::Value = serde_json::from_str(&run("simQueueDefaults", "").unwrap()).unwrap();
        assert_eq!((d["ciMinutes"].as_f64(), d["seed"].is_null()), (Some(15.0), true));
    }
}
