//! The core every flow stands on: the facts and the config, the plan of writes, and the small rules
//! more than one flow asks (check rollups, time in state, markers, labels, globs, clocks and zones).
//! Nothing here imports a flow or a view.

pub mod account;
pub mod checks;
pub mod clock;
pub mod config;
pub mod decision;
pub mod facts;
pub mod glob;
pub mod labels;
pub mod lane;
pub mod markers;
pub mod plan;
pub mod scopes;
pub mod stay;
pub mod text;
pub mod time;
pub mod zones;
