//! The Wasm boundary, and the only file that knows JavaScript exists: values in through
//! serde-wasm-bindgen, plans out as plain objects, every error a thrown JS `Error` that says where.

use serde::Serialize;
use wasm_bindgen::prelude::*;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| error(&format!("prflow: could not return the result: {e}")))
}

/// A JSON value from a JS value; a string is taken as JSON text, which is the fast path for big facts.
fn from_js(what: &str, value: JsValue) -> Result<serde_json::Value, JsValue> {
    if let Some(text) = value.as_string() {
        return serde_json::from_str(&text).map_err(|e| error(&format!("{what}: not valid JSON: {e}")));
    }
    if value.is_undefined() || value.is_null() {
        return Ok(serde_json::Value::Object(Default::default()));
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| error(&format!("{what}: {e}")))
}

/// A typed value from a JS value, its errors naming the JSON path under `what`.
fn typed<T: serde::de::DeserializeOwned>(what: &str, value: JsValue) -> Result<T, JsValue> {
    crate::json_path::from_value(&from_js(what, value)?).map_err(|e| error(&format!("{what} {}: {}", e.path, e.message)))
}

fn error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

/// The engine's version (the crate version).
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}

/// The plan for a facts snapshot under a config. A bad config yields a plan with `configErrors` and no
/// operations; bad facts throw an `Error` naming the JSON path.
#[wasm_bindgen]
pub fn reconcile(facts: JsValue, config: JsValue) -> Result<JsValue, JsValue> {
    // Objects go through JSON text, so one deserializer serves both entry points (size of the Wasm).
    if !facts.is_object() && facts.as_string().is_none() {
        return Err(error("facts: expected an object or JSON text"));
    }
    let facts = match facts.as_string() {
        Some(text) => text,
        None => js_sys::JSON::stringify(&facts).map(String::from).map_err(|_| error("facts: not serializable to JSON"))?,
    };
    let config = from_js("config", config)?;
    let plan = crate::reconcile_text(&facts, config).map_err(|e| error(&e.to_string()))?;
    to_js(&plan)
}

/// The same, JSON text in and out: no object conversion on either side of the boundary.
#[wasm_bindgen(js_name = reconcileJson)]
pub fn reconcile_json(facts: &str, config: &str) -> Result<String, JsValue> {
    let config = serde_json::from_str(config).map_err(|e| error(&format!("config: not valid JSON: {e}")))?;
    let plan = crate::reconcile_text(facts, config).map_err(|e| error(&e.to_string()))?;
    serde_json::to_string(&plan).map_err(|e| error(&e.to_string()))
}

/// The follow-up sweep, JSON text in and out: comments, claim releases, the board, and `stopTheLine`.
#[wasm_bindgen(js_name = sweepJson)]
pub fn sweep_json(facts: &str, config: &str) -> Result<String, JsValue> {
    let config = serde_json::from_str(config).map_err(|e| error(&format!("config: not valid JSON: {e}")))?;
    let plan = crate::followup::sweep_text(facts, config).map_err(|e| error(&e.to_string()))?;
    serde_json::to_string(&plan).map_err(|e| error(&e.to_string()))
}

/// The follow-up section with its defaults filled in (the board label to read, the effective levels),
/// or the config's errors. JSON text in and out, like the sweep: one serializer for all these types.
#[wasm_bindgen(js_name = followupSettingsJson)]
pub fn followup_settings_json(config: &str) -> Result<String, JsValue> {
    let config = serde_json::from_str(config).map_err(|e| error(&format!("config: not valid JSON: {e}")))?;
    serde_json::to_string(&crate::followup::followup_settings(config)).map_err(|e| error(&e.to_string()))
}

/// The rollup of a head commit's checks against the required contexts.
#[wasm_bindgen(js_name = checkRollup)]
pub fn check_rollup(checks: JsValue, required_contexts: JsValue) -> Result<JsValue, JsValue> {
    let checks: Vec<crate::facts::Check> = typed("checks", checks)?;
    let required: Vec<String> = if required_contexts.is_undefined() || required_contexts.is_null() {
        Vec::new()
    } else {
        typed("requiredContexts", required_contexts)?
    };
    to_js(&crate::check_rollup(&checks, &required))
}

/// The JSON Schema of `.github/prflow.json`.
#[wasm_bindgen(js_name = configSchema)]
pub fn config_schema() -> Result<JsValue, JsValue> {
    // Generated natively by scripts/build.sh and embedded, so schemars' code stays out of the Wasm.
    let schema: serde_json::Value = serde_json::from_str(include_str!("../schema/config.schema.json")).map_err(|e| error(&e.to_string()))?;
    to_js(&schema)
}

/// Validates a config: the list of problems, empty when it is good.
#[wasm_bindgen(js_name = validateConfig)]
pub fn validate_config(config: JsValue) -> Result<JsValue, JsValue> {
    let errors = match crate::Config::from_value(from_js("config", config)?) {
        Ok(_) => Vec::new(),
        Err(errors) => errors,
    };
    to_js(&errors)
}

/// The labels a config uses, with colour and description, for `prflow labels`: `{ configErrors, labels, ownerMark }`.
#[wasm_bindgen(js_name = labelCatalog)]
pub fn label_catalog(config: JsValue) -> Result<JsValue, JsValue> {
    to_js(&crate::catalog::catalog_value(from_js("config", config)?))
}

