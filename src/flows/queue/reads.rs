//! What the queue's reader must fetch beyond readFacts, named by the engine so that no shell parses a
//! body, a comment or CODEOWNERS: the issues pull requests close (by GitHub's link or a closing
//! keyword) and those their `Start-After:` or dependencies name, the dependencies of the open ones,
//! the members of the teams CODEOWNERS names, and the branches to compare with the base's tip.
//!
//! The reader asks, fetches, adds the answers to the facts and asks again until the answer is empty.
//! Each answer names only what the facts neither hold nor list as unreadable, so the loop ends: an
//! issue's `Start-After:` can name more issues only once that issue is read. A failed read goes into
//! the facts as unknown (`issues`, `teamMembers`, a pull request's `builtOnBaseTip`), never as a
//! silent "nothing there", and the triage lists it in its warnings.

use super::codeowners;
use super::ctx::Ctx;
use super::declare::parse_trailers;
use crate::core::facts::{Facts, PullFact, RepoFact};
use crate::Config;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueReads")]
pub struct Reads {
    /// Numbers whose state and body to read into `issues` (an issue, a pull request that is not open,
    /// or nothing): those open pull requests close, and those a read issue's `Start-After:` or
    /// dependencies name, when they are neither an open pull request nor read already.
    pub issues: Vec<u64>,
    /// Open issues that open pull requests close, whose GitHub dependencies ("blocked by") to read.
    pub blocked_by: Vec<u64>,
    /// Teams (`org/team`) CODEOWNERS names, whose members to read into `teamMembers`: only while the
    /// rules require a code owner's review.
    pub teams: Vec<String>,
    /// Open pull requests to compare with the base's tip (`builtOnBaseTip`): the version pull request
    /// and what waits in the queue under `skip-ci`.
    pub tips: Vec<u64>,
}

impl Reads {
    pub fn is_empty(&self) -> bool {
        self.issues.is_empty() && self.blocked_by.is_empty() && self.teams.is_empty() && self.tips.is_empty()
    }
}

fn push<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// What is still to read, given the facts read so far.
pub fn reads(facts: &Facts, config: &Config) -> Reads {
    reads_in(&Ctx::new(facts, config))
}

/// `reads` from a context already built: the dashboard answers them beside its view, so a board's
/// reader asks one whole-board question a round, not two.
pub fn reads_in(ctx: &Ctx) -> Reads {
    let facts = ctx.facts;
    let mut out = Reads::default();
    let issue = |n: u64| facts.issues.iter().find(|i| i.number == n);
    let unread = |n: u64| !ctx.by_number.contains_key(&n) && issue(n).is_none();
    if !facts.repo_unknown(RepoFact::Issues) {
        for d in ctx.declared.values() {
            for closed in &d.closes {
                let Some(i) = issue(closed.number) else {
                    if unread(closed.number) {
                        push(&mut out.issues, closed.number);
                    }
                    continue;
                };
                if i.open && !i.pull_request && i.blocked_by.is_none() {
                    push(&mut out.blocked_by, i.number);
                }
                let named = parse_trailers(&i.body)
                    .start_after
                    .into_iter()
                    .chain(i.blocked_by.iter().flatten().copied());
                for n in named {
                    if unread(n) {
                        push(&mut out.issues, n);
                    }
                }
            }
        }
    }
    if facts.require_code_owner_review
        && !facts.repo_unknown(RepoFact::Codeowners)
        && !facts.repo_unknown(RepoFact::TeamMembers)
    {
        for rule in codeowners::parse(facts.codeowners.as_deref().unwrap_or_default()) {
            for owner in &rule.owners {
                let team = owner.trim_start_matches('@').to_ascii_lowercase();
                let read = facts
                    .team_members
                    .keys()
                    .any(|t| t.trim_start_matches('@').eq_ignore_ascii_case(&team));
                if owner.starts_with('@') && team.contains('/') && !read {
                    push(&mut out.teams, team);
                }
            }
        }
    }
    if facts.base_tip_sha.as_deref().is_some_and(|s| !s.is_empty()) {
        for n in tip_reads_in(ctx) {
            let pr = ctx.by_number[&n];
            if pr.built_on_base_tip.is_none() && !pr.unknown(PullFact::BuiltOnBaseTip) && !pr.head_sha.is_empty() {
                out.tips.push(n);
            }
        }
    }
    out.issues.sort();
    out.blocked_by.sort();
    out.teams.sort();
    out
}

