//! The one fixture runner: every corpus of tests/fixtures/ (reconcile, queue, stations, follow-up),
//! each read in its own file format (tests/fixtures/<corpus>.rs), every case asked of the engine through
//! `prflow::Engine` exactly as a shell asks it (the config text builds the engine, the decision is called
//! by name with its input). Each corpus checks what its cases pin; every engine call, with its config,
//! input and whole native answer, goes into one dump (PRFLOW_FIXTURE_DUMP, set by scripts/test.sh) that
//! tests/node/fixtures.test.js replays through the Wasm engine, which must answer identically.
#![cfg(not(target_arch = "wasm32"))]

#[path = "fixtures/apply.rs"]
mod apply;
#[path = "fixtures/dump.rs"]
mod dump;
#[path = "fixtures/followup.rs"]
mod followup;
#[path = "fixtures/queue.rs"]
mod queue;
#[path = "fixtures/queue_cycle.rs"]
mod queue_cycle;
#[path = "fixtures/reconcile.rs"]
mod reconcile;
#[path = "fixtures/stations.rs"]
mod stations;
#[path = "fixtures/stations_story.rs"]
mod story;
#[path = "fixtures/subset.rs"]
mod subset;

use serde_json::{json, Value};

/// One corpus run: how many cases, what failed, and every engine call for the dump.
pub struct Outcome {
    pub corpus: &'static str,
    pub cases: usize,
    pub failures: Vec<String>,
    pub calls: Vec<Value>,
}

/// The engine a case's config builds (`null`: no config file, the preset), asked `call` with `input`.
pub fn ask(config: &Value, call: &str, input: &Value) -> Result<Value, String> {
    let engine = if config.is_null() { prflow::Engine::preset() } else { prflow::Engine::from_value(config.clone()) };
    engine.call_value(call, input)
}

/// One dump entry: what the Wasm replay asks, and the native answer it must equal.
pub fn entry(corpus: &str, name: &str, config: &Value, call: &str, input: &Value, answer: &Result<Value, String>) -> Value {
    let mut e = json!({ "corpus": corpus, "name": name, "config": config, "call": call, "input": input });
    match answer {
        Ok(output) => e["output"] = output.clone(),
        Err(error) => e["error"] = json!(error),
    }
    e
}

#[test]
fn every_corpus() {
    // (corpus, at least this many cases): the sizes the issues promised.
    let runs = [(reconcile::run(), 150), (queue::run(), 200), (stations::run(), 90), (followup::run(), 20), (queue_cycle::run(), 80)];
    let mut dumped = Vec::new();
    let mut problems = Vec::new();
    let mut lines = vec!["fixture corpora (cases, engine calls):".to_string()];
    for (outcome, min) in runs {
        lines.push(format!("  {:<10} {:>4} cases {:>5} calls{}", outcome.corpus, outcome.cases, outcome.calls.len(), if outcome.failures.is_empty() { String::new() } else { format!("  ({} FAILED)", outcome.failures.len()) }));
        if outcome.cases < min {
            problems.push(format!("{}: {} cases, at least {min} promised", outcome.corpus, outcome.cases));
        }
        problems.extend(outcome.failures.into_iter().map(|f| format!("{}: {f}", outcome.corpus)));
        dumped.extend(outcome.calls);
    }
    lines.push(format!("  {:<10} {:>17} calls", "total", dumped.len()));
    // Past the harness's capture, so every `cargo test` shows the corpus sizes.
    use std::io::Write;
    let _ = std::io::stdout().write_all(format!("\n{}\n", lines.join("\n")).as_bytes());
    dump::write("PRFLOW_FIXTURE_DUMP", &dumped);
    assert!(problems.is_empty(), "{} fixture problem(s):\n\n{}\n", problems.len(), problems.join("\n\n"));
}

#[test]
fn the_example_followup_config_is_valid() {
    followup::the_example_config_is_valid();
}
