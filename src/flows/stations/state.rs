//! The state of one pull request, derived by replaying its timeline, not from the event that woke
//! the run: pushes, draft changes, claims (`reviewer:*` labels), reviews, commands and the gate's
//! status are merged into one time-ordered list and folded through the article's `decide()` rules.
//! A missed or reordered webhook is therefore healed by the next run: the history is the same.
//!
//! The fold keeps a phase, not a label: "in review" becomes `reviewing` when a claim is held at the
//! end and `ready-for-review` when none is, so a claim written by `prflow claim` a second before
//! the run (not yet in the timeline) is still seen.

use super::commands::{authorize, machine_in, parse, Command};
use super::settings::Stations;
use crate::core::facts::{Check, Comment, PullRequest, Review};
use crate::core::time::parse_rfc3339;
use std::collections::BTreeSet;

/// Where a pull request is, before claims decide between reviewing and ready-for-review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Dev,
    InReview,
    ChangesRequested,
    Gate,
    ReadyToMerge,
}

/// The gate status's verdict. Only SUCCESS passes: NEUTRAL or SKIPPED never stand in for a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateResult {
    Pending,
    Success,
    Failure,
}

const GATE_FAILURES: [&str; 5] = ["FAILURE", "ERROR", "TIMED_OUT", "STARTUP_FAILURE", "ACTION_REQUIRED"];

/// The verdict of one gate status, or None when it is not the gate's (a check run of a workflow job,
/// even one with the same name, is never the gate: a skipped job reports success).
pub fn gate_result(st: &Stations, check: &Check) -> Option<GateResult> {
    if check.name != st.gate.context || check.workflow.is_some() {
        return None;
    }
    let status = check.status.to_ascii_uppercase();
    let conclusion = check.conclusion.as_deref().map(str::to_ascii_uppercase);
    let word = conclusion.unwrap_or(status);
    Some(if word == "SUCCESS" {
        GateResult::Success
    } else if GATE_FAILURES.contains(&word.as_str()) {
        GateResult::Failure
    } else {
        GateResult::Pending
    })
}

/// The latest gate verdict among the head's checks.
pub fn head_gate(st: &Stations, pr: &PullRequest) -> Option<GateResult> {
    let mut gates: Vec<(i64, usize, GateResult)> = pr
        .checks
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            gate_result(st, c).map(|r| (time_of(c.completed_at.as_deref().or(c.started_at.as_deref())), i, r))
        })
        .collect();
    gates.sort_by_key(|g| (g.0, g.1));
    gates.last().map(|g| g.2)
}

