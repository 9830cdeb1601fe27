//! The stations flow's exports tested inside Wasm (wasm-bindgen-test on Node): claim, the claim race,
//! the gate's classify and report, as js/core.js calls them (JSON text in, JSON text out), and bad
//! input as a thrown JS `Error` naming the JSON path, never a panic.
#![cfg(target_arch = "wasm32")]

use prflow::wasm;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const CONFIG: &str = r#"{"flow": "stations", "stations": {"machines": {
    "m1": {"role": "dev", "logins": ["bot-m1"]},
    "m4": {"role": "review", "logins": ["bot-m4"]},
    "m5": {"role": "review", "logins": ["bot-m5"]}}}}"#;

const LABELS: [&str; 9] = [
    "state:dev", "state:ready-for-review", "state:reviewing", "state:changes-requested", "state:win-verify",
    "state:ready-to-merge", "reviewer:m4", "reviewer:m5", "prio:high",
];

/// A pull request opened ready for review by machine `from`, `minutes` after 10:00.
fn pull(number: u64, from: &str, minutes: u32, extra: Value) -> Value {
    let mut pr = json!({
        "number": number, "author": format!("bot-{from}"), "createdAt": format!("2026-01-01T10:{minutes:02}:00Z"),
        "headSha": "sha0", "labels": [format!("from:{from}")], "files": ["src/main.rs"],
    });
    for (k, v) in extra.as_object().unwrap() {
        pr[k] = v.clone();
    }
    pr
}

fn facts(pulls: Vec<Value>) -> String {
    let mut labels: Vec<String> = LABELS.iter().map(|s| s.to_string()).collect();
    labels.extend(["from:m1", "from:m4"].map(String::from));
    json!({ "now": "2026-01-02T10:00:00Z", "labels": labels, "pullRequests": pulls }).to_string()
}

fn parse(out: Result<String, JsValue>) -> Value {
    serde_json::from_str(&out.unwrap_or_else(|e| panic!("the export threw: {e:?}"))).expect("the export returns JSON")
}

fn error_message(err: JsValue) -> String {
    let err: js_sys::Error = err.dyn_into().expect("a JS Error, not a panic or a string");
    err.message().into()
}

/// The label names an answer's ops add (or remove) on pull request `number`.
fn labels(out: &Value, number: u64, key: &str) -> Vec<String> {
    out["ops"].as_array().unwrap().iter().filter(|o| o["op"] == "editLabels" && o["number"] == number).flat_map(|o| o[key].as_array().unwrap().iter().map(|c| c["label"].as_str().unwrap().to_string())).collect()
}

fn statuses(out: &Value) -> Vec<(String, String)> {
    out["ops"].as_array().unwrap().iter().filter(|o| o["op"] == "setStatus").map(|o| (o["sha"].as_str().unwrap().to_string(), o["state"].as_str().unwrap().to_string())).collect()
}

#[wasm_bindgen_test]
fn claim_takes_the_oldest_waiting_pull_request_not_its_own_machines() {
    // Rule: a review station claims the oldest ready-for-review pull request, never one its own machine opened.
    let input = facts(vec![pull(1, "m4", 0, json!({})), pull(2, "m1", 5, json!({})), pull(3, "m1", 9, json!({}))]);
    let out = parse(wasm::stations_claim(&input, CONFIG, "review", "m4"));
    assert_eq!(out["line"], "claim #2");
    assert_eq!(out["number"], 2);
    assert!(labels(&out, 2, "add").contains(&"reviewer:m4".to_string()), "{out}");
}

#[wasm_bindgen_test]
fn claim_race_keeps_the_smallest_reviewer_label_and_the_loser_withdraws() {
    // Rule: labels have no compare-and-swap; after the settle time the lexicographically smallest reviewer:* keeps it.
    let read_back = r#"["from:m1", "state:reviewing", "reviewer:m4", "reviewer:m5"]"#;
    let loser = parse(wasm::stations_resolve_claim_race(read_back, "m5", 7, CONFIG));
    assert_eq!(loser["won"], false);
    assert_eq!(loser["winner"], "reviewer:m4");
    assert!(loser["line"].as_str().unwrap().starts_with("lost #7"), "{loser}");
    assert_eq!(labels(&loser, 7, "remove"), vec!["reviewer:m5".to_string()]);
    let winner = parse(wasm::stations_resolve_claim_race(read_back, "m4", 7, CONFIG));
    assert_eq!(winner["won"], true);
    assert_eq!(winner["line"], "claim #7");
    assert!(!labels(&winner, 7, "remove").contains(&"reviewer:m4".to_string()), "{winner}");
}

