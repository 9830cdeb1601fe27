//! The facts model: one JSON document per repository snapshot, read by a shell, decided by the engine.
//! A fact a shell could not read is listed in `unknown` rather than left empty, because "no labels"
//! and "the label read failed" must lead to opposite plans.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A repository snapshot: everything the engine needs, including the clock.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Facts {
    /// `owner/name`.
    #[serde(default)]
    pub repository: String,
    /// The time of the snapshot (RFC 3339). The engine has no clock of its own.
    pub now: String,
    /// The login the tool writes as. Only markers written by it are trusted.
    #[serde(default)]
    pub viewer: Option<String>,
    /// The default branch (`main`).
    #[serde(default)]
    pub default_branch: Option<String>,
    /// Every label that exists in the repository (additions are filtered against it).
    #[serde(default)]
    pub labels: Vec<String>,
    /// Contexts the ruleset or branch protection requires on the default branch.
    #[serde(default)]
    pub required_checks: Vec<String>,
    /// The text of CODEOWNERS, when the repository has one.
    #[serde(default)]
    pub codeowners: Option<String>,
    /// Repository-level facts that could not be read.
    #[serde(default)]
    pub unknown: Vec<RepoFact>,
    /// The open pull requests.
    #[serde(default)]
    pub pull_requests: Vec<PullRequest>,
    /// The board issue (the oldest open issue carrying the board label), for the follow-up sweep;
    /// none when there is none yet, `unknown: ["board"]` when the read failed.
    #[serde(default)]
    pub board: Option<BoardIssue>,
}

/// The issue the follow-up sweep rewrites as the board.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BoardIssue {
    pub number: u64,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub body: String,
}

/// Repository-level facts a read can fail on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum RepoFact {
    /// The repository's label set.
    Labels,
    /// The required checks of the default branch.
    RequiredChecks,
    /// CODEOWNERS.
    Codeowners,
    /// The board issue (follow-up sweep).
    Board,
}

/// One open pull request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PullRequest {
    pub number: u64,
    #[serde(default)]
    pub title: String,
    /// The author's login.
    #[serde(default)]
    pub author: String,
    #[serde(default)]
    pub body: String,
    #[serde(default)]
    pub is_draft: bool,
    /// When the pull request was opened (RFC 3339).
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub base_ref: String,
    #[serde(default)]
    pub head_ref: String,
    /// The head commit; reviews and checks are bound to it.
    #[serde(default)]
    pub head_sha: String,
    /// GitHub's `mergeable`: MERGEABLE, CONFLICTING or UNKNOWN (still computing).
    #[serde(default)]
    pub mergeable: Mergeable,
    /// GitHub's `mergeStateStatus` (CLEAN, BLOCKED, BEHIND, DIRTY, UNSTABLE, HAS_HOOKS, UNKNOWN).
    #[serde(default)]
    pub merge_state_status: Option<String>,
    /// Label names on the pull request.
    #[serde(default)]
    pub labels: Vec<String>,
    /// Submitted reviews, each bound to the commit it reviewed.
    #[serde(default)]
    pub reviews: Vec<Review>,
    /// Logins (users) and `org/team` slugs whose review is requested right now.
    #[serde(default)]
    pub review_requests: Vec<String>,
    /// Check runs and commit statuses on the head commit.
    #[serde(default)]
    pub checks: Vec<Check>,
    /// Changed paths.
    #[serde(default)]
    pub files: Vec<String>,
    /// Issue comments (the conversation tab), oldest first.
    #[serde(default)]
    pub comments: Vec<Comment>,
    /// Timeline events: label changes, pushes, draft changes, comments, reviews.
    #[serde(default)]
    pub timeline: Vec<TimelineEvent>,
    /// Facts about this pull request that could not be read.
    #[serde(default)]
    pub unknown: Vec<PullFact>,
}

/// Per-pull-request facts a read can fail on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PullFact {
    Labels,
    Reviews,
    ReviewRequests,
    Checks,
    Files,
    Comments,
    Timeline,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Mergeable {
    Mergeable,
    Conflicting,
    /// GitHub is still computing it (for about a minute after every push to the base), or the read failed.
    #[default]
    Unknown,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Review {
    pub author: String,
    /// APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING.
    pub state: String,
    /// The commit the review was submitted against.
    #[serde(default)]
    pub commit: String,
    #[serde(default)]
    pub submitted_at: String,
    #[serde(default)]
    pub body: String,
}

/// A check run or a commit status context, in one shape.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Check {
    /// The check run's name or the status's context.
    pub name: String,
    /// The workflow a check run belongs to; a bare job name is unique only within its workflow.
    #[serde(default)]
    pub workflow: Option<String>,
    /// COMPLETED, or a pending value (QUEUED, IN_PROGRESS, WAITING, REQUESTED, PENDING, EXPECTED).
    pub status: String,
    /// When completed: SUCCESS, NEUTRAL, SKIPPED, FAILURE, CANCELLED, TIMED_OUT, ACTION_REQUIRED,
    /// STARTUP_FAILURE, STALE, ERROR.
    #[serde(default)]
    pub conclusion: Option<String>,
    #[serde(default)]
    pub started_at: Option<String>,
    #[serde(default)]
    pub completed_at: Option<String>,
    /// GitHub's database id; later runs have larger ids, which breaks ties between equal timestamps.
    #[serde(default)]
    pub id: Option<u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Comment {
    #[serde(default)]
    pub id: Option<u64>,
    pub author: String,
    pub body: String,
    #[serde(default)]
    pub created_at: String,
    /// Whether the author can write to the repository (GitHub's authorAssociation OWNER/MEMBER/COLLABORATOR).
    #[serde(default)]
    pub author_can_write: bool,
}

/// One timeline entry. `kind` follows GitHub's event names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TimelineEvent {
    /// labeled, unlabeled, committed, head_ref_force_pushed, commented, reviewed, review_requested,
    /// ready_for_review, convert_to_draft, reopened.
    pub kind: String,
    pub at: String,
    #[serde(default)]
    pub actor: Option<String>,
    /// The label, for labeled/unlabeled.
    #[serde(default)]
    pub label: Option<String>,
}

impl Facts {
    pub fn repo_unknown(&self, fact: RepoFact) -> bool {
        self.unknown.contains(&fact)
    }
}

impl PullRequest {
    pub fn unknown(&self, fact: PullFact) -> bool {
        self.unknown.contains(&fact)
    }

    pub fn has_label(&self, name: &str) -> bool {
        self.labels.iter().any(|l| l == name)
    }
}
