//! The words the follow-up sweep writes on pull requests. Every text is pinned by a snapshot test
//! (tests/snapshots/followup/), so a wording change shows up in review as a diff of the comment.

use super::markers::FollowupMark;
use super::settings::{Action, Level};
use crate::core::time::format_rfc3339;

pub use crate::core::time::duration;

/// "2026-11-30 10:00 UTC": what a person reads; the marker keeps the exact RFC 3339 time.
pub fn when(secs: i64) -> String {
    let s = format_rfc3339(secs);
    format!("{} {} UTC", &s[..10], &s[11..16])
}

/// Everything a follow-up comment says.
pub struct CommentText<'a> {
    pub mark: &'a FollowupMark,
    pub level: &'a Level,
    pub next: Option<&'a Level>,
    /// Logins to mention, without `@`.
    pub mentions: &'a [String],
    pub minutes: i64,
    pub working_hours: bool,
    /// The claim labels removed (release-claim).
    pub claims: &'a [String],
    pub queue_state: &'a str,
}

/// The text that says what should happen next when a level has no message of its own.
fn default_message(action: Action) -> &'static str {
    match action {
        Action::Ping => "Please take a look.",
        Action::Escalate => "It has not moved since the last ping.",
        Action::StopTheLine => "The queue is too long: development machines open no new pull request until it drains.",
        Action::ReleaseClaim => "A claim with no verdict blocks the pull request from every other review machine.",
    }
}

pub fn comment_body(t: &CommentText) -> String {
    let who = if t.mentions.is_empty() {
        "Nobody is configured to be told (set `followup.people`)".to_string()
    } else {
        t.mentions.iter().map(|m| format!("@{m}")).collect::<Vec<_>>().join(" ")
    };
    let state = &t.mark.state;
    let dur = format!(
        "{}{}",
        duration(t.minutes),
        if t.working_hours { " of working time" } else { "" }
    );
    let since = when(t.mark.since);
    let headline = match t.level.action {
        Action::Ping => format!("{who}: this pull request has been in `{state}` for {dur} (since {since})."),
        Action::Escalate => {
            format!("**Escalation.** {who}: this pull request has been in `{state}` for {dur} (since {since}).")
        }
        Action::StopTheLine => format!(
            "**Stop the line.** {who}: this pull request has waited {dur} in `{state}` (since {since}). \
             Until the queue drains, `prflow claim dev` answers `stop-the-line`."
        ),
        Action::ReleaseClaim => {
            let claims = t.claims.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
            format!(
                "**Claim released.** {who}: {claims} held this pull request in `{state}` for {dur} (since {since}) with no verdict, \
                 so the claim is removed and it goes back to `{}` for any review machine to take.",
                t.queue_state
            )
        }
    };
    let message = t.level.message.as_deref().unwrap_or(default_message(t.level.action));
    let next = match t.next {
        Some(n) => format!(" Next: {} at {}.", n.action.word(), duration(i64::from(n.after))),
        None => String::new(),
    };
    format!(
        "{}\n{headline}\n\n{message}\n\n<sub>prflow follow-up: {} at {} in `{state}`.{next} Each level fires once per stay in a state.</sub>\n",
        t.mark.line(),
        t.level.action.word(),
        duration(i64::from(t.level.after)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        for (minutes, text) in [
            (0, "0 min"),
            (59, "59 min"),
            (60, "1 h"),
            (125, "2 h 5 min"),
            (1440, "1 d"),
            (1501, "1 d 1 h 1 min"),
            (1441, "1 d 1 min"),
        ] {
            assert_eq!(duration(minutes), text);
        }
    }
}
