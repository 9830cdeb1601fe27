//! The dashboard export tested inside Wasm, as the page calls it: JSON text in and out, the same view
//! the native function gives, a bad config as `configErrors`, bad facts as a thrown `Error` naming the path.
#![cfg(target_arch = "wasm32")]

use prflow::wasm;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

fn facts() -> String {
    json!({"repository": "o/r", "now": "2026-11-30T12:00:00Z", "viewer": "prflow", "defaultBranch": "main", "pullRequests": [
        {"number": 2, "title": "b", "author": "dev", "baseRef": "main", "headRef": "b", "labels": ["merge-queued"]},
        {"number": 1, "title": "a", "author": "dev", "baseRef": "main", "headRef": "a", "isDraft": true}]})
    .to_string()
}

#[wasm_bindgen_test]
fn the_view_is_the_native_one() {
    // (rule, config): the Wasm answer must equal the native function's on the same input.
    let cases = [("the preset", json!({})), ("the stations flow", json!({"flow": "stations"})), ("a bad config", json!({"nope": true}))];
    for (rule, config) in cases {
        let got: Value = serde_json::from_str(&wasm::dashboard_json(&facts(), &config.to_string()).unwrap()).unwrap();
        let want = serde_json::to_value(prflow::dashboard::dashboard_text(&facts(), config).unwrap()).unwrap();
        assert_eq!(got, want, "{rule}");
    }
}

#[wasm_bindgen_test]
fn bad_facts_throw_an_error_naming_the_path() {
    let err = wasm::dashboard_json(r#"{"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": "one"}]}"#, "{}").unwrap_err();
    let err: js_sys::Error = err.dyn_into().expect("a JS Error, not a panic");
    let message = String::from(err.message());
    assert!(message.contains("$.pullRequests[0].number"), "{message}");
}
