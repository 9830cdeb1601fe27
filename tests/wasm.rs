//! The Wasm boundary tested inside Wasm (wasm-bindgen-test on Node 24): values as JS passes them,
//! errors as thrown JS `Error`s that name the field, never a panic.
#![cfg(target_arch = "wasm32")]

use prflow::wasm;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("test JSON parses")
}

fn get(value: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(value.clone(), |v, key| js_sys::Reflect::get(&v, &JsValue::from_str(key)).expect("property"))
}

fn at(value: &JsValue, index: u32) -> JsValue {
    js_sys::Reflect::get_u32(value, index).expect("index")
}

fn len(value: &JsValue) -> u32 {
    value.clone().dyn_into::<js_sys::Array>().expect("an array").length()
}

fn text(value: &JsValue) -> Option<String> {
    value.as_string()
}

fn error_message(err: JsValue) -> String {
    let err: js_sys::Error = err.dyn_into().expect("a JS Error, not a panic or a string");
    err.message().into()
}

const FACTS: &str = r#"{
  "now": "2026-11-30T12:00:00Z",
  "labels": ["state:draft", "state:bots-reviewing", "state:addressing", "state:needs-human",
             "blocker:conflict", "blocker:checks", "blocker:unrequested", "merge-next", "stale"],
  "pullRequests": [{
    "number": 7, "author": "agent", "headSha": "c0ffee1234", "mergeable": "MERGEABLE",
    "createdAt": "2026-11-30T10:00:00Z", "labels": ["state:addressing"],
    "reviews": [
      {"author": "bot-a", "state": "APPROVED", "commit": "c0ffee1234", "submittedAt": "2026-11-30T11:00:00Z"},
      {"author": "bot-b", "state": "APPROVED", "commit": "c0ffee1234", "submittedAt": "2026-11-30T11:01:00Z"}
    ],
    "checks": [{"name": "test", "workflow": "ci", "status": "COMPLETED", "conclusion": "SUCCESS"}]
  }]
}"#;
const CONFIG: &str = r#"{"botPanel": {"bots": ["bot-a", "bot-b"], "humans": ["maintainer"]}}"#;

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    assert_eq!(wasm::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn reconcile_takes_objects_and_returns_a_plain_plan() {
    let plan = wasm::reconcile(js(FACTS), js(CONFIG)).expect("plan");
    assert_eq!(len(&get(&plan, &["pulls"])), 1);
    let ops = get(&plan, &["ops"]);
    assert_eq!(len(&ops), 2, "one label edit and one review request");
    assert_eq!(text(&get(&at(&ops, 0), &["op"])).as_deref(), Some("editLabels"));
    assert_eq!(text(&get(&at(&get(&at(&ops, 0), &["add"]), 0), &["label"])).as_deref(), Some("state:needs-human"));
    assert_eq!(text(&get(&at(&ops, 1), &["op"])).as_deref(), Some("requestReviewers"));
    assert_eq!(text(&at(&get(&at(&ops, 1), &["reviewers"]), 0)).as_deref(), Some("maintainer"));
}

#[wasm_bindgen_test]
fn json_text_path_gives_the_same_plan_as_objects() {
    let from_objects = js_sys::JSON::stringify(&wasm::reconcile(js(FACTS), js(CONFIG)).unwrap()).unwrap();
    let from_text = wasm::reconcile_json(FACTS, CONFIG).unwrap();
    assert_eq!(String::from(from_objects), from_text);
}

#[wasm_bindgen_test]
fn bad_config_is_a_plan_with_errors_and_no_ops() {
    let plan = wasm::reconcile(js(FACTS), js(r#"{"botPanel": {"bots": "bot-a"}}"#)).expect("a plan, not an error");
    assert_eq!(len(&get(&plan, &["ops"])), 0);
    let err = at(&get(&plan, &["configErrors"]), 0);
    assert_eq!(text(&get(&err, &["path"])).as_deref(), Some("$.botPanel.bots"));
    assert_eq!(text(&get(&err, &["expected"])).as_deref(), Some("a sequence"));
}

#[wasm_bindgen_test]
fn bad_facts_throw_an_error_naming_the_path() {
    let message = error_message(wasm::reconcile(js(r#"{"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": "seven"}]}"#), js("{}")).unwrap_err());
    assert!(message.contains("$.pullRequests[0].number"), "{message}");
    let message = error_message(wasm::reconcile(js(r#"{"now": "yesterday"}"#), js("{}")).unwrap_err());
    assert!(message.contains("$.now"), "{message}");
    let message = error_message(wasm::reconcile_json("{not json", "{}").unwrap_err());
    assert!(message.starts_with("facts: not valid JSON"), "{message}");
}

#[wasm_bindgen_test]
fn check_rollup_collapses_reruns_at_the_boundary() {
    let checks = js(r#"[
      {"name": "scope", "workflow": "labels", "status": "COMPLETED", "conclusion": "CANCELLED", "startedAt": "2026-11-30T10:00:00Z"},
      {"name": "scope", "workflow": "labels", "status": "COMPLETED", "conclusion": "SUCCESS", "startedAt": "2026-11-30T10:05:00Z"}
    ]"#);
    let rollup = wasm::check_rollup(checks, js(r#"["test"]"#)).unwrap();
    assert_eq!(text(&get(&rollup, &["state"])).as_deref(), Some("pending"), "required `test` has no run yet");
    assert_eq!(len(&get(&rollup, &["failing"])), 0, "the superseded CANCELLED run must not block");
    let message = error_message(wasm::check_rollup(js(r#"[{"name": 3}]"#), JsValue::UNDEFINED).unwrap_err());
    assert!(message.contains("$[0].name"), "{message}");
}

#[wasm_bindgen_test]
fn config_schema_and_validation() {
    let schema = wasm::config_schema().unwrap();
    assert_eq!(text(&get(&schema, &["title"])).as_deref(), Some("Config"));
    let errors = wasm::validate_config(js(r#"{"stale": {"days": -1}}"#)).unwrap();
    assert_eq!(text(&get(&at(&errors, 0), &["path"])).as_deref(), Some("$.stale.days"));
    assert_eq!(len(&wasm::validate_config(js("{}")).unwrap()), 0);
}
