//! The merge queue's exports tested inside Wasm: codeOwners, parseTrailers and the queue's JSON entry
//! (triage, watchStep) as JS calls them, and bad input as a thrown `Error` naming the path.
#![cfg(target_arch = "wasm32")]

use prflow::wasm;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn get(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(key)).expect("property")
}

#[wasm_bindgen_test]
fn code_owners_last_match_wins_and_unowned_is_empty() {
    assert_eq!(wasm::code_owners("* @a\n*.rs @b\n", "src/x.rs"), vec!["@b".to_string()]);
    assert!(wasm::code_owners("* @a\n/gen/\n", "gen/x.rs").is_empty());
}

#[wasm_bindgen_test]
fn parse_trailers_returns_numbers() {
    let t = wasm::parse_trailers("Merge-After: #1901, #1903\n```\nMerge-After: #5\n```").unwrap();
    let after: js_sys::Array = get(&t, "mergeAfter").dyn_into().unwrap();
    assert_eq!(after.length(), 2);
    assert_eq!(after.get(0).as_f64(), Some(1901.0));
}

#[wasm_bindgen_test]
fn triage_through_the_json_entry() {
    let input = r#"{"facts": {"now": "2026-11-30T12:00:00Z", "pullRequests": [
        {"number": 1, "labels": ["merge-queued", "skip-ci"], "baseRef": "main", "headRef": "a", "mergeStateStatus": "BLOCKED"},
        {"number": 2, "labels": ["merge-queued"], "baseRef": "main", "headRef": "b", "body": "Merge-After: #1", "mergeStateStatus": "BEHIND"}]}}"#;
    let out: serde_json::Value = serde_json::from_str(&wasm::queue_call_json("triage", input).unwrap()).unwrap();
    assert_eq!(out["order"], serde_json::json!([1]));
    assert_eq!(out["entries"][1]["reason"], "waiting-merge-after");
}

#[wasm_bindgen_test]
fn bad_facts_throw_an_error_naming_the_path() {
    let err = wasm::queue_call_json("triage", r#"{"facts": {"now": "x", "pullRequests": [{"number": "one"}]}}"#).unwrap_err();
    let err: js_sys::Error = err.dyn_into().expect("a JS Error, not a panic");
    let message: String = err.message().into();
    assert!(message.contains("$.pullRequests[0].number"), "{message}");
}
