//! The Wasm boundary, and the only file that knows JavaScript exists: one `Engine` class built from the
//! config text, with one `call(name, inputJson)` entry (src/api.rs holds the decisions). Every error is
//! a thrown JS `Error` that names the decision and the JSON path, never a panic.
//!
//! JSON text in and out, not JS objects through serde-wasm-bindgen: measured on big snapshots, text
//! crosses the boundary several times faster, and one deserializer per type keeps the Wasm small.

use wasm_bindgen::prelude::*;

// A request's UTF-8 check: sixteen bytes a step in the Action's and the CLI's build; the pages' builds
// keep std's, for size.
#[cfg(feature = "full")]
use crate::codec::json_in::utf8;
#[cfg(not(feature = "full"))]
use std::str::from_utf8 as utf8;

fn error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

/// The engine's version (the crate version).
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}

/// The Wasm module's memory, for a host that writes a request straight into it (`inputBuffer`).
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The decision engine under one config, validated once when it is built; `input` holds a request the
/// host writes into Wasm memory itself (`inputBuffer`, then `callInput`).
#[wasm_bindgen]
pub struct Engine(crate::Engine, Vec<u8>);

#[wasm_bindgen]
impl Engine {
    /// `new Engine(configText)`; `new Engine()` (no config file) is the preset. A bad config never
    /// throws: every decision that needs it answers with its errors.
    #[wasm_bindgen(constructor)]
    pub fn new(config_text: Option<String>) -> Engine {
        let engine = match config_text {
            Some(text) => crate::Engine::new(&text),
            None => crate::Engine::preset(),
        };
        Engine(engine, Vec::new())
    }

    /// Every decision's name, so the JS core binds one method per decision without a list of its own.
    pub fn names() -> Vec<String> {
        crate::api::names().iter().map(|n| n.to_string()).collect()
    }

    /// The config's problems as JSON text (`[{ path, expected, found }]`), empty when it is valid.
    #[wasm_bindgen(js_name = configErrorsJson)]
    pub fn config_errors_json(&self) -> Result<String, JsValue> {
        serde_json::to_string(self.0.config_errors()).map_err(|e| error(&e.to_string()))
    }

    /// One decision by name, JSON text in and out.
    pub fn call(&self, name: &str, input: &str) -> Result<String, JsValue> {
        self.0.call(name, input).map_err(|e| error(&e))
    }

    /// Room for `len` bytes of the next request, keeping what is already written, and where it starts:
    /// the host writes UTF-8 there with `TextEncoder.encodeInto` and then asks `callInput`. A string
    /// argument is copied by wasm-bindgen's glue a UTF-16 unit at a time in JavaScript, which was 18 of
    /// the 182 ms a board of 10,000 pull requests took.
    #[wasm_bindgen(js_name = inputBuffer)]
    pub fn input_buffer(&mut self, len: usize) -> *mut u8 {
        self.1.resize(len, 0);
        self.1.as_mut_ptr()
    }

    /// `call` on the first `len` bytes written into `inputBuffer` (checked to be UTF-8). The buffer stays
    /// with the engine: taken out, the next request's `inputBuffer` zero-filled a fresh one (18 MB for a
    /// board of 10,000 pull requests) every call.
    #[wasm_bindgen(js_name = callInput)]
    pub fn call_input(&mut self, name: &str, len: usize) -> Result<String, JsValue> {
        let bytes = &self.1[..len.min(self.1.len())];
        let text = utf8(bytes).map_err(|e| error(&format!("{name}: the input is not UTF-8: {e}")))?;
        self.0.call(name, text).map_err(|e| error(&e))
    }
}

/// A fresh seed for a simulation run given none, from the host's crypto: the one random thing, kept
/// out of the engine's decisions, which take the seed as an input.
#[wasm_bindgen(js_name = drawSeed)]
pub fn draw_seed() -> Result<u32, JsValue> {
    getrandom::u32().map_err(|e| error(&format!("drawSeed: no randomness from the host: {e}")))
}
