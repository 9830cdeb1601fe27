//! The Wasm boundary, and the only file that knows JavaScript exists: one `Engine` class built from the
//! config text, with one `call(name, input)` entry (src/api.rs holds the decisions): JSON text in and
//! out, read and written by serde_json as natively, so an answer and an error are the native ones word
//! for word. Every error is a thrown JS `Error` that names the decision and the JSON path, never a panic.
//!
//! Not JS objects through serde-wasm-bindgen: it reads a struct by its known fields only, so an unknown
//! key (`titel`) passed unrefused where `deny_unknown_fields` refuses it, and its reading of a board of
//! 10,000 pull requests took about three times JSON.parse's (docs/performance.md).

use wasm_bindgen::prelude::*;

/// Any error the host sees, as a JS `Error` with its message.
fn error(message: impl std::fmt::Display) -> JsValue {
    js_sys::Error::new(&message.to_string()).into()
}

/// The engine's version (the crate version).
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}

/// The decision engine under one config, validated once when it is built.
#[wasm_bindgen]
pub struct Engine(crate::Engine);

#[wasm_bindgen]
impl Engine {
    /// `new Engine(configText)`; `new Engine()` (no config file) is the preset. A bad config never
    /// throws: every decision that needs it answers with its errors.
    #[wasm_bindgen(constructor)]
    pub fn new(config_text: Option<String>) -> Engine {
        Engine(match config_text {
            Some(text) => crate::Engine::new(&text),
            None => crate::Engine::preset(),
        })
    }

    /// Every decision's name, so the JS core binds one method per decision without a list of its own.
    pub fn names() -> Vec<String> {
        crate::api::names().iter().map(|n| n.to_string()).collect()
    }

    /// The config's problems as JSON text (`[{ path, expected, found }]`), empty when it is valid.
    #[wasm_bindgen(js_name = configErrors)]
    pub fn config_errors(&self) -> Result<String, JsValue> {
        serde_json::to_string(self.0.config_errors()).map_err(error)
    }

    /// One decision by name, JSON text in and out.
    pub fn call(&self, name: &str, input: &str) -> Result<String, JsValue> {
        self.0.call(name, input).map_err(error)
    }
}

/// A fresh seed for a simulation run given none, from the host's crypto: the one random thing, kept
/// out of the engine's decisions, which take the seed as an input.
#[wasm_bindgen(js_name = drawSeed)]
pub fn draw_seed() -> Result<u32, JsValue> {
    getrandom::u32().map_err(|e| error(format!("drawSeed: no randomness from the host: {e}")))
}
