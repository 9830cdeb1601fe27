//! Who owns a queued pull request, i.e. who moves it next: the worker, the fixer that repairs
//! set-aside pull requests, a human, or none (a state the rules do not cover: a bug in the tool).
//! This is the ONE function every command asks (`report`, `claim-pr`, `report-unowned`, the
//! worker): #2267 happened because the worker and the fixer each judged a set-aside against their
//! own reading of `main`, and each found the pull request the other's. So it reads the comments and
//! the pull request, never the tip of the base: a set-aside stands until the worker rewrites it.

use super::ctx::Ctx;
use super::markers::{self, KIND_CLAIM, KIND_SET_ASIDE};
use super::setaside::Reason;
use crate::core::facts::PullRequest;
use crate::core::time::parse_rfc3339;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueOwner")]
pub enum Owner {
    Worker,
    Fixer,
    Human,
    None,
}

impl Owner {
    pub fn as_str(self) -> &'static str {
        match self {
            Owner::Worker => "worker",
            Owner::Fixer => "fixer",
            Owner::Human => "human",
            Owner::None => "none",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueOwnerVerdict")]
pub struct OwnerVerdict {
    pub owner: Owner,
    /// A stable code for why (`claimed`, `set-aside:checks-failed`, `draft`, `fork`, `cycle`, ...).
    pub code: String,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueClaim")]
pub struct Claim {
    pub by: String,
    pub head: String,
    pub at: String,
    pub comment_id: Option<u64>,
}

/// Every claim comment the tool's account wrote on this pull request, oldest first, each with whether
/// it holds: not resolved, written at this head, less than `claimMinutes` ago.
fn claims(ctx: &Ctx, pr: &PullRequest) -> Vec<(Claim, bool)> {
    markers::own(&pr.comments, ctx.facts.viewer.as_deref())
        .into_iter()
        .filter(|(_, m)| m.kind == KIND_CLAIM || (m.kind == markers::KIND_RESOLVED && m.get("was") == KIND_CLAIM))
        .map(|(c, m)| {
            let claim = Claim {
                by: m.get("by").into(),
                head: m.get("head").into(),
                at: m.get("at").into(),
                comment_id: c.id,
            };
            let fresh = match (parse_rfc3339(&claim.at), ctx.now) {
                (Some(at), Some(now)) => now - at <= i64::from(ctx.config.queue.claim_minutes) * 60 && now >= at,
                _ => false,
            };
            let holds = m.kind == KIND_CLAIM && claim.head == pr.head_sha && fresh;
            (claim, holds)
        })
        .collect()
}

/// The claim that speaks for this pull request: the OLDEST claim still holding, else the newest claim
/// (which does not hold). Oldest, because a claim is always a new comment (claim.rs) and every
/// claimant reads back after its write: the first comment written is seen by every later writer's
/// read-back, so exactly one claimant of a race reads itself as the holder. "Newest wins" lets an
/// earlier writer that already read back and returned be overtaken by a later one: two holders.
pub fn current_claim(ctx: &Ctx, pr: &PullRequest) -> Option<(Claim, bool)> {
    let all = claims(ctx, pr);
    all.iter()
        .find(|(_, holds)| *holds)
        .cloned()
        .or_else(|| all.last().cloned())
}

/// A claim that holds: written at this head, less than `claimMinutes` ago (the oldest such).
pub fn holding_claim(ctx: &Ctx, pr: &PullRequest) -> Option<Claim> {
    current_claim(ctx, pr).filter(|(_, holds)| *holds).map(|(c, _)| c)
}

/// The set-aside standing at this head: the tool's own comment, not resolved, its Retry box not
/// ticked; or a record the worker holds whose comment failed to be written (settling writes it).
pub fn standing_set_aside(ctx: &Ctx, pr: &PullRequest) -> Option<crate::core::facts::SetAsideRecord> {
    if let Some((c, m)) = super::setaside::own_set_aside(ctx.facts, pr) {
        if m.kind == KIND_SET_ASIDE && m.get("head") == pr.head_sha && !markers::retry_ticked(&c.body) {
            return Some(crate::core::facts::SetAsideRecord {
                number: pr.number,
                reason: m.get("reason").into(),
                head: m.get("head").into(),
                base: m.get("base").into(),
            });
        }
        if m.kind == KIND_SET_ASIDE {
            return None;
        }
    }
    ctx.settlement
        .records
        .iter()
        .find(|r| r.number == pr.number && r.head == pr.head_sha)
        .cloned()
}

// The owner of each set-aside reason is decided here, where owners are, so the set-aside module
// (records and their comments) does not depend back on this one.
impl Reason {
    /// Who moves a pull request set aside for this reason. A match, so a new reason without an
    /// owner does not compile.
    pub fn owner(self) -> Owner {
        match self {
            // The fixer repairs conflicts and failing checks.
            Reason::RebaseFailed | Reason::ChecksFailed => Owner::Fixer,
            // A setting, a permission, a bypass merge or something no check reports: a person.
            Reason::PushFailed
            | Reason::UnlabelFailed
            | Reason::ArmFailed
            | Reason::AlreadyInBase
            | Reason::NotMerging
            | Reason::WatchTimeout
            | Reason::AwaitingBypass => Owner::Human,
        }
    }
}

/// The owner of a pull request in the queue; `None` when it is not in the queue.
pub fn queue_owner(ctx: &Ctx, pr: &PullRequest) -> Option<OwnerVerdict> {
    let d = ctx.declared.get(&pr.number)?;
    if !d.in_queue() {
        return None;
    }
    let v = |owner, code: &str, why: String| {
        Some(OwnerVerdict {
            owner,
            code: code.into(),
            why,
        })
    };
    if let Some(claim) = holding_claim(ctx, pr) {
        return v(
            Owner::Fixer,
            "claimed",
            format!("claimed by {} at {}", claim.by, claim.at),
        );
    }
    if let Some(record) = standing_set_aside(ctx, pr) {
        return match Reason::parse(&record.reason) {
            Some(r) => v(
                r.owner(),
                &format!("set-aside:{}", r.code()),
                format!("set aside `{}` at {}", r.code(), markers::short(&record.head)),
            ),
            None => v(
                Owner::None,
                "set-aside:unknown",
                format!("set aside for `{}`, a reason this version does not know", record.reason),
            ),
        };
    }
    if pr.is_draft {
        return v(Owner::Human, "draft", "a draft: its author finishes it".into());
    }
    if pr.is_fork {
        return v(
            Owner::Human,
            "fork",
            "a fork's branch: the queue cannot push to it".into(),
        );
    }
    if let Some(cycle) = ctx.graph.cycle_of(pr.number) {
        return v(
            Owner::Human,
            "cycle",
            format!(
                "caught in the cycle {}",
                super::numbers::cycle_numbers(cycle, pr.number)
            ),
        );
    }
    if pr.native_stack && !pr.auto_merge {
        return v(
            Owner::Human,
            "native-stack",
            "in one of GitHub's native stacks: merged by hand".into(),
        );
    }
    if !ctx.base_actionable(pr) {
        return v(
            Owner::Human,
            "base",
            format!(
                "based on `{}`, neither the default branch nor an open pull request's branch",
                pr.base_ref
            ),
        );
    }
    v(Owner::Worker, "worker", "waiting its turn with the worker".into())
}
