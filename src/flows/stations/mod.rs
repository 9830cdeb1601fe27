//! The stations flow (a preset of the same engine, `"flow": "stations"`): development machines open
//! pull requests, review stations pull them under a WIP limit, an AI first pass may bounce but never
//! approve, a person approves, and a validation gate writes a commit status of its own.
//!
//! `decide` gives reconcile the labels of one pull request from its replayed timeline (state.rs);
//! claim.rs answers `prflow claim`, gate.rs the gate workflow's classify and report steps.

pub mod claim;
pub mod commands;
pub mod gate;
pub mod review;
pub mod state;

/// The section moved down to the core layer (config types); the old path still names it.
pub use crate::core::config::stations as settings;

use crate::core::config::Config;
use crate::core::decision::Decision;
use crate::core::facts::{Facts, PullFact, PullRequest};
use crate::core::labels::Wants;
use crate::core::plan::{Op, PullVerdict};
use state::{derive, head_gate, GateResult, Phase};
pub use state::{gate_due, state_wants};

pub use claim::{claim, resolve_claim_race, resolve_claim_race_timed, ClaimResult, RaceResult};
pub use gate::{gate_classify, gate_report, GateDecision};
pub use review::{review_outcome, ReviewOutcome};

/// The facts the state depends on that could not be read, in words; the state is left alone then.
fn unreadable(pr: &PullRequest) -> Vec<&'static str> {
    [
        (PullFact::Timeline, "timeline"),
        (PullFact::Reviews, "reviews"),
        (PullFact::Comments, "comments"),
        (PullFact::IsDraft, "draft flag"),
    ]
    .into_iter()
    .filter(|(f, _)| pr.unknown(*f))
    .map(|(_, w)| w)
    .collect()
}

/// Reconcile's per-pull-request decision under the stations flow.
pub fn decide(facts: &Facts, config: &Config, pr: &PullRequest) -> Decision {
    let _ = facts;
    let st = &config.stations;
    let mut ops_after = Vec::new();
    let mut warnings_why: Vec<String> = Vec::new();
    let missing = unreadable(pr);
    let mut d = derive(st, pr, None);
    let mut decided = missing.is_empty();
    // Unreadable checks hide the gate's verdict: a waiting pull request may have passed or failed.
    if pr.unknown(PullFact::Checks) && d.phase == Phase::Gate {
        decided = false;
    }
    // Docs-only: the gate passes now, without the validation machine.
    if decided && gate_due(config, &d) && head_gate(st, pr).is_none() {
        if let Some(g) = gate::docs_only_status(config, pr, &d) {
            ops_after.push(g);
            d = derive(st, pr, Some(GateResult::Success));
        }
    }
    if d.claims.len() > 1 && d.phase == Phase::InReview {
        warnings_why.push(format!(
            "claimed by {} at once; `prflow claim` resolves it (the lexicographically smallest keeps it)",
            d.claims.join(", ")
        ));
    }
    let wants = if decided {
        state_wants(config, pr, &d)
    } else {
        Wants::default()
    };
    let why = if !missing.is_empty() {
        format!("its {} could not be read; state left as it is", missing.join(", "))
    } else if !decided {
        "its checks could not be read, so the gate's verdict is unknown; state left as it is".into()
    } else {
        d.why.clone()
    };
    let mut notes = d.ignored.clone();
    notes.extend(warnings_why);
    let verdict = PullVerdict {
        number: pr.number,
        state: decided.then(|| d.state.clone()),
        why,
        blockers: Vec::new(),
        checks: match head_gate(st, pr) {
            _ if pr.unknown(PullFact::Checks) => "unknown".into(),
            Some(GateResult::Success) => "passing".into(),
            Some(GateResult::Failure) => "failing".into(),
            _ => "pending".into(),
        },
    };
    Decision {
        wants,
        verdict,
        ops_after,
        notes,
    }
}

/// Ops that are a `SetStatus` (for tests and the gate's report).
pub fn status_ops(ops: &[Op]) -> impl Iterator<Item = &Op> {
    ops.iter().filter(|o| matches!(o, Op::SetStatus { .. }))
}

/// A config value to a stations config, or its problems in one line (the claim and gate entry
/// points have no plan to carry `configErrors`, so a bad config is an error naming the paths).
fn config_of(config: serde_json::Value) -> Result<Config, String> {
    Config::from_value(config).map_err(|errors| {
        format!(
            "config: {}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
        )
    })
}

/// `claim` as the boundary calls it: facts as JSON text (the one facts deserializer the Wasm carries).
pub fn claim_values(facts: &str, config: serde_json::Value, role: &str, machine: &str) -> Result<ClaimResult, String> {
    let facts = crate::core::facts::parse_facts_str(facts).map_err(|e| e.0)?;
    claim(&facts, &config_of(config)?, role, machine)
}

/// `resolveClaimRace` as the boundary calls it.
pub fn resolve_claim_race_values(
    labels: Vec<String>,
    machine: &str,
    number: u64,
    config: serde_json::Value,
) -> Result<RaceResult, String> {
    Ok(resolve_claim_race(&labels, machine, number, &config_of(config)?))
}

/// `resolveClaimRace` with the claimer's measured window (milliseconds from its facts read to its
/// claim write acknowledged), as the boundary calls it.
pub fn resolve_claim_race_timed_values(
    labels: Vec<String>,
    machine: &str,
    number: u64,
    config: serde_json::Value,
    took_ms: Option<u64>,
) -> Result<RaceResult, String> {
    Ok(claim::resolve_claim_race_timed(
        &labels,
        machine,
        number,
        &config_of(config)?,
        took_ms,
    ))
}

/// `gateClassify` as the boundary calls it.
pub fn gate_classify_values(facts: &str, config: serde_json::Value, number: u64) -> Result<GateDecision, String> {
    let facts = crate::core::facts::parse_facts_str(facts).map_err(|e| e.0)?;
    gate_classify(&facts, &config_of(config)?, number)
}

/// `gateReport` as the boundary calls it.
pub fn gate_report_values(
    facts: &str,
    config: serde_json::Value,
    number: u64,
    tested_sha: &str,
    result: &str,
) -> Result<GateDecision, String> {
    let facts = crate::core::facts::parse_facts_str(facts).map_err(|e| e.0)?;
    gate_report(&facts, &config_of(config)?, number, tested_sha, result)
}
