//! What one flow decided for one pull request: the labels it wants, its verdict and the writes that
//! follow. It sits in the core layer so the flows (bot_panel, stations) answer reconcile, the composer
//! that joins them, without importing one another.

use crate::core::labels::Wants;
use crate::core::plan::{Op, PullVerdict};

/// What the flow decided for one pull request.
pub struct Decision {
    pub wants: Wants,
    pub verdict: PullVerdict,
    pub ops_after: Vec<Op>,
    /// Things a person should know about this pull request (become plan warnings).
    pub notes: Vec<String>,
}
