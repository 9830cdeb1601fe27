//! The validation gate as two pure steps of the gate workflow. Classify: is the gate due, and does it
//! need the validation machine, or is the change docs-only and passes now. Report: write the machine's
//! result, but only on the commit it tested; when the head has moved meanwhile, the result goes on the
//! old commit and the labels stay as they are (the new head has no status, so the gate stays pending).

use super::state::{derive, gate_due, state_wants, GateResult};
use crate::core::config::Config;
use crate::core::facts::{Facts, PullFact, PullRequest};
use crate::core::glob::LabelerGlob;
use crate::core::labels::label_edit;
use crate::core::plan::{Guard, Op, StatusState, Warning};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const DESC_DOCS_ONLY: &str = "docs-only change: passed without the validation machine";
pub const DESC_WAITING: &str = "waiting for the validation machine";
pub const DESC_PASSED: &str = "passed on the validation machine";
pub const DESC_FAILED: &str = "failed on the validation machine";

/// What the gate workflow should do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GateDecision {
    /// Whether the gate is due at all (approved, or every push when `gate.onEveryPush`).
    pub run: bool,
    /// Whether the validation machine must run (false for docs-only changes and when not due).
    pub need: bool,
    /// The commit the gate is about.
    pub sha: String,
    /// Status and label writes, in order.
    pub ops: Vec<Op>,
    pub why: String,
    pub warnings: Vec<Warning>,
}

fn find(facts: &Facts, number: u64) -> Result<&PullRequest, String> {
    facts
        .pull_requests
        .iter()
        .find(|p| p.number == number)
        .ok_or_else(|| format!("pull request #{number} is not among the facts' open pull requests"))
}

fn status(config: &Config, pr: &PullRequest, sha: &str, state: StatusState, description: &str, reason: String) -> Op {
    Op::SetStatus {
        number: pr.number,
        sha: sha.to_string(),
        context: config.stations.gate.context.clone(),
        state,
        description: description.to_string(),
        reason,
        guard: Guard::default(),
    }
}

/// The success status for a docs-only change, when every changed path matches a docs-only glob.
pub fn docs_only_status(config: &Config, pr: &PullRequest, _d: &super::state::Derived) -> Option<Op> {
    let globs = &config.stations.gate.docs_only;
    if pr.unknown(PullFact::Files) || pr.files.is_empty() || globs.is_empty() {
        return None;
    }
    let globs: Vec<LabelerGlob> = globs.iter().map(|g| LabelerGlob::new(g)).collect();
    let docs = pr.files.iter().all(|f| {
        let segments: Vec<&str> = f.split('/').collect();
        globs.iter().any(|g| g.matches(&segments))
    });
    docs.then(|| {
        status(
            config,
            pr,
            &pr.head_sha,
            StatusState::Success,
            DESC_DOCS_ONLY,
            format!("every changed path of #{} matches stations.gate.docsOnly", pr.number),
        )
    })
}

/// The label edit once a gate status with `result` is on the head.
fn labels_after(
    facts: &Facts,
    config: &Config,
    pr: &PullRequest,
    result: Option<GateResult>,
    warnings: &mut Vec<Warning>,
) -> Option<Op> {
    let d = derive(&config.stations, pr, result);
    let wants = state_wants(config, pr, &d);
    label_edit(facts, pr, &wants, || format!("{}: {}", d.state, d.why), warnings)
}

/// Classify step: due or not, docs-only or the validation machine.
pub fn gate_classify(facts: &Facts, config: &Config, number: u64) -> Result<GateDecision, String> {
    let pr = find(facts, number)?;
    let d = derive(&config.stations, pr, None);
    let mut warnings = Vec::new();
    let sha = pr.head_sha.clone();
    if !gate_due(config, &d) {
        return Ok(GateDecision {
            run: false,
            need: false,
            sha,
            ops: vec![],
            why: format!("the gate is not due: {} ({})", d.state, d.why),
            warnings,
        });
    }
    if let Some(op) = docs_only_status(config, pr, &d) {
        let mut ops = vec![op];
        ops.extend(labels_after(
            facts,
            config,
            pr,
            Some(GateResult::Success),
            &mut warnings,
        ));
        return Ok(GateDecision {
            run: true,
            need: false,
            sha,
            ops,
            why: "docs-only change: the gate passes without the validation machine".into(),
            warnings,
        });
    }
    let why = if pr.unknown(PullFact::Files) {
        "the changed files could not be read, so it is not provably docs-only"
    } else {
        "code changed: the validation machine must run"
    };
    let mut ops = vec![status(
        config,
        pr,
        &sha,
        StatusState::Pending,
        DESC_WAITING,
        why.to_string(),
    )];
    ops.extend(labels_after(facts, config, pr, None, &mut warnings));
    Ok(GateDecision {
        run: true,
        need: true,
        sha,
        ops,
        why: why.to_string(),
        warnings,
    })
}

/// Report step: the validation machine tested `tested_sha` and got `result` (the job's result:
/// success, failure, cancelled or skipped).
pub fn gate_report(
    facts: &Facts,
    config: &Config,
    number: u64,
    tested_sha: &str,
    result: &str,
) -> Result<GateDecision, String> {
    let pr = find(facts, number)?;
    let mut warnings = Vec::new();
    let (gate, state, desc) = match result {
        "success" => (GateResult::Success, StatusState::Success, DESC_PASSED),
        "failure" => (GateResult::Failure, StatusState::Failure, DESC_FAILED),
        "cancelled" | "skipped" => {
            return Ok(GateDecision {
                run: false,
                need: false,
                sha: tested_sha.to_string(),
                ops: vec![],
                why: format!("the validation job was {result}: no status is written, so the gate stays pending rather than pass by not running"),
                warnings,
            })
        }
        other => return Err(format!("result: expected success, failure, cancelled or skipped, found {other:?}")),
    };
    if tested_sha.is_empty() {
        return Err("testedSha: expected the commit the validation machine tested, found an empty string".into());
    }
    if pr.head_sha != tested_sha {
        let why = format!("the head moved from {} to {} during validation: the result is recorded on the tested commit only, labels unchanged", short(tested_sha), short(&pr.head_sha));
        let op = status(config, pr, tested_sha, state, desc, why.clone());
        return Ok(GateDecision {
            run: true,
            need: false,
            sha: tested_sha.to_string(),
            ops: vec![op],
            why,
            warnings,
        });
    }
    let why = format!("{} {result} on {}", config.stations.gate.context, short(tested_sha));
    let mut ops = vec![status(config, pr, tested_sha, state, desc, why.clone())];
    ops.extend(labels_after(facts, config, pr, Some(gate), &mut warnings));
    Ok(GateDecision {
        run: true,
        need: false,
        sha: tested_sha.to_string(),
        ops,
        why,
        warnings,
    })
}

fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}
