//! The Wasm boundary tested inside Wasm (wasm-bindgen-test on Node 24), as js/core.js calls it: one
//! `Engine` built from the config text, one `call(name, input)` with JSON text. A bad config is an answer, never
//! a throw; bad input is a thrown JS `Error` that names the decision and the JSON path, never a panic.
//! Each decision family has its rule here once: the corpora replay every case through Wasm as well.
#![cfg(target_arch = "wasm32")]

use prflow::wasm::{version, Engine};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const BOT_PANEL: &str = r#"{"botPanel": {"bots": ["bot-a", "bot-b"], "humans": ["maintainer"]}}"#;
const STATIONS: &str = r#"{"flow": "stations", "stations": {"machines": {
    "m1": {"role": "dev", "logins": ["bot-m1"]},
    "m4": {"role": "review", "logins": ["bot-m4"]},
    "m5": {"role": "review", "logins": ["bot-m5"]}}}}"#;

fn engine(config: &str) -> Engine {
    Engine::new(Some(config.to_string()))
}

/// A decision asked as js/core.js asks it: JSON text in and out.
fn call(engine: &Engine, name: &str, input: &str) -> Result<Value, JsValue> {
    Ok(serde_json::from_str(&engine.call(name, input)?).expect("the answer is JSON"))
}

fn ask(config: &str, name: &str, input: Value) -> Value {
    call(&engine(config), name, &input.to_string()).unwrap_or_else(|e| panic!("{name} threw: {:?}", message(e)))
}

fn config_errors(engine: &Engine) -> Value {
    serde_json::from_str(&engine.config_errors().unwrap()).unwrap()
}

fn message(err: JsValue) -> String {
    let err: js_sys::Error = err.dyn_into().expect("a JS Error, not a panic or a string");
    err.message().into()
}

fn thrown(config: &str, name: &str, input: &str) -> String {
    message(call(&engine(config), name, input).expect_err("a thrown Error"))
}

fn bot_panel_facts() -> Value {
    json!({
      "now": "2026-11-30T12:00:00Z",
      "labels": ["state:draft", "state:bots-reviewing", "state:addressing", "state:needs-human", "blocker:conflict", "blocker:checks", "blocker:unrequested", "merge-next", "stale"],
      "pullRequests": [{
        "number": 7, "author": "agent", "headSha": "c0ffee1234", "mergeable": "MERGEABLE", "createdAt": "2026-11-30T10:00:00Z", "labels": ["state:addressing"],
        "reviews": [
          {"author": "bot-a", "state": "APPROVED", "commit": "c0ffee1234", "submittedAt": "2026-11-30T11:00:00Z"},
          {"author": "bot-b", "state": "APPROVED", "commit": "c0ffee1234", "submittedAt": "2026-11-30T11:01:00Z"}],
        "checks": [{"name": "test", "workflow": "ci", "status": "COMPLETED", "conclusion": "SUCCESS"}]
      }]
    })
}

/// A stations pull request opened ready for review by machine `from`, `minutes` after 10:00.
fn pull(number: u64, from: &str, minutes: u32, extra: Value) -> Value {
    let mut pr = json!({ "number": number, "author": format!("bot-{from}"), "createdAt": format!("2026-01-01T10:{minutes:02}:00Z"), "headSha": "sha0", "labels": [format!("from:{from}")], "files": ["src/main.rs"] });
    for (k, v) in extra.as_object().unwrap() {
        pr[k] = v.clone();
    }
    pr
}

fn stations_facts(pulls: Vec<Value>) -> Value {
    let labels = [
        "state:dev",
        "state:ready-for-review",
        "state:reviewing",
        "state:changes-requested",
        "state:win-verify",
        "state:ready-to-merge",
        "reviewer:m4",
        "reviewer:m5",
        "prio:high",
        "from:m1",
        "from:m4",
    ];
    json!({ "now": "2026-01-02T10:00:00Z", "labels": labels, "pullRequests": pulls })
}

