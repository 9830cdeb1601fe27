//! The views that join flows: reconcile (every pull request's labels), the dashboard (every flow on one
//! board) and the label catalogue.

pub mod catalog;
pub mod dashboard;
pub mod reconcile;
pub mod scoreboard;
