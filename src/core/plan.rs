//! The plan model: what the engine wants written, in order, each operation with its reason in words.
//! Shells apply it and report each operation; applying it and reconciling again yields an empty plan.

use crate::core::config::ConfigError;
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

/// One write. `reason` is one line a person can read; `guard` is what must still hold when it is
/// applied. Every flow's writes are ops of this one enum, applied by the one writer table
/// (lib/github/write.js), which checks the guard against a fresh read, applies, and reports.
///
/// The git side (`rebase`, `rebaseOnto`, `push`, `autoFix`) is in the same vocabulary and the same
/// table: a push is a write to GitHub like a label edit, its lease is its head guard, and the table
/// reports it in the same outcome words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Op {
    /// Add and remove named labels on one pull request or issue. Never replaces the whole set: a label
    /// a person adds in between survives.
    EditLabels {
        number: u64,
        add: Vec<LabelChange>,
        remove: Vec<LabelChange>,
        reason: String,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// Request reviews from these logins.
    RequestReviewers {
        number: u64,
        reviewers: Vec<String>,
        reason: String,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// A comment on a pull request or issue: edit `commentId` (the engine's pick: the tool's own
    /// comment) if its body differs, or create one when there is none. `marker` is the first line the
    /// edited comment carries now; the writer edits it only while it still starts with that line (the
    /// body written may start with another, e.g. a set-aside rewritten as resolved).
    UpsertComment {
        number: u64,
        marker: String,
        body: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        comment_id: Option<u64>,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// A plain comment, never edited later (a command such as `/changes`).
    Comment {
        number: u64,
        body: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// A COMMENT review on the head the guard names. There is no event field: an op cannot approve.
    PostReview {
        number: u64,
        body: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// The board issue: create it with `label` and `title` when `number` is none, otherwise replace its
    /// body. The engine emits it only when the content changed.
    UpsertBoard {
        number: Option<u64>,
        label: String,
        title: String,
        body: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// Open an issue. `marker` is the hidden first line that finds it again, so a second run files nothing.
    CreateIssue {
        title: String,
        body: String,
        marker: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        labels: Vec<String>,
        reason: String,
    },
    /// Edit an issue: its body, its title, or close or reopen it (what is none is left as it is).
    EditIssue {
        number: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        body: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<IssueState>,
        reason: String,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// Write a commit status (the stations flow's validation gate). `number` is the pull request it is
    /// for; the status belongs to `sha`, which may be an older commit than its head.
    SetStatus {
        number: u64,
        sha: String,
        context: String,
        state: StatusState,
        description: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// Arm auto-merge (GraphQL `enablePullRequestAutoMerge` with `expectedHeadOid` = the guard's head,
    /// which this op requires: GitHub itself refuses it when the head moved).
    ArmAutoMerge {
        number: u64,
        method: MergeMethod,
        reason: String,
        guard: Guard,
    },
    /// Disarm auto-merge (GraphQL `disablePullRequestAutoMerge`).
    DisarmAutoMerge {
        number: u64,
        reason: String,
        #[serde(default, skip_serializing_if = "Guard::is_empty")]
        guard: Guard,
    },
    /// Create a repository label (the label catalogue, `prflow labels`).
    CreateLabel {
        name: String,
        color: String,
        description: String,
        reason: String,
    },
    /// Update a repository label in place: `name` is its current name, `newName` the catalogue's (a
    /// change of case, or the same). Never deletes one.
    UpdateLabel {
        name: String,
        new_name: String,
        color: String,
        description: String,
        reason: String,
    },
    /// Open a pull request from the pushed branch `head` onto `base` (`POST /repos/{o}/{r}/pulls`), then
    /// put `labels` on it. Nothing to guard: a branch with an open pull request already is refused by
    /// GitHub itself (422), which the writer reports as failed.
    CreatePullRequest {
        title: String,
        body: String,
        head: String,
        base: String,
        #[serde(default)]
        draft: bool,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        labels: Vec<String>,
        reason: String,
    },
    // ---- The merge queue worker's git side (issue 13). A cycle step's ops are applied in order and the
    // shell stops at the first that does not succeed, reporting one `queue::cycle::OpResult` per op
    // applied, so a rebase and its push are two ops whose results the next step reads apart. Each carries
    // its guard in its own field: the head it expects (`expectedHead`) or the push's lease.
    /// Rebase `branch` onto the freshly fetched `onto` in a throwaway worktree. Guard: the fetched
    /// head is `expectedHead` (else `moved`). With `dropping`, a head that still contains that commit
    /// (the head a merged layer below merged at) is rebased `--onto <onto> <dropping>`; otherwise plainly.
    Rebase {
        number: u64,
        branch: String,
        onto: String,
        expected_head: String,
        dropping: Option<String>,
        reason: String,
    },
    /// `git rebase --onto <onto> <upstream>` in a throwaway worktree: a layer's own commits and
    /// nothing else. Guard: the head is `expectedHead` (else `moved`); a head that does not contain
    /// `upstream` is `skipped` (GitHub rebased it, or it was restacked already).
    RebaseOnto {
        number: u64,
        branch: String,
        onto: String,
        upstream: String,
        expected_head: String,
        reason: String,
    },
    /// Push what the op before produced to `branch` with `--force-with-lease=<branch>:<lease>`.
    Push {
        number: u64,
        branch: String,
        lease: String,
        reason: String,
    },
    /// Run the auto-fix `commands` in a throwaway worktree at `expectedHead`, and amend whatever
    /// they changed onto the branch's one commit (`unchanged` when nothing changed).
    /// Each command may run `timeoutMinutes` (`queue.commandTimeoutMinutes`).
    AutoFix {
        number: u64,
        branch: String,
        expected_head: String,
        commands: Vec<String>,
        #[serde(default)]
        timeout_minutes: u32,
        reason: String,
    },
}

/// What must still hold when an op is applied. The writer checks it against a fresh read just
/// before the write; when it fails the op is not applied, the result says `guard-failed` with what
/// differed, and later ops on the same pull request in the same batch are not applied either. The
/// next run's read sees what moved, and decides again from there: nothing is remembered across.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Guard {
    /// The head commit the decision was made on: a push since then voids the op.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// Labels that must still be on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels_on: Vec<String>,
    /// Labels that must still be off.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels_off: Vec<String>,
    /// The branch it must still be based on (a pull request retargeted since is not armed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
}

impl Guard {
    pub fn is_empty(&self) -> bool {
        self.head.is_none() && self.labels_on.is_empty() && self.labels_off.is_empty() && self.base.is_none()
    }

    /// Only the head; an empty sha (a head that was not read) guards nothing.
    pub fn head(sha: &str) -> Guard {
        Guard {
            head: (!sha.is_empty()).then(|| sha.to_string()),
            ..Guard::default()
        }
    }
}

/// An issue's state, as GitHub's REST API spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum IssueState {
    Open,
    Closed,
}

/// A merge method, as GitHub's GraphQL `PullRequestMergeMethod` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum MergeMethod {
    Merge,
    Squash,
    Rebase,
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
    /// The pull request or issue written to; 0 for an issue not created yet or a repository label.
    pub fn number(&self) -> u64 {
        self.parts().0
    }

    pub fn reason(&self) -> &str {
        self.parts().1
    }

    /// What must still hold when it is applied (an issue not created yet has nothing to guard).
    pub fn guard(&self) -> Option<&Guard> {
        self.parts().2
    }

    /// Target, reason and guard: the three things every op has, in one match.
    fn parts(&self) -> (u64, &str, Option<&Guard>) {
        match self {
            Op::EditLabels {
                number, reason, guard, ..
            }
            | Op::RequestReviewers {
                number, reason, guard, ..
            }
            | Op::UpsertComment {
                number, reason, guard, ..
            }
            | Op::Comment {
                number, reason, guard, ..
            }
            | Op::PostReview {
                number, reason, guard, ..
            }
            | Op::EditIssue {
                number, reason, guard, ..
            }
            | Op::SetStatus {
                number, reason, guard, ..
            }
            | Op::ArmAutoMerge {
                number, reason, guard, ..
            }
            | Op::DisarmAutoMerge {
                number, reason, guard, ..
            } => (*number, reason, Some(guard)),
            Op::UpsertBoard {
                number, reason, guard, ..
            } => (number.unwrap_or(0), reason, Some(guard)),
            Op::CreateIssue { reason, .. }
            | Op::CreatePullRequest { reason, .. }
            | Op::CreateLabel { reason, .. }
            | Op::UpdateLabel { reason, .. } => (0, reason, None),
            // The git side's guard is in its own fields (expectedHead, the lease), checked by git itself.
            Op::Rebase { number, reason, .. }
            | Op::RebaseOnto { number, reason, .. }
            | Op::Push { number, reason, .. }
            | Op::AutoFix { number, reason, .. } => (*number, reason, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_guard_travels_with_its_op_and_an_empty_one_is_left_out() {
        let guarded = Op::EditLabels {
            number: 3,
            add: vec![],
            remove: vec![],
            reason: "r".into(),
            guard: Guard {
                head: Some("h1".into()),
                labels_on: vec!["merge-queued".into()],
                ..Guard::default()
            },
        };
        assert_eq!(
            serde_json::to_value(&guarded).unwrap()["guard"],
            json!({"head": "h1", "labelsOn": ["merge-queued"]})
        );
        let bare = Op::RequestReviewers {
            number: 3,
            reviewers: vec!["a".into()],
            reason: "r".into(),
            guard: Guard::head(""),
        };
        assert!(
            serde_json::to_value(&bare).unwrap().get("guard").is_none(),
            "an unread head guards nothing"
        );
        let back: Op = serde_json::from_value(
            json!({"op": "armAutoMerge", "number": 3, "method": "SQUASH", "reason": "r", "guard": {"head": "h1"}}),
        )
        .unwrap();
        assert_eq!(back.guard().and_then(|g| g.head.as_deref()), Some("h1"));
        assert!(
            serde_json::from_value::<Op>(json!({"op": "armAutoMerge", "number": 3, "method": "SQUASH", "reason": "r"}))
                .is_err(),
            "arming needs the head it expects"
        );
    }
}
