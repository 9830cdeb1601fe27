//! The Wasm boundary, and the only file that knows JavaScript exists: one `Engine` class built from the
//! config text, with one `call(name, input)` entry (src/api.rs holds the decisions). JS values in and
//! out through serde-wasm-bindgen; every error is a thrown JS `Error` that names the decision and the
//! JSON path, never a panic.

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Any error the host sees, as a JS `Error` with its message.
fn error(message: impl std::fmt::Display) -> JsValue {
    js_sys::Error::new(&message.to_string()).into()
}

/// JS values in and out: objects for maps, `null` for a missing value, as JSON.parse would give them.
struct Js;

impl crate::api::Codec for Js {
    type In<'a> = JsValue;
    type Out = JsValue;
    fn read<T: serde::de::DeserializeOwned>(input: JsValue) -> Result<T, crate::codec::PathError> {
        let input = if input.is_undefined() || input.is_null() { js_sys::Object::new().into() } else { input };
        serde_path_to_error::deserialize(serde_wasm_bindgen::Deserializer::from(input)).map_err(crate::codec::path_error)
    }
    fn write<T: Serialize>(out: &T) -> Result<JsValue, String> {
        out.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| e.to_string())
    }
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

    /// The config's problems (`[{ path, expected, found }]`), empty when it is valid.
    #[wasm_bindgen(js_name = configErrors)]
    pub fn config_errors(&self) -> Result<JsValue, JsValue> {
        <Js as crate::api::Codec>::write(&self.0.config_errors()).map_err(error)
    }

    /// One decision by name: a JS object in, a JS value out.
    pub fn call(&self, name: &str, input: JsValue) -> Result<JsValue, JsValue> {
        self.0.call_with::<Js>(name, input).map_err(error)
    }
}

/// A fresh seed for a simulation run given none, from the host's crypto: the one random thing, kept
/// out of the engine's decisions, which take the seed as an input.
#[wasm_bindgen(js_name = drawSeed)]
pub fn draw_seed() -> Result<u32, JsValue> {
    getrandom::u32().map_err(|e| error(format!("drawSeed: no randomness from the host: {e}")))
}