// The stations exports take and return JSON text, like reconcileJson: one facts deserializer and one
// serializer in the Wasm, no object conversion on either side of the boundary.
fn json_config(config: &str) -> Result<serde_json::Value, JsValue> {
    if config.trim().is_empty() {
        return Ok(serde_json::Value::Object(Default::default()));
    }
    serde_json::from_str(config).map_err(|e| error(&format!("config: not valid JSON: {e}")))
}

fn json_out<T: Serialize>(value: Result<T, String>) -> Result<String, JsValue> {
    serde_json::to_string(&value.map_err(|e| error(&e))?).map_err(|e| error(&e.to_string()))
}

/// The stations flow's `prflow claim <role> <machine>`: `{ line, role, number, ops, why, settleSeconds, warnings }`.
#[wasm_bindgen(js_name = claimJson)]
pub fn stations_claim(facts: &str, config: &str, role: &str, machine: &str) -> Result<String, JsValue> {
    json_out(crate::stations::claim_values(facts, json_config(config)?, role, machine))
}

/// After the settle time: does `machine` keep pull request `number`, given the labels read back (JSON text).
#[wasm_bindgen(js_name = resolveClaimRaceJson)]
pub fn stations_resolve_claim_race(labels: &str, machine: &str, number: u32, config: &str) -> Result<String, JsValue> {
    let labels: Vec<String> = serde_json::from_str(labels).map_err(|e| error(&format!("labels: expected a list of label names: {e}")))?;
    json_out(crate::stations::resolve_claim_race_values(labels, machine, number.into(), json_config(config)?))
}

/// `resolveClaimRaceJson`, told the claimer's window in milliseconds (its facts read to its claim write
/// acknowledged): a window not shorter than the settle withdraws the claim.
#[wasm_bindgen(js_name = resolveClaimRaceTimedJson)]
pub fn stations_resolve_claim_race_timed(labels: &str, machine: &str, number: u32, config: &str, took_ms: f64) -> Result<String, JsValue> {
    let labels: Vec<String> = serde_json::from_str(labels).map_err(|e| error(&format!("labels: expected a list of label names: {e}")))?;
    if !(took_ms.is_finite() && took_ms >= 0.0) {
        return Err(error(&format!("tookMs: expected milliseconds, found {took_ms}")));
    }
    json_out(crate::stations::resolve_claim_race_timed_values(labels, machine, number.into(), json_config(config)?, Some(took_ms.ceil() as u64)))
}

/// The gate's classify step for one pull request: `{ run, need, sha, ops, why, warnings }`.
#[wasm_bindgen(js_name = gateClassifyJson)]
pub fn stations_gate_classify(facts: &str, config: &str, number: u32) -> Result<String, JsValue> {
    json_out(crate::stations::gate_classify_values(facts, json_config(config)?, number.into()))
}

/// The gate's report step: the validation machine's `result` for `testedSha`.
#[wasm_bindgen(js_name = gateReportJson)]
pub fn stations_gate_report(facts: &str, config: &str, number: u32, tested_sha: &str, result: &str) -> Result<String, JsValue> {
    json_out(crate::stations::gate_report_values(facts, json_config(config)?, number.into(), tested_sha, result))
}

/// `codeOwners(codeownersText, path)`: the owners of that path (the last matching rule's), empty when unowned.
#[wasm_bindgen(js_name = codeOwners)]
pub fn code_owners(codeowners: &str, path: &str) -> Vec<String> {
    crate::queue::codeowners::code_owners(codeowners, path)
}

/// `parseTrailers(body)`: `{ mergeAfter, startAfter }`, the numbers each trailer names outside fenced code.
#[wasm_bindgen(js_name = parseTrailers)]
pub fn parse_trailers(body: &str) -> Result<JsValue, JsValue> {
    to_js(&crate::queue::declare::parse_trailers(body))
}

/// The merge queue's decisions by name (`triage`, `watchStep`, `claimPr`, `unownedIssues`, `autoFix`,
/// ...), JSON text in and out; js/core.js gives each its own JS name. Bad input throws, naming the path.
#[wasm_bindgen(js_name = queueCallJson)]
pub fn queue_call_json(name: &str, input: &str) -> Result<String, JsValue> {
    let input = serde_json::from_str(input).map_err(|e| error(&format!("{name}: input is not valid JSON: {e}")))?;
    let out = crate::queue::call(name, input).map_err(|e| error(&format!("{name}: {e}")))?;
    serde_json::to_string(&out).map_err(|e| error(&e.to_string()))
}

/// What the dashboard page draws: one row per open pull request (reconcile's state and why, the
/// sweep's time in state, owner and claimers, the queue's triage), JSON text in and out.
#[wasm_bindgen(js_name = dashboardJson)]
pub fn dashboard_json(facts: &str, config: &str) -> Result<String, JsValue> {
    let view = crate::dashboard::dashboard_text(facts, json_config(config)?).map_err(|e| error(&e.to_string()));
    serde_json::to_string(&view?).map_err(|e| error(&e.to_string()))
}

/// The simulations (`review`, `queue`), JSON text in and out; a bad parameter throws, naming its path.
#[wasm_bindgen(js_name = simJson)]
pub fn sim_json(kind: &str, input: &str) -> Result<String, JsValue> {
    crate::sim::run_json(kind, input).map_err(|e| error(&format!("sim {kind}: {e}")))
}

/// A fresh seed for a simulation run given none, from the host's crypto: the one random thing, kept
/// out of the engine's decisions, which take the seed as an input.
#[wasm_bindgen(js_name = drawSeed)]
pub fn draw_seed() -> Result<u32, JsValue> {
    getrandom::u32().map_err(|e| error(&format!("drawSeed: no randomness from the host: {e}")))
}
