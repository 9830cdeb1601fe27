//! What a pull request declares to the queue: its scope label, `Merge-After:` trailers, the
//! `Start-After:` it inherits from the issues it closes, its stack base, `blocks-release`,
//! `auto-rebase`, its priority, and `skip-ci` (a pause, not a scope rule).

use crate::core::config::Config;
use crate::core::facts::Facts;
use crate::core::facts::PullRequest;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The trailer keys, matched without case.
pub const MERGE_AFTER: &str = "merge-after:";
pub const START_AFTER: &str = "start-after:";
/// GitHub's closing keywords.
pub const CLOSING_KEYWORDS: [&str; 9] = [
    "close", "closes", "closed", "fix", "fixes", "fixed", "resolve", "resolves", "resolved",
];

/// `parseTrailers(body)`: the numbers each trailer names, in the order written, without repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "Trailers")]
pub struct Trailers {
    pub merge_after: Vec<u64>,
    pub start_after: Vec<u64>,
}

/// The lines of a Markdown body that are outside fenced code blocks (``` or ~~~, closed by a fence
/// of the same character at least as long): a document describing the convention is not a constraint.
pub fn prose_lines(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for line in body.lines() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let t = line.trim_start_matches(' ');
        let opener = if indent <= 3 {
            ['`', '~'].into_iter().find_map(|c| {
                let n = t.chars().take_while(|&x| x == c).count();
                (n >= 3).then_some((c, n))
            })
        } else {
            None
        };
        match (fence, opener) {
            (None, Some(f)) => fence = Some(f),
            (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n && t.trim_start_matches(c).trim().is_empty() => {
                fence = None
            }
            (None, None) => out.push(line),
            _ => {}
        }
    }
    out
}

/// Numbers a piece of text names: `#123`, or a pull/issue URL ending in `/123`.
pub fn refs(text: &str) -> Vec<u64> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let after_hash = b[i] == b'#' && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        let after_url = (text[..i].ends_with("/pull/") || text[..i].ends_with("/issues/")) && b[i].is_ascii_digit();
        let start = if after_hash {
            i + 1
        } else if after_url {
            i
        } else {
            i += 1;
            continue;
        };
        let end = start + b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
        if end > start && (end == b.len() || !b[end].is_ascii_alphanumeric()) {
            if let Ok(n) = text[start..end].parse() {
                push_unique(&mut out, n);
            }
        }
        i = end.max(i + 1);
    }
    out
}

fn push_unique(v: &mut Vec<u64>, n: u64) {
    if !v.contains(&n) {
        v.push(n);
    }
}

/// A line that only continues a trailer: references and separators, nothing else.
fn continuation(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && !refs(t).is_empty()
        && t.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .all(|w| !refs(w).is_empty() && (w.starts_with('#') || w.starts_with("http")))
}

/// Every `Merge-After:` and `Start-After:` outside fenced code, any number per line, over several
/// lines (repeated keys, or bare `#n` lines right after one), all read as one AND.
pub fn parse_trailers(body: &str) -> Trailers {
    let mut out = Trailers::default();
    let mut current: Option<bool> = None; // Some(true) = merge-after
    for line in prose_lines(body) {
        let t = line.trim();
        let lower = t.to_ascii_lowercase();
        let (key, value) = if let Some(v) = lower.strip_prefix(MERGE_AFTER) {
            (Some(true), &t[t.len() - v.len()..])
        } else if let Some(v) = lower.strip_prefix(START_AFTER) {
            (Some(false), &t[t.len() - v.len()..])
        } else if current.is_some() && continuation(t) {
            (current, t)
        } else {
            current = None;
            continue;
        };
        current = key;
        let target = if key == Some(true) {
            &mut out.merge_after
        } else {
            &mut out.start_after
        };
        for n in refs(value) {
            push_unique(target, n);
        }
    }
    out
}

/// Issues a body closes with a closing keyword (`Fixes #12`, `closes: #3`), outside fenced code.
pub fn closing_keywords(body: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for line in prose_lines(body) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            let kw = pair[0].trim_end_matches(':').to_ascii_lowercase();
            if CLOSING_KEYWORDS.contains(&kw.as_str()) && pair[1].starts_with('#') {
                if let Some(&n) = refs(pair[1]).first() {
                    push_unique(&mut out, n);
                }
            }
        }
    }
    out
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueuePriority")]
pub enum Priority {
    High,
    #[default]
    Normal,
    Low,
}

