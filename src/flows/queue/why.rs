//! Why, in one contract: every verdict carries a stable reason code, the next actor (its owner) and
//! the next action in words, so the report, the hidden marker and the dashboard read the same.
//! A pull request queued longer than the config's target age is named as starved.

pub use super::numbers::{cycle_numbers, numbers, CYCLE_NAMED};
use super::owner::Owner;
use crate::core::time::parse_rfc3339;

pub const NOT_QUEUED: &str = "not-queued";
pub const DRAFT: &str = "draft";
pub const BASE_NOT_ACTIONABLE: &str = "base-not-actionable";
pub const CYCLE: &str = "cycle";
pub const CLAIMED: &str = "claimed";
pub const SET_ASIDE: &str = "set-aside";
pub const FORK: &str = "fork";
pub const OWNER_NONE: &str = "owner-none";
pub const STACKED: &str = "stacked";
pub const NATIVE_STACK: &str = "native-stack";
pub const WAITING_MERGE_AFTER: &str = "waiting-merge-after";
pub const RELEASE_BLOCKED: &str = "release-blocked";
pub const VERSION_NOT_ON_TIP: &str = "version-not-on-tip";
pub const VERSION_TIP_UNKNOWN: &str = "version-tip-unknown";
pub const MERGE_STATE_UNKNOWN: &str = "merge-state-unknown";
pub const PAUSED: &str = "paused";
pub const BEHIND: &str = "behind";
pub const DIRTY: &str = "dirty";
pub const VERSION_READY: &str = "version-ready";
pub const MERGING: &str = "merging";
pub const CHECKS_RUNNING: &str = "checks-running";
pub const GREEN_BLOCKED: &str = "green-blocked";
pub const CHECKS_FAILED: &str = "checks-failed";
pub const REVIEW_HELD: &str = "review-held";

/// The next action, in words, for a reason code and its owner.
pub fn next_action(code: &str, owner: Option<Owner>) -> String {
    let s = match code {
        NOT_QUEUED if owner.is_some() => "the worker keeps it on the tip of the base while it waits (`auto-rebase`)",
        NOT_QUEUED => "nothing: add `merge-queued` to queue it",
        DRAFT => "its author marks it ready for review",
        BASE_NOT_ACTIONABLE => "a person retargets it onto the default branch or an open pull request's branch",
        CYCLE => "a person breaks the cycle by editing a Merge-After: trailer",
        CLAIMED => "the claimant pushes a fix (or releases the claim)",
        SET_ASIDE => match owner {
            Some(Owner::Fixer) => "the fixer repairs it and pushes, or a person ticks Retry",
            Some(Owner::None) => "file a bug: the set-aside reason is unknown to this version",
            _ => "a person resolves what holds it, then ticks Retry",
        },
        FORK => "a person merges it by hand, or moves the branch into the repository",
        OWNER_NONE => "file a bug: no rule covers this state",
        STACKED => "the worker waits for the layer below to merge",
        NATIVE_STACK => "a person merges it by hand (auto-merge is refused in native stacks)",
        WAITING_MERGE_AFTER => "the worker waits for what it names to merge",
        RELEASE_BLOCKED => "the worker waits for every `blocks-release` pull request to close",
        VERSION_NOT_ON_TIP => "the release workflow rebuilds the branch on the current tip",
        VERSION_TIP_UNKNOWN => "the worker reads again whether the branch is built on the tip",
        MERGE_STATE_UNKNOWN => "the worker surveys again once GitHub has computed the merge state",
        PAUSED | BEHIND | DIRTY => "the worker rebases it and takes `skip-ci` off when its turn comes",
        VERSION_READY => "the worker takes `skip-ci` off when its turn comes (never rebased)",
        MERGING | CHECKS_RUNNING => "the worker watches it until it merges",
        GREEN_BLOCKED => "the worker watches it; green without merging ends in `not-merging`",
        CHECKS_FAILED => "the worker sets it aside `checks-failed`, for the fixer to repair and push",
        REVIEW_HELD => {
            "the worker waits for a code owner's approval and every conversation resolved; nothing runs until then"
        }
        _ => "none known",
    };
    s.to_string()
}

/// Hours the pull request has waited in the queue: since `merge-queued` was last added, else since
/// it was opened.
pub fn waiting_since(pr: &crate::core::facts::PullRequest, queued_label: &str) -> Option<i64> {
    let labelled = pr
        .timeline
        .iter()
        .filter(|e| e.kind == "labeled" && e.label.as_deref() == Some(queued_label))
        .filter_map(|e| parse_rfc3339(&e.at))
        .max();
    labelled.or_else(|| parse_rfc3339(&pr.created_at))
}
