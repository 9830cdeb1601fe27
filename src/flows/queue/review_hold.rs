//! Whether a pull request's review holds its merge, read the way the ruleset asks: a code owner's
//! approval for every changed path CODEOWNERS gives an owner, and no unresolved conversation.
//! Releasing one the review holds runs a whole matrix for nothing, so triage asks before releasing;
//! but what could not be read (too many files, a failed read) is never held on a guess.

use super::codeowners;
use crate::core::facts::{Facts, PullFact, PullRequest, RepoFact};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueReviewHold")]
pub struct ReviewHold {
    /// The review holds the merge: not rebased, released or watched.
    pub held: bool,
    /// Only its author owns the paths still waiting: released and watched, never armed, and set
    /// aside `awaiting-bypass` once green.
    pub bypass_only: bool,
    /// Why it is held, one line each.
    pub reasons: Vec<String>,
    /// What could not be read, so was not held on.
    pub not_read: Vec<String>,
}

fn login(owner: &str) -> String {
    owner.trim_start_matches('@').to_ascii_lowercase()
}

/// Logins whose newest decisive review approves.
fn approvers(pr: &PullRequest) -> BTreeSet<String> {
    // Each login's last decisive review stands (a later duplicate key replaces an earlier one).
    let decisive = pr
        .reviews
        .iter()
        .filter(|r| matches!(r.state.as_str(), "APPROVED" | "CHANGES_REQUESTED" | "DISMISSED"));
    let latest =
        std::collections::BTreeMap::from_iter(decisive.map(|r| (r.author.to_ascii_lowercase(), r.state.as_str())));
    latest
        .iter()
        .filter(|(_, s)| **s == "APPROVED")
        .map(|(a, _)| a.clone())
        .collect()
}

pub fn review_hold(facts: &Facts, pr: &PullRequest) -> ReviewHold {
    let mut out = ReviewHold::default();
    let author = pr.author.to_ascii_lowercase();
    let mut author_only = Vec::new();
    if facts.require_code_owner_review {
        if facts.repo_unknown(RepoFact::Codeowners) {
            out.not_read.push("CODEOWNERS could not be read".into());
        } else if pr.unknown(PullFact::Files) || pr.unknown(PullFact::Reviews) {
            out.not_read
                .push("the changed files or the reviews could not be read".into());
        } else if pr.files_truncated {
            out.not_read.push("more changed files than one page (100)".into());
        } else if let Some(text) = &facts.codeowners {
            let rules = codeowners::parse(text);
            let approved = approvers(pr);
            for path in &pr.files {
                let owners = codeowners::owners_of(&rules, path);
                if owners.is_empty() {
                    continue;
                }
                let mut unknown_teams = Vec::new();
                let satisfied = owners.iter().any(|o| {
                    let o = login(o);
                    match o.split_once('/') {
                        Some(_) => match facts
                            .team_members
                            .iter()
                            .find(|(t, _)| t.trim_start_matches('@').eq_ignore_ascii_case(&o))
                        {
                            Some((_, members)) => members
                                .iter()
                                .any(|m| m != &pr.author && approved.contains(&m.to_ascii_lowercase())),
                            None => {
                                unknown_teams.push(format!("@{o}"));
                                false
                            }
                        },
                        None => o != author && approved.contains(&o),
                    }
                });
                if satisfied {
                    continue;
                }
                if owners.iter().all(|o| login(o) == author) {
                    author_only.push(path.clone());
                    continue;
                }
                let mut reason = format!("{path} waits for a code owner's approval ({})", owners.join(", "));
                if !unknown_teams.is_empty() {
                    reason.push_str(&format!(
                        "; membership of {} could not be read",
                        unknown_teams.join(", ")
                    ));
                }
                out.reasons.push(reason);
            }
        }
    }
    if facts.require_conversation_resolution {
        match pr.unresolved_threads {
            Some(0) => {}
            Some(n) => out
                .reasons
                .push(format!("{n} unresolved conversation{}", if n == 1 { "" } else { "s" })),
            None => out.not_read.push("the review conversations could not be read".into()),
        }
    }
    out.held = !out.reasons.is_empty();
    if !out.held && !author_only.is_empty() {
        out.bypass_only = true;
        out.reasons.push(format!(
            "only its author owns {}: merges by a ruleset bypass",
            author_only.join(", ")
        ));
    }
    out
}
