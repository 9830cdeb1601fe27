//! The one codec of prflow's hidden markers: `<!-- prflow:KIND key=value ... -->` on the first line
//! of a comment or issue body, read by the queue (set-aside, claim, resolved, unowned) and the
//! follow-up (followup, board) alike. Values are percent-encoded outside a small safe set, so a
//! space, `=` or `>` in a label name cannot break the line; text may follow the marker on its line
//! (a resolved line says why there). Only comments the tool's own account wrote are trusted
//! (`own`): on a public repository anyone can paste the same line.

use crate::core::facts::Comment;

pub const PREFIX: &str = "<!-- prflow:";
pub const SUFFIX: &str = "-->";

/// A marker: its kind and its fields, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub kind: String,
    pub fields: std::collections::BTreeMap<String, String>,
}

impl Marker {
    /// A field's value, or "" when it is absent.
    pub fn get(&self, key: &str) -> &str {
        self.fields.get(key).map(String::as_str).unwrap_or("")
    }
}

/// Characters written as they are; every other one is percent-encoded (each UTF-8 byte).
fn safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || ":_./+@-".contains(c)
}

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

/// The inverse of `encode`; None on a broken escape. A value written raw by an older version (no
/// `%` in it) reads as itself.
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

/// The marker line for a kind and its fields, in the order given.
pub fn render(kind: &str, fields: &[(&str, &str)]) -> String {
    let mut s = format!("{PREFIX}{kind}");
    for (k, v) in fields {
        s.push_str(&format!(" {k}={}", encode(v)));
    }
    s.push_str(" -->");
    s
}

/// The marker on the first line of a text, if it is one.
pub fn parse(text: &str) -> Option<Marker> {
    let first = text.lines().next()?.trim();
    let inner = first.strip_prefix(PREFIX)?;
    let end = inner.find(SUFFIX)?;
    let mut words = inner[..end].split_whitespace();
    let kind = words.next()?.to_string();
    let mut fields = std::collections::BTreeMap::default();
    for w in words {
        let (k, v) = w.split_once('=')?;
        fields.insert(k.to_string(), decode(v)?);
    }
    Some(Marker { kind, fields })
}

/// A value a person typed that must stay one word as given (a fixer's name): no spaces, no `--`,
/// no `=`, nothing empty. Encoding would carry it, but the name would then read differently.
pub fn valid_value(v: &str) -> bool {
    !v.is_empty() && !v.contains(char::is_whitespace) && !v.contains("--") && !v.contains('=')
}

/// Comments with a marker, written by `viewer` (the one own-account rule). No viewer, nothing counts.
pub fn own<'a>(comments: &'a [Comment], viewer: Option<&str>) -> Vec<(&'a Comment, Marker)> {
    let Some(viewer) = viewer else { return Vec::new() };
    comments
        .iter()
        .filter(|c| crate::core::account::is_own(&c.author, viewer))
        .filter_map(|c| parse(&c.body).map(|m| (c, m)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_that_would_break_the_line_round_trips() {
        let line = render("followup", &[("state", "state:ready for review>"), ("level", "60")]);
        assert_eq!(
            line,
            "<!-- prflow:followup state=state:ready%20for%20review%3E level=60 -->"
        );
        let m = parse(&format!("{line}\nbody")).expect("a marker");
        assert_eq!(
            (m.kind.as_str(), m.get("state"), m.get("level")),
            ("followup", "state:ready for review>", "60")
        );
    }

    #[test]
    fn the_queue_and_the_follow_up_lines_read_the_same_way() {
        // (why, first line, kind, a field) — the wire of both flows before they shared this codec.
        for (why, text, kind, field) in [
            (
                "a queue claim",
                "<!-- prflow:claim head=abc by=agent-1 at=2026-01-01T00:00:00Z -->\n**agent-1** is fixing",
                "claim",
                ("by", "agent-1"),
            ),
            (
                "a resolved line with words after the marker",
                "<!-- prflow:resolved was=claim head=abc --> Resolved: released.",
                "resolved",
                ("was", "claim"),
            ),
            (
                "a follow-up mark",
                "<!-- prflow:followup state=state:reviewing since=2026-11-30T19:37:25Z level=90 -->",
                "followup",
                ("since", "2026-11-30T19:37:25Z"),
            ),
            (
                "a raw login an older version wrote",
                "<!-- prflow:claim by=fixer[bot] -->",
                "claim",
                ("by", "fixer[bot]"),
            ),
        ] {
            let m = parse(text).unwrap_or_else(|| panic!("{why}"));
            assert_eq!((m.kind.as_str(), m.get(field.0)), (kind, field.1), "{why}");
        }
        for (why, text) in [
            ("not on the first line", "hi\n<!-- prflow:claim by=a -->"),
            ("a word without =", "<!-- prflow:claim by -->"),
            ("a broken escape", "<!-- prflow:claim by=%G1 -->"),
        ] {
            assert_eq!(parse(text), None, "{why}");
        }
    }

    #[test]
    fn a_forged_marker_by_a_user_named_like_the_app_is_not_own() {
        let body = render("claim", &[("by", "agent-1")]);
        let by = |author: &str| Comment {
            author: author.into(),
            body: body.clone(),
            ..Comment::default()
        };
        assert!(own(&[by("github-actions")], Some("github-actions[bot]")).is_empty());
        assert_eq!(own(&[by("github-actions[bot]")], Some("github-actions[bot]")).len(), 1);
    }
}
