//! Set-asides: the reasons the worker passes a pull request over, how long each verdict lasts, and
//! how its records settle against the comments it wrote. A verdict lasts as long as the state it
//! was reached in: a push clears every reason; `main` moving clears all but `checks-failed` (the
//! push carrying the fix is what clears it) and `awaiting-bypass` (the bypass merge does not wait
//! for the base). The Retry box drops the record. A `not-merging` demotion outlives its record
//! until someone else pushes.

use super::markers::{self, Marker, KIND_SET_ASIDE};
use crate::core::facts::{Facts, PullFact, SetAsideRecord};
use crate::core::plan::{Guard, Op};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "SetAsideReason")]
pub enum Reason {
    RebaseFailed,
    PushFailed,
    UnlabelFailed,
    ArmFailed,
    AlreadyInBase,
    NotMerging,
    WatchTimeout,
    ChecksFailed,
    AwaitingBypass,
}

impl Reason {
    pub const ALL: [Reason; 9] = [
        Reason::RebaseFailed,
        Reason::PushFailed,
        Reason::UnlabelFailed,
        Reason::ArmFailed,
        Reason::AlreadyInBase,
        Reason::NotMerging,
        Reason::WatchTimeout,
        Reason::ChecksFailed,
        Reason::AwaitingBypass,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Reason::RebaseFailed => "rebase-failed",
            Reason::PushFailed => "push-failed",
            Reason::UnlabelFailed => "unlabel-failed",
            Reason::ArmFailed => "arm-failed",
            Reason::AlreadyInBase => "already-in-base",
            Reason::NotMerging => "not-merging",
            Reason::WatchTimeout => "watch-timeout",
            Reason::ChecksFailed => "checks-failed",
            Reason::AwaitingBypass => "awaiting-bypass",
        }
    }

    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == s)
    }

    /// The README's table: every reason is cleared by a push; these two are not cleared by `main` moving.
    pub fn cleared_by_main_move(self) -> bool {
        !matches!(self, Reason::ChecksFailed | Reason::AwaitingBypass)
    }

    /// Whether a fix puts it back in the lane: one awaiting a bypass merge, or already in the base,
    /// is done by a person, not picked again.
    pub fn returns_to_lane(self) -> bool {
        !matches!(self, Reason::AwaitingBypass | Reason::AlreadyInBase)
    }

    pub fn sentence(self) -> &'static str {
        match self {
            Reason::RebaseFailed => "rebasing it onto the base conflicted.",
            Reason::PushFailed => "the rebased branch could not be pushed.",
            Reason::UnlabelFailed => "`skip-ci` could not be taken off.",
            Reason::ArmFailed => "auto-merge could not be armed.",
            Reason::AlreadyInBase => "its changes are already in the base.",
            Reason::NotMerging => "it sat green without merging: something no check reports holds it.",
            Reason::WatchTimeout => "its checks did not finish within the watch timeout.",
            Reason::ChecksFailed => "a required check failed.",
            Reason::AwaitingBypass => "its checks are green, and only its author owns what it changes: a person with bypass rights has to merge it.",
        }
    }
}

/// Whether a set-aside still applies at this head and base tip. An unknown tip never clears.
pub fn applies(reason: &str, at_head: &str, at_base: &str, head: &str, base_tip: Option<&str>) -> bool {
    if at_head != head {
        return false;
    }
    let main_clears = Reason::parse(reason).is_none_or(|r| r.cleared_by_main_move());
    !(main_clears && base_tip.is_some_and(|tip| !at_base.is_empty() && tip != at_base))
}

/// The newest set-aside comment the tool's own account wrote on a pull request, resolved or not
/// (one per pull request, edited in place).
pub fn own_set_aside<'a>(
    facts: &'a Facts,
    pr: &'a crate::core::facts::PullRequest,
) -> Option<(&'a crate::core::facts::Comment, Marker)> {
    markers::own(&pr.comments, facts.viewer.as_deref())
        .into_iter()
        .rev()
        .find(|(_, m)| m.kind == KIND_SET_ASIDE || (m.kind == markers::KIND_RESOLVED && m.get("was") == KIND_SET_ASIDE))
}

