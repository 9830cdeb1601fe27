//! What the agents' two write commands decide: `open-pr` (a pull request opened the way the queue
//! expects: under `skip-ci`, a stack's layer naming the layer below in `Merge-After:` and carrying
//! `auto-rebase`, armed by nobody) and `push-fixed-pr` (`skip-ci` on before the push, the push leased
//! against the head the claim was made at, then the claim resolved so the worker owns it again).
//! The shells only run git and apply these ops through the writer table.

use super::ctx::Ctx;
use super::declare::parse_trailers;
use super::markers;
use super::owner;
use crate::core::plan::{Guard, LabelChange, Op};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `open-pr`'s request: the branch is pushed already; `base` none means the default branch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenPrRequest {
    pub title: String,
    #[serde(default)]
    pub body: String,
    pub head: String,
    #[serde(default)]
    pub base: Option<String>,
    /// Label it `merge-queued` too.
    #[serde(default)]
    pub queue: bool,
    #[serde(default)]
    pub draft: bool,
    /// The stations flow's machine opening it (`from:<machine>` when the config names the machine).
    #[serde(default)]
    pub machine: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenPrDecision {
    pub ok: bool,
    /// `open`, or why not: `no-title`, `no-head`, `head-is-base`, `exists`, `base-unknown`.
    pub code: String,
    pub message: String,
    pub base: String,
    /// The layer below, when `base` is an open pull request's branch.
    pub stacked_on: Option<u64>,
    /// The body as written, `Merge-After:` included.
    pub body: String,
    pub labels: Vec<String>,
    /// The pull request first, then `auto-rebase` on the layer below when it lacks it.
    pub ops: Vec<Op>,
    pub warnings: Vec<String>,
}

pub fn open_pr(ctx: &Ctx, req: &OpenPrRequest) -> OpenPrDecision {
    let labels_cfg = &ctx.config.queue.labels;
    let base = req
        .base
        .clone()
        .filter(|b| !b.trim().is_empty())
        .unwrap_or_else(|| ctx.default_branch.clone());
    let refuse = |code: &str, message: String| OpenPrDecision {
        ok: false,
        code: code.into(),
        message,
        base: base.clone(),
        stacked_on: None,
        body: String::new(),
        labels: vec![],
        ops: vec![],
        warnings: vec![],
    };
    if req.title.trim().is_empty() {
        return refuse("no-title", "a pull request needs a title (--title)".into());
    }
    if req.head.trim().is_empty() {
        return refuse(
            "no-head",
            "no head branch: check out the branch to open, or name it with --head".into(),
        );
    }
    if req.head == base {
        return refuse(
            "head-is-base",
            format!("the head branch `{}` is the base itself", req.head),
        );
    }
    if let Some(pr) = ctx
        .facts
        .pull_requests
        .iter()
        .find(|p| !p.is_fork && p.head_ref == req.head)
    {
        return refuse(
            "exists",
            format!("`{}` already has an open pull request: #{}", req.head, pr.number),
        );
    }
    // A layer of a stack: the base is another open pull request's branch (the same rule the worker's
    // triage reads, so the order written here is the order it lands in).
    let parent = if base == ctx.default_branch {
        None
    } else {
        ctx.heads.get(&base.as_str()).copied()
    };
    if base != ctx.default_branch && parent.is_none() {
        return refuse(
            "base-unknown",
            format!(
                "--base {base} is neither the default branch `{}` nor an open pull request's branch",
                ctx.default_branch
            ),
        );
    }
    let mut warnings = Vec::new();
    let mut body = req.body.trim_end().to_string();
    if let Some(below) = parent {
        // The base alone already orders the stack; the trailer says the same in words a person and the
        // page read, and is not written twice when the body names it already.
        if !parse_trailers(&body).merge_after.contains(&below) {
            if !body.is_empty() {
                body.push_str("\n\n");
            }
            body.push_str(&format!("Merge-After: #{below}"));
        }
    }
    if !body.is_empty() {
        body.push('\n');
    }
    // Under skip-ci the round the opening fires costs nothing; only the worker takes it off.
    let mut labels = vec![labels_cfg.skip_ci.clone()];
    if parent.is_some() {
        labels.push(labels_cfg.auto_rebase.clone());
    }
    if req.queue {
        labels.push(labels_cfg.merge_queued.clone());
    }
    if let Some(machine) = req.machine.as_deref().filter(|m| !m.is_empty()) {
        if ctx.config.stations.machines.contains_key(machine) {
            labels.push(format!("{}{machine}", ctx.config.stations.labels.from_prefix));
        } else {
            warnings.push(format!(
                "--machine {machine} is not in stations.machines: no `{}` label",
                ctx.config.stations.labels.from_prefix
            ));
        }
    }
    let what = match parent {
        Some(below) => format!("a layer stacked on #{below} (`{base}`)"),
        None => format!("onto `{base}`"),
    };
    let message = format!("open `{}` {what} with {}", req.head, labels.join(", "));
    let mut ops = vec![Op::CreatePullRequest {
        title: req.title.trim().into(),
        body: body.clone(),
        head: req.head.clone(),
        base: base.clone(),
        draft: req.draft,
        labels: labels.clone(),
        reason: message.clone(),
    }];
    if let Some(below) = parent.and_then(|n| ctx.by_number.get(&n).copied()) {
        // `auto-rebase` is on every layer: the bottom one was opened before it knew it was a stack.
        if !ctx.declared.get(&below.number).is_some_and(|d| d.auto_rebase) {
            let reason = format!(
                "#{} is the layer below a new layer: every layer of a stack is kept on the tip",
                below.number
            );
            ops.push(Op::EditLabels {
                number: below.number,
                add: vec![LabelChange {
                    label: labels_cfg.auto_rebase.clone(),
                    reason: reason.clone(),
                }],
                remove: vec![],
                reason,
                guard: Guard::default(),
            });
        }
    }
    OpenPrDecision {
        ok: true,
        code: "open".into(),
        message,
        base,
        stacked_on: parent,
        body,
        labels,
        ops,
        warnings,
    }
}

