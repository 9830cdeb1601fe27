//! The merge queue's table-driven fixtures: tests/fixtures/queue/*.json, one file per rule family.
//! A file names the engine function it calls (`call`, which a case may override), defaults that
//! each case changes one fact of, and cases of `input` and `expect`. `expect` is matched as a
//! subset: every key it names must be equal in the result (arrays element by element, same length),
//! so a case states only what its rule decides. Triage results also get `pulls`, the entries by number.
//! With PRFLOW_QUEUE_DUMP=path, every case's call, input and whole native answer are written there,
//! so tests/node/queue-fixtures.test.js can replay the corpus through the Wasm module.

use serde_json::{Map, Value};

#[path = "fixtures/dump.rs"]
mod dump;
#[path = "fixtures/subset.rs"]
mod subset;
use subset::{merge, mismatch};
use std::path::Path;

fn with_pulls(mut actual: Value) -> Value {
    if let Some(entries) = actual.get("entries").and_then(Value::as_array).cloned() {
        let pulls: Map<String, Value> = entries.into_iter().map(|e| (e["number"].to_string(), e)).collect();
        actual["pulls"] = Value::Object(pulls);
    }
    actual
}

fn input_of(file: &Value, case: &Value) -> Value {
    let defaults = file.get("defaults").cloned().unwrap_or(Value::Null);
    let mut input = merge(&defaults.get("input").cloned().unwrap_or(Value::Object(Map::new())), case.get("input").unwrap_or(&Value::Object(Map::new())));
    // `pulls`: pull requests each written over `defaults.pull`, placed at facts.pullRequests.
    if let Some(pulls) = case.get("pulls").and_then(Value::as_array) {
        let base = defaults.get("pull").cloned().unwrap_or(Value::Object(Map::new()));
        let prs: Vec<Value> = pulls.iter().map(|p| merge(&base, p)).collect();
        let facts = input.get("facts").cloned().unwrap_or(Value::Object(Map::new()));
        input["facts"] = merge(&facts, &serde_json::json!({ "pullRequests": prs }));
    }
    input
}

pub struct Outcome {
    pub family: String,
    pub cases: usize,
    pub failures: Vec<String>,
    /// `{name, call, input, output | error}` per case, for the Wasm replay.
    pub dump: Vec<Value>,
}

fn run_file(path: &Path) -> Outcome {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not valid JSON: {e}", path.display()));
    let family = file["family"].as_str().unwrap_or_else(|| panic!("{}: $.family missing", path.display())).to_string();
    let cases = file["cases"].as_array().unwrap_or_else(|| panic!("{}: $.cases missing", path.display()));
    let mut failures = Vec::new();
    let mut dump = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().unwrap_or_else(|| panic!("{}: $.cases[{i}].name missing", path.display()));
        let call = case.get("call").or(file.get("call")).and_then(Value::as_str).unwrap_or_else(|| panic!("{}: $.cases[{i}]: no call", path.display()));
        let expect = case.get("expect").unwrap_or_else(|| panic!("{}: $.cases[{i}] ({name}): no expect", path.display()));
        let input = input_of(&file, case);
        let result = prflow::queue::call(call, input.clone());
        let answer = match &result {
            Ok(output) => serde_json::json!({ "output": output }),
            Err(error) => serde_json::json!({ "error": error }),
        };
        let mut entry = serde_json::json!({ "name": format!("{family}: {name}"), "call": call, "input": input });
        entry.as_object_mut().unwrap().extend(answer.as_object().unwrap().clone());
        dump.push(entry);
        let problem = match (result, case.get("error")) {
            (Err(e), Some(want)) if e.contains(want.as_str().unwrap_or("")) => None,
            (Err(e), _) => Some(format!("error: {e}")),
            (Ok(actual), _) => mismatch(expect, &with_pulls(actual), "$"),
        };
        if let Some(p) = problem {
            failures.push(format!("{}: $.cases[{i}] {name:?}: {p}", path.display()));
        }
    }
    Outcome { family, cases: cases.len(), failures, dump }
}

#[test]
fn queue_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/queue");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("tests/fixtures/queue").map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    let mut total = 0;
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    let mut dump = Vec::new();
    for f in &files {
        let o = run_file(f);
        total += o.cases;
        counts.push(format!("{}={}", o.family, o.cases));
        failures.extend(o.failures);
        dump.extend(o.dump);
    }
    dump::write("PRFLOW_QUEUE_DUMP", &dump);
    eprintln!("queue fixtures: {total} cases ({})", counts.join(", "));
    assert!(failures.is_empty(), "{} of {total} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert!(total >= 200, "the issue asks for at least 200 queue cases, found {total}");
}
