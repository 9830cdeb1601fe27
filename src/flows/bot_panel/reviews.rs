//! The review round: each panel reviewer's standing on the head commit.
//!
//! The whole round is collected before any precedence is applied to it, so a STALE belonging to a
//! later reviewer is never hidden behind an earlier reviewer's MISSING. COMMENTED is never a verdict:
//! judging that a comment-only round passed belongs to the author, who says so by requesting a human.

use crate::core::facts::{PullRequest, Review};
use crate::core::time::parse_rfc3339;

/// One reviewer's standing on the head commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// A review request is live: the reviewer is at work.
    Requested,
    /// Never reviewed this pull request.
    Missing,
    /// Reviewed, but only commits older than the head: the page shows verdicts on another tree.
    Stale,
    /// Reviewed the head, commenting only.
    Commented,
    /// Requested changes on the head.
    ChangesRequested,
    /// Approved the head.
    Approved,
}

impl Standing {
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Requested => "requested",
            Standing::Missing => "missing",
            Standing::Stale => "stale",
            Standing::Commented => "commented",
            Standing::ChangesRequested => "changes requested",
            Standing::Approved => "approved",
        }
    }
}

fn is_reviewed(state: &str) -> bool {
    matches!(state, "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED")
}

fn is_verdict(state: &str) -> bool {
    matches!(state, "APPROVED" | "CHANGES_REQUESTED")
}

/// Logins compare without case, as GitHub does.
pub fn same_login(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// The reviewer's standing on the pull request's head commit.
pub fn standing(pr: &PullRequest, reviewer: &str) -> Standing {
    if pr.review_requests.iter().any(|r| same_login(r, reviewer)) {
        return Standing::Requested;
    }
    let mine: Vec<&Review> = pr
        .reviews
        .iter()
        .filter(|r| same_login(&r.author, reviewer) && is_reviewed(&r.state))
        .collect();
    if mine.is_empty() {
        return Standing::Missing;
    }
    let on_head: Vec<&Review> = mine.iter().copied().filter(|r| r.commit == pr.head_sha).collect();
    if on_head.is_empty() {
        return Standing::Stale;
    }
    match latest(on_head.iter().copied().filter(|r| is_verdict(&r.state))) {
        Some(r) if r.state == "APPROVED" => Standing::Approved,
        Some(_) => Standing::ChangesRequested,
        None => Standing::Commented,
    }
}

/// The latest review by submission time; ties are broken by state so the input order never matters.
fn latest<'a>(reviews: impl Iterator<Item = &'a Review>) -> Option<&'a Review> {
    reviews.max_by(|a, b| {
        let ta = parse_rfc3339(&a.submitted_at).unwrap_or(i64::MIN);
        let tb = parse_rfc3339(&b.submitted_at).unwrap_or(i64::MIN);
        // On a tie, CHANGES_REQUESTED wins: the cautious reading.
        ta.cmp(&tb)
            .then_with(|| (a.state == "CHANGES_REQUESTED").cmp(&(b.state == "CHANGES_REQUESTED")))
    })
}

/// The round of a panel: every reviewer's standing, in config order.
pub fn round<'a>(pr: &PullRequest, panel: &[&'a str]) -> Vec<(&'a str, Standing)> {
    panel.iter().map(|bot| (*bot, standing(pr, bot))).collect()
}
