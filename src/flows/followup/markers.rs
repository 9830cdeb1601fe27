//! The follow-up's markers, in the core's one codec (`crate::core::markers`). A follow-up comment names
//! the state, when the stay began and the level, so a later sweep that finds it does nothing; only
//! comments written by the tool's own account count, because anyone can paste a marker into a
//! comment to silence (or replay) a level.

use crate::core::facts::Comment;
use crate::core::markers::{own, parse, render};
use crate::core::time::{format_rfc3339, parse_rfc3339};

pub const KIND_FOLLOWUP: &str = "followup";
pub const KIND_BOARD: &str = "board";

/// One follow-up level that fired during one stay in a state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowupMark {
    pub state: String,
    /// When the stay began, seconds since the epoch.
    pub since: i64,
    /// The level's minutes.
    pub level: u32,
}

impl FollowupMark {
    pub fn line(&self) -> String {
        render(
            KIND_FOLLOWUP,
            &[
                ("state", &self.state),
                ("since", &format_rfc3339(self.since)),
                ("level", &self.level.to_string()),
            ],
        )
    }

    pub fn parse(text: &str) -> Option<FollowupMark> {
        let m = parse(text).filter(|m| m.kind == KIND_FOLLOWUP)?;
        let get = |k: &str| m.fields.get(k).map(String::as_str);
        Some(FollowupMark {
            state: get("state")?.to_string(),
            since: parse_rfc3339(get("since")?)?,
            level: get("level")?.parse().ok()?,
        })
    }
}

/// The follow-up marks in comments written by `viewer`; with no viewer, none can be trusted.
pub fn trusted_marks(comments: &[Comment], viewer: Option<&str>) -> Vec<FollowupMark> {
    own(comments, viewer)
        .into_iter()
        .filter_map(|(c, _)| FollowupMark::parse(&c.body))
        .collect()
}

/// FNV-1a, 64 bits: a stable digest of the board's content with no dependency and no randomness.
pub fn digest(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_round_trip() {
        let m = FollowupMark {
            state: "state:ready for review>".into(),
            since: 1_796_067_445,
            level: 60,
        };
        let line = m.line();
        assert_eq!(
            line,
            "<!-- prflow:followup state=state:ready%20for%20review%3E since=2026-11-30T19:37:25Z level=60 -->"
        );
        assert_eq!(FollowupMark::parse(&format!("{line}\nbody")), Some(m));
    }

    #[test]
    fn not_a_marker() {
        for (why, text) in [
            (
                "marker not on the first line",
                "hello\n<!-- prflow:followup state=a since=2026-11-30T19:37:25Z level=1 -->",
            ),
            ("another kind", "<!-- prflow:board digest=1 -->"),
            (
                "missing level",
                "<!-- prflow:followup state=a since=2026-11-30T19:37:25Z -->",
            ),
            ("bad time", "<!-- prflow:followup state=a since=yesterday level=1 -->"),
        ] {
            assert_eq!(FollowupMark::parse(text), None, "{why}");
        }
    }

    #[test]
    fn a_forged_mark_by_a_user_named_like_the_app_is_not_trusted() {
        let mark = "<!-- prflow:followup state=a since=2026-11-30T19:37:25Z level=60 -->";
        let by = |author: &str| Comment {
            author: author.into(),
            body: mark.into(),
            ..Comment::default()
        };
        assert!(trusted_marks(&[by("github-actions")], Some("github-actions[bot]")).is_empty());
        assert_eq!(
            trusted_marks(&[by("github-actions[bot]")], Some("github-actions[bot]")).len(),
            1
        );
    }
}
