//! `CODEOWNERS` as GitHub reads it: the last matching pattern wins, a pattern with no owners leaves
//! the path unowned, and patterns follow gitignore's rules as GitHub documents them (no `!`
//! negation, no `[]` ranges: such lines match nothing rather than something unexpected).

use crate::core::glob::glob_match;

/// One rule: a pattern and its owners (`@user`, `@org/team`, or an email), in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub pattern: String,
    pub owners: Vec<String>,
}

pub fn parse(text: &str) -> Vec<Rule> {
    let mut rules = Vec::new();
    for line in text.lines() {
        let line = strip_comment(line);
        let mut words = line.split_whitespace();
        let Some(pattern) = words.next() else { continue };
        rules.push(Rule {
            pattern: pattern.replace("\\#", "#"),
            owners: words.map(str::to_string).collect(),
        });
    }
    rules
}

/// `#` starts a comment unless escaped as `\#`.
fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    for i in 0..b.len() {
        if b[i] == b'#' && (i == 0 || b[i - 1] != b'\\') {
            return &line[..i];
        }
    }
    line
}

/// Whether a CODEOWNERS pattern matches a repository path.
pub fn pattern_matches(pattern: &str, path: &str) -> bool {
    if pattern.starts_with('!') || pattern.contains('[') {
        return false; // GitHub does not support these; the line matches nothing.
    }
    let dir_only = pattern.ends_with('/');
    let trimmed = pattern.trim_end_matches('/');
    let anchored = trimmed.starts_with('/') || trimmed.contains('/');
    let body = trimmed.trim_start_matches('/');
    if body.is_empty() {
        return false;
    }
    let glob = if anchored {
        body.to_string()
    } else {
        format!("**/{body}")
    };
    // A pattern matching a directory owns everything under it, except that a final `/*` segment
    // matches the files directly inside and not nested ones (GitHub's documented `docs/*` example).
    let files_only = body.ends_with("/*");
    let segs: Vec<&str> = path.split('/').collect();
    (1..=segs.len()).any(|k| {
        let is_dir = k < segs.len();
        (if is_dir { !files_only } else { !dir_only }) && glob_match(&glob, &segs[..k].join("/"))
    })
}

/// The owners of `path`: those of the last matching rule; empty when none matches or it names none.
pub fn owners_of(rules: &[Rule], path: &str) -> Vec<String> {
    rules
        .iter()
        .rev()
        .find(|r| pattern_matches(&r.pattern, path))
        .map(|r| r.owners.clone())
        .unwrap_or_default()
}

/// `codeOwners(codeownersText, path)`.
pub fn code_owners(text: &str, path: &str) -> Vec<String> {
    owners_of(&parse(text), path)
}