/// The label names an answer's ops add (or remove) on pull request `number`.
fn labels(out: &Value, number: u64, key: &str) -> Vec<String> {
    out["ops"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["op"] == "editLabels" && o["number"] == number)
        .flat_map(|o| {
            o[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["label"].as_str().unwrap().to_string())
        })
        .collect()
}

fn statuses(out: &Value) -> Vec<(String, String)> {
    out["ops"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["op"] == "setStatus")
        .map(|o| {
            (
                o["sha"].as_str().unwrap().to_string(),
                o["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    assert_eq!(version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn every_decision_of_the_table_is_callable_by_name() {
    let names = Engine::names();
    assert_eq!(names.len(), prflow::api::names().len());
    for name in [
        "reconcile",
        "sweep",
        "dashboard",
        "triage",
        "claim",
        "watchStep",
        "settle",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} is missing from {names:?}");
    }
    assert!(thrown("{}", "reconcil", "{}").contains("unknown decision \"reconcil\""));
}

#[wasm_bindgen_test]
fn reconcile_answers_a_plain_plan() {
    let plan = ask(BOT_PANEL, "reconcile", json!({ "facts": bot_panel_facts() }));
    assert_eq!(plan["pulls"].as_array().unwrap().len(), 1);
    let ops = plan["ops"].as_array().unwrap();
    assert_eq!(ops.len(), 2, "one label edit and one review request: {plan}");
    assert_eq!(ops[0]["op"], "editLabels");
    assert_eq!(ops[0]["add"][0]["label"], "state:needs-human");
    assert_eq!(ops[1]["op"], "requestReviewers");
    assert_eq!(ops[1]["reviewers"][0], "maintainer");
}

#[wasm_bindgen_test]
fn a_bad_config_is_kept_whole_and_answered_never_thrown() {
    // Three mistakes: all three are kept, with their JSON paths, and every config decision answers with them.
    let bad = r#"{"botPanel": {"bots": "bot-a"}, "colour": "red", "stale": {"days": -1}}"#;
    let errors = config_errors(&engine(bad));
    let mut paths: Vec<&str> = errors
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    paths.sort();
    assert_eq!(paths, ["$.botPanel.bots", "$.colour", "$.stale.days"]);
    let plan = ask(bad, "reconcile", json!({ "facts": bot_panel_facts() }));
    assert_eq!(plan["ops"], json!([]), "no writes under a bad config");
    assert_eq!(plan["configErrors"], errors);
    assert_eq!(
        ask(bad, "triage", json!({ "facts": bot_panel_facts() })),
        json!({ "configErrors": errors })
    );
    assert_eq!(
        ask(
            bad,
            "claim",
            json!({ "facts": stations_facts(vec![]), "role": "review", "machine": "m4" })
        ),
        json!({ "configErrors": errors })
    );
    // Not JSON at all, or not an object: one error at the root.
    assert_eq!(config_errors(&engine("{not json"))[0]["path"], "$");
    assert_eq!(config_errors(&engine("null"))[0]["expected"], "a JSON object");
    assert_eq!(
        config_errors(&Engine::new(None)),
        json!([]),
        "no config file is the preset"
    );
}

#[wasm_bindgen_test]
fn bad_input_throws_an_error_naming_the_decision_and_the_path() {
    let cases = [
        (
            "reconcile",
            r#"{"facts": {"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": "seven"}]}}"#,
            "reconcile $.facts.pullRequests[0].number",
        ),
        (
            "reconcile",
            r#"{"facts": {"now": "yesterday"}}"#,
            "reconcile $.facts.now",
        ),
        ("reconcile", "{not json", "reconcile: the input is not valid JSON"),
        (
            "reconcile",
            r#"{"facts": {"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": 1, "titel": "typo"}]}}"#,
            "reconcile $.facts.pullRequests[0].titel: unknown field `titel`",
        ),
        (
            "dashboard",
            r#"{"facts": {"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": "one"}]}}"#,
            "dashboard $.facts.pullRequests[0].number",
        ),
        (
            "triage",
            r#"{"facts": {"now": "x", "pullRequests": [{"number": "one"}]}}"#,
            "triage $.facts.pullRequests[0].number",
        ),
        (
            "checkRollup",
            r#"{"checks": [{"name": 3}]}"#,
            "checkRollup $.checks[0].name",
        ),
        (
            "resolveClaimRace",
            r#"{"labels": {"a": 1}, "machine": "m4"}"#,
            "resolveClaimRace $.labels",
        ),
        (
            "claim",
            r#"{"facts": {"now": "2026-01-02T10:00:00Z"}, "role": "review", "machine": "m4", "extra": 1}"#,
            "claim $.extra",
        ),
    ];
    for (name, input, want) in cases {
        let got = thrown(STATIONS, name, input);
        assert!(got.starts_with(want), "{name}: {got:?} should start with {want:?}");
    }
}

#[wasm_bindgen_test]
fn dashboard_is_the_native_answer() {
    let facts = json!({"repository": "o/r", "now": "2026-11-30T12:00:00Z", "viewer": "prflow", "defaultBranch": "main", "pullRequests": [
        {"number": 2, "title": "b", "author": "dev", "baseRef": "main", "headRef": "b", "labels": ["merge-queued"]},
        {"number": 1, "title": "a", "author": "dev", "baseRef": "main", "headRef": "a", "isDraft": true}]});
    for config in [r#"{}"#, r#"{"flow": "stations"}"#, r#"{"nope": true}"#] {
        let input = json!({ "facts": facts });
        let native: Value = serde_json::from_str(
            &prflow::Engine::new(config)
                .call("dashboard", &input.to_string())
                .unwrap(),
        )
        .unwrap();
        assert_eq!(ask(config, "dashboard", input), native, "{config}");
    }
}

#[wasm_bindgen_test]
fn check_rollup_collapses_reruns() {
    let checks = json!([
      {"name": "scope", "workflow": "labels", "status": "COMPLETED", "conclusion": "CANCELLED", "startedAt": "2026-11-30T10:00:00Z"},
      {"name": "scope", "workflow": "labels", "status": "COMPLETED", "conclusion": "SUCCESS", "startedAt": "2026-11-30T10:05:00Z"}]);
    let rollup = ask(
        "{}",
        "checkRollup",
        json!({ "checks": checks, "requiredContexts": ["test"] }),
    );
    assert_eq!(rollup["state"], "pending", "required `test` has no run yet");
    assert_eq!(
        rollup["failing"],
        json!([]),
        "the superseded CANCELLED run must not block"
    );
}

#[wasm_bindgen_test]
fn config_schema_and_validation() {
    assert_eq!(ask("{}", "configSchema", json!({}))["title"], "Config");
    assert_eq!(
        ask(r#"{"stale": {"days": -1}}"#, "validateConfig", json!({}))[0]["path"],
        "$.stale.days"
    );
    assert_eq!(ask("{}", "validateConfig", json!({})), json!([]));
}

#[wasm_bindgen_test]
fn claim_takes_the_oldest_waiting_pull_request_not_its_own_machines() {
    let facts = stations_facts(vec![
        pull(1, "m4", 0, json!({})),
        pull(2, "m1", 5, json!({})),
        pull(3, "m1", 9, json!({})),
    ]);
    let out = ask(
        STATIONS,
        "claim",
        json!({ "facts": facts, "role": "review", "machine": "m4" }),
    );
    assert_eq!(out["line"], "claim #2");
    assert!(labels(&out, 2, "add").contains(&"reviewer:m4".to_string()), "{out}");
}

#[wasm_bindgen_test]
fn claim_race_keeps_the_smallest_reviewer_label_and_the_loser_withdraws() {
    let read_back = json!(["from:m1", "state:reviewing", "reviewer:m4", "reviewer:m5"]);
    let loser = ask(
        STATIONS,
        "resolveClaimRace",
        json!({ "labels": read_back, "machine": "m5", "number": 7 }),
    );
    assert_eq!(
        (loser["won"].clone(), loser["winner"].clone()),
        (json!(false), json!("reviewer:m4"))
    );
    assert_eq!(labels(&loser, 7, "remove"), vec!["reviewer:m5".to_string()]);
    let winner = ask(
        STATIONS,
        "resolveClaimRace",
        json!({ "labels": read_back, "machine": "m4", "number": 7 }),
    );
    assert_eq!(
        (winner["won"].clone(), winner["line"].clone()),
        (json!(true), json!("claim #7"))
    );
}

#[wasm_bindgen_test]
fn the_gate_passes_docs_at_once_and_records_a_moved_head_on_the_tested_commit() {
    let approval = json!([{ "author": "alice", "state": "APPROVED", "commit": "sha0", "submittedAt": "2026-01-01T11:00:00Z", "authorAssociation": "MEMBER" }]);
    let docs = pull(
        1,
        "m1",
        0,
        json!({ "files": ["docs/guide.md", "README.md"], "labels": ["from:m1", "state:win-verify"], "reviews": approval }),
    );
    let out = ask(
        STATIONS,
        "gateClassify",
        json!({ "facts": stations_facts(vec![docs]), "number": 1 }),
    );
    assert_eq!((out["run"].clone(), out["need"].clone()), (json!(true), json!(false)));
    assert_eq!(statuses(&out), vec![("sha0".to_string(), "success".to_string())]);
    let moved = pull(
        1,
        "m1",
        0,
        json!({ "headSha": "sha1", "labels": ["from:m1", "state:reviewing", "reviewer:m4"], "reviews": approval }),
    );
    let out = ask(
        STATIONS,
        "gateReport",
        json!({ "facts": stations_facts(vec![moved]), "number": 1, "testedSha": "sha0", "result": "success" }),
    );
    assert_eq!(statuses(&out), vec![("sha0".to_string(), "success".to_string())]);
    assert!(
        out["ops"].as_array().unwrap().iter().all(|o| o["op"] == "setStatus"),
        "no label edit: {out}"
    );
}

#[wasm_bindgen_test]
fn the_queue_reads_bodies_and_codeowners_and_triages() {
    assert_eq!(
        ask(
            "{}",
            "codeOwners",
            json!({ "codeowners": "* @a\n*.rs @b\n", "path": "src/x.rs" })
        ),
        json!(["@b"])
    );
    assert_eq!(
        ask(
            "{}",
            "parseTrailers",
            json!({ "body": "Merge-After: #1901, #1903\n```\nMerge-After: #5\n```" })
        )["mergeAfter"],
        json!([1901, 1903])
    );
    let facts = json!({"now": "2026-11-30T12:00:00Z", "pullRequests": [
        {"number": 1, "labels": ["merge-queued", "skip-ci"], "baseRef": "main", "headRef": "a", "mergeStateStatus": "BLOCKED"},
        {"number": 2, "labels": ["merge-queued"], "baseRef": "main", "headRef": "b", "body": "Merge-After: #1", "mergeStateStatus": "BEHIND"}]});
    let out = ask("{}", "triage", json!({ "facts": facts }));
    assert_eq!(out["order"], json!([1]));
    assert_eq!(out["entries"][1]["reason"], "waiting-merge-after");
}

#[wasm_bindgen_test]
fn the_ai_first_pass_answers_a_comment_review_and_changes_only_when_blocking() {
    let bounce = ask(
        STATIONS,
        "stationReview",
        json!({"number": 7, "head": "sha7", "output": "BLOCKING: no test\nadd one"}),
    );
    assert_eq!(bounce["blocking"], json!(true));
    let ops: Vec<(Value, Value)> = bounce["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["op"].clone(), o["guard"]["head"].clone()))
        .collect();
    assert_eq!(
        ops,
        [(json!("postReview"), json!("sha7")), (json!("comment"), json!("sha7"))]
    );
    let pass = ask(
        STATIONS,
        "stationReview",
        json!({"number": 7, "head": "sha7", "output": "fine\nBLOCKING later"}),
    );
    assert_eq!(
        (pass["blocking"].clone(), pass["ops"].as_array().unwrap().len()),
        (json!(false), 1)
    );
}
