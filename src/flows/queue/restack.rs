//! Which layers of a stack move, and from where to where. A layer's diff is its own commits and
//! nothing below it, so when the layer below merges (GitHub squashes it onto `main` and moves this
//! one there) or is rebased by the worker, the layer is replayed with `git rebase --onto <new> <old>`:
//! its own commits and nothing else, rather than trusting the patches to match a squash commit.
//! The squash commit's tree is the merged head's, so a restacked tree is one CI already checked.

use super::ctx::Ctx;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A layer as one survey saw it: the pull request stacked on another open pull request's branch,
/// with the head the layer below had then (the commit it merges at, if it merges next).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueLayer")]
pub struct Layer {
    pub number: u64,
    pub parent: u64,
    pub parent_head: String,
}

/// A pull request and a head of it: in `movedOff`, one moved off a stack whose merged layer's
/// commits it may still carry (its next rebase drops them with `--onto` from `head`, the head that
/// layer merged at); in a restack, the head a layer was just pushed at.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueHead")]
pub struct Head {
    pub number: u64,
    pub head: String,
}

/// One `rebase --onto` to do. `onto` is none while it is the new head of layer `parent`, which the
/// job before produces.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueRestackJob")]
pub struct Job {
    pub number: u64,
    pub branch: String,
    pub parent: Option<u64>,
    pub onto: Option<String>,
    pub upstream: String,
    pub expected_head: String,
    pub why: String,
}

/// A pull request that left the open list, read by number because the worker asked (`reads`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueClosedPull")]
pub struct ClosedPull {
    pub number: u64,
    pub merged: bool,
    /// The squash commit on the base, when it merged.
    #[serde(default)]
    pub merge_commit: Option<String>,
}

/// Every layer of this survey. A fork's branch is never a parent (`Ctx::stack_parent`), and a fork is
/// never restacked.
pub fn layers(ctx: &Ctx) -> Vec<Layer> {
    ctx.facts
        .pull_requests
        .iter()
        .filter(|p| !p.is_fork)
        .filter_map(|p| {
            ctx.stack_parent(p).map(|parent| Layer {
                number: p.number,
                parent,
                parent_head: ctx.by_number[&parent].head_sha.clone(),
            })
        })
        .collect()
}

/// The layers stacked on `number`, lowest first, each carried from `number`'s survey head onto its
/// new head (a stack moves as one: `merge-queued` is not asked).
pub fn above(ctx: &Ctx, number: u64) -> Vec<Job> {
    let mut jobs = Vec::new();
    let mut frontier = vec![number];
    while let Some(n) = frontier.first().copied() {
        frontier.remove(0);
        let Some(parent) = ctx.by_number.get(&n) else { continue };
        let mut children: Vec<&crate::core::facts::PullRequest> = ctx
            .facts
            .pull_requests
            .iter()
            .filter(|p| !p.is_fork && ctx.stack_parent(p) == Some(n))
            .collect();
        children.sort_by_key(|p| p.number);
        for c in children {
            jobs.push(Job {
                number: c.number,
                branch: c.head_ref.clone(),
                parent: Some(n),
                onto: None,
                upstream: parent.head_sha.clone(),
                expected_head: c.head_sha.clone(),
                why: format!("carried along with #{n}, the layer below"),
            });
            frontier.push(c.number);
        }
    }
    jobs
}

/// What step 1a finds: the layers the last survey saw whose layer below has merged since.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Moved {
    pub jobs: Vec<Job>,
    /// Pull requests whose next rebase drops the merged layer's commits.
    pub moved_off: Vec<Head>,
    pub log: Vec<String>,
}

/// Step 1a: for each layer the last survey saw whose layer below has left the open list, rebase it
/// `--onto` the squash commit from the head that layer merged at (and carry the layers above). One
/// labelled `merge-queued` is left to its own rebase when it is picked, which drops the same commits.
pub fn moved_layers(ctx: &Ctx, last: &[Layer], closed: &[ClosedPull]) -> Moved {
    let mut out = Moved::default();
    let queued = &ctx.config.queue.labels.merge_queued;
    for l in last {
        if ctx.by_number.contains_key(&l.parent) {
            continue;
        }
        let Some(pr) = ctx.by_number.get(&l.number) else {
            continue;
        };
        if pr.is_fork {
            out.log.push(format!(
                "#{}: the layer below (#{}) left, but a fork's branch is never restacked",
                l.number, l.parent
            ));
            continue;
        }
        let Some(c) = closed.iter().find(|c| c.number == l.parent) else {
            out.log.push(format!(
                "#{}: how #{} left the open list could not be read; left where GitHub put it",
                l.number, l.parent
            ));
            continue;
        };
        let Some(squash) = c.merge_commit.clone().filter(|_| c.merged) else {
            out.log.push(format!(
                "#{}: #{} was closed without merging; left where it is",
                l.number, l.parent
            ));
            continue;
        };
        out.moved_off.push(Head {
            number: l.number,
            head: l.parent_head.clone(),
        });
        if pr.has_label(queued) {
            out.log.push(format!(
                "#{}: #{} merged; `{queued}` is on, so its own rebase drops #{}'s commits when it is picked",
                l.number, l.parent, l.parent
            ));
            continue;
        }
        out.jobs.push(Job {
            number: l.number,
            branch: pr.head_ref.clone(),
            parent: None,
            onto: Some(squash.clone()),
            upstream: l.parent_head.clone(),
            expected_head: pr.head_sha.clone(),
            why: format!(
                "#{} merged as {}: restacked off its commits (not the pull request's turn)",
                l.parent,
                super::markers::short(&squash)
            ),
        });
        out.jobs.extend(above(ctx, l.number));
    }
    out
}
