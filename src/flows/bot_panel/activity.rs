//! `stale`: no real activity for a while. Real activity is commits, comments and reviews by anyone but
//! the tool itself; label changes never count, so the sweep that sets `stale` cannot un-stale its own
//! mark, and the tool's own pings do not make a pull request look alive.

use crate::core::facts::{PullFact, PullRequest};
use crate::core::labels::Wants;
use crate::core::time::parse_rfc3339;
use crate::flows::bot_panel::reviews::same_login;

/// Timeline kinds that are someone doing work on the pull request.
pub const ACTIVITY_KINDS: [&str; 6] = [
    "committed",
    "head_ref_force_pushed",
    "commented",
    "reviewed",
    "ready_for_review",
    "reopened",
];

/// The time of the last real activity, or None when the facts to know it could not be read.
pub fn last_activity(pr: &PullRequest, viewer: Option<&str>) -> Option<i64> {
    if pr.unknown(PullFact::Timeline) || pr.unknown(PullFact::Comments) || pr.unknown(PullFact::Reviews) {
        return None;
    }
    let not_tool = |who: Option<&str>| match (who, viewer) {
        (Some(who), Some(me)) => !same_login(who, me),
        _ => true,
    };
    let events = pr
        .timeline
        .iter()
        .filter(|e| ACTIVITY_KINDS.contains(&e.kind.as_str()) && not_tool(e.actor.as_deref()))
        .map(|e| e.at.as_str());
    let comments = pr
        .comments
        .iter()
        .filter(|c| not_tool(Some(&c.author)))
        .map(|c| c.created_at.as_str());
    let reviews = pr
        .reviews
        .iter()
        .filter(|r| not_tool(Some(&r.author)))
        .map(|r| r.submitted_at.as_str());
    std::iter::once(pr.created_at.as_str())
        .chain(events)
        .chain(comments)
        .chain(reviews)
        .filter_map(parse_rfc3339)
        .max()
}

/// Speaks for the stale label, unless it is turned off (`days == 0`) or activity is unknown.
pub fn stale_wants(pr: &PullRequest, viewer: Option<&str>, now: i64, days: u32, label: &str, wants: &mut Wants) {
    if days == 0 {
        return;
    }
    let Some(last) = last_activity(pr, viewer) else { return };
    let idle_days = (now - last).max(0) / 86_400;
    if idle_days >= i64::from(days) {
        wants.present(
            label,
            format!("no commit, comment or review for {idle_days} days (limit {days})"),
        );
    } else {
        wants.absent_if_carried(pr, label, || format!("active {idle_days} days ago (limit {days})"));
    }
}
