//! Commands in pull-request comments (`/ready`, `/changes`, `/release`) and who may give them.
//!
//! Only the first word of a comment is a command, so a quote (`> /ready`), inline code (`` `/ready` ``)
//! or a fenced block (```` ``` ````) never is one: their first word is the quote or fence mark.
//!
//! Attribution. Many agents may share one bot login, so "the author" is the machine named by the
//! `from:<machine>` label, not a GitHub user. A comment speaks for a machine when its author is
//! (1) one of the machine's `logins` in the config (a shared login speaks for every machine listing it),
//! or (2) the login that put the machine's label on the pull request (the timeline's `labeled` actor),
//! or, for the author's machine only, (3) the login that opened the pull request.

use super::settings::{Role, Stations};
use crate::core::facts::PullRequest;

pub const READY: &str = "/ready";
pub const CHANGES: &str = "/changes";
pub const RELEASE: &str = "/release";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// The author's machine says its fixes are done.
    Ready,
    /// The review station (or the claimer) bounces it.
    Changes,
    /// The claim is given up; back to the queue.
    Release,
}

impl Command {
    pub fn word(self) -> &'static str {
        match self {
            Command::Ready => READY,
            Command::Changes => CHANGES,
            Command::Release => RELEASE,
        }
    }
}

/// The command a comment gives, if any: its first word, exactly.
pub fn parse(body: &str) -> Option<Command> {
    match body.split_whitespace().next()? {
        READY => Some(Command::Ready),
        CHANGES => Some(Command::Changes),
        RELEASE => Some(Command::Release),
        _ => None,
    }
}

/// The machine id in a label with this prefix (`from:m1` → `m1`).
pub fn machine_in<'a>(label: &'a str, prefix: &str) -> Option<&'a str> {
    label.strip_prefix(prefix).filter(|m| !m.is_empty())
}

/// The machines named by `prefix` labels on the pull request.
pub fn machines_labeled<'a>(pr: &'a PullRequest, prefix: &str) -> Vec<&'a str> {
    pr.labels.iter().filter_map(|l| machine_in(l, prefix)).collect()
}

/// Whether `login` speaks for `machine` on this pull request (rules 1 and 2 of the module comment).
pub fn speaks_for(st: &Stations, pr: &PullRequest, login: &str, machine: &str, prefix: &str) -> bool {
    if st.machines_of(login).contains(&machine) {
        return true;
    }
    let label = format!("{prefix}{machine}");
    pr.timeline.iter().any(|e| {
        e.kind == "labeled"
            && e.label.as_deref() == Some(label.as_str())
            && e.actor.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(login))
    })
}

/// Whether `login` is a review station of the config (a machine of role review or any).
pub fn is_station(st: &Stations, login: &str) -> bool {
    st.machines_of(login).iter().any(|m| {
        st.machines
            .get(*m)
            .is_some_and(|m| matches!(m.role, Role::Review | Role::Any))
    })
}

/// Who may give `cmd`, given the author's machines and the claims at that moment: Ok, or why not.
pub fn authorize(
    st: &Stations,
    pr: &PullRequest,
    cmd: Command,
    login: &str,
    can_write: bool,
    claims: &[String],
) -> Result<String, String> {
    let l = &st.labels;
    match cmd {
        Command::Ready => {
            let from = machines_labeled(pr, &l.from_prefix);
            if let Some(m) = from.iter().find(|m| speaks_for(st, pr, login, m, &l.from_prefix)) {
                return Ok(format!("{login} speaks for the author's machine {m}"));
            }
            if login.eq_ignore_ascii_case(&pr.author) {
                return Ok(format!("{login} opened the pull request"));
            }
            let whose = if from.is_empty() {
                "it has no from:<machine> label".to_string()
            } else {
                format!("the author's machine is {}", from.join(", "))
            };
            Err(format!(
                "only the author's machine may say {READY}; {whose} and {login} speaks for none of it"
            ))
        }
        Command::Changes => {
            if let Some(m) = claims.iter().find(|m| speaks_for(st, pr, login, m, &l.reviewer_prefix)) {
                return Ok(format!("{login} speaks for the claimer {m}"));
            }
            if is_station(st, login) {
                return Ok(format!("{login} is a review station"));
            }
            Err(format!(
                "only a review station or the claimer may say {CHANGES}; {login} is neither"
            ))
        }
        Command::Release => {
            if let Some(m) = claims.iter().find(|m| speaks_for(st, pr, login, m, &l.reviewer_prefix)) {
                return Ok(format!("{login} speaks for the claimer {m}"));
            }
            if can_write {
                return Ok(format!("{login} has write access"));
            }
            Err(format!(
                "only the claimer or someone with write access may say {RELEASE}; {login} is neither"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_word_is_a_command() {
        let cases: &[(&str, Option<Command>, &str)] = &[
            ("/ready", Some(Command::Ready), "bare command"),
            (
                "  /ready\nfixed the tests",
                Some(Command::Ready),
                "leading whitespace, text after",
            ),
            (
                "/changes: see review",
                None,
                "punctuation glued to the word is another word",
            ),
            ("please /ready", None, "not the first word"),
            ("> /ready", None, "a quote"),
            ("`/ready`", None, "inline code"),
            ("```\n/ready\n```", None, "a fenced block"),
            ("/READY", None, "commands are lower case"),
            ("", None, "empty comment"),
        ];
        for (body, want, rule) in cases {
            assert_eq!(parse(body), *want, "{rule}: {body:?}");
        }
    }
}
