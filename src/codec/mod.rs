//! JSON in and out of the engine, and the error paths that name where a document went wrong.

// The Action's and the CLI's build only: the pages' builds keep the system allocator, for size.
#[cfg(all(target_arch = "wasm32", feature = "full"))]
pub mod arena;
// The Action's and the CLI's build only: faster JSON in and out (json_path.rs, api.rs's `answer_text`);
// the pages' keep serde_json's alone, for size.
#[cfg(feature = "full")]
pub mod json_in;
#[cfg(feature = "full")]
pub mod json_out;
pub mod json_path;
// The pages' typed JSON reader; the unit tests hold it to the Action's (serde derive's).
#[cfg(any(test, not(feature = "full")))]
pub mod lean;
pub mod objects;
pub mod sorting;