/// The first line of a comment body: the marker an edit checks the comment still carries.
fn first_line(body: &str) -> String {
    body.split('\n')
        .next()
        .unwrap_or_default()
        .trim_end_matches('\r')
        .to_string()
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueSettlement")]
pub struct Settlement {
    /// The records the worker holds after settling.
    pub records: Vec<SetAsideRecord>,
    /// Comment writes: a set-aside rewritten as one resolved line, or written again for a record no
    /// comment says. Each edits the comment only while it still carries the marker that was read.
    pub ops: Vec<Op>,
    /// Pull requests whose record was dropped because a person ticked Retry.
    pub retried: Vec<u64>,
    /// Records taken up from an earlier run's comments.
    pub taken_up: Vec<u64>,
    /// Demotions still standing (the head is the one recorded).
    pub demoted: Vec<crate::core::facts::Demotion>,
}

/// Settle the worker's records with the comments (step 1b of a cycle).
pub fn settle(facts: &Facts) -> Settlement {
    let mut s = Settlement::default();
    let tip = facts.base_tip_sha.as_deref();
    for pr in &facts.pull_requests {
        let record = facts.queue_memory.records.iter().find(|r| r.number == pr.number);
        if pr.unknown(PullFact::Comments) {
            // Comments that cannot be read: the record stands as it was.
            s.records.extend(record.cloned());
            continue;
        }
        let comment = own_set_aside(facts, pr);
        let standing = comment
            .as_ref()
            .filter(|(c, m)| m.kind == KIND_SET_ASIDE && !c.body.is_empty());
        match standing {
            Some((c, m)) => {
                let resolve = |why: &str, s: &mut Settlement| {
                    s.ops.push(Op::UpsertComment {
                        number: pr.number,
                        marker: first_line(&c.body),
                        body: markers::resolved_line(m, why),
                        reason: why.to_string(),
                        comment_id: c.id,
                        guard: Guard::head(&pr.head_sha),
                    })
                };
                if markers::retry_ticked(&c.body) {
                    resolve("a retry was asked for.", &mut s);
                    s.retried.push(pr.number);
                } else if m.get("head") != pr.head_sha {
                    resolve("the head moved.", &mut s);
                } else if !applies(m.get("reason"), m.get("head"), m.get("base"), &pr.head_sha, tip) {
                    resolve("`main` moved.", &mut s);
                } else {
                    let from_comment = SetAsideRecord {
                        number: pr.number,
                        reason: m.get("reason").into(),
                        head: m.get("head").into(),
                        base: m.get("base").into(),
                    };
                    match record {
                        Some(r) => s.records.push(r.clone()),
                        None => {
                            s.taken_up.push(pr.number);
                            s.records.push(from_comment);
                        }
                    }
                }
            }
            None => {
                if let Some(r) = record {
                    if applies(&r.reason, &r.head, &r.base, &pr.head_sha, tip) {
                        // The comment failed to be written: write it again, or the fixer reads the
                        // owner as the worker while the worker holds it aside.
                        let body = markers::set_aside_body(&r.reason, &r.head, &r.base, "", "");
                        let marker = comment
                            .as_ref()
                            .map(|(c, _)| first_line(&c.body))
                            .unwrap_or_else(|| first_line(&body));
                        let comment_id = comment.as_ref().and_then(|(c, _)| c.id);
                        s.ops.push(Op::UpsertComment {
                            number: pr.number,
                            marker,
                            body,
                            reason: "the comment for this record was never written".into(),
                            comment_id,
                            guard: Guard::head(&r.head),
                        });
                        s.records.push(r.clone());
                    }
                }
            }
        }
    }
    for d in &facts.queue_memory.demoted {
        if facts
            .pull_requests
            .iter()
            .any(|p| p.number == d.number && p.head_sha == d.head)
        {
            s.demoted.push(d.clone());
        }
    }
    s
}