/// `reads` as the boundary calls it: facts as JSON text; a bad config is an error naming every path.
pub fn reads_text(facts: &str, config: serde_json::Value) -> Result<Reads, String> {
    let facts = crate::core::facts::parse_facts_str(facts).map_err(|e| e.0)?;
    let config = Config::from_value(config).map_err(|errors| {
        format!(
            "config: {}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
        )
    })?;
    Ok(reads(&facts, &config))
}

/// The pull requests whose `builtOnBaseTip` triage reads: the version pull request, what waits in
/// the queue under `skip-ci`, and a released one that is green while GitHub reads BLOCKED (a green
/// one that is not merging: once the base moves GitHub still says BLOCKED, not BEHIND). A reader asks
/// git about these only (one compare call each), so the rule
/// of which branches matter stays here, beside the triage that reads the answer. Forks are left out:
/// the queue never rebases them; so is a branch based elsewhere than the default branch (a stacked
/// layer, an old release branch): the default branch's tip says nothing about it, and a compare
/// that cannot answer would only be a failed read.
pub fn tip_reads(facts: &Facts, config: &Config) -> Vec<u64> {
    tip_reads_in(&Ctx::new(facts, config))
}

/// `tip_reads` from a context already built (a context reads every body: built once per answer).
pub fn tip_reads_in(ctx: &Ctx) -> Vec<u64> {
    ctx.facts
        .pull_requests
        .iter()
        .filter(|pr| !pr.is_fork && pr.base_ref == ctx.default_branch)
        .filter(|pr| {
            ctx.declared.get(&pr.number).is_some_and(|d| {
                d.is_version || d.paused_in_queue() || (d.merge_queued && !d.skip_ci && green_blocked(ctx, pr))
            })
        })
        .map(|pr| pr.number)
        .collect()
}

