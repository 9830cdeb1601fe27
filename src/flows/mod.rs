//! One folder per flow. A flow uses the core and its own modules, never another flow: the views join them.

pub mod bot_panel;
pub mod followup;
pub mod queue;
pub mod stations;
