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
    /// Issues the merge queue reads (those open pull requests close, and those their `Start-After:` names).
    #[serde(default)]
    pub issues: Vec<Issue>,
    /// Team members by `org/team` slug, for the teams CODEOWNERS names. A team missing here is one
    /// whose membership could not be read: its paths stay held, and the reason says so.
    #[serde(default)]
    pub team_members: std::collections::BTreeMap<String, Vec<String>>,
    /// The tip commit of the default branch (`refs/heads/<default>`), for set-asides tied to the base.
    #[serde(default)]
    pub base_tip_sha: Option<String>,
    /// The ruleset asks for a code owner's approval.
    #[serde(default)]
    pub require_code_owner_review: bool,
    /// The ruleset asks for every conversation to be resolved.
    #[serde(default)]
    pub require_conversation_resolution: bool,
    /// What the merge-queue worker remembers between cycles (its set-aside records and demotions).
    #[serde(default)]
    pub queue_memory: QueueMemory,
    /// The open issues carrying the follow-up board's label, as listed (pull requests included, in
    /// any order): the sweep takes one of them as its board. Empty when there is none yet,
    /// `unknown: ["board"]` when the read failed.
    #[serde(default)]
    pub boards: Vec<BoardIssue>,
    /// Pull requests merged lately, newest first, with their head's checks: what the queue times its
    /// estimates by and the scoreboard counts landings from. `unknown: ["landed"]` when the read failed.
    #[serde(default)]
    pub landed: Vec<Landing>,
}

/// A merged pull request, as the queue's estimate and the scoreboard read it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Landing {
    pub number: u64,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub author: String,
    #[serde(default)]
    pub labels: Vec<String>,
    #[serde(default)]
    pub created_at: String,
    pub merged_at: String,
    /// The merged head's check runs and statuses: its CI runs.
    #[serde(default)]
    pub checks: Vec<Check>,
}

/// An issue, as the merge queue reads it: `Start-After:` in its body and GitHub's "blocked by".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Issue {
    pub number: u64,
    #[serde(default)]
    pub open: bool,
    #[serde(default)]
    pub body: String,
    /// GitHub's issue dependencies: the issues (or pull requests) this one is blocked by; absent
    /// when they were not read (the engine names the issues whose dependencies it needs).
    #[serde(default)]
    pub blocked_by: Option<Vec<u64>>,
    /// The number is a pull request that is not open (merged or closed), not an issue.
    #[serde(default)]
    pub pull_request: bool,
}

/// An issue a pull request closes, and where that was read from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IssueRef {
    pub number: u64,
    /// `link` (GitHub's closingIssuesReferences) or `keyword` (a closing keyword in the body).
    #[serde(default = "link_source")]
    pub source: String,
    /// The issue's repository (`owner/name`) as GitHub links it; absent means this repository. GitHub
    /// links issues of other repositories too, and the engine ignores those: their numbers mean nothing here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
}

impl IssueRef {
    /// Whether this is an issue of `repository` (the facts' own, compared without case). A link with
    /// no repository, or facts with none, is taken as local: that is all an older reader said.
    pub fn is_in(&self, repository: &str) -> bool {
        match self.repository.as_deref() {
            Some(r) if !r.is_empty() && !repository.is_empty() => r.eq_ignore_ascii_case(repository),
            _ => true,
        }
    }
}

fn link_source() -> String {
    "link".into()
}

