//! The plan model: what the engine wants written, in order, each operation with its reason in words.
//! Shells apply it and report each operation; applying it and reconciling again yields an empty plan.

use crate::config::ConfigError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// The engine's version, so a job summary says which rules decided.
    pub engine: String,
    /// Problems in the config. When there are any, `ops` is empty: a bad config changes nothing.
    pub config_errors: Vec<ConfigError>,
    /// The writes, in the order they should be applied.
    pub ops: Vec<Op>,
    /// What the engine concluded about each pull request, written or not (for summaries and boards).
    pub pulls: Vec<PullVerdict>,
    /// Things a person should know that no write fixes.
    pub warnings: Vec<Warning>,
}

/// One write. `reason` is one line a person can read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Op {
    /// Add and remove labels on one pull request in a single edit, so the board never flickers.
    EditLabels { number: u64, add: Vec<LabelChange>, remove: Vec<LabelChange>, reason: String },
    /// Request reviews from these logins.
    RequestReviewers { number: u64, reviewers: Vec<String>, reason: String },
    /// A comment on a pull request whose first line is `marker`: the shell edits `commentId` (the
    /// engine's pick: the tool's own comment that starts with that marker line) if its body differs,
    /// or creates one when there is none.
    UpsertComment {
        number: u64,
        marker: String,
        body: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        comment_id: Option<u64>,
    },
    /// The board issue: create it with `label` and `title` when `number` is none, otherwise replace its
    /// body. The engine emits it only when the content changed.
    UpsertBoard { number: Option<u64>, label: String, title: String, body: String, reason: String },
    /// Write a commit status (the stations flow's validation gate). `number` is the pull request it is
    /// for; the status belongs to `sha`, which may be an older commit than its head.
    SetStatus { number: u64, sha: String, context: String, state: StatusState, description: String, reason: String },
    // ---- The merge queue worker's ops (issue 13; H-worker). One block, kept last so it merges with
    // the guarded vocabulary of H-ops; expect renames. The shell applies a step's ops in order and
    // stops at the first that does not succeed, reporting one `queue::cycle::OpResult` per op applied.
    /// Rebase `branch` onto the freshly fetched `onto` in a throwaway worktree. Guard: the fetched
    /// head is `expectedHead` (else `moved`). With `dropping`, a head that still contains that commit
    /// (the head a merged layer below merged at) is rebased `--onto <onto> <dropping>`; otherwise plainly.
    Rebase { number: u64, branch: String, onto: String, expected_head: String, dropping: Option<String>, reason: String },
    /// `git rebase --onto <onto> <upstream>` in a throwaway worktree: a layer's own commits and
    /// nothing else. Guard: the head is `expectedHead` (else `moved`); a head that does not contain
    /// `upstream` is `skipped` (GitHub rebased it, or it was restacked already).
    RebaseOnto { number: u64, branch: String, onto: String, upstream: String, expected_head: String, reason: String },
    /// Push what the op before produced to `branch` with `--force-with-lease=<branch>:<lease>`.
    Push { number: u64, branch: String, lease: String, reason: String },
    /// Run the auto-fix `commands` in a throwaway worktree at `expectedHead`, and amend whatever
    /// they changed onto the branch's one commit (`unchanged` when nothing changed).
    AutoFix { number: u64, branch: String, expected_head: String, commands: Vec<String>, reason: String },
    /// Arm auto-merge (squash). Guard, read again just before: still open, based on `base`, head is
    /// `expectedHead`, every label in `labelsOn` still on.
    ArmAutoMerge { number: u64, expected_head: String, base: String, labels_on: Vec<String>, method: String, reason: String },
    /// Take one label off. Guard: still open, head is `expectedHead`, every label in `labelsOn` on.
    RemoveLabel { number: u64, label: String, expected_head: String, labels_on: Vec<String>, reason: String },
    /// Put one label on. Guard: still open, head is `expectedHead`.
    AddLabel { number: u64, label: String, expected_head: String, reason: String },
}

/// A commit status's state, as GitHub's REST API spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StatusState {
    Pending,
    Success,
    Failure,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LabelChange {
    pub label: String,
    pub reason: String,
}

/// The engine's reading of one pull request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PullVerdict {
    pub number: u64,
    /// The state label it should carry, or none when the facts to decide it could not be read.
    pub state: Option<String>,
    /// Why that state, in words.
    pub why: String,
    /// The blocker labels it should carry.
    pub blockers: Vec<String>,
    /// The check rollup of the head commit.
    pub checks: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Warning {
    /// The pull request concerned, if any.
    pub number: Option<u64>,
    pub message: String,
}

impl Op {
    /// The pull request or issue written to; 0 for a board issue not created yet.
    pub fn number(&self) -> u64 {
        match self {
            Op::EditLabels { number, .. } | Op::RequestReviewers { number, .. } | Op::UpsertComment { number, .. } | Op::SetStatus { number, .. } => *number,
            Op::UpsertBoard { number, .. } => number.unwrap_or(0),
            Op::Rebase { number, .. } | Op::RebaseOnto { number, .. } | Op::Push { number, .. } | Op::AutoFix { number, .. } | Op::ArmAutoMerge { number, .. } | Op::RemoveLabel { number, .. } | Op::AddLabel { number, .. } => *number,
        }
    }
}
