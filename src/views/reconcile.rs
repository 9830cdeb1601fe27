//! `reconcile(facts, config)`: every open pull request's labels recomputed from facts alone.
//! Stateless: events only say which pull requests to look at; the plan is idempotent.

use crate::core::config::{Config, ConfigError, Flow};
use crate::core::facts::{Facts, RepoFact};
use crate::core::labels::label_edit;
use crate::core::plan::{Plan, Warning};
use crate::core::time::parse_rfc3339;
use crate::flows::bot_panel;

pub use crate::core::facts::{parse_facts, parse_facts_str, FactsError};
pub use crate::VERSION;

/// The plan for a config that did not validate: the errors, and nothing else.
pub fn config_error_plan(errors: Vec<ConfigError>) -> Plan {
    Plan {
        engine: VERSION.to_string(),
        config_errors: errors,
        ..Plan::default()
    }
}

pub fn reconcile(facts: &Facts, config: &Config) -> Plan {
    let now = parse_rfc3339(&facts.now).unwrap_or(0);
    let mut plan = Plan {
        engine: VERSION.to_string(),
        ..Plan::default()
    };
    let required = crate::core::checks::required_contexts(&facts.required_checks, config);
    if facts.repo_unknown(RepoFact::Labels) {
        plan.warnings.push(Warning {
            number: None,
            message: "the repository's labels could not be read; additions were not filtered".into(),
        });
    }
    let scopes = crate::core::scopes::Scopes::new(&config.scopes);
    let mut pulls: Vec<&crate::core::facts::PullRequest> = facts.pull_requests.iter().collect();
    pulls.sort_by_key(|p| p.number);
    for pr in pulls {
        let decision = match config.flow {
            Flow::BotPanel => bot_panel::decide(facts, config, pr, now, &required, &scopes),
            Flow::Stations => crate::flows::stations::decide(facts, config, pr),
        };
        let verdict = &decision.verdict;
        let summary = || match &verdict.state {
            Some(state) => [state, ": ", &verdict.why].concat(),
            None => verdict.why.clone(),
        };
        if let Some(op) = label_edit(facts, pr, &decision.wants, summary, &mut plan.warnings) {
            plan.ops.push(op);
        }
        plan.ops.extend(decision.ops_after);
        plan.warnings.extend(decision.notes.into_iter().map(|message| Warning {
            number: Some(pr.number),
            message,
        }));
        plan.pulls.push(decision.verdict);
    }
    plan
}

/// The whole entry point as the boundary calls it: JSON in, plan out, errors in words.
pub fn reconcile_values(facts: serde_json::Value, config: serde_json::Value) -> Result<Plan, FactsError> {
    decide_with(parse_facts(facts)?, config)
}

/// The same with the facts as JSON text (the fast path for large snapshots).
pub fn reconcile_text(facts: &str, config: serde_json::Value) -> Result<Plan, FactsError> {
    decide_with(parse_facts_str(facts)?, config)
}

fn decide_with(facts: Facts, config: serde_json::Value) -> Result<Plan, FactsError> {
    Ok(match Config::from_value(config) {
        Ok(config) => reconcile(&facts, &config),
        Err(errors) => config_error_plan(errors),
    })
}