/// `push-fixed-pr`'s request: the pull request, the claimant, and the commit it is about to push.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PushFixedRequest {
    pub number: u64,
    pub by: String,
    /// The local commit carrying the fix.
    pub commit: String,
}

/// The push itself, run by the shell with git: `git push --force-with-lease=<branch>:<lease> origin <commit>:refs/heads/<branch>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeasedPush {
    pub branch: String,
    pub commit: String,
    /// The head the claim was made at: a push since then loses the lease and nothing else is written.
    pub lease: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushFixedDecision {
    pub ok: bool,
    /// `push`, or why not: `not-open`, `fork`, `no-claim`, `claimed-by-other`, `nothing-to-push`.
    pub code: String,
    pub message: String,
    /// Applied before the push, in order (`skip-ci` on, guarded by the leased head): when one fails its
    /// guard, the shell stops and pushes nothing.
    pub before: Vec<Op>,
    pub push: Option<LeasedPush>,
    /// Applied after the push succeeded: the claim rewritten as resolved, guarded by the pushed commit.
    pub after: Vec<Op>,
}

pub fn push_fixed_pr(ctx: &Ctx, req: &PushFixedRequest) -> PushFixedDecision {
    let refuse = |code: &str, message: String| PushFixedDecision {
        ok: false,
        code: code.into(),
        message,
        before: vec![],
        push: None,
        after: vec![],
    };
    let n = req.number;
    let Some(pr) = ctx.by_number.get(&n).copied() else {
        return refuse("not-open", format!("#{n} is not an open pull request"));
    };
    if pr.is_fork {
        return refuse("fork", format!("#{n} is a fork's branch: the queue cannot push to it"));
    }
    // Only the claimant pushes: the claim is what kept the worker off the branch while the fix was made.
    let Some(claim) = owner::holding_claim(ctx, pr) else {
        return refuse(
            "no-claim",
            format!(
                "#{n} has no claim holding at {}: claim it first (prflow claim-pr {n} --by {})",
                markers::short(&pr.head_sha),
                req.by
            ),
        );
    };
    if claim.by != req.by {
        return refuse(
            "claimed-by-other",
            format!("#{n} is claimed by {}, not {}", claim.by, req.by),
        );
    }
    if req.commit.is_empty() || req.commit == pr.head_sha {
        return refuse(
            "nothing-to-push",
            format!("#{n}: the commit to push is the head already; nothing was fixed"),
        );
    }
    let skip = ctx.config.queue.labels.skip_ci.clone();
    let mut before = Vec::new();
    if !pr.labels.iter().any(|l| l.eq_ignore_ascii_case(&skip)) {
        // Before the push, so the push runs no matrix: only the worker decides when one runs.
        let reason = format!("#{n}: the fix is pushed under {skip}; the worker releases it when its turn comes");
        before.push(Op::EditLabels {
            number: n,
            add: vec![LabelChange {
                label: skip.clone(),
                reason: reason.clone(),
            }],
            remove: vec![],
            reason,
            guard: Guard::head(&pr.head_sha),
        });
    }
    let (comment, marker) = markers::own(&pr.comments, ctx.facts.viewer.as_deref())
        .into_iter()
        .find(|(c, _)| c.id.is_some() && c.id == claim.comment_id)
        .expect("a holding claim has its comment");
    let first = comment.body.split('\n').next().unwrap_or_default().to_string();
    let why = format!(
        "fix pushed by {} as {}; the worker has it again.",
        req.by,
        markers::short(&req.commit)
    );
    let message = format!(
        "#{n}: push {} onto `{}` leased at {} under {skip}, then release the claim",
        markers::short(&req.commit),
        pr.head_ref,
        markers::short(&pr.head_sha)
    );
    let after = vec![Op::UpsertComment {
        number: n,
        marker: first,
        body: markers::resolved_line(&marker, &why),
        reason: format!("#{n}: the claim by {} ends with its push", req.by),
        comment_id: claim.comment_id,
        guard: Guard::head(&req.commit),
    }];
    PushFixedDecision {
        ok: true,
        code: "push".into(),
        message,
        before,
        push: Some(LeasedPush {
            branch: pr.head_ref.clone(),
            commit: req.commit.clone(),
            lease: pr.head_sha.clone(),
        }),
        after,
    }
}