/// The merge-queue worker's memory, passed in so the engine stays without state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueueMemory {
    /// Set-asides this process recorded (their comment may have failed to be written).
    #[serde(default)]
    pub records: Vec<SetAsideRecord>,
    /// Pull requests that sat green without merging, each with the head it had then.
    #[serde(default)]
    pub demoted: Vec<Demotion>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetAsideRecord {
    pub number: u64,
    pub reason: String,
    pub head: String,
    #[serde(default)]
    pub base: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Demotion {
    pub number: u64,
    /// The head when it was demoted, carried along by the worker's own pushes.
    pub head: String,
}

/// An open issue carrying the follow-up board's label.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BoardIssue {
    pub number: u64,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub body: String,
    /// GitHub's issue list holds pull requests too (REST's `pull_request` key); one is never the board.
    #[serde(default)]
    pub pull_request: bool,
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
    /// The issues pull requests close (so `Start-After:` is not inherited, and the report says so).
    Issues,
    /// The board issue (follow-up sweep).
    Board,
    /// The rules GitHub applies to the default branch (rulesets): whether code-owner review and
    /// resolved conversations are required. Unread, `requireCodeOwnerReview: false` is not a fact.
    Rules,
    /// The members of a team CODEOWNERS names (`teamMembers`): a team missing there was not read.
    TeamMembers,
    /// The pull requests merged lately (`landed`): no estimate is made from an unread history.
    Landed,
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
    /// The issues GitHub links as closed by this pull request.
    #[serde(default)]
    pub closing_issues: Vec<IssueRef>,
    /// Review conversations not resolved; `None` when not read.
    #[serde(default)]
    pub unresolved_threads: Option<u32>,
    /// Auto-merge is armed.
    #[serde(default)]
    pub auto_merge: bool,
    /// The head branch lives in a fork.
    #[serde(default)]
    pub is_fork: bool,
    /// The pull request is in one of GitHub's native stacks (auto-merge refused there).
    #[serde(default)]
    pub native_stack: bool,
    /// Whether the head contains the base's current tip (`git merge-base --is-ancestor`); `None` unread.
    #[serde(default)]
    pub built_on_base_tip: Option<bool>,
    /// More changed files than one page reads: `files` is partial.
    #[serde(default)]
    pub files_truncated: bool,
    /// Commits on the branch, when read.
    #[serde(default)]
    pub commit_count: Option<u32>,
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
    ClosingIssues,
    ReviewThreads,
    /// The draft flag (a single field whose read errored): `isDraft: false` is then no answer.
    /// Mergeability has its own "do not know", `mergeable: UNKNOWN`.
    IsDraft,
    /// Whether the head is built on the base's tip (`builtOnBaseTip`): the compare failed.
    BuiltOnBaseTip,
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
    /// The reviewer's relation to the repository, as GitHub reports it (`authorAssociation`: OWNER,
    /// MEMBER, COLLABORATOR, CONTRIBUTOR, NONE, ...). Whether that can write is the engine's rule
    /// (`author_can_write`); absent means no: anyone may submit a review, and an outsider's verdict
    /// must not move a pull request.
    #[serde(default)]
    pub author_association: String,
}

impl Review {
    /// Whether the reviewer can write to the repository.
    pub fn author_can_write(&self) -> bool {
        can_write(&self.author_association)
    }
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
    /// The workflow run a check run belongs to; a newer run of the same workflow supersedes it.
    #[serde(default)]
    pub run_id: Option<u64>,
    /// Where people see the run: a check run's `detailsUrl` (the job's page), a status's `targetUrl`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
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
    /// The author's relation to the repository, as GitHub reports it (`authorAssociation`); absent
    /// means none.
    #[serde(default)]
    pub author_association: String,
}

impl Comment {
    /// Whether the author can write to the repository: whose commands count.
    pub fn author_can_write(&self) -> bool {
        can_write(&self.author_association)
    }
}

/// GitHub's author associations that can write to the repository. CONTRIBUTOR only means a merged
/// commit once, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN and NONE not even that.
pub const WRITE_ASSOCIATIONS: [&str; 3] = ["OWNER", "MEMBER", "COLLABORATOR"];

/// Whether an `authorAssociation` can write to the repository.
pub fn can_write(association: &str) -> bool {
    WRITE_ASSOCIATIONS.contains(&association)
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

/// Facts that do not parse are a caller's bug (the shell built them); they are an error, not a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactsError(pub String);

impl std::fmt::Display for FactsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses facts with the JSON path of the first problem in the message.
pub fn parse_facts(value: serde_json::Value) -> Result<Facts, FactsError> {
    parse_facts_str(&value.to_string())
}

/// The same from JSON text, without building a `serde_json::Value` first: for a snapshot of
/// thousands of pull requests the intermediate tree costs more than the decisions.
pub fn parse_facts_str(text: &str) -> Result<Facts, FactsError> {
    check_facts(crate::codec::from_str(text).map_err(|e| {
        if e.syntax {
            FactsError(format!("facts: not valid JSON: {}", e.message))
        } else {
            FactsError(format!("facts {}: {}", e.path, e.message))
        }
    }))
}

fn check_facts(facts: Result<Facts, FactsError>) -> Result<Facts, FactsError> {
    let facts = facts?;
    if crate::core::time::parse_rfc3339(&facts.now).is_none() {
        return Err(FactsError(format!(
            "facts $.now: expected an RFC 3339 time, found {:?}",
            facts.now
        )));
    }
    Ok(facts)
}
