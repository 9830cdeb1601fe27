//! The simulations inside Wasm: the engine's `simReview` / `simQueue` give a pinned fixture's report to the last digit (our own
//! ln/exp, never the platform's), a bad parameter throws an `Error` naming its path, and `drawSeed`
//! draws from the host.
#![cfg(target_arch = "wasm32")]

use prflow::wasm::{self, Engine};

fn sim(kind: &str, input: &str) -> Result<String, JsValue> {
    let name = if kind == "review" { "simReview" } else { "simQueue" };
    Engine::new(None).call(name, input)
}
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn fixture_roundtrip(text: &str) {
    let f: serde_json::Value = serde_json::from_str(text).expect("fixture JSON");
    let out = sim(f["kind"].as_str().unwrap(), &f["input"].to_string()).expect("runs");
    let out: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(out, f["expect"]);
}

#[wasm_bindgen_test]
fn review_fixture_is_the_native_answer() {
    fixture_roundtrip(include_str!("fixtures/sim/review-small-seed7.json"));
}

#[wasm_bindgen_test]
fn queue_fixture_is_the_native_answer() {
    fixture_roundtrip(include_str!("fixtures/sim/queue-busy-seed99.json"));
}

#[wasm_bindgen_test]
fn a_bad_parameter_throws_an_error_naming_it() {
    let e = sim("review", r#"{"seed": 1, "stations": 0}"#).unwrap_err();
    let e: js_sys::Error = e.dyn_into().expect("an Error");
    assert_eq!(
        String::from(e.message()),
        "simReview $.stations: expected from 1 to 50, found 0"
    );
    let e: JsValue = sim("review", r#"{"stations": 2}"#).unwrap_err();
    assert!(String::from(e.dyn_into::<js_sys::Error>().unwrap().message()).contains("$.seed: missing"));
}

#[wasm_bindgen_test]
fn draw_seed_draws() {
    let seeds: Vec<u32> = (0..4)
        .map(|_| wasm::draw_seed().expect("the host has crypto"))
        .collect();
    assert!(seeds.windows(2).any(|w| w[0] != w[1]), "{seeds:?}");
}
