//! What `claim-pr` and `report-unowned` decide: whether a fixer may claim (or release) a pull
//! request and the comment to write, and the issues to file for pull requests whose owner is none.
//! Both ask the one owner function, so they never disagree with the worker. Both answer in ops the
//! writer table applies; who won a claim after the read-back is decided here too.

use super::ctx::Ctx;
use super::markers::{self, KIND_UNOWNED};
use super::owner::{self, Owner};
use crate::core::plan::{Guard, Op};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimDecision {
    pub ok: bool,
    /// `claim`, `renew`, `release`, or why not: `not-open`, `bad-name`, `not-queued`, `owner-worker`,
    /// `owner-human`, `owner-none`, `claimed-by-other`, `no-claim`.
    pub code: String,
    pub message: String,
    /// The head the claim is for.
    pub head: Option<String>,
    /// The comment write (the claim, or its release as a resolved line), guarded by that head; empty
    /// when refused.
    pub ops: Vec<Op>,
}

fn refuse(code: &str, message: String) -> ClaimDecision {
    ClaimDecision {
        ok: false,
        code: code.into(),
        message,
        head: None,
        ops: vec![],
    }
}

/// The claim comment as an op: edits `comment_id` in place while it still starts with the marker it
/// carries now (`current`), else creates one; only while the head is the one claimed.
fn claim_op(
    number: u64,
    current: Option<&str>,
    body: String,
    comment_id: Option<u64>,
    head: &str,
    reason: String,
) -> Op {
    let marker = current
        .unwrap_or(&body)
        .split('\n')
        .next()
        .unwrap_or_default()
        .to_string();
    Op::UpsertComment {
        number,
        marker,
        body,
        reason,
        comment_id,
        guard: Guard::head(head),
    }
}

pub fn claim_pr(ctx: &Ctx, number: u64, by: &str, release: bool) -> ClaimDecision {
    let Some(pr) = ctx.by_number.get(&number).copied() else {
        return refuse("not-open", format!("#{number} is not an open pull request"));
    };
    if !markers::valid_value(by) {
        return refuse(
            "bad-name",
            format!("{by:?} cannot be a claimant's name (no spaces, `=` or `--`)"),
        );
    }
    let holding = owner::holding_claim(ctx, pr);
    if release {
        return match holding {
            Some(c) if c.by == by => {
                let (comment, m) = markers::own(&pr.comments, ctx.facts.viewer.as_deref())
                    .into_iter()
                    .rev()
                    .find(|(x, _)| x.id == c.comment_id)
                    .expect("the claim's comment");
                let message = format!("#{number}: claim by {by} released");
                let op = claim_op(
                    number,
                    Some(&comment.body),
                    markers::resolved_line(&m, &format!("released by {by}.")),
                    c.comment_id,
                    &c.head,
                    message.clone(),
                );
                ClaimDecision {
                    ok: true,
                    code: "release".into(),
                    message,
                    head: Some(c.head),
                    ops: vec![op],
                }
            }
            Some(c) => refuse(
                "claimed-by-other",
                format!("#{number} is claimed by {}, not {by}", c.by),
            ),
            None => refuse("no-claim", format!("#{number} has no claim holding")),
        };
    }
    if let Some(c) = &holding {
        if c.by != by {
            return refuse(
                "claimed-by-other",
                format!("#{number} is claimed by {} since {}", c.by, c.at),
            );
        }
    }
    let Some(o) = owner::queue_owner(ctx, pr) else {
        return refuse("not-queued", format!("#{number} is not in the queue"));
    };
    match o.owner {
        Owner::Fixer => {}
        Owner::Worker => return refuse("owner-worker", format!("#{number} is the worker's: {}", o.why)),
        Owner::Human => return refuse("owner-human", format!("#{number} is a person's: {}", o.why)),
        Owner::None => return refuse("owner-none", format!("#{number} has no owner (a bug): {}", o.why)),
    }
    let at = ctx.facts.now.clone();
    let code = if holding.is_some() { "renew" } else { "claim" };
    let message = format!(
        "#{number} claimed by {by} at {} until the head moves or {} minutes pass",
        markers::short(&pr.head_sha),
        ctx.config.queue.claim_minutes
    );
    // Only a renewal edits a comment (the claimant's own, holding). Any other claim is a new comment,
    // even where a lapsed one could be reused: the oldest holding comment wins a race (owner.rs), and
    // an edit would give a late writer an old place in that order.
    let renewed = holding
        .as_ref()
        .and_then(|c| pr.comments.iter().find(|x| x.id.is_some() && x.id == c.comment_id));
    let body = markers::claim_body(&pr.head_sha, by, &at, ctx.config.queue.claim_minutes);
    let op = claim_op(
        number,
        renewed.map(|x| x.body.as_str()),
        body,
        renewed.and_then(|x| x.id),
        &pr.head_sha,
        message.clone(),
    );
    ClaimDecision {
        ok: true,
        code: code.into(),
        message,
        head: Some(pr.head_sha.clone()),
        ops: vec![op],
    }
}

