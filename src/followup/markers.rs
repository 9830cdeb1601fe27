//! Hidden markers, `<!-- prflow:KIND key=value ... -->` on the first line of a comment or issue body.
//! A follow-up comment names the state, when the stay began and the level, so a later sweep that finds
//! it does nothing; only comments written by the tool's own account count, because anyone can paste
//! a marker into a comment to silence (or replay) a level.

use crate::facts::Comment;
use crate::time::{format_rfc3339, parse_rfc3339};

pub const KIND_FOLLOWUP: &str = "followup";
pub const KIND_BOARD: &str = "board";

const OPEN: &str = "<!-- prflow:";
const CLOSE: &str = " -->";

fn safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || ":_./+@-".contains(c)
}

/// Percent-encodes what could break the marker (spaces, `>`, `=`, `%`, anything not ASCII).
pub fn encode(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        if safe(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

pub fn decode(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The marker line for a kind and its fields, in the given order.
pub fn format_marker(kind: &str, fields: &[(&str, String)]) -> String {
    let mut s = format!("{OPEN}{kind}");
    for (k, v) in fields {
        s.push_str(&format!(" {k}={}", encode(v)));
    }
    s.push_str(CLOSE);
    s
}

/// The kind and fields of a text's first line, if it is a marker.
pub fn parse_marker(text: &str) -> Option<(String, Vec<(String, String)>)> {
    let line = text.lines().next()?.trim();
    let inner = line.strip_prefix(OPEN)?.strip_suffix("-->")?.trim();
    let mut parts = inner.split_whitespace();
    let kind = parts.next()?.to_string();
    let mut fields = Vec::new();
    for p in parts {
        let (k, v) = p.split_once('=')?;
        fields.push((k.to_string(), decode(v)?));
    }
    Some((kind, fields))
}

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
        format_marker(
            KIND_FOLLOWUP,
            &[("state", self.state.clone()), ("since", format_rfc3339(self.since)), ("level", self.level.to_string())],
        )
    }

    pub fn parse(text: &str) -> Option<FollowupMark> {
        let (kind, fields) = parse_marker(text)?;
        if kind != KIND_FOLLOWUP {
            return None;
        }
        let get = |k: &str| fields.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        Some(FollowupMark { state: get("state")?.to_string(), since: parse_rfc3339(get("since")?)?, level: get("level")?.parse().ok()? })
    }
}

/// The follow-up marks in comments written by `viewer`; with no viewer, none can be trusted.
pub fn trusted_marks(comments: &[Comment], viewer: Option<&str>) -> Vec<FollowupMark> {
    let Some(viewer) = viewer else { return Vec::new() };
    comments.iter().filter(|c| crate::account::is_own(&c.author, viewer)).filter_map(|c| FollowupMark::parse(&c.body)).collect()
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
        let m = FollowupMark { state: "state:ready for review>".into(), since: 1_796_067_445, level: 60 };
        let line = m.line();
        assert_eq!(line, "<!-- prflow:followup state=state:ready%20for%20review%3E since=2026-11-30T19:37:25Z level=60 -->");
        assert_eq!(FollowupMark::parse(&format!("{line}\nbody")), Some(m));
    }

    #[test]
    fn not_a_marker() {
        for (why, text) in [
            ("marker not on the first line", "hello\n<!-- prflow:followup state=a since=2026-11-30T19:37:25Z level=1 -->"),
            ("another kind", "<!-- prflow:board digest=1 -->"),
            ("missing level", "<!-- prflow:followup state=a since=2026-11-30T19:37:25Z -->"),
            ("bad time", "<!-- prflow:followup state=a since=yesterday level=1 -->"),
        ] {
            assert_eq!(FollowupMark::parse(text), None, "{why}");
        }
    }

    #[test]
    fn a_forged_mark_by_a_user_named_like_the_app_is_not_trusted() {
        let mark = "<!-- prflow:followup state=a since=2026-11-30T19:37:25Z level=60 -->";
        let by = |author: &str| Comment { author: author.into(), body: mark.into(), ..Comment::default() };
        assert!(trusted_marks(&[by("github-actions")], Some("github-actions[bot]")).is_empty());
        assert_eq!(trusted_marks(&[by("github-actions[bot]")], Some("github-actions[bot]")).len(), 1);
    }
}
