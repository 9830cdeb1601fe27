//! The queue's comments: a machine-readable first line (the core's one marker codec), prose
//! for people, and for a set-aside a "Retry" task box as the last line. A comment that stops
//! applying is rewritten as one resolved line, kept so the timeline keeps what happened. Only
//! comments written by the tool's own account count: on a public repository anyone can write the
//! same first line.

pub use crate::core::markers::{own, parse, render, valid_value, Marker, PREFIX, SUFFIX};

/// A pull request set aside by the worker.
pub const KIND_SET_ASIDE: &str = "set-aside";
/// A fixer's claim on a set-aside pull request.
pub const KIND_CLAIM: &str = "claim";
/// A set-aside or claim that no longer applies (`was` says which).
pub const KIND_RESOLVED: &str = "resolved";
/// The hidden line of an issue `report-unowned` filed for a pull request with no owner.
pub const KIND_UNOWNED: &str = "unowned";
/// The task box a person ticks to have the next survey try again.
pub const RETRY_BOX: &str = "- [ ] Retry: tick this box to have the queue try this pull request again.";
pub const RETRY_TICKED: &str = "- [x] Retry";

/// Whether a person ticked the Retry box (it is the last line).
pub fn retry_ticked(body: &str) -> bool {
    body.lines().rev().find(|l| !l.trim().is_empty()).is_some_and(|l| {
        l.trim_start()
            .to_ascii_lowercase()
            .starts_with(&RETRY_TICKED.to_ascii_lowercase())
    })
}

/// A set-aside comment: the record, the reason's sentence and detail, what clears it, where it
/// stands in the lane once fixed (`place`, empty when unknown), the box.
pub fn set_aside_body(reason: &str, head: &str, base: &str, detail: &str, place: &str) -> String {
    let first = render(KIND_SET_ASIDE, &[("reason", reason), ("head", head), ("base", base)]);
    let sentence = super::setaside::Reason::parse(reason)
        .map(|r| r.sentence())
        .unwrap_or("Set aside for a reason this version of prflow does not know.");
    let clears = match super::setaside::Reason::parse(reason) {
        Some(r) if !r.cleared_by_main_move() => "A push to this branch clears it.",
        _ => "A push to this branch, or `main` moving, clears it.",
    };
    let mut body = format!("{first}\n**The merge queue set this pull request aside** (`{reason}`): {sentence}\n");
    if !detail.trim().is_empty() {
        body.push_str(&format!("\n{}\n", detail.trim()));
    }
    body.push_str(&format!("\n{clears}\n"));
    if !place.trim().is_empty() {
        body.push_str(&format!("\n{}\n", place.trim()));
    }
    body.push_str(&format!("\n{RETRY_BOX}\n"));
    body
}

/// A claim comment.
pub fn claim_body(head: &str, by: &str, at: &str, minutes: u32) -> String {
    format!(
        "{}\n**{by}** is fixing this pull request. The merge queue leaves it alone while the head stays `{}`, for at most {minutes} minutes.\n",
        render(KIND_CLAIM, &[("head", head), ("by", by), ("at", at)]),
        short(head)
    )
}

/// The one line a set-aside or claim is rewritten to once it stops applying.
pub fn resolved_line(was: &Marker, why: &str) -> String {
    let mut fields: Vec<(&str, &str)> = vec![("was", was.kind.as_str())];
    for (k, v) in &was.fields {
        fields.push((k, v));
    }
    format!("{} Resolved: {why}", render(KIND_RESOLVED, &fields))
}

pub fn short(sha: &str) -> &str {
    &sha[..sha.len().min(7)]
}
