//! The `queue` section of `.github/prflow.json`: the queue's label names, how the version pull
//! request is recognized, the ages and budgets the queue works by, and `autoFix`.

use super::error::ConfigError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct QueueConfig {
    /// The queue's labels.
    pub labels: QueueLabels,
    /// The version pull request is the one whose head branch is this prefix plus the default branch
    /// (`changesets/action` opens it from `changeset-release/main`).
    pub version_branch_prefix: String,
    /// A pull request queued for longer than this many hours is reported as starved.
    pub target_age_hours: u32,
    /// A fixer's claim holds for at most this many minutes while the head is unchanged.
    pub claim_minutes: u32,
    /// How long an autoFix, rebuild or AI command may run before it is killed with everything it
    /// started (`--command-timeout` overrides it).
    pub command_timeout_minutes: u32,
    /// The budgets of the watch step.
    pub watch: WatchConfig,
    /// Which failures are only a fixer's diff, and what fixes them. Absent: nothing is fixed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_fix: Option<AutoFixConfig>,
    /// Branches a tool generates (a dependency update such as `chore/pnpm-update`): a fixer never
    /// resolves one by hand, it runs the branch's `rebuild` command instead, because nothing checks
    /// that a lockfile resolved by hand is what the generator would have written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub generated: Vec<GeneratedBranch>,
    /// How many pull requests one CI run may test as a chain (docs/queue-batches.md). The default,
    /// `max: 1`, is the serial queue: a chain of one.
    pub batch: BatchConfig,
    /// Checkpoints along a chain whose CI runs at once (the top of the batch always is one). 1: only
    /// the top; more spends runs to find a red sooner.
    pub speculate: u32,
    /// The most pull requests the queue admits; one queued beyond it waits outside with `queue full:
    /// position N, estimated start HH:MM`. Absent: what the queue can land within `targetWaitMinutes`,
    /// from the measured CI time and failure rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admit: Option<u32>,
    /// The wait, in minutes, that admission aims at when `admit` is absent.
    pub target_wait_minutes: u32,
}

/// `queue.batch`: the size of a chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct BatchConfig {
    /// The most pull requests in one chain (1: serial).
    pub max: u32,
    /// Choose the size from the failure rate of the last landings, between 1 and `max`: large when
    /// few fail, 1 when many do (the model in docs/queue-batches.md).
    pub adaptive: bool,
}

impl Default for BatchConfig {
    fn default() -> Self {
        BatchConfig {
            max: 1,
            adaptive: false,
        }
    }
}

/// One generated branch of `queue.generated`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GeneratedBranch {
    /// The head branch's name, exactly (`chore/pnpm-update`).
    pub branch: String,
    /// The shell command a fixer runs in a throwaway worktree at the tip of the base to build the
    /// branch again (it may commit there, which the fixer pushes, or push or start a workflow itself).
    pub rebuild: String,
}

