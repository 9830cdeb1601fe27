//! The board: one issue, found by its label, listing every open pull request by state with its time
//! in state, owner, claimer and blockers, oldest first, and the sweep's warnings.
//!
//! Minutes change on every sweep, so the issue is not rewritten for them: the marker on the body's
//! first line carries a digest of everything else (rows, levels reached, warnings, stop-the-line),
//! and the sweep rewrites the board, with fresh minutes, only when that digest changes. A quiet sweep
//! writes nothing; the `Since` column stays exact between rewrites.

use super::markers::{digest, KIND_BOARD};
use super::pull::FollowupPull;
use super::texts::{duration, when};
use crate::core::facts::BoardIssue;
use crate::core::markers;
use crate::core::plan::Warning;
use std::fmt::Write;

/// Which of the issues carrying the board label is the board: the oldest (the lowest number) that is
/// not a pull request, so a second board made by hand, or a pull request given the label, never takes
/// over from the one the sweep keeps.
pub fn the_board(issues: &[BoardIssue]) -> Option<&BoardIssue> {
    issues.iter().filter(|i| !i.pull_request).min_by_key(|i| i.number)
}

/// One pull request that holds the line stopped: number, state, stop level (minutes), minutes.
pub struct Stop {
    pub number: u64,
    pub state: String,
    pub after: u32,
    pub minutes: i64,
}

pub struct BoardView<'a> {
    pub pulls: &'a [FollowupPull],
    pub warnings: &'a [Warning],
    pub stops: &'a [Stop],
    pub now: i64,
    /// "Mon Tue Wed Thu Fri 09:00–18:00 Asia/Taipei" when working hours are on.
    pub hours: Option<String>,
    pub order: &'a [String],
    /// The merge queue's lane (position and estimate of each one it lands), when something is queued.
    pub lane: &'a [crate::core::lane::LaneEntry],
}

/// The engine's one sanitizer of text written to GitHub: control characters removed (C0 but tab and
/// newline, DEL, C1), since a title is anyone's text and an ESC or NUL in it reaches whoever reads the
/// issue through a terminal (`gh issue view`, an API dump); tab and newline stay for multi-line text.
pub fn plain_text(s: &str) -> String {
    s.chars()
        .filter(|&c| !(c.is_control() && c != '\n' && c != '\t'))
        .collect()
}

/// A table cell: no pipes, no line breaks, no HTML, and no `@` that would mention someone on every rewrite.
fn cell(s: &str) -> String {
    plain_text(s)
        .replace(['\r', '\n', '\t'], " ")
        .replace('|', "\\|")
        .replace('<', "&lt;")
        .replace('@', "@\u{200b}")
}

fn code_list(items: &[String]) -> String {
    if items.is_empty() {
        "—".into()
    } else {
        items.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(" ")
    }
}

/// The body, with `times` the volatile parts (minutes, the time of the snapshot) or without them.
fn text(v: &BoardView, times: bool) -> String {
    let mut s = String::new();
    if !v.stops.is_empty() {
        s.push_str("> [!CAUTION]\n> **Stop the line.** Development machines: open no new pull request until the queue drains (`prflow claim dev` answers `stop-the-line`).\n");
        for stop in v.stops {
            if times {
                let _ = writeln!(
                    s,
                    "> - #{} has waited {} in `{}` (limit {})",
                    stop.number,
                    duration(stop.minutes),
                    stop.state,
                    duration(i64::from(stop.after))
                );
            } else {
                let _ = writeln!(
                    s,
                    "> - #{} in `{}` (limit {})",
                    stop.number,
                    stop.state,
                    duration(i64::from(stop.after))
                );
            }
        }
        s.push('\n');
    }
    let n = v.pulls.len();
    let _ = write!(s, "**{n} open pull request{}.**", if n == 1 { "" } else { "s" });
    if times {
        let _ = write!(s, " Time in state as of {}", when(v.now));
        match &v.hours {
            Some(h) => {
                let _ = write!(s, ", counting working hours only ({h}).");
            }
            None => s.push('.'),
        }
    }
    s.push('\n');

    let mut states: Vec<&str> = v
        .pulls
        .iter()
        .filter(|p| p.problem.is_none())
        .filter_map(|p| p.state.as_deref())
        .collect();
    states.sort_by_key(|st| {
        (
            v.order.iter().position(|o| o == st).unwrap_or(usize::MAX),
            st.to_string(),
        )
    });
    states.dedup();
    for state in states {
        let mut rows: Vec<&FollowupPull> = v
            .pulls
            .iter()
            .filter(|p| p.problem.is_none() && p.state.as_deref() == Some(state))
            .collect();
        rows.sort_by_key(|p| (p.since.is_none(), p.since.clone(), p.number));
        let _ = write!(s, "\n### `{state}` ({})\n\n", rows.len());
        s.push_str("| Pull request | In state | Since | Owner | Claimed by | Blockers | Follow-up |\n");
        s.push_str("| :-- | --: | :-- | :-- | :-- | :-- | :-- |\n");
        for p in rows {
            let minutes = match (times, p.minutes) {
                (true, Some(m)) => format!("{m} min"),
                (true, None) => "?".into(),
                (false, _) => String::new(),
            };
            let since = p
                .since
                .as_deref()
                .and_then(crate::core::time::parse_rfc3339)
                .map(when)
                .unwrap_or_else(|| "?".into());
            let mut follow = Vec::new();
            if let Some(r) = &p.reached {
                follow.push(format!("{} at {}", r.action.word(), duration(i64::from(r.after))));
            }
            if let Some(nx) = &p.next {
                follow.push(format!(
                    "next: {} at {}",
                    nx.action.word(),
                    duration(i64::from(nx.after))
                ));
            }
            let _ = writeln!(
                s,
                "| #{} {} | {minutes} | {since} | {} | {} | {} | {} |",
                p.number,
                cell(&p.title),
                code_list(
                    &[p.owner.clone()]
                        .into_iter()
                        .filter(|o| !o.is_empty())
                        .collect::<Vec<_>>()
                ),
                code_list(&p.claimers),
                code_list(&p.blockers),
                if follow.is_empty() {
                    "—".into()
                } else {
                    follow.join(" · ")
                },
            );
        }
    }

    if !v.lane.is_empty() {
        // The estimates move with every run: the digest keeps the order only, so a board is not
        // rewritten each sweep for a time that moved by a minute.
        let _ = write!(s, "\n### Merge queue: lands next ({})\n\n", v.lane.len());
        for e in v.lane {
            let title = v
                .pulls
                .iter()
                .find(|p| p.number == e.number)
                .map(|p| cell(&p.title))
                .unwrap_or_default();
            if times {
                let _ = writeln!(s, "{}. #{} {title}: {}", e.position, e.number, e.words);
            } else {
                let _ = writeln!(s, "{}. #{} {title}", e.position, e.number);
            }
        }
    }

    let troubled: Vec<&FollowupPull> = v.pulls.iter().filter(|p| p.problem.is_some()).collect();
    if !troubled.is_empty() {
        let _ = write!(s, "\n### Needs a person ({})\n\n", troubled.len());
        for p in &troubled {
            let _ = writeln!(
                s,
                "- #{} {}: {}",
                p.number,
                cell(&p.title),
                p.problem.as_deref().unwrap_or_default()
            );
        }
    }
    let rest: Vec<&Warning> = v
        .warnings
        .iter()
        .filter(|w| !w.number.is_some_and(|n| troubled.iter().any(|p| p.number == n)))
        .collect();
    if !rest.is_empty() {
        s.push_str("\n### Warnings\n\n");
        for w in rest {
            match w.number {
                Some(n) => {
                    let _ = writeln!(s, "- #{n}: {}", w.message);
                }
                None => {
                    let _ = writeln!(s, "- {}", w.message);
                }
            }
        }
    }
    s.push_str("\n<sub>Rewritten by prflow's follow-up sweep whenever its content changes; edits by hand are overwritten.</sub>\n");
    // Warnings and problems quote labels and titles too: the whole body goes through the sanitizer.
    plain_text(&s)
}

