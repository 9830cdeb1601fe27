//! The merge queue's cycle as step sequences: tests/fixtures/queue-cycle/*.json. A case is a board
//! (`pulls` over `defaults.pull`, `facts` over `defaults.facts`) and `steps`, each one call of
//! `cycleStep`: what the shell read or reported (`survey` patches the board the step sees, `results`,
//! `poll`, `closed`, `stop`) in, and `expect` out, matched as a subset (arrays whole). `expect.logHas`
//! lists words some log line must contain. The state each step returns is the next step's state, so a
//! case is a cycle as the resident loop would run it. With PRFLOW_QUEUE_CYCLE_DUMP=path every step's
//! whole input and native answer are written there, for the Wasm replay.

use serde_json::{json, Value};
use std::path::Path;

#[path = "fixtures/dump.rs"]
mod dump;
#[path = "fixtures/subset.rs"]
mod subset;
use subset::{merge, mismatch};

/// The board a step sees: the last one with this step's `survey` patch applied (pulls by number).
fn patch_board(facts: &mut Value, pull_default: &Value, survey: &Value) {
    if let Some(f) = survey.get("facts") {
        *facts = merge(facts, f);
    }
    let prs = facts["pullRequests"].as_array().cloned().unwrap_or_default();
    let mut prs: Vec<Value> = prs.into_iter().filter(|p| !survey.get("gone").and_then(Value::as_array).is_some_and(|g| g.contains(&p["number"]))).collect();
    for patch in survey.get("pulls").and_then(Value::as_array).into_iter().flatten() {
        match prs.iter_mut().find(|p| p["number"] == patch["number"]) {
            Some(p) => *p = merge(p, patch),
            None => prs.push(merge(pull_default, patch)),
        }
    }
    facts["pullRequests"] = Value::Array(prs);
}

fn run_file(path: &Path, failures: &mut Vec<String>, dumped: &mut Vec<Value>) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not valid JSON: {e}", path.display()));
    let family = file["family"].as_str().unwrap_or_else(|| panic!("{}: $.family missing", path.display()));
    let defaults = file.get("defaults").cloned().unwrap_or(json!({}));
    let pull_default = defaults.get("pull").cloned().unwrap_or(json!({}));
    let cases = file["cases"].as_array().unwrap_or_else(|| panic!("{}: $.cases missing", path.display()));
    for (i, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().unwrap_or_else(|| panic!("{}: $.cases[{i}].name missing", path.display()));
        let mut facts = merge(&defaults.get("facts").cloned().unwrap_or(json!({})), case.get("facts").unwrap_or(&json!({})));
        facts["pullRequests"] = Value::Array(case.get("pulls").and_then(Value::as_array).into_iter().flatten().map(|p| merge(&pull_default, p)).collect());
        let config = merge(&defaults.get("config").cloned().unwrap_or(json!({})), case.get("config").unwrap_or(&json!({})));
        let options = merge(&defaults.get("options").cloned().unwrap_or(json!({})), case.get("options").unwrap_or(&json!({})));
        let mut state = case.get("state").cloned().unwrap_or(json!({}));
        for (s, st) in case["steps"].as_array().unwrap_or_else(|| panic!("{}: $.cases[{i}].steps missing", path.display())).iter().enumerate() {
            patch_board(&mut facts, &pull_default, st.get("survey").unwrap_or(&json!({})));
            let mut input = json!({ "facts": facts, "state": state, "config": config, "options": options });
            for k in ["results", "poll", "closed", "stop"] {
                if let Some(v) = st.get(k) {
                    input[k] = v.clone();
                }
            }
            let at = format!("{}: $.cases[{i}] {name:?} step {s}", path.display());
            let out = match prflow::queue::call("cycleStep", input.clone()) {
                Ok(out) => out,
                Err(e) => {
                    failures.push(format!("{at}: error: {e}"));
                    break;
                }
            };
            dumped.push(json!({ "name": format!("{family}: {name} / step {s}"), "call": "cycleStep", "input": input, "output": out }));
            let mut expect = st.get("expect").cloned().unwrap_or(json!({}));
            let log_has: Vec<String> = expect.as_object_mut().and_then(|o| o.remove("logHas")).and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default();
            let log: Vec<String> = serde_json::from_value(out["log"].clone()).unwrap_or_default();
            let problem = mismatch(&expect, &out, "$").or_else(|| log_has.iter().find(|w| !log.iter().any(|l| l.contains(w.as_str()))).map(|w| format!("no log line contains {w:?}: {log:#?}")));
            if let Some(p) = problem {
                failures.push(format!("{at}: {p}\n  ops: {}\n  wait: {}\n  log: {log:#?}", out["ops"], out["wait"]));
                break;
            }
            state = out["state"].clone();
        }
    }
    cases.len()
}

#[test]
fn queue_cycle_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/queue-cycle");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("tests/fixtures/queue-cycle").map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    let (mut total, mut failures, mut dumped) = (0, Vec::new(), Vec::new());
    for f in &files {
        total += run_file(f, &mut failures, &mut dumped);
    }
    dump::write("PRFLOW_QUEUE_CYCLE_DUMP", &dumped);
    eprintln!("queue cycle fixtures: {total} cases, {} steps", dumped.len());
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
    assert!(total > 0, "no cases found");
}