/// After the claim comment is written and the comments read again: did `by` win? Two claimants
/// writing in the same moment each wrote a comment; the oldest one holds (owner::current_claim). A
/// release is done when no claim by `by` holds any more.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimReadBack {
    pub won: bool,
    /// Who holds the claim now, if anyone.
    pub holder: Option<String>,
    pub message: String,
}

pub fn claim_pr_read_back(ctx: &Ctx, number: u64, by: &str, release: bool) -> ClaimReadBack {
    let holder = ctx
        .by_number
        .get(&number)
        .and_then(|pr| owner::holding_claim(ctx, pr))
        .map(|c| c.by);
    let holds = holder.as_deref() == Some(by);
    let (won, message) = match (release, holds) {
        (true, false) => (true, format!("#{number}: the claim by {by} is released")),
        (true, true) => (
            false,
            format!("#{number}: the claim still reads as held after the release"),
        ),
        (false, true) => (true, format!("#{number}: claimed by {by}, written and read back")),
        (false, false) => (
            false,
            format!(
                "#{number}: someone else won the claim: {}",
                holder.as_deref().unwrap_or("no claim holds")
            ),
        ),
    };
    ClaimReadBack { won, holder, message }
}

/// An issue `report-unowned` keeps about one pull request, found again by its hidden line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnownIssue {
    pub number: u64,
    #[serde(default)]
    pub open: bool,
    #[serde(default)]
    pub body: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnownedIssue {
    pub pull: u64,
    pub title: String,
    pub body: String,
    /// The open issue already filed for it (nothing to create), if any.
    pub existing: Option<u64>,
    /// The issue to open (none when `existing` is).
    pub op: Option<Op>,
}

/// The hidden line that finds the issue for a pull request again.
pub fn unowned_marker(pull: u64) -> String {
    markers::render(KIND_UNOWNED, &[("pr", &pull.to_string())])
}

pub fn unowned_issues(report: &super::triage::Report, issues: &[KnownIssue]) -> Vec<UnownedIssue> {
    report
        .entries
        .iter()
        .filter(|e| e.owner == Some(Owner::None))
        .map(|e| {
            let existing = issues.iter().find(|i| i.open && markers::parse(&i.body).is_some_and(|m| m.kind == KIND_UNOWNED && m.get("pr") == e.number.to_string())).map(|i| i.number);
            let title = format!("prflow: #{} has no owner in the merge queue", e.number);
            let body = format!(
                    "{}\nThe merge queue found no owner for #{}: {}.\n\nNo rule covers this state, which is a bug in prflow. Reason code: `{}`.\n",
                    unowned_marker(e.number),
                    e.number,
                    e.owner_why.clone().unwrap_or_default(),
                    e.reason
                );
            let op = existing.is_none().then(|| Op::CreateIssue {
                title: title.clone(),
                body: body.clone(),
                marker: unowned_marker(e.number),
                labels: vec![],
                reason: format!("#{} is queued with no owner", e.number),
            });
            UnownedIssue { pull: e.number, title, body, existing, op }
        })
        .collect()
}