#[wasm_bindgen_test]
fn gate_classify_passes_a_docs_only_change_without_the_machine() {
    // Rule: every changed path matches the docs-only globs -> the gate's success status at once, need = false.
    let approved = json!({ "files": ["docs/guide.md", "README.md"], "labels": ["from:m1", "state:win-verify"],
        "reviews": [{ "author": "alice", "state": "APPROVED", "commit": "sha0", "submittedAt": "2026-01-01T11:00:00Z", "authorCanWrite": true }] });
    let out = parse(wasm::stations_gate_classify(&facts(vec![pull(1, "m1", 0, approved)]), CONFIG, 1));
    assert_eq!(out["run"], true);
    assert_eq!(out["need"], false);
    assert_eq!(statuses(&out), vec![("sha0".to_string(), "success".to_string())]);
    assert!(out["ops"].as_array().unwrap().iter().any(|o| o["context"] == "win-verify"), "{out}");
}

#[wasm_bindgen_test]
fn gate_report_after_the_head_moved_records_on_the_tested_commit_only() {
    // Rule: the head moved during validation -> the status goes on the tested commit, no label changes.
    let moved = json!({ "headSha": "sha1", "labels": ["from:m1", "state:reviewing", "reviewer:m4"],
        "reviews": [{ "author": "alice", "state": "APPROVED", "commit": "sha0", "submittedAt": "2026-01-01T11:00:00Z", "authorCanWrite": true }] });
    let out = parse(wasm::stations_gate_report(&facts(vec![pull(1, "m1", 0, moved)]), CONFIG, 1, "sha0", "success"));
    assert_eq!(statuses(&out), vec![("sha0".to_string(), "success".to_string())]);
    assert!(out["ops"].as_array().unwrap().iter().all(|o| o["op"] == "setStatus"), "no label edit: {out}");
}

#[wasm_bindgen_test]
fn bad_input_throws_an_error_naming_the_path() {
    // Rule: bad input is a thrown Error that says where, for every stations export.
    let bad_facts = r#"{"now": "2026-01-02T10:00:00Z", "pullRequests": [{"number": "one"}]}"#;
    let cases: Vec<(&str, Result<String, JsValue>, &str)> = vec![
        ("claim, bad facts", wasm::stations_claim(bad_facts, CONFIG, "review", "m4"), "$.pullRequests[0].number"),
        ("gate classify, bad facts", wasm::stations_gate_classify(bad_facts, CONFIG, 1), "$.pullRequests[0].number"),
        ("gate report, bad facts", wasm::stations_gate_report(bad_facts, CONFIG, 1, "sha0", "success"), "$.pullRequests[0].number"),
        ("claim, bad config", wasm::stations_claim(&facts(vec![]), r#"{"flow": "stations", "stations": {"reviewWip": 0}}"#, "review", "m4"), "$.stations.reviewWip"),
        ("race, labels not a list", wasm::stations_resolve_claim_race(r#"{"a": 1}"#, "m4", 1, CONFIG), "labels"),
    ];
    for (what, result, path) in cases {
        let message = error_message(result.expect_err(what));
        assert!(message.contains(path), "{what}: {message:?} should name {path}");
    }
}

#[wasm_bindgen_test]
fn the_ai_first_pass_answers_a_comment_review_and_changes_only_when_blocking() {
    let bounce = parse(wasm::stations_review(7, "sha7", "BLOCKING: no test\nadd one"));
    assert_eq!(bounce["blocking"], json!(true));
    let ops: Vec<(Value, Value)> = bounce["ops"].as_array().unwrap().iter().map(|o| (o["op"].clone(), o["guard"]["head"].clone())).collect();
    assert_eq!(ops, [(json!("postReview"), json!("sha7")), (json!("comment"), json!("sha7"))]);
    let pass = parse(wasm::stations_review(7, "sha7", "fine\nBLOCKING later"));
    assert_eq!((pass["blocking"].clone(), pass["ops"].as_array().unwrap().len()), (json!(false), 1));
}
