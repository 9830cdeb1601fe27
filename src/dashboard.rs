//! `dashboard(facts, config)`: what the dashboard page draws, one row per open pull request, composed
//! from the engine's own readings (reconcile's state and why, the follow-up sweep's time in state,
//! owner and claimers, the merge queue's triage), so the page derives nothing and cannot drift from
//! what the Action and the sweep decide.

use crate::config::{Config, ConfigError};
use crate::facts::Facts;
use crate::followup::sweep;
use crate::plan::Warning;
use crate::queue::triage::{Class, Next};
use crate::reconcile::{parse_facts_str, reconcile, FactsError, VERSION};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Everything the page shows. With config errors, only `configErrors` is filled (the page then shows
/// them and asks again with the preset).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardView {
    pub engine: String,
    pub config_errors: Vec<ConfigError>,
    /// One per open pull request, by number.
    pub rows: Vec<DashboardRow>,
    /// The merge queue: candidates in pick order, what is in flight, and what the worker does next.
    pub queue: QueueView,
    /// Development machines should open no new pull request (the sweep's stop-the-line), and why.
    pub stop_the_line: bool,
    pub stop_reasons: Vec<String>,
    /// Reconcile's and the sweep's warnings, then the queue's (without a number).
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueView {
    pub order: Vec<u64>,
    pub in_flight: Vec<u64>,
    pub next: Option<Next>,
    pub cycles: Vec<Vec<u64>>,
}

/// One open pull request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardRow {
    pub number: u64,
    pub title: String,
    /// The `state:*` label reconcile derives, or none when its facts could not be read.
    pub state: Option<String>,
    /// Reconcile's reason for that state.
    pub why: String,
    pub blockers: Vec<String>,
    /// The head commit's check rollup.
    pub checks: String,
    /// `from:<machine>`, else the author (the sweep's owner).
    pub owner: String,
    /// `reviewer:<machine>` claims.
    pub claimers: Vec<String>,
    /// Start of the current stay in its state label (RFC 3339), and its length in minutes (working
    /// minutes when working hours are on), from the sweep.
    pub since: Option<String>,
    pub minutes: Option<i64>,
    /// Why the sweep could not time it (no single state label, unreadable timeline).
    pub problem: Option<String>,
    /// The merge queue's triage of it; absent when the queue ignores it and nobody owns it there (it
    /// is not queued), so a board of unqueued work shows no queue noise.
    pub queue: Option<QueueCell>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueCell {
    pub triage: Class,
    pub reason: String,
    pub detail: String,
    /// 1-based place in the pick order, for candidates.
    pub place: Option<usize>,
    pub waiting_on: Vec<u64>,
    pub next_actor: String,
    pub next_action: String,
}

/// Whether a row shows the queue's triage: everything but what the queue ignores and nobody owns there.
fn in_queue(entry: &crate::queue::triage::Entry) -> bool {
    !(entry.triage == Class::Ignore && entry.owner.is_none())
}

/// The view for facts under a valid config.
pub fn dashboard(facts: &Facts, config: &Config) -> DashboardView {
    let plan = reconcile(facts, config);
    // The page only reads: the board issue is the sweep's to write, so its rows are wanted, not its body.
    let mut quiet = config.clone();
    quiet.followup.board.enabled = false;
    let swept = sweep(facts, &quiet);
    let queue = crate::queue::triage(facts, config);

    // Looked up by number, so a board of thousands stays linear.
    let verdicts: BTreeMap<u64, _> = crate::sorting::map(plan.pulls.iter().map(|v| (v.number, v)));
    let timings: BTreeMap<u64, _> = crate::sorting::map(swept.pulls.iter().map(|p| (p.number, p)));
    let entries: BTreeMap<u64, _> = crate::sorting::map(queue.entries.iter().map(|e| (e.number, e)));
    let mut pulls: Vec<&crate::facts::PullRequest> = facts.pull_requests.iter().collect();
    crate::sorting::sort_by_key(&mut pulls, |p| p.number);
    let rows = pulls
        .into_iter()
        .map(|pr| {
            let verdict = verdicts.get(&pr.number).copied();
            let timed = timings.get(&pr.number).copied();
            let entry = entries.get(&pr.number).copied();
            DashboardRow {
                number: pr.number,
                title: pr.title.clone(),
                state: verdict.and_then(|v| v.state.clone()),
                why: verdict.map(|v| v.why.clone()).unwrap_or_default(),
                blockers: verdict.map(|v| v.blockers.clone()).unwrap_or_default(),
                checks: verdict.map(|v| v.checks.clone()).unwrap_or_default(),
                owner: timed.map(|t| t.owner.clone()).unwrap_or_else(|| pr.author.clone()),
                claimers: timed.map(|t| t.claimers.clone()).unwrap_or_default(),
                since: timed.and_then(|t| t.since.clone()),
                minutes: timed.and_then(|t| t.minutes),
                problem: timed.and_then(|t| t.problem.clone()),
                queue: entry.filter(|e| in_queue(e)).map(|e| QueueCell {
                    triage: e.triage,
                    reason: e.reason.clone(),
                    detail: e.detail.clone(),
                    place: e.place,
                    waiting_on: e.waiting_on.clone(),
                    next_actor: e.next_actor.clone(),
                    next_action: e.next_action.clone(),
                }),
            }
        })
        .collect();

    let mut warnings = plan.warnings;
    warnings.extend(swept.warnings);
    warnings.extend(queue.warnings.into_iter().map(|message| Warning { number: None, message }));
    DashboardView {
        engine: VERSION.to_string(),
        config_errors: Vec::new(),
        rows,
        queue: QueueView { order: queue.order, in_flight: queue.in_flight, next: Some(queue.next), cycles: queue.cycles },
        stop_the_line: swept.stop_the_line,
        stop_reasons: swept.stop_reasons,
        warnings,
    }
}

/// The boundary's entry: facts as JSON text; a bad config gives its errors and no rows.
pub fn dashboard_text(facts: &str, config: serde_json::Value) -> Result<DashboardView, FactsError> {
    let facts = parse_facts_str(facts)?;
    Ok(match Config::from_value(config) {
        Ok(config) => dashboard(&facts, &config),
        Err(errors) => DashboardView { engine: VERSION.to_string(), config_errors: errors, ..DashboardView::default() },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// A pull request as facts carry it; `labels` and the rest vary per case.
    fn pull(number: u64, labels: &[&str], draft: bool) -> Value {
        json!({
            "number": number, "title": format!("change {number}"), "author": "dev-bot", "isDraft": draft,
            "baseRef": "main", "headRef": format!("b{number}"), "headSha": format!("{number:040}"),
            "createdAt": "2026-11-30T08:00:00Z",
            "labels": labels,
            "timeline": [{"kind": "labeled", "label": labels.first().copied().unwrap_or("none"), "actor": "prflow", "at": "2026-11-30T09:00:00Z"}],
        })
    }

    fn facts(pulls: Vec<Value>) -> Facts {
        let text = json!({"repository": "o/r", "now": "2026-11-30T10:00:00Z", "viewer": "prflow", "defaultBranch": "main", "pullRequests": pulls}).to_string();
        parse_facts_str(&text).expect("test facts parse")
    }

    #[test]
    fn rows_are_the_engines_own_readings() {
        // (rule, facts): each row must equal what reconcile, the sweep and the queue say on their own.
        let cases: Vec<(&str, Facts)> = vec![
            ("no pull request: no row", facts(vec![])),
            ("a draft and a ready one, out of order: rows by number", facts(vec![pull(7, &["state:in-review"], false), pull(3, &["state:draft"], true)])),
            ("a pull request with no state label yet", facts(vec![pull(11, &[], false)])),
        ];
        for (rule, facts) in cases {
            let config = Config::default();
            let view = dashboard(&facts, &config);
            let plan = reconcile(&facts, &config);
            let queue = crate::queue::triage(&facts, &config);
            let mut quiet = config.clone();
            quiet.followup.board.enabled = false;
            let swept = sweep(&facts, &quiet);

            let mut numbers: Vec<u64> = facts.pull_requests.iter().map(|p| p.number).collect();
            crate::sorting::sort(&mut numbers);
            assert_eq!(view.rows.iter().map(|r| r.number).collect::<Vec<_>>(), numbers, "{rule}: one row per pull request, by number");
            for row in &view.rows {
                let verdict = plan.pulls.iter().find(|v| v.number == row.number).expect("reconcile reads every pull request");
                assert_eq!((&row.state, &row.why, &row.blockers), (&verdict.state, &verdict.why, &verdict.blockers), "{rule}: #{} state and why are reconcile's", row.number);
                let timed = swept.pulls.iter().find(|p| p.number == row.number).expect("the sweep reads every pull request");
                assert_eq!((&row.owner, &row.claimers, row.minutes), (&timed.owner, &timed.claimers, timed.minutes), "{rule}: #{} owner and minutes are the sweep's", row.number);
                let entry = queue.entries.iter().find(|e| e.number == row.number).filter(|e| in_queue(e)).map(|e| (e.triage, e.reason.clone()));
                assert_eq!(row.queue.as_ref().map(|q| (q.triage, q.reason.clone())), entry, "{rule}: #{} queue triage is the queue's", row.number);
            }
            assert_eq!(view.queue.order, queue.order, "{rule}: the pick order is the queue's");
            assert!(view.config_errors.is_empty(), "{rule}: a valid config has no errors");
        }
    }

    #[test]
    fn a_bad_config_gives_its_errors_and_no_rows() {
        let cases: Vec<(&str, Value, &str)> = vec![
            ("an unknown key is named by its path", json!({"nope": 1}), "$.nope"),
            ("a wrong type is named by its path", json!({"labels": {"draft": 3}}), "$.labels.draft"),
        ];
        let text = json!({"repository": "o/r", "now": "2026-11-30T10:00:00Z", "pullRequests": [pull(1, &[], false)]}).to_string();
        for (rule, config, path) in cases {
            let view = dashboard_text(&text, config).expect("facts are good");
            assert!(view.rows.is_empty(), "{rule}: no rows under a bad config");
            assert!(view.config_errors.iter().any(|e| e.path == path), "{rule}: expected an error at {path}, got {:?}", view.config_errors);
        }
    }

    #[test]
    fn bad_facts_name_their_path() {
        let err = dashboard_text(r#"{"repository": "o/r", "now": "yesterday"}"#, json!({})).expect_err("now is not a time");
        assert!(err.0.contains("$.now"), "the error names $.now: {}", err.0);
    }
}
