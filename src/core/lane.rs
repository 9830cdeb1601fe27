//! One place in the merge queue's lane, as data: the queue decides it (flows::queue::lane), and the
//! follow-up board shows it, so the type lives where both may read it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueLaneEntry")]
pub struct LaneEntry {
    pub number: u64,
    pub position: usize,
    pub of: usize,
    /// When it should land (RFC 3339); none without an estimate.
    pub eta: Option<String>,
    /// `3rd of 7, about 14:20` (UTC), or `3rd of 7` with no estimate.
    pub words: String,
}
