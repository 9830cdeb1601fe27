//! The pick order, and the rule that at most one queued pull request is released at a time.
//! Candidates are split into `priority:high`, unlabelled and `priority:low`; within each, lowest
//! number first with `DIRTY` after the rest and the version pull request after that. One that sat
//! green without merging is last of all, even with `priority:high`. The order is total: the number
//! breaks every tie.

use super::declare::Priority;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderKey {
    pub number: u64,
    pub priority: Priority,
    pub dirty: bool,
    pub version: bool,
    pub demoted: bool,
}

impl OrderKey {
    fn tuple(&self) -> (bool, Priority, bool, bool, u64) {
        if self.demoted {
            // Demoted ones only order among themselves, by number.
            (true, Priority::Normal, false, false, self.number)
        } else {
            (
                false,
                self.priority,
                self.version,
                self.dirty && !self.version,
                self.number,
            )
        }
    }
}

impl Ord for OrderKey {
    fn cmp(&self, other: &Self) -> Ordering {
        // Within a priority group: plain, then DIRTY, then the version pull request.
        let (a, b) = (self.tuple(), other.tuple());
        (a.0, a.1, a.2, a.3, a.4).cmp(&(b.0, b.1, b.2, b.3, b.4))
    }
}

impl PartialOrd for OrderKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

pub fn sort(keys: &mut [OrderKey]) {
    keys.sort();
}

/// A pull request released in the same moment as the worker's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Released {
    pub key: OrderKey,
    /// The worker owns it (a set-aside or claimed one runs nothing until its fix is pushed).
    pub worker_owned: bool,
    /// It was already released when the survey ran: not in flight, it is still released on the
    /// next survey, and yielding to it would pick and pause the same pull request forever.
    pub released_at_survey: bool,
}

/// The yield rule: after releasing `mine`, the worker puts `skip-ci` back on its own when another
/// worker-owned pull request, released in the same moment, comes first in the pick order.
pub fn yields_to(mine: OrderKey, others: &[Released]) -> Option<u64> {
    others
        .iter()
        .filter(|r| r.key.number != mine.number && r.worker_owned && !r.released_at_survey && r.key < mine)
        .map(|r| r.key)
        .min()
        .map(|k| k.number)
}
