//! What `claim-pr` and `report-unowned` decide: whether a fixer may claim (or release) a pull
//! request and the comment to write, and the issues to file for pull requests whose owner is none.
//! Both ask the one owner function, so they never disagree with the worker.

use super::markers::{self, KIND_UNOWNED};
use super::owner::{self, Owner};
use super::Ctx;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimDecision {
    pub ok: bool,
    /// `claim`, `renew`, `release`, or why not: `not-open`, `bad-name`, `not-queued`, `owner-worker`,
    /// `owner-human`, `owner-none`, `claimed-by-other`, `no-claim`.
    pub code: String,
    pub message: String,
    /// The comment to edit in place (none: create one).
    pub comment_id: Option<u64>,
    pub body: Option<String>,
    /// The head the claim is for.
    pub head: Option<String>,
}

fn refuse(code: &str, message: String) -> ClaimDecision {
    ClaimDecision { ok: false, code: code.into(), message, comment_id: None, body: None, head: None }
}

pub fn claim_pr(ctx: &Ctx, number: u64, by: &str, release: bool) -> ClaimDecision {
    let Some(pr) = ctx.by_number.get(&number).copied() else {
        return refuse("not-open", format!("#{number} is not an open pull request"));
    };
    if !markers::valid_value(by) {
        return refuse("bad-name", format!("{by:?} cannot be a claimant's name (no spaces, `=` or `--`)"));
    }
    let newest = owner::newest_claim(ctx, pr);
    let holding = newest.as_ref().filter(|(_, holds)| *holds).map(|(c, _)| c.clone());
    let comment_id = newest.as_ref().and_then(|(c, _)| c.comment_id);
    if release {
        return match holding {
            Some(c) if c.by == by => {
                let (_, m) = markers::own(&pr.comments, ctx.facts.viewer.as_deref()).into_iter().filter(|(x, _)| x.id == c.comment_id).last().expect("the claim's comment");
                ClaimDecision { ok: true, code: "release".into(), message: format!("#{number}: claim by {by} released"), comment_id: c.comment_id, body: Some(markers::resolved_line(&m, &format!("released by {by}."))), head: Some(c.head) }
            }
            Some(c) => refuse("claimed-by-other", format!("#{number} is claimed by {}, not {by}", c.by)),
            None => refuse("no-claim", format!("#{number} has no claim holding")),
        };
    }
    if let Some(c) = &holding {
        if c.by != by {
            return refuse("claimed-by-other", format!("#{number} is claimed by {} since {}", c.by, c.at));
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
    ClaimDecision {
        ok: true,
        code: code.into(),
        message: format!("#{number} claimed by {by} at {} until the head moves or {} minutes pass", markers::short(&pr.head_sha), ctx.config.queue.claim_minutes),
        comment_id,
        body: Some(markers::claim_body(&pr.head_sha, by, &at, ctx.config.queue.claim_minutes)),
        head: Some(pr.head_sha.clone()),
    }
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnownedIssue {
    pub pull: u64,
    pub title: String,
    pub body: String,
    /// The open issue already filed for it (nothing to create), if any.
    pub existing: Option<u64>,
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
            UnownedIssue {
                pull: e.number,
                title: format!("prflow: #{} has no owner in the merge queue", e.number),
                body: format!(
                    "{}\nThe merge queue found no owner for #{}: {}.\n\nNo rule covers this state, which is a bug in prflow. Reason code: `{}`.\n",
                    unowned_marker(e.number),
                    e.number,
                    e.owner_why.clone().unwrap_or_default(),
                    e.reason
                ),
                existing,
            }
        })
        .collect()
}