/// The digest of the board's lasting content, and the body to write.
pub fn render(v: &BoardView) -> (String, String) {
    let d = digest(&text(v, false));
    let body = format!("{}\n{}", markers::render(KIND_BOARD, &[("digest", &d)]), text(v, true));
    (d, body)
}

/// The digest an existing board body carries, if its first line is a board marker.
pub fn digest_of(body: &str) -> Option<String> {
    // `get`, not `remove`: a map's removal and rebalancing code would be in the page's Wasm for this alone.
    markers::parse(body)
        .filter(|m| m.kind == KIND_BOARD)?
        .fields
        .get("digest")
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_keeps_no_escape_or_nul_from_a_title_or_a_warning() {
        let pulls = [
            FollowupPull {
                number: 7,
                title: "\u{1b}[31mred\u{1b}[0m title".into(),
                state: Some("state:reviewing".into()),
                ..Default::default()
            },
            FollowupPull {
                number: 8,
                title: "nul\0cut\u{9b}2J".into(),
                problem: Some("two state labels: \u{1b}]8;;x\u{7}".into()),
                ..Default::default()
            },
        ];
        let warnings = [Warning {
            number: None,
            message: "label `a\u{1b}b` unknown".into(),
        }];
        let (_, body) = render(&BoardView {
            pulls: &pulls,
            warnings: &warnings,
            stops: &[],
            now: 0,
            hours: None,
            order: &[],
            lane: &[],
        });
        let bad: Vec<&str> = body
            .lines()
            .filter(|l| l.chars().any(|c| c.is_control() && c != '\t'))
            .collect();
        assert!(bad.is_empty(), "lines with control characters: {bad:?}");
        assert!(body.contains("| #7 [31mred[0m title |"), "{body}");
        assert!(body.contains("#8 nulcut2J: two state labels: ]8;;x"), "{body}");
        assert!(body.contains("label `ab` unknown"), "{body}");
    }

    #[test]
    fn the_board_names_what_the_queue_lands_next_and_a_moved_estimate_does_not_rewrite_it() {
        use crate::core::lane::LaneEntry;
        let pulls = [FollowupPull {
            number: 5,
            title: "queued one".into(),
            ..Default::default()
        }];
        let entry = |words: &str| LaneEntry {
            number: 5,
            position: 1,
            of: 1,
            eta: None,
            words: words.into(),
        };
        let at = [entry("1st of 1, about 12:10")];
        let later = [entry("1st of 1, about 12:30")];
        let view = |lane| BoardView {
            pulls: &pulls,
            warnings: &[],
            stops: &[],
            now: 0,
            hours: None,
            order: &[],
            lane,
        };
        let (digest, body) = render(&view(&at));
        assert!(
            body.contains("### Merge queue: lands next (1)\n\n1. #5 queued one: 1st of 1, about 12:10\n"),
            "{body}"
        );
        assert_eq!(
            render(&view(&later)).0,
            digest,
            "only the time moved: the same digest, no rewrite"
        );
        assert_ne!(render(&view(&[])).0, digest, "the lane emptied: rewritten");
    }

    #[test]
    fn plain_text_keeps_newlines_tabs_and_printable_unicode() {
        assert_eq!(
            plain_text("a\u{1b}[1mb\0c\r\nd\te\u{7f}\u{85}f é ✓"),
            "a[1mbc\nd\tef é ✓"
        );
    }
}