/// A `Start-After:` number inherited from an issue, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueInherited")]
pub struct Inherited {
    /// The number named (a pull request, or an issue standing for the pull requests closing it).
    pub number: u64,
    /// The issue this pull request closes that named it.
    pub issue: u64,
    /// `start-after` (the issue's trailer) or `blocked-by` (GitHub's issue dependency).
    pub via: String,
    /// How this pull request closes the issue: `link` or `keyword`.
    pub closes_via: String,
}

/// Everything one pull request declares.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueDeclared")]
pub struct Declared {
    pub merge_queued: bool,
    pub skip_ci: bool,
    pub auto_rebase: bool,
    /// `blocks-release`; always false on the version pull request, where it would hold it forever.
    pub blocks_release: bool,
    pub priority: Priority,
    /// Both `priority:high` and `priority:low`: read as neither, and said so.
    pub priority_conflict: bool,
    /// The version pull request (its body is not read: the release workflow overwrites it).
    pub is_version: bool,
    pub merge_after: Vec<u64>,
    pub start_after: Vec<Inherited>,
    /// The issues it closes, with where each was read from.
    pub closes: Vec<crate::core::facts::IssueRef>,
    /// The open pull request whose branch is its base (a layer stacked on it).
    pub stacked_on: Option<u64>,
    /// Why something could not be read (the issues it closes), for the report.
    pub unread: Vec<String>,
}

impl Declared {
    /// In the queue: `merge-queued`, or `skip-ci` with `auto-rebase` (kept on the tip while it waits).
    pub fn in_queue(&self) -> bool {
        self.merge_queued || (self.skip_ci && self.auto_rebase)
    }

    /// In the queue and paused under `skip-ci`: its checks do not run, so only git can say whether its
    /// branch is built on the base's tip (what keep-on-tip and the tip reads ask).
    pub fn paused_in_queue(&self) -> bool {
        self.skip_ci && self.in_queue()
    }
}

/// What `pr` declares, read from its labels, body and closing issues; `is_version` and `stacked_on` as
/// the survey's context (`Ctx`) found them.
pub fn declared(
    facts: &Facts,
    config: &Config,
    pr: &PullRequest,
    is_version: bool,
    stacked_on: Option<u64>,
) -> Declared {
    let l = &config.queue.labels;
    let (high, low) = (pr.has_label(&l.priority_high), pr.has_label(&l.priority_low));
    let mut d = Declared {
        merge_queued: pr.has_label(&l.merge_queued),
        skip_ci: pr.has_label(&l.skip_ci),
        auto_rebase: pr.has_label(&l.auto_rebase),
        blocks_release: pr.has_label(&l.blocks_release) && !is_version,
        priority: match (high, low) {
            (true, false) => Priority::High,
            (false, true) => Priority::Low,
            _ => Priority::Normal,
        },
        priority_conflict: high && low,
        is_version,
        stacked_on,
        ..Default::default()
    };
    if is_version {
        return d;
    }
    // A Merge-After naming the pull request itself stays: the graph reports it as a cycle of one
    // (it can never be picked), rather than the trailer being silently dropped.
    d.merge_after = parse_trailers(&pr.body).merge_after;
    if pr.unknown(crate::core::facts::PullFact::ClosingIssues) {
        d.unread
            .push("the issues it closes could not be read: no Start-After: inherited".into());
    } else {
        d.closes = pr
            .closing_issues
            .iter()
            .filter(|r| r.is_in(&facts.repository))
            .map(|r| crate::core::facts::IssueRef {
                repository: None,
                ..r.clone()
            })
            .collect();
    }
    for n in closing_keywords(&pr.body) {
        if !d.closes.iter().any(|r| r.number == n) {
            d.closes.push(crate::core::facts::IssueRef {
                number: n,
                source: "keyword".into(),
                repository: None,
            });
        }
    }
    if facts.repo_unknown(crate::core::facts::RepoFact::Issues) {
        d.unread
            .push("issues could not be read: no Start-After: inherited".into());
        return d;
    }
    for closed in &d.closes {
        let Some(issue) = facts.issues.iter().find(|i| i.number == closed.number) else {
            continue;
        };
        let named = parse_trailers(&issue.body)
            .start_after
            .into_iter()
            .map(|n| (n, "start-after"))
            .chain(issue.blocked_by.iter().flatten().map(|&n| (n, "blocked-by")));
        for (n, via) in named {
            if n != pr.number && !d.start_after.iter().any(|i| i.number == n && i.issue == issue.number) {
                d.start_after.push(Inherited {
                    number: n,
                    issue: issue.number,
                    via: via.into(),
                    closes_via: closed.source.clone(),
                });
            }
        }
    }
    d
}
