//! The merge queue's decisions: what each pull request declares, the dependency graph, triage,
//! the pick order, owners, set-asides, markers, the watch step and auto-fix eligibility. The loop
//! that rebases, pushes and watches only carries these out; every `if` about the queue lives here.

pub mod autofix;
pub mod bisect;
pub mod chain;
pub mod claim;
pub mod codeowners;
pub mod ctx;
pub mod cycle;
pub mod declare;
pub mod fixer;
pub mod flake;
pub mod graph;
pub mod green;
pub mod lane;
pub mod lease;
pub mod markers;
pub mod memory;
pub mod numbers;
pub mod open;
pub mod order;
pub mod owner;
pub mod quiet;
pub mod reads;
pub mod restack;
pub mod review_hold;
pub mod setaside;
pub mod sizing;
pub mod triage;
pub mod watch;
pub mod why;

/// The section moved down to the core layer (config types); the old path still names it.
pub use crate::core::config::queue as config;

use crate::core::facts::Facts;
use crate::Config;
pub use ctx::Ctx;
pub use reads::{tip_reads, tip_reads_in};

/// `triage(facts, config)`.
pub fn triage(facts: &Facts, config: &Config) -> triage::Report {
    triage::triage(&Ctx::new(facts, config))
}