/// GitHub reads BLOCKED and every required check is green.
fn green_blocked(ctx: &Ctx, pr: &crate::core::facts::PullRequest) -> bool {
    let required = crate::core::checks::required_contexts(&ctx.facts.required_checks, ctx.config);
    pr.merge_state_status.as_deref() == Some("BLOCKED")
        && super::green::green(&pr.checks, &required).state == super::green::GreenState::Green
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Pull request #5 closes issue #10 by a keyword; each case changes one fact.
    fn facts(patch: Value) -> Facts {
        let mut base = json!({
            "now": "2026-01-01T00:00:00Z", "repository": "me/here", "defaultBranch": "main",
            "pullRequests": [{ "number": 5, "body": "Fixes #10", "baseRef": "main", "headRef": "b5", "headSha": "h5" }],
        });
        for (k, v) in patch.as_object().expect("an object") {
            base[k] = v.clone();
        }
        serde_json::from_value(base).expect("facts")
    }

    #[test]
    fn each_answer_names_what_the_facts_lack_and_nothing_they_hold() {
        let config = Config::default();
        let queued = json!([{ "number": 5, "body": "", "labels": ["merge-queued", "skip-ci"], "baseRef": "main", "headRef": "b5", "headSha": "h5" }]);
        let cases: Vec<(&str, Value, Reads)> = vec![
            (
                "the issue a closing keyword names",
                json!({}),
                Reads {
                    issues: vec![10],
                    ..Reads::default()
                },
            ),
            (
                "Start-After: on continuation lines, once the issue is read (issue 11), and its dependencies",
                json!({ "issues": [{ "number": 10, "open": true, "body": "Start-After:\n#12\n#13" }] }),
                Reads {
                    issues: vec![12, 13],
                    blocked_by: vec![10],
                    ..Reads::default()
                },
            ),
            (
                "what dependencies name is read too; read dependencies are not asked again",
                json!({ "issues": [{ "number": 10, "open": true, "blockedBy": [14] }] }),
                Reads {
                    issues: vec![14],
                    ..Reads::default()
                },
            ),
            (
                "an open pull request or a number read already is not asked",
                json!({ "issues": [{ "number": 10, "open": true, "body": "Start-After: #5 #11", "blockedBy": [] }, { "number": 11, "pullRequest": true }] }),
                Reads::default(),
            ),
            (
                "a closed issue's dependencies are not read",
                json!({ "issues": [{ "number": 10, "open": false }] }),
                Reads::default(),
            ),
            (
                "issues that could not be read are not asked again",
                json!({ "unknown": ["issues"] }),
                Reads::default(),
            ),
            (
                "a closing link to another repository's issue is not read as the local issue of its number (issue 11)",
                json!({ "pullRequests": [{ "number": 5, "body": "", "baseRef": "main", "headRef": "b5", "headSha": "h5", "closingIssues": [{ "number": 13, "repository": "other/repo" }] }] }),
                Reads::default(),
            ),
            (
                "a closing link to this repository's issue is read, its repository compared without case",
                json!({ "pullRequests": [{ "number": 5, "body": "", "baseRef": "main", "headRef": "b5", "headSha": "h5", "closingIssues": [{ "number": 7, "repository": "Me/Here" }, { "number": 13, "repository": "other/repo" }] }] }),
                Reads {
                    issues: vec![7],
                    ..Reads::default()
                },
            ),
            (
                "the teams CODEOWNERS names, while code-owner review is required",
                json!({ "requireCodeOwnerReview": true, "codeowners": "# owners\n*.rs @Org/Core @alice\ndocs/ @org/docs", "teamMembers": { "org/docs": ["bob"] } }),
                Reads {
                    issues: vec![10],
                    teams: vec!["org/core".into()],
                    ..Reads::default()
                },
            ),
            (
                "no team while code-owner review is not required",
                json!({ "codeowners": "* @org/core" }),
                Reads {
                    issues: vec![10],
                    ..Reads::default()
                },
            ),
            (
                "no team again once their read failed",
                json!({ "requireCodeOwnerReview": true, "codeowners": "* @org/core", "unknown": ["teamMembers"] }),
                Reads {
                    issues: vec![10],
                    ..Reads::default()
                },
            ),
            (
                "a branch paused in the queue is compared with the tip",
                json!({ "baseTipSha": "t", "pullRequests": queued }),
                Reads {
                    tips: vec![5],
                    ..Reads::default()
                },
            ),
            (
                "no tip to compare with: nothing compared",
                json!({ "pullRequests": queued }),
                Reads::default(),
            ),
            (
                "a released one, green while GitHub reads BLOCKED, is compared: GitHub would not say BEHIND",
                json!({ "baseTipSha": "t", "requiredChecks": ["ci"], "pullRequests": [{ "number": 5, "labels": ["merge-queued"], "mergeStateStatus": "BLOCKED", "baseRef": "main", "headRef": "b5", "headSha": "h5", "checks": [{ "name": "ci", "status": "COMPLETED", "conclusion": "SUCCESS" }] }] }),
                Reads {
                    tips: vec![5],
                    ..Reads::default()
                },
            ),
            (
                "a released one whose checks still run is not compared (the one being watched, every survey)",
                json!({ "baseTipSha": "t", "requiredChecks": ["ci"], "pullRequests": [{ "number": 5, "labels": ["merge-queued"], "mergeStateStatus": "BLOCKED", "baseRef": "main", "headRef": "b5", "headSha": "h5", "checks": [{ "name": "ci", "status": "IN_PROGRESS" }] }] }),
                Reads::default(),
            ),
            (
                "a compare that failed is not asked again",
                json!({ "baseTipSha": "t", "pullRequests": [{ "number": 5, "labels": ["merge-queued", "skip-ci"], "baseRef": "main", "headRef": "b5", "headSha": "h5", "unknown": ["builtOnBaseTip"] }] }),
                Reads::default(),
            ),
        ];
        for (rule, patch, want) in cases {
            assert_eq!(reads(&facts(patch), &config), want, "{rule}");
        }
    }

    #[test]
    fn reading_what_each_answer_names_ends() {
        // The loop a reader runs, over a repository where #10 names #12 on a continuation line and
        // #12 names #13: every answer is new and the loop ends. #12's own Start-After: concerns the
        // pull requests that close #12 (none here), so #13 is never asked for.
        let config = Config::default();
        let repository = |n: u64| match n {
            10 => json!({ "number": 10, "open": true, "body": "Start-After:\n#12" }),
            12 => json!({ "number": 12, "open": true, "body": "Start-After: #13" }),
            n => json!({ "number": n, "open": false }),
        };
        let mut f = facts(json!({}));
        let mut rounds = 0;
        loop {
            let r = reads(&f, &config);
            if r.is_empty() {
                break;
            }
            rounds += 1;
            assert!(rounds < 5, "the reads do not end: {r:?}");
            for n in r.issues {
                f.issues.push(serde_json::from_value(repository(n)).unwrap());
            }
            for n in r.blocked_by {
                f.issues.iter_mut().find(|i| i.number == n).unwrap().blocked_by = Some(vec![]);
            }
        }
        let mut read: Vec<u64> = f.issues.iter().map(|i| i.number).collect();
        read.sort();
        assert_eq!((read, rounds), (vec![10, 12], 2));
    }
}
