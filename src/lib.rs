//! prflow's decision engine: GitHub facts in, a plan of writes out. No I/O, no clock, no randomness:
//! every rule of the flow lives here once, and the Action, the CLI and the dashboard only read and write.

pub mod account;
// The Action's and the CLI's build only: the pages' builds keep the system allocator, for size.
#[cfg(all(target_arch = "wasm32", feature = "full"))]
pub mod arena;
pub mod api;
pub mod activity;
pub mod bot_panel;
pub mod catalog;
pub mod checks;
pub mod clock;
pub mod config;
pub mod dashboard;
pub mod decision;
pub mod facts;
pub mod followup;
pub mod glob;
// The Action's and the CLI's build only: faster JSON in and out (json_path.rs, api.rs's `answer_text`);
// the pages' keep serde_json's alone, for size.
#[cfg(feature = "full")]
pub mod json_in;
#[cfg(feature = "full")]
pub mod json_out;
pub mod json_path;
pub mod labels;
// The pages' typed JSON reader; the unit tests hold it to the Action's (serde derive's).
#[cfg(any(test, not(feature = "full")))]
pub mod lean;
pub mod markers;
pub mod objects;
pub mod plan;
pub mod queue;
pub mod reconcile;
pub mod reviews;
pub mod scopes;
pub mod sim;
pub mod sorting;
pub mod stay;
pub mod stations;
pub mod time;
pub mod zones;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use api::Engine;
pub use checks::{check_rollup, CheckRollup, Rollup};
pub use config::{Config, ConfigError};
pub use facts::Facts;
pub use followup::{sweep, sweep_values, SweepPlan};
pub use plan::{Op, Plan};
pub use reconcile::{reconcile, reconcile_text, reconcile_values};

/// The engine's version, carried by every answer so a report says which rules made it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The JSON Schemas of the config, the facts and the plan, generated from the Rust types, and under
/// `decisions` every decision's input and output (api.rs). Native only in use (scripts/build.sh); the
/// Wasm's link-time optimisation drops it.
pub fn schemas() -> serde_json::Value {
    let settings = schemars::gen::SchemaSettings::draft07();
    let schema = |s: schemars::schema::RootSchema| serde_json::to_value(s).expect("schema serializes");
    serde_json::json!({
        "config": schema(settings.clone().into_generator().into_root_schema_for::<Config>()),
        "facts": schema(settings.clone().into_generator().into_root_schema_for::<Facts>()),
        "plan": schema(settings.clone().into_generator().into_root_schema_for::<Plan>()),
        "sweepPlan": schema(settings.clone().into_generator().into_root_schema_for::<SweepPlan>()),
        "checkRollup": schema(settings.clone().into_generator().into_root_schema_for::<CheckRollup>()),
        "queueReport": schema(settings.clone().into_generator().into_root_schema_for::<queue::triage::Report>()),
        "trailers": schema(settings.clone().into_generator().into_root_schema_for::<queue::declare::Trailers>()),
        "queueReads": schema(settings.clone().into_generator().into_root_schema_for::<queue::reads::Reads>()),
        "watchPoll": schema(settings.clone().into_generator().into_root_schema_for::<queue::watch::Poll>()),
        "watchState": schema(settings.clone().into_generator().into_root_schema_for::<queue::watch::WatchState>()),
        "watchStep": schema(settings.clone().into_generator().into_root_schema_for::<queue::watch::Step>()),
        "claimDecision": schema(settings.clone().into_generator().into_root_schema_for::<queue::claim::ClaimDecision>()),
        "labelSync": schema(settings.clone().into_generator().into_root_schema_for::<catalog::LabelSync>()),
        "claimReadBack": schema(settings.clone().into_generator().into_root_schema_for::<queue::claim::ClaimReadBack>()),
        "reviewOutcome": schema(settings.clone().into_generator().into_root_schema_for::<stations::ReviewOutcome>()),
        "unownedIssue": schema(settings.clone().into_generator().into_root_schema_for::<queue::claim::UnownedIssue>()),
        "autoFix": schema(settings.clone().into_generator().into_root_schema_for::<queue::autofix::AutoFix>()),
        "cycleStepInput": schema(settings.clone().into_generator().into_root_schema_for::<queue::cycle::StepInput>()),
        "cycleStep": schema(settings.clone().into_generator().into_root_schema_for::<queue::cycle::StepOut>()),
        "dashboard": schema(settings.into_generator().into_root_schema_for::<dashboard::DashboardView>()),
        "decisions": api::decision_schemas(),
    })
}
