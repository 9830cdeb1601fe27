//! The bot-panel flow: several bot reviewers, then a human who merges.
//!
//! The `state:*` label says who holds the ball on the review axis only; mergeability, checks and the
//! round are independent facts, so they also appear as a *set* of `blocker:*` labels with no order
//! between them to get wrong. `state:needs-human` means a human could merge this right now: anything
//! that makes that false outranks the request that put it there.

pub mod activity;
pub mod reviews;

use crate::core::checks::{check_verdict, Rollup};
use crate::core::config::Config;
use crate::core::facts::{Facts, Mergeable, PullFact, PullRequest};
use crate::core::labels::Wants;
use crate::core::plan::{Guard, Op, PullVerdict};
use crate::core::scopes::{scope_wants, Scopes};
use crate::flows::bot_panel::activity::stale_wants;
use crate::flows::bot_panel::reviews::{round, same_login, standing, Standing};

pub use crate::core::decision::Decision;

fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

fn names(list: &[&str]) -> String {
    list.join(", ")
}

/// Everything the state depends on, with the check rollup and the conflict as parameters so that an
/// unreadable rollup or an UNKNOWN mergeability can be decided both ways.
struct Inputs<'a> {
    pr: &'a PullRequest,
    config: &'a Config,
    round: Vec<(&'a str, Standing)>,
    humans: Vec<(&'a str, Standing)>,
}

/// The state label, why, and whether the humans should be requested now.
fn state(inp: &Inputs, checks: Rollup, conflicting: bool) -> (String, String, bool) {
    let l = &inp.config.labels;
    let pr = inp.pr;
    let sha = short(&pr.head_sha);
    let by = |s: Standing| -> Vec<&str> { inp.round.iter().filter(|(_, st)| *st == s).map(|(b, _)| *b).collect() };
    let humans_by =
        |s: Standing| -> Vec<&str> { inp.humans.iter().filter(|(_, st)| *st == s).map(|(h, _)| *h).collect() };

    let changes = by(Standing::ChangesRequested);
    if !changes.is_empty() {
        return (
            l.addressing.clone(),
            [&names(&changes), " requested changes on ", sha].concat(),
            false,
        );
    }
    let human_changes = humans_by(Standing::ChangesRequested);
    if !human_changes.is_empty() {
        return (
            l.addressing.clone(),
            [&names(&human_changes), " requested changes on ", sha].concat(),
            false,
        );
    }
    let requested = by(Standing::Requested);
    if !requested.is_empty() {
        return (
            l.bots_reviewing.clone(),
            ["review requested from ", &names(&requested)].concat(),
            false,
        );
    }
    let stale = by(Standing::Stale);
    if !stale.is_empty() {
        return (
            l.addressing.clone(),
            [
                &names(&stale),
                " reviewed an older commit, not ",
                sha,
                "; ask for a new round",
            ]
            .concat(),
            false,
        );
    }
    let missing = by(Standing::Missing);
    // An explicit request over an unfinished round (a bot has not reviewed yet: missing, not stale)
    // is deliberate: a maintainer pulling it to themselves early. A conflict or a failing check
    // still outranks it, as staled approvals did above: needs-human means mergeable now.
    let asked = humans_by(Standing::Requested);
    if !missing.is_empty() && !asked.is_empty() && !conflicting && checks != Rollup::Failing {
        return (
            l.needs_human.clone(),
            [
                &names(&asked),
                " asked to merge before ",
                &names(&missing),
                " reviewed ",
                sha,
                ": a person's request is deliberate",
            ]
            .concat(),
            false,
        );
    }
    if !missing.is_empty() {
        return (
            l.addressing.clone(),
            [&names(&missing), " not asked to review ", sha].concat(),
            false,
        );
    }
    if conflicting {
        return (
            l.addressing.clone(),
            "the round is done but the branch conflicts with its base".into(),
            false,
        );
    }
    if checks == Rollup::Failing {
        return (
            l.addressing.clone(),
            "the round is done but a check failed".into(),
            false,
        );
    }
    // Only a request (or the approval it led to) engages a human: an unrequested COMMENTED review
    // is a remark, and judging a comment-only round stays the author's.
    let engaged: Vec<&str> = inp
        .humans
        .iter()
        .filter(|(_, s)| matches!(s, Standing::Requested | Standing::Approved))
        .map(|(h, _)| *h)
        .collect();
    if !engaged.is_empty() {
        return (
            l.needs_human.clone(),
            ["round complete on ", sha, "; ", &names(&engaged), " asked to merge"].concat(),
            false,
        );
    }
    let bots = &inp.config.bot_panel;
    let all_approved = !inp.round.is_empty() && inp.round.iter().all(|(_, s)| *s == Standing::Approved);
    let requestable = !inp.humans.is_empty();
    if all_approved && bots.request_humans_when_approved && requestable {
        return (
            l.needs_human.clone(),
            ["every panel bot approved ", sha, "; requesting a human"].concat(),
            true,
        );
    }
    if all_approved {
        return (
            l.addressing.clone(),
            [
                "every panel bot approved ",
                sha,
                "; no human to request, the author hands it off",
            ]
            .concat(),
            false,
        );
    }
    (
        l.addressing.clone(),
        [
            "round on ",
            sha,
            " has comments only; the author judges it and requests a human",
        ]
        .concat(),
        false,
    )
}

/// `scopes` is `config.scopes` read once for the whole board (`Scopes::new`).
pub fn decide(
    facts: &Facts,
    config: &Config,
    pr: &PullRequest,
    now: i64,
    required: &[String],
    scopes: &Scopes,
) -> Decision {
    let l = &config.labels;
    let mut wants = Wants::default();
    let mut ops_after = Vec::new();
    let checks_known = !pr.unknown(PullFact::Checks);
    let (rollup_state, failing) = check_verdict(&pr.checks, required);
    let reviews_known = !pr.unknown(PullFact::Reviews) && !pr.unknown(PullFact::ReviewRequests);

    // The state axis.
    let humans: Vec<(&str, Standing)> = config
        .bot_panel
        .humans
        .iter()
        .filter(|h| !same_login(h, &pr.author))
        .map(|h| (h.as_str(), standing(pr, h)))
        .collect();
    // A panel bot that authored the pull request is excused from its own round: GitHub forbids
    // reviewing your own pull request, so it would stay "not asked" forever.
    let panel: Vec<&str> = config
        .bot_panel
        .bots
        .iter()
        .filter(|b| !same_login(b, &pr.author))
        .map(String::as_str)
        .collect();
    let inputs = Inputs {
        pr,
        config,
        round: round(pr, &panel),
        humans,
    };
    let draft_known = !pr.unknown(PullFact::IsDraft);
    let decided: Option<(String, String, bool)> = if !draft_known {
        // A draft outranks everything, so an unread flag leaves every reading open.
        None
    } else if pr.is_draft {
        Some((
            l.draft.clone(),
            "a draft is still being built by its author".into(),
            false,
        ))
    } else if !reviews_known {
        None
    } else {
        // Unreadable checks, or a mergeability GitHub has not computed (UNKNOWN for a minute after
        // the base moves, or a field that errored): decide every reading, and only where they all
        // agree, so "do not know" never promotes or demotes. Otherwise the state label stays.
        let rollups: &[Rollup] = if checks_known {
            std::slice::from_ref(&rollup_state)
        } else {
            &[Rollup::Passing, Rollup::Failing]
        };
        let conflicts: &[bool] = match pr.mergeable {
            Mergeable::Conflicting => &[true],
            Mergeable::Mergeable => &[false],
            Mergeable::Unknown => &[false, true],
        };
        let readings: Vec<(String, String, bool)> = rollups
            .iter()
            .flat_map(|r| conflicts.iter().map(|c| state(&inputs, *r, *c)))
            .collect();
        let first = readings[0].clone();
        readings.iter().all(|r| r.0 == first.0).then_some(first)
    };
    let why = match &decided {
        Some((label, why, request)) => {
            // An absent want only removes a label the pull request carries (labels.rs), and state
            // labels are no blockers (config: every label name is distinct), so the reason is only
            // written for a state it has: four `format!`s a pull request were most of the reasons.
            for other in l.states() {
                if other != label && pr.has_label(other) {
                    wants.absent(other, ["state is ", label, ": ", why].concat());
                }
            }
            wants.present(label, why.clone());
            if *request {
                let reviewers: Vec<String> = inputs.humans.iter().map(|(h, _)| h.to_string()).collect();
                ops_after.push(Op::RequestReviewers {
                    number: pr.number,
                    reviewers,
                    reason: why.clone(),
                    guard: Guard::head(&pr.head_sha),
                });
            }
            if label != &l.needs_human && pr.has_label(&l.merge_next) {
                wants.absent(&l.merge_next, ["no longer mergeable by a human: ", why].concat());
            }
            why.clone()
        }
        None if !draft_known => "whether it is a draft could not be read; state left as it is".to_string(),
        None if !reviews_known || !checks_known => {
            "reviews or checks could not be read; state left as it is".to_string()
        }
        None => "GitHub has not computed whether it conflicts (mergeable UNKNOWN); state left as it is".to_string(),
    };

    // Blockers: a set of independent facts.
    match pr.mergeable {
        Mergeable::Conflicting => wants.present(&l.blocker_conflict, "GitHub reports a merge conflict with the base"),
        Mergeable::Mergeable => {
            wants.absent_if_carried(pr, &l.blocker_conflict, || "GitHub reports no conflict".into())
        }
        // UNKNOWN is "do not know" (GitHub recomputes it for a minute after every merge), never a conflict.
        Mergeable::Unknown => {}
    }
    if checks_known {
        match rollup_state {
            Rollup::Failing => wants.present(&l.blocker_checks, ["failing: ", &failing.join(", ")].concat()),
            _ => wants.absent_if_carried(pr, &l.blocker_checks, || format!("checks {}", rollup_state.as_str())),
        }
    }
    if reviews_known && draft_known {
        let unasked: Vec<&str> = inputs
            .round
            .iter()
            .filter(|(_, s)| matches!(s, Standing::Missing | Standing::Stale))
            .map(|(b, _)| *b)
            .collect();
        if pr.is_draft {
            wants.absent_if_carried(pr, &l.blocker_unrequested, || {
                "a draft is not asking for review yet".into()
            });
        } else if unasked.is_empty() {
            wants.absent_if_carried(pr, &l.blocker_unrequested, || {
                "every panel bot has been asked about the head commit".into()
            });
        } else {
            let (has, was) = if unasked.len() == 1 {
                ("has", "was")
            } else {
                ("have", "were")
            };
            wants.present(
                &l.blocker_unrequested,
                [
                    &unasked.join(", "),
                    " ",
                    has,
                    " no verdict on ",
                    short(&pr.head_sha),
                    " and ",
                    was,
                    " not asked",
                ]
                .concat(),
            );
        }
    }

    stale_wants(
        pr,
        facts.viewer.as_deref(),
        now,
        config.stale.days,
        &l.stale,
        &mut wants,
    );
    scope_wants(pr, scopes, config.scope_sync, &mut wants);

    let blockers: Vec<String> = [&l.blocker_conflict, &l.blocker_checks, &l.blocker_unrequested]
        .into_iter()
        .filter(|b| {
            // No want: the label as it is (an absent want is recorded only for a label it carries).
            wants
                .0
                .iter()
                .rev()
                .find(|(label, _)| label == *b)
                .map_or(pr.has_label(b), |(_, w)| {
                    matches!(w, crate::core::labels::Want::Present(_))
                })
        })
        .cloned()
        .collect();
    let verdict = PullVerdict {
        number: pr.number,
        state: decided.map(|(label, _, _)| label),
        why,
        blockers,
        checks: if checks_known {
            rollup_state.as_str().to_string()
        } else {
            "unknown".to_string()
        },
    };
    Decision {
        wants,
        verdict,
        ops_after,
        notes: Vec::new(),
    }
}