impl Default for QueueConfig {
    fn default() -> Self {
        QueueConfig {
            labels: QueueLabels::default(),
            version_branch_prefix: "changeset-release/".into(),
            target_age_hours: 72,
            claim_minutes: 120,
            command_timeout_minutes: 30,
            watch: WatchConfig::default(),
            auto_fix: None,
            generated: Vec::new(),
            batch: BatchConfig::default(),
            speculate: 1,
            admit: None,
            target_wait_minutes: 240,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct QueueLabels {
    /// The scope rule: only pull requests carrying it are taken forward.
    pub merge_queued: String,
    /// The pause: a push under it runs no checks. Taking it off is what releases a pull request.
    pub skip_ci: String,
    /// The next release must contain this pull request: the version pull request waits while it is open.
    pub blocks_release: String,
    /// Keep this pull request on the tip of the base while it waits.
    pub auto_rebase: String,
    /// Pick first among the candidates.
    pub priority_high: String,
    /// Pick last among the candidates.
    pub priority_low: String,
}

impl Default for QueueLabels {
    fn default() -> Self {
        QueueLabels {
            merge_queued: "merge-queued".into(),
            skip_ci: "skip-ci".into(),
            blocks_release: "blocks-release".into(),
            auto_rebase: "auto-rebase".into(),
            priority_high: "priority:high".into(),
            priority_low: "priority:low".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct WatchConfig {
    /// Consecutive green polls before `not-merging` when GitHub calls the pull request mergeable.
    pub green_polls_mergeable: u32,
    /// The same while GitHub still reads `BLOCKED` (a superseded run looks like this for a moment).
    pub green_polls_blocked: u32,
    /// Failed re-reads in a row before the watch ends in `error`.
    pub read_failures: u32,
    /// Minutes before the watch gives up with `timeout`.
    pub timeout_minutes: u32,
}

impl Default for WatchConfig {
    fn default() -> Self {
        WatchConfig {
            green_polls_mergeable: 3,
            green_polls_blocked: 8,
            read_failures: 5,
            timeout_minutes: 90,
        }
    }
}

/// `autoFix`: a failure is fixed only when every failed context is ignored or matches a fixer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AutoFixConfig {
    /// Regular expressions for failed contexts that are not read (aggregates).
    pub ignore: Vec<String>,
    /// Commands run first, always (an install).
    pub before: Vec<String>,
    /// Commands run once after `before` when a context being fixed matches `context` (a build).
    pub prepare: Vec<AutoFixStep>,
    /// Every other failure must match one `context`; the first that matches gives the `run`.
    pub fixers: Vec<AutoFixStep>,
    /// Commands run last, always (a formatter).
    pub after: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AutoFixStep {
    /// A regular expression for the failed context; `$1`..`$9` in `run` are its groups, shell-quoted.
    pub context: String,
    /// The shell command to run when `context` matches a failed context.
    pub run: String,
    /// Fixers run by stage, lowest first, and within a stage by command.
    #[serde(default)]
    pub stage: i32,
}

impl QueueConfig {
    pub fn validate(&self) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        super::error::check_label_names("$.queue.labels", self.labels.named(), &mut errors);
        if self.version_branch_prefix.trim().is_empty() {
            errors.push(ConfigError {
                path: "$.queue.versionBranchPrefix".into(),
                expected: "a branch prefix such as \"changeset-release/\"".into(),
                found: "an empty string".into(),
            });
        }
        if self.command_timeout_minutes == 0 {
            errors.push(ConfigError {
                path: "$.queue.commandTimeoutMinutes".into(),
                expected: "a number of at least 1".into(),
                found: "0".into(),
            });
        }
        for (key, value) in [
            ("greenPollsMergeable", self.watch.green_polls_mergeable),
            ("greenPollsBlocked", self.watch.green_polls_blocked),
            ("readFailures", self.watch.read_failures),
            ("timeoutMinutes", self.watch.timeout_minutes),
        ] {
            if value == 0 {
                errors.push(ConfigError {
                    path: format!("$.queue.watch.{key}"),
                    expected: "a number of at least 1".into(),
                    found: "0".into(),
                });
            }
        }
        for (i, g) in self.generated.iter().enumerate() {
            if g.branch.trim().is_empty() {
                errors.push(ConfigError {
                    path: format!("$.queue.generated[{i}].branch"),
                    expected: "a branch name such as \"chore/pnpm-update\"".into(),
                    found: "an empty string".into(),
                });
            }
            if g.rebuild.trim().is_empty() {
                errors.push(ConfigError {
                    path: format!("$.queue.generated[{i}].rebuild"),
                    expected: "a shell command that builds the branch again".into(),
                    found: "an empty string".into(),
                });
            }
        }
        for (key, value, most) in [
            ("batch.max", self.batch.max, 100),
            ("speculate", self.speculate, 100),
            ("targetWaitMinutes", self.target_wait_minutes, 100_000),
        ] {
            if value == 0 || value > most {
                errors.push(ConfigError {
                    path: format!("$.queue.{key}"),
                    expected: format!("a number from 1 to {most}"),
                    found: value.to_string(),
                });
            }
        }
        if self.admit == Some(0) {
            errors.push(ConfigError {
                path: "$.queue.admit".into(),
                expected: "a number of at least 1 (or no key: from targetWaitMinutes)".into(),
                found: "0".into(),
            });
        }
        if let Some(auto_fix) = &self.auto_fix {
            errors.extend(validate_auto_fix(auto_fix));
        }
        errors
    }
}

impl QueueLabels {
    pub fn named(&self) -> [(&'static str, &str); 6] {
        [
            ("mergeQueued", &self.merge_queued),
            ("skipCi", &self.skip_ci),
            ("blocksRelease", &self.blocks_release),
            ("autoRebase", &self.auto_rebase),
            ("priorityHigh", &self.priority_high),
            ("priorityLow", &self.priority_low),
        ]
    }
}

/// A context pattern of `autoFix`, compiled as the decision reads it: the same regex-lite in every
/// build, so the page refuses exactly the patterns the Action would.
pub(crate) fn compile(re: &str) -> Result<regex_lite::Regex, regex_lite::Error> {
    // A context pattern matches the whole context name, so `fix:fmt` does not catch `fix:fmt:diff`.
    regex_lite::Regex::new(&format!("^(?:{re})$"))
}

fn pattern_problem(re: &str) -> Option<String> {
    compile(re).err().map(|e| e.to_string())
}

/// The patterns of `autoFix` that do not compile, each at its JSON path.
pub fn validate_auto_fix(cfg: &AutoFixConfig) -> Vec<ConfigError> {
    let mut errors = Vec::new();
    let mut check = |path: String, re: &str| {
        if let Some(e) = pattern_problem(re) {
            errors.push(ConfigError {
                path,
                expected: "a regular expression".into(),
                found: format!("{re:?} ({e})"),
            });
        }
    };
    for (i, re) in cfg.ignore.iter().enumerate() {
        check(format!("$.queue.autoFix.ignore[{i}]"), re);
    }
    for (i, s) in cfg.prepare.iter().enumerate() {
        check(format!("$.queue.autoFix.prepare[{i}].context"), &s.context);
    }
    for (i, s) in cfg.fixers.iter().enumerate() {
        check(format!("$.queue.autoFix.fixers[{i}].context"), &s.context);
    }
    errors
}
