//! prflow's decision engine: GitHub facts in, a plan of writes out. No I/O, no clock, no randomness:
//! every rule of the flow lives here once, and the Action, the CLI and the dashboard only read and write.

pub mod api;
pub mod codec;
pub mod core;
pub mod flows;
pub mod sim;
pub mod views;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use crate::core::checks::{check_rollup, CheckRollup, Rollup};
pub use crate::core::config::{Config, ConfigError};
pub use crate::core::facts::Facts;
pub use crate::core::plan::{Op, Plan};
pub use api::Engine;
pub use flows::followup::{sweep, sweep_values, SweepPlan};
pub use views::reconcile::{reconcile, reconcile_text, reconcile_values};

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
        "queueReport": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::triage::Report>()),
        "trailers": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::declare::Trailers>()),
        "queueReads": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::reads::Reads>()),
        "watchPoll": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::watch::Poll>()),
        "watchState": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::watch::WatchState>()),
        "watchStep": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::watch::Step>()),
        "claimDecision": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::claim::ClaimDecision>()),
        "labelSync": schema(settings.clone().into_generator().into_root_schema_for::<views::catalog::LabelSync>()),
        "claimReadBack": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::claim::ClaimReadBack>()),
        "reviewOutcome": schema(settings.clone().into_generator().into_root_schema_for::<flows::stations::ReviewOutcome>()),
        "unownedIssue": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::claim::UnownedIssue>()),
        "autoFix": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::autofix::AutoFix>()),
        "cycleStepInput": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::cycle::StepInput>()),
        "cycleStep": schema(settings.clone().into_generator().into_root_schema_for::<flows::queue::cycle::StepOut>()),
        "dashboard": schema(settings.into_generator().into_root_schema_for::<views::dashboard::DashboardView>()),
        "decisions": api::decision_schemas(),
    })
}