#[derive(Debug)]
enum Ev<'a> {
    Draft,
    Ready,
    Reopened,
    Push,
    Labeled(&'a str),
    Unlabeled(&'a str),
    Review(&'a Review),
    Comment(&'a Comment),
    Gate(GateResult),
    /// `state:changes-requested` was put on (by the gate's report, or by hand).
    Bounced,
}

/// What the replay concluded.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    pub phase: Phase,
    /// The state label.
    pub state: String,
    /// Why, in words: the transition that put it there.
    pub why: String,
    /// Claims that a draft conversion or `/release` gave up while the label stayed on.
    pub released: Vec<String>,
    /// The claims held at the end.
    pub claims: Vec<String>,
    /// Commands and reviews that were ignored, with the reason.
    pub ignored: Vec<String>,
}

fn time_of(at: Option<&str>) -> i64 {
    // An event with no time sorts last: it exists, so it happened before the snapshot.
    at.and_then(parse_rfc3339).unwrap_or(i64::MAX)
}

fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

/// Replays the pull request. `extra_gate` is a gate status about to be written on the head (classify
/// and report ask "what will the state be once it is there").
pub fn derive(st: &Stations, pr: &PullRequest, extra_gate: Option<GateResult>) -> Derived {
    let l = &st.labels;
    let rp = &l.reviewer_prefix;
    // (time, rank, index, event): at equal times, pushes and draft changes come first, then labels,
    // reviews, comments, and the gate's status last.
    let mut evs: Vec<(i64, u8, usize, Ev)> = Vec::new();
    for (i, e) in pr.timeline.iter().enumerate() {
        let t = time_of(Some(&e.at));
        let ev = match e.kind.as_str() {
            "convert_to_draft" | "converted_to_draft" => (0, Ev::Draft),
            "ready_for_review" => (0, Ev::Ready),
            "reopened" => (0, Ev::Reopened),
            "committed" | "head_ref_force_pushed" | "synchronize" => (0, Ev::Push),
            "labeled" => match e.label.as_deref() {
                Some(x) if machine_in(x, rp).is_some() => (1, Ev::Labeled(machine_in(x, rp).unwrap_or_default())),
                // The gate's failure is a status on a commit a later push may have replaced; the
                // label the report wrote at that moment is what the timeline keeps of it.
                Some(x) if x == l.changes_requested => (1, Ev::Bounced),
                _ => continue,
            },
            "unlabeled" => match e.label.as_deref().and_then(|x| machine_in(x, rp)) {
                Some(m) => (1, Ev::Unlabeled(m)),
                None => continue,
            },
            _ => continue,
        };
        evs.push((t, ev.0, i, ev.1));
    }
    for (i, r) in pr.reviews.iter().enumerate() {
        evs.push((time_of(Some(&r.submitted_at)), 2, i, Ev::Review(r)));
    }
    for (i, c) in pr.comments.iter().enumerate() {
        evs.push((time_of(Some(&c.created_at)), 3, i, Ev::Comment(c)));
    }
    for (i, c) in pr.checks.iter().enumerate() {
        if let Some(r) = gate_result(st, c) {
            evs.push((
                time_of(c.completed_at.as_deref().or(c.started_at.as_deref())),
                4,
                i,
                Ev::Gate(r),
            ));
        }
    }
    if let Some(r) = extra_gate {
        evs.push((i64::MAX, 5, 0, Ev::Gate(r)));
    }
    evs.sort_by_key(|(t, rank, i, _)| (*t, *rank, *i));

    // Was it a draft when opened? The first draft change says; with none, it is what it is now.
    let first_draft_change = evs.iter().find_map(|(_, _, _, e)| match e {
        Ev::Draft => Some(false),
        Ev::Ready => Some(true),
        _ => None,
    });
    let opened_draft = first_draft_change.unwrap_or(pr.is_draft);

    // Claims whose label has no `labeled` event are older than anything the timeline shows.
    let current: Vec<String> = pr
        .labels
        .iter()
        .filter_map(|x| machine_in(x, rp))
        .map(str::to_string)
        .collect();
    let mut claims: BTreeSet<String> = current
        .iter()
        .filter(|m| {
            !pr.timeline
                .iter()
                .any(|e| e.kind == "labeled" && e.label.as_deref() == Some(&format!("{rp}{m}")))
        })
        .cloned()
        .collect();
    let mut released: BTreeSet<String> = BTreeSet::new();
    let mut ignored: Vec<String> = Vec::new();
    let mut last_gate: Option<GateResult> = None;

    let (mut phase, mut why) = if opened_draft {
        (Phase::Dev, "opened as a draft".to_string())
    } else {
        (Phase::InReview, "opened ready for review".to_string())
    };
    let head = pr.head_sha.as_str();

    for (_, _, _, ev) in &evs {
        match ev {
            Ev::Draft => {
                released.extend(claims.iter().cloned());
                claims.clear();
                phase = Phase::Dev;
                why = "converted to draft; any claim is released".into();
            }
            Ev::Ready => {
                if phase == Phase::Dev {
                    phase = Phase::InReview;
                    why = "marked ready for review".into();
                }
            }
            Ev::Reopened => {
                phase = if pr.is_draft { Phase::Dev } else { Phase::InReview };
                why = "reopened".into();
            }
            Ev::Push => {
                last_gate = None;
                if matches!(phase, Phase::Gate | Phase::ReadyToMerge) {
                    phase = Phase::InReview;
                    why = if claims.is_empty() {
                        "a push after approval voided the approval and the gate; back to the review queue".into()
                    } else {
                        format!(
                            "a push after approval voided the approval and the gate; back to the same reviewer ({})",
                            claims.iter().cloned().collect::<Vec<_>>().join(", ")
                        )
                    };
                }
                // In changes-requested a push does not re-queue: an agent pushes several times per
                // round of fixes, and says /ready when the round is done.
            }
            Ev::Labeled(m) => {
                claims.insert(m.to_string());
                if phase == Phase::InReview {
                    why = format!("claimed by {m}");
                }
            }
            Ev::Unlabeled(m) => {
                claims.remove(*m);
            }
            Ev::Review(r) => {
                let state = r.state.to_ascii_uppercase();
                // On the head at its time: the head now, or an older commit that a later push
                // replaced (the push then voids it in order). An older commit with no later push
                // seen is a review of another tree.
                let on_head = r.commit.is_empty() || r.commit == head || pushes_after(&evs, r);
                // Anyone can submit a review; only one by someone who can write, or by a login the
                // config names (a machine or a listed bot), is a verdict.
                let counts = r.author_can_write() || st.is_machine_or_bot(&r.author);
                match state.as_str() {
                    "APPROVED" | "CHANGES_REQUESTED" if !counts => {
                        ignored.push(format!("{} by {} ignored: only someone with write access, or a configured machine or bot, moves the state", state.to_ascii_lowercase().replace('_', " "), r.author));
                    }
                    "APPROVED" if st.is_machine_or_bot(&r.author) => {
                        ignored.push(format!(
                            "approval by {} ignored: machines and bots never approve, a person does",
                            r.author
                        ));
                    }
                    "APPROVED" if !on_head => {
                        ignored.push(format!(
                            "approval by {} was for {}, not the head {}",
                            r.author,
                            short(&r.commit),
                            short(head)
                        ));
                    }
                    "APPROVED" if phase == Phase::Dev => {
                        ignored.push(format!(
                            "approval by {} ignored: a draft stays with its author",
                            r.author
                        ));
                    }
                    "APPROVED" => {
                        // The gate's verdict on this head may already be in (on every push, or a
                        // re-approval). A pass stands; a failure counts only in on-every-push mode:
                        // after approval, a person approving again is asking for a new run.
                        (phase, why) = match last_gate {
                            Some(GateResult::Success) => (
                                Phase::ReadyToMerge,
                                format!(
                                    "approved by {} and the gate already passed on {}",
                                    r.author,
                                    short(head)
                                ),
                            ),
                            Some(GateResult::Failure) if st.gate.on_every_push => (
                                Phase::ChangesRequested,
                                format!("approved by {} but the gate failed on {}", r.author, short(head)),
                            ),
                            _ => (
                                Phase::Gate,
                                format!(
                                    "approved by {} on {}; waiting for {}",
                                    r.author,
                                    short(head),
                                    st.gate.context
                                ),
                            ),
                        };
                    }
                    "CHANGES_REQUESTED" if phase == Phase::Dev => {
                        ignored.push(format!(
                            "changes requested by {} while a draft: it stays with its author",
                            r.author
                        ));
                    }
                    "CHANGES_REQUESTED" => {
                        phase = Phase::ChangesRequested;
                        why = format!("{} requested changes", r.author);
                    }
                    _ => {}
                }
            }
            Ev::Comment(c) => {
                let Some(cmd) = parse(&c.body) else { continue };
                let held: Vec<String> = claims.iter().cloned().collect();
                let who = match authorize(st, pr, cmd, &c.author, c.author_can_write(), &held) {
                    Ok(who) => who,
                    Err(why_not) => {
                        ignored.push(format!("{} by {} ignored: {why_not}", cmd.word(), c.author));
                        continue;
                    }
                };
                let reviewing = phase == Phase::InReview && !claims.is_empty();
                match cmd {
                    Command::Ready if phase == Phase::ChangesRequested => {
                        phase = Phase::InReview;
                        why = if claims.is_empty() {
                            format!("/ready ({who}); back to the review queue")
                        } else {
                            format!("/ready ({who}); back to the same reviewer")
                        };
                    }
                    Command::Changes if reviewing => {
                        phase = Phase::ChangesRequested;
                        why = format!("/changes ({who})");
                    }
                    Command::Release if phase != Phase::Dev => {
                        released.extend(claims.iter().cloned());
                        claims.clear();
                        phase = Phase::InReview;
                        why = format!("/release ({who}); back to the review queue");
                    }
                    _ => {
                        let at = phase_word(phase, !claims.is_empty());
                        ignored.push(format!(
                            "{} by {} ignored: it does not apply while {at}",
                            cmd.word(),
                            c.author
                        ));
                    }
                }
            }
            Ev::Bounced => {
                if matches!(phase, Phase::Gate | Phase::ReadyToMerge) {
                    phase = Phase::ChangesRequested;
                    why = format!(
                        "{} was put on at the gate (its failure); back to the author",
                        l.changes_requested
                    );
                }
            }
            Ev::Gate(r) => {
                last_gate = Some(*r);
                match (phase, r) {
                    (Phase::Gate, GateResult::Success) => {
                        phase = Phase::ReadyToMerge;
                        why = format!("{} passed on {}", st.gate.context, short(head));
                    }
                    (Phase::Gate | Phase::ReadyToMerge, GateResult::Failure) => {
                        phase = Phase::ChangesRequested;
                        why = format!("{} failed on {}; back to the author", st.gate.context, short(head));
                    }
                    (Phase::InReview, GateResult::Failure) if st.gate.on_every_push => {
                        phase = Phase::ChangesRequested;
                        why = format!("{} failed on {}; back to the author", st.gate.context, short(head));
                    }
                    _ => {}
                }
            }
        }
    }

    // A draft is dev, whatever its history says (the timeline may lag the flag).
    if pr.is_draft && phase != Phase::Dev {
        phase = Phase::Dev;
        why = "a draft is still being built by its author".into();
    }
    // Final claims: the labels on it now, minus those a release gave up after they were written.
    let released: Vec<String> = current
        .iter()
        .filter(|m| released.contains(*m) && !claims.contains(*m))
        .cloned()
        .collect();
    let final_claims: Vec<String> = current.iter().filter(|m| !released.contains(m)).cloned().collect();
    let state = match phase {
        Phase::Dev => l.dev.clone(),
        Phase::InReview if final_claims.is_empty() => l.ready_for_review.clone(),
        Phase::InReview => l.reviewing.clone(),
        Phase::ChangesRequested => l.changes_requested.clone(),
        Phase::Gate => l.gate.clone(),
        Phase::ReadyToMerge => l.ready_to_merge.clone(),
    };
    Derived {
        phase,
        state,
        why,
        released,
        claims: final_claims,
        ignored,
    }
}

/// Whether a push comes after this review in the replay.
fn pushes_after(evs: &[(i64, u8, usize, Ev)], review: &Review) -> bool {
    let Some(pos) = evs
        .iter()
        .position(|(_, _, _, e)| matches!(e, Ev::Review(r) if std::ptr::eq(*r, review)))
    else {
        return false;
    };
    evs[pos + 1..].iter().any(|(_, _, _, e)| matches!(e, Ev::Push))
}

fn phase_word(phase: Phase, claimed: bool) -> &'static str {
    match phase {
        Phase::Dev => "a draft",
        Phase::InReview if claimed => "being reviewed",
        Phase::InReview => "waiting for review",
        Phase::ChangesRequested => "changes are requested",
        Phase::Gate => "waiting for the gate",
        Phase::ReadyToMerge => "ready to merge",
    }
}
/// Whether the gate is due on this pull request: after approval, or on every push when configured.
pub fn gate_due(config: &crate::core::config::Config, d: &Derived) -> bool {
    d.phase == Phase::Gate
        || (config.stations.gate.on_every_push && matches!(d.phase, Phase::InReview | Phase::ChangesRequested))
}

/// The labels that bring `pr` to the derived state `d` (state axis, released claims).
pub fn state_wants(config: &crate::core::config::Config, pr: &PullRequest, d: &Derived) -> crate::core::labels::Wants {
    let l = &config.stations.labels;
    let mut wants = crate::core::labels::Wants::default();
    for other in l.states() {
        if other != d.state {
            wants.absent(other, format!("state is {}: {}", d.state, d.why));
        }
    }
    wants.present(&d.state, d.why.clone());
    for m in &d.released {
        let label = format!("{}{m}", l.reviewer_prefix);
        if pr.has_label(&label) {
            wants.absent(&label, format!("the claim of {m} was released: {}", d.why));
        }
    }
    wants
}
