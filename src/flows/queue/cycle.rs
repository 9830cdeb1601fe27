//! The worker's cycle as one pure step function: the survey (facts), what the worker remembers
//! (`CycleState`) and the results of the ops the shell applied last step go in; the next ops, the new
//! state, what to wait for and log lines saying what was done and why come out. The shell runs git
//! and the API, so one cycle is a sequence of steps: survey (re-read while UNKNOWN), 1a restack the
//! layers GitHub moved, 1b settle the comments, triage, act on exactly one (watch the one in flight,
//! else rebase, push, restack, arm, release the first candidate; a failure is recorded and the next
//! candidate tried; a branch that moved under it is no failure: survey again), yield, 3a keep
//! waiting ones on the tip, watch, 4a auto-fix, 5 remember, and sleep by the quiet rule.
//!
//! The resident CLI loop and the one-cycle-per-run Action call this same step. What must outlive a
//! process: the set-aside records ARE the tool's own set-aside comments (step 1b takes them up), and
//! claims are comments too. Everything else in `CycleState` is a process's memory and may be lost: the
//! demotions (the README says a restart forgets them), the last survey's layers (a restart misses a
//! restack GitHub's move made needed until the layer is picked), the quiet counter, the acted-on list.
//! The Action keeps nothing but the comments; a step given the default state starts a fresh cycle.

use super::autofix;
use super::ctx::Ctx;
use super::memory;
use super::order::{self, OrderKey, Released};
use super::owner::Owner;
use super::quiet::{self, Quiet};
use super::restack::{self, ClosedPull, Head, Job, Layer};
use super::setaside::{self, Reason};
use super::triage::{self, Report};
use super::watch::{self, Poll, WatchState};
use crate::core::facts::{Demotion, Facts, PullRequest, SetAsideRecord};
use crate::core::plan::{Guard, LabelChange, MergeMethod, Op};
use crate::Config;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Re-reads while any pull request's merge state is UNKNOWN, and the wait between them.
pub const UNKNOWN_REREADS: u32 = 6;
pub const UNKNOWN_WAIT_SECONDS: u32 = 10;
/// A rebase that changed nothing and no label to take off: GitHub's merge state was stale.
pub const STALE_WAIT_SECONDS: u32 = 30;
/// The first wait after an op failed transiently; it doubles with each such failure in a row, up to the max.
pub const TRANSIENT_FIRST_WAIT_SECONDS: u32 = 30;
pub const TRANSIENT_MAX_WAIT_SECONDS: u32 = 600;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The command line's options (the spec's defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[schemars(rename = "QueueCycleOptions")]
pub struct Options {
    /// Survey and report, change nothing: the ops are logged, not returned.
    pub dry_run: bool,
    /// Step 4a; `--no-auto-fix` turns it off.
    pub auto_fix: bool,
    pub active_interval: u32,
    pub idle_after: u32,
    pub idle_interval: u32,
    pub poll_interval: u32,
    /// Overrides `queue.watch.timeoutMinutes`.
    pub watch_timeout_minutes: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dry_run: false,
            auto_fix: true,
            active_interval: 30,
            idle_after: 10,
            idle_interval: 300,
            poll_interval: 30,
            watch_timeout_minutes: None,
        }
    }
}

/// How one op went, in the writer table's words (lib/github/write.js): the same for a GitHub write and
/// a git op. One per op applied, in order; the table stops at the first that is not
/// `applied`/`unchanged`/`skipped`. The camel-case names of the worker's first shell are still read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "QueueOpOutcome")]
pub enum Outcome {
    #[serde(rename = "applied", alias = "done")]
    Done,
    /// A rebase or fix that changed nothing.
    Unchanged,
    /// A rebase that left no commits: its changes are already in the base.
    Empty,
    /// `RebaseOnto` on a head that does not contain `upstream`.
    Skipped,
    Conflict,
    /// The fetched head is not the one expected.
    Moved,
    /// `--force-with-lease` refused: someone pushed in between.
    #[serde(alias = "leaseLost")]
    LeaseLost,
    /// The remote refused the push (a hook, a permission).
    Refused,
    /// A GitHub write's guard no longer held (head, labels, state).
    #[serde(alias = "guardFailed")]
    GuardFailed,
    /// GitHub or git failed in a way that passes (no answer, a reply lost after the write, a 5xx, a
    /// rate limit) and the retries ran out: whether the op was applied is not known. Never a set-aside:
    /// the next survey reads what GitHub has (a label already off is a released pull request, watched).
    Transient,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueOpResult")]
pub struct OpResult {
    pub outcome: Outcome,
    /// The head after the op (a rebase's or push's new head; the head found when moved).
    #[serde(default)]
    pub head: Option<String>,
    /// Conflicting files.
    #[serde(default)]
    pub files: Vec<String>,
    /// What the op or its command printed, redacted by the shell (the engine keeps its last lines);
    /// the writer table calls it `detail`.
    #[serde(default, alias = "detail")]
    pub log: String,
    /// The op's kind and target, as the writer table reports them (not read).
    #[serde(default, skip_serializing)]
    pub op: Option<String>,
    #[serde(default, skip_serializing)]
    pub number: Option<u64>,
}

/// A failed job whose log the set-aside comment folds: the shell reads the job's log (the Actions job id
/// is its check run's id) and passes its last `lines` lines back in `jobLogs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueJobLogRead")]
pub struct JobLogRead {
    pub number: u64,
    pub job_id: u64,
    /// The check as the comment names it (`workflow / job`).
    pub name: String,
    /// How many lines from the end to read.
    pub lines: u32,
}

/// A job log the shell read for a `JobLogRead`: its last lines, or why it could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueJobLog")]
pub struct JobLog {
    pub job_id: u64,
    #[serde(default)]
    pub log: String,
    #[serde(default)]
    pub error: Option<String>,
}

/// How many failed jobs' logs one `checks-failed` comment folds: a failing matrix can have dozens,
/// and each is a request and a screenful.
pub const MAX_JOB_LOGS: usize = 3;

/// What the worker should wait for before the next step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[schemars(rename = "QueueWait")]
pub enum Wait {
    /// Apply the ops and step again at once with their results.
    Results,
    /// Read the survey again after this many seconds.
    Survey { after_seconds: u32 },
    /// Poll the watched pull request after this many seconds.
    Poll { number: u64, after_seconds: u32 },
    /// Nothing to do: sleep this long (the quiet rule), then survey. A cycle ends here.
    Sleep { seconds: u32 },
    /// A stop signal was honoured.
    Stop,
}

/// What the step is waiting to read, so it knows what the next input means.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueAwaiting")]
pub enum Awaiting {
    #[default]
    Survey,
    Results,
    Poll,
}

/// The pull request being moved this cycle.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueuePick")]
pub struct Pick {
    pub number: u64,
    pub branch: String,
    /// The head the survey saw (the lease).
    pub head: String,
    /// The head after the push (the survey's when nothing was pushed).
    pub new_head: String,
    pub skip_ci: bool,
    /// Arm auto-merge before releasing (none for one only a bypass merges, or already armed).
    pub arm: bool,
    pub bypass_only: bool,
    pub key: Option<OrderKey>,
    /// Queued pull requests already released when the survey ran (never yielded to).
    pub released_at_survey: Vec<u64>,
    pub commit_count: Option<u32>,
}

/// The pull request being watched.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueWatching")]
pub struct Watching {
    pub number: u64,
    pub branch: String,
    pub watch: WatchState,
    /// 4a ran once in this watch: the head it pushed failing again is set aside.
    pub fixed: bool,
    pub commit_count: Option<u32>,
}

/// What comes after a restack or a comment write.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
#[schemars(rename = "QueueThen")]
pub enum Then {
    /// 1a: survey again if anything moved, else settle and triage this survey.
    SurveyIfMoved,
    /// Triage this survey again (the next candidate in the same cycle).
    Triage,
    /// Arm and release the pick (step 3, after its layers were carried along).
    Release { pick: Pick },
    /// Survey again: the heads read are stale.
    Survey,
    /// The cycle is over (a watch ended): sleep 0, then the next cycle.
    CycleEnd,
}

/// What the ops of the last step were for, so their results can be read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
#[schemars(rename = "QueuePending")]
pub enum Pending {
    #[default]
    None,
    Restack {
        current: Job,
        jobs: Vec<Job>,
        new_heads: Vec<Head>,
        moved: bool,
        then: Box<Then>,
    },
    Pick {
        pick: Pick,
    },
    Arm {
        pick: Pick,
    },
    Unlabel {
        pick: Pick,
    },
    /// Released: the next survey decides whether to yield.
    Released {
        pick: Pick,
    },
    Yield {
        number: u64,
    },
    KeepOnTip {
        number: u64,
        head: String,
    },
    /// `checks-failed`, not fixed: the failed jobs' logs are read, then the pull request set aside.
    JobLogs {
        number: u64,
        head: String,
        lines: Vec<String>,
        reads: Vec<JobLogRead>,
    },
    WatchArm {
        watching: Watching,
    },
    Watch {
        watching: Watching,
    },
    AutoFix {
        watching: Watching,
    },
    Comments {
        writes: Vec<Written>,
        then: Box<Then>,
    },
}

/// A comment the worker wrote this survey. Triage reads owners from the comments, and the survey
/// the shell passes along predates the write, so the worker reads its own writes over it until the
/// next survey.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "QueueWritten")]
pub struct Written {
    pub number: u64,
    pub comment_id: Option<u64>,
    pub body: String,
}

/// What the worker carries from step to step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[schemars(rename = "QueueCycleState")]
pub struct CycleState {
    pub awaiting: Awaiting,
    pub pending: Pending,
    /// Set-aside records (each has its comment, or will have it written again in 1b).
    pub records: Vec<SetAsideRecord>,
    /// `not-merging` pull requests picked last until someone else pushes (memory only).
    pub demoted: Vec<Demotion>,
    /// The last survey's layers (step 1a reads which of them GitHub moved).
    pub layers: Vec<Layer>,
    /// Pull requests moved off a stack: their next rebase drops the merged layer's commits.
    pub moved_off: Vec<Head>,
    /// Pull requests this run acted on: reported when they leave the open list.
    pub acted_on: Vec<u64>,
    pub quiet: Quiet,
    /// UNKNOWN re-reads so far in this survey.
    pub rereads: u32,
    /// Pull requests tried this cycle.
    pub tried: Vec<u64>,
    /// Comments written since the last survey.
    pub wrote: Vec<Written>,
    /// Transient failures in a row (each backs the next survey off further; any op that succeeds resets it).
    #[serde(skip_serializing_if = "is_zero")]
    pub transient: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[schemars(rename = "QueueStepInput")]
pub struct StepInput {
    /// The last survey (the shell passes the same one again until a step asks for a new one).
    pub facts: Facts,
    pub state: CycleState,
    /// One result per op the shell applied from the last step's ops.
    pub results: Vec<OpResult>,
    /// The watched pull request, when the last step asked for a poll.
    pub poll: Option<Poll>,
    /// The pull requests the last step named in `reads` that are no longer open (and, on the first
    /// survey, the layers below named in `movedLayers`).
    pub closed: Vec<ClosedPull>,
    /// The first survey of a run has no last survey to compare: the layers GitHub moved onto the
    /// default branch, as their timelines tell it (the branch each was moved off, and the pull request
    /// that merged from it at which head). Read once, on the first survey; step 1a treats them as
    /// layers the last survey saw.
    #[serde(default)]
    pub moved_layers: Vec<Layer>,
    /// The job logs the last step named in `jobLogs`, as read.
    pub job_logs: Vec<JobLog>,
    pub options: Options,
    /// A stop signal arrived: finish this step and stop.
    pub stop: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueStepOut")]
pub struct StepOut {
    /// Apply in order; stop at the first that does not succeed.
    pub ops: Vec<Op>,
    pub state: CycleState,
    pub wait: Wait,
    /// Pull requests to read by number with the next survey (report those no longer open in `closed`).
    pub reads: Vec<u64>,
    /// Job logs to read before the next step (the failed jobs of a pull request being set aside).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub job_logs: Vec<JobLogRead>,
    /// What was done and why, one line each.
    pub log: Vec<String>,
}

struct Stepper<'a> {
    input: &'a StepInput,
    config: &'a Config,
    /// The survey with the worker's memory in it, so triage and the owner read the records.
    facts: Facts,
    state: CycleState,
    ops: Vec<Op>,
    log: Vec<String>,
    job_logs: Vec<JobLogRead>,
}

/// One step of the worker's cycle.
pub fn step(input: &StepInput, config: &Config) -> StepOut {
    let mut s = Stepper {
        input,
        config,
        facts: input.facts.clone(),
        state: input.state.clone(),
        ops: Vec::new(),
        log: Vec::new(),
        job_logs: Vec::new(),
    };
    if s.state.awaiting == Awaiting::Survey {
        s.state.wrote.clear();
    }
    // The timeline's layers join the last survey's (kept in the state across UNKNOWN re-reads, until 1a).
    for m in &input.moved_layers {
        if !s.state.layers.iter().any(|l| l.number == m.number) {
            s.state.layers.push(m.clone());
        }
    }
    s.remember();
    let pending = std::mem::take(&mut s.state.pending);
    let mut wait = match s.state.awaiting {
        Awaiting::Survey => s.surveyed(pending),
        Awaiting::Results => s.on_results(pending),
        Awaiting::Poll => s.on_poll(pending),
    };
    if input.options.dry_run && (!s.ops.is_empty() || matches!(wait, Wait::Poll { .. } | Wait::Results)) {
        for op in std::mem::take(&mut s.ops) {
            s.log.push(format!("dry run: would {}", describe(&op)));
        }
        s.state.pending = Pending::None;
        s.job_logs.clear();
        wait = s.sleep();
    }
    if input.stop && !matches!(wait, Wait::Results) {
        s.log.push("stopping: a stop signal arrived".into());
        s.state.pending = Pending::None;
        wait = Wait::Stop;
    }
    s.state.awaiting = match wait {
        Wait::Results => Awaiting::Results,
        Wait::Poll { .. } => Awaiting::Poll,
        _ => Awaiting::Survey,
    };
    let mut reads: Vec<u64> = s.state.acted_on.clone();
    reads.extend(s.state.layers.iter().map(|l| l.parent));
    reads.sort();
    reads.dedup();
    StepOut {
        ops: s.ops,
        state: s.state,
        wait,
        reads,
        log: s.log,
        job_logs: s.job_logs,
    }
}

/// One line for an op, for the log and the dry run.
pub fn describe(op: &Op) -> String {
    match op {
        Op::Rebase {
            number,
            onto,
            dropping,
            reason,
            ..
        } => match dropping {
            Some(d) => format!(
                "rebase #{number} onto {onto}, dropping commits up to {} ({reason})",
                super::markers::short(d)
            ),
            None => format!("rebase #{number} onto {onto} ({reason})"),
        },
        Op::RebaseOnto {
            number,
            onto,
            upstream,
            reason,
            ..
        } => format!(
            "rebase #{number} --onto {} {} ({reason})",
            super::markers::short(onto),
            super::markers::short(upstream)
        ),
        Op::Push { number, lease, .. } => format!("push #{number} leased against {}", super::markers::short(lease)),
        Op::AutoFix { number, commands, .. } => format!("auto-fix #{number}: {}", commands.join(" && ")),
        Op::ArmAutoMerge { number, guard, .. } => format!(
            "arm auto-merge on #{number} at {}",
            super::markers::short(guard.head.as_deref().unwrap_or(""))
        ),
        Op::EditLabels {
            number, add, remove, ..
        } => {
            let names = |l: &[LabelChange]| {
                l.iter()
                    .map(|c| format!("`{}`", c.label))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            match (add.is_empty(), remove.is_empty()) {
                (true, false) => format!("take {} off #{number}", names(remove)),
                (false, true) => format!("put {} back on #{number}", names(add)),
                _ => format!("on #{number} put {} on and take {} off", names(add), names(remove)),
            }
        }
        Op::UpsertComment { number, reason, .. } => format!("write the comment on #{number}: {reason}"),
        other => format!("{other:?}"),
    }
}

fn result(results: &[OpResult], i: usize) -> Option<&OpResult> {
    results.get(i)
}

fn outcome(results: &[OpResult], i: usize) -> Option<Outcome> {
    result(results, i).map(|r| r.outcome)
}

impl Stepper<'_> {
    /// Put the worker's memory into the facts triage reads.
    fn remember(&mut self) {
        self.facts.queue_memory.records = self.state.records.clone();
        self.facts.queue_memory.demoted = self.state.demoted.clone();
        let viewer = self.facts.viewer.clone().unwrap_or_default();
        for w in &self.state.wrote {
            let Some(pr) = self.facts.pull_requests.iter_mut().find(|p| p.number == w.number) else {
                continue;
            };
            match pr.comments.iter_mut().find(|c| c.id.is_some() && c.id == w.comment_id) {
                Some(c) => c.body = w.body.clone(),
                None => pr.comments.push(crate::core::facts::Comment {
                    id: w.comment_id,
                    author: viewer.clone(),
                    body: w.body.clone(),
                    created_at: self.facts.now.clone(),
                    author_association: "OWNER".into(),
                }),
            }
        }
    }

    /// The comment writes in `ops` go out alone; `then` goes on once they are applied.
    fn write_comments(&mut self, then: Then) -> Wait {
        let writes = self
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::UpsertComment {
                    number,
                    comment_id,
                    body,
                    ..
                } => Some(Written {
                    number: *number,
                    comment_id: *comment_id,
                    body: body.clone(),
                }),
                _ => None,
            })
            .collect();
        self.state.pending = Pending::Comments {
            writes,
            then: Box::new(then),
        };
        Wait::Results
    }

    fn ctx(&self) -> Ctx<'_> {
        Ctx::new(&self.facts, self.config)
    }

    fn report(&self) -> Report {
        triage::triage(&self.ctx())
    }

    fn pr(&self, number: u64) -> Option<&PullRequest> {
        self.facts.pull_requests.iter().find(|p| p.number == number)
    }

    fn labels(&self) -> &super::config::QueueLabels {
        &self.config.queue.labels
    }

    fn sleep(&self) -> Wait {
        let o = &self.input.options;
        Wait::Sleep {
            seconds: quiet::interval(&self.state.quiet, o.active_interval, o.idle_after, o.idle_interval),
        }
    }

    /// The watch is over: the cycle ends, and the next one starts at once (`--once` and the Action
    /// stop here).
    fn cycle_end() -> Wait {
        Wait::Sleep { seconds: 0 }
    }

    fn survey_now(&self) -> Wait {
        Wait::Survey { after_seconds: 0 }
    }

    /// A new survey arrived.
    fn surveyed(&mut self, pending: Pending) -> Wait {
        let unknown: Vec<u64> = self
            .facts
            .pull_requests
            .iter()
            .filter(|p| p.merge_state_status.as_deref() == Some("UNKNOWN"))
            .map(|p| p.number)
            .collect();
        if !unknown.is_empty() {
            if self.state.rereads < UNKNOWN_REREADS {
                self.state.rereads += 1;
                self.state.pending = pending;
                self.log.push(format!("{} UNKNOWN: GitHub is still computing the merge state; reading again in {UNKNOWN_WAIT_SECONDS} s ({} of {UNKNOWN_REREADS})", super::why::numbers(&unknown), self.state.rereads));
                return Wait::Survey {
                    after_seconds: UNKNOWN_WAIT_SECONDS,
                };
            }
            self.log.push(format!(
                "{} still UNKNOWN after {UNKNOWN_REREADS} re-reads: going on",
                super::why::numbers(&unknown)
            ));
        }
        self.state.rereads = 0;
        if let Pending::Released { pick } = pending {
            return self.after_release(pick);
        }
        self.state.tried.clear();
        self.report_left();
        let ctx = self.ctx();
        let moved = restack::moved_layers(&ctx, &self.state.layers, &self.input.closed);
        let layers = restack::layers(&ctx);
        drop(ctx);
        self.state.layers = layers;
        self.log.extend(moved.log);
        for m in moved.moved_off {
            self.state.moved_off.retain(|x| x.number != m.number);
            self.state.moved_off.push(m);
        }
        let open: Vec<u64> = self.facts.pull_requests.iter().map(|p| p.number).collect();
        self.state.moved_off.retain(|m| open.contains(&m.number));
        let report = self.report();
        self.state.quiet = quiet::observe(&self.state.quiet, quiet::fingerprint(&self.facts, &report));
        if !moved.jobs.is_empty() {
            return self.restack(moved.jobs, Vec::new(), false, Then::SurveyIfMoved);
        }
        self.settle()
    }

    /// Pull requests this run acted on that left the open list since.
    fn report_left(&mut self) {
        let open: Vec<u64> = self.facts.pull_requests.iter().map(|p| p.number).collect();
        let gone: Vec<u64> = self
            .state
            .acted_on
            .iter()
            .copied()
            .filter(|n| !open.contains(n))
            .collect();
        for n in gone {
            let line = match self.input.closed.iter().find(|c| c.number == n) {
                Some(c) if c.merged => format!("#{n}, acted on earlier, has merged"),
                Some(_) => format!("#{n}, acted on earlier, was closed without merging"),
                None => format!("#{n}, acted on earlier, left the open list"),
            };
            self.log.push(line);
        }
        self.state.acted_on.retain(|n| open.contains(n));
    }

    /// Step 1b: settle the records with the comments, then triage and act.
    fn settle(&mut self) -> Wait {
        let settlement = setaside::settle(&self.facts);
        self.state.records = settlement.records.clone();
        self.state.demoted = settlement.demoted.clone();
        self.remember();
        for n in &settlement.retried {
            self.log.push(format!(
                "#{n}: the Retry box was ticked: its record is dropped and it is tried again"
            ));
        }
        for n in &settlement.taken_up {
            self.log.push(format!(
                "#{n}: a set-aside comment from an earlier run still stands: taken up as a record, not tried again"
            ));
        }
        for op in settlement.ops {
            let resolved = matches!(&op, Op::UpsertComment { body, .. } if body.starts_with("<!-- prflow:resolved"));
            self.log.push(format!(
                "#{}: {}{}",
                op.number(),
                if resolved { "resolved: " } else { "" },
                op.reason()
            ));
            self.ops.push(op);
        }
        if !self.ops.is_empty() {
            return self.write_comments(Then::Triage);
        }
        self.act()
    }

    /// Triage and act on exactly one.
    fn act(&mut self) -> Wait {
        let report = self.report();
        for w in &report.warnings {
            self.log.push(format!("note: {w}"));
        }
        if let Some(&n) = report.in_flight.first() {
            return self.watch_in_flight(&report, n);
        }
        if let Some(&n) = report.order.iter().find(|n| !self.state.tried.contains(n)) {
            return self.pick(&report, n);
        }
        if let Some(&n) = report.keep_on_tip.iter().find(|n| !self.state.tried.contains(n)) {
            return self.keep_on_tip(n);
        }
        self.log.push("nothing to act on".into());
        self.sleep()
    }

    fn entry(report: &Report, n: u64) -> Option<&triage::Entry> {
        report.entries.iter().find(|e| e.number == n)
    }

    fn key(&self, report: &Report, n: u64) -> Option<OrderKey> {
        let e = Self::entry(report, n)?;
        let pr = self.pr(n)?;
        Some(OrderKey {
            number: n,
            priority: e.declared.priority,
            dirty: pr.merge_state_status.as_deref() == Some("DIRTY"),
            version: e.declared.is_version,
            demoted: e.demoted,
        })
    }

    fn acted(&mut self, n: u64) {
        if !self.state.acted_on.contains(&n) {
            self.state.acted_on.push(n);
        }
    }

    fn watch_in_flight(&mut self, report: &Report, n: u64) -> Wait {
        let Some(pr) = self.pr(n).cloned() else {
            return self.sleep();
        };
        let bypass_only = Self::entry(report, n).is_some_and(|e| e.bypass_only);
        self.acted(n);
        let watching = Watching {
            number: n,
            branch: pr.head_ref.clone(),
            watch: WatchState {
                pushed_head: pr.head_sha.clone(),
                started_at: self.facts.now.clone(),
                bypass_only,
                ..WatchState::default()
            },
            fixed: false,
            commit_count: pr.commit_count,
        };
        if !pr.auto_merge && !bypass_only {
            self.log.push(format!(
                "#{n} is in flight without auto-merge: arming it, then watching"
            ));
            self.ops.push(self.arm_op(n, &pr.head_sha));
            self.state.pending = Pending::WatchArm { watching };
            return Wait::Results;
        }
        self.log
            .push(format!("#{n} is in flight: watching it, nothing else is rebased"));
        self.watch(watching)
    }

    fn watch(&mut self, watching: Watching) -> Wait {
        let number = watching.number;
        self.state.pending = Pending::Watch { watching };
        Wait::Poll {
            number,
            after_seconds: self.input.options.poll_interval,
        }
    }

    fn arm_op(&self, number: u64, head: &str) -> Op {
        let base = self.facts.default_branch.clone().unwrap_or_else(|| "main".into());
        Op::ArmAutoMerge {
            number,
            method: MergeMethod::Squash,
            reason: "picked: `merge-queued` is the permission, so it is armed before its checks run".into(),
            guard: Guard {
                head: Some(head.into()),
                base: Some(base),
                labels_on: vec![self.labels().merge_queued.clone()],
                ..Guard::default()
            },
        }
    }

    fn default_branch(&self) -> String {
        self.facts.default_branch.clone().unwrap_or_else(|| "main".into())
    }

    /// Step 3: the first candidate.
    fn pick(&mut self, report: &Report, n: u64) -> Wait {
        let Some(pr) = self.pr(n).cloned() else {
            return self.sleep();
        };
        let e = Self::entry(report, n).cloned();
        let bypass_only = e.as_ref().is_some_and(|e| e.bypass_only);
        let is_version = e.as_ref().is_some_and(|e| e.declared.is_version);
        self.state.tried.push(n);
        self.acted(n);
        let pick = Pick {
            number: n,
            branch: pr.head_ref.clone(),
            head: pr.head_sha.clone(),
            new_head: pr.head_sha.clone(),
            skip_ci: pr.has_label(&self.labels().skip_ci),
            arm: !bypass_only && !pr.auto_merge,
            bypass_only,
            key: self.key(report, n),
            released_at_survey: report.released.iter().copied().filter(|&r| r != n).collect(),
            commit_count: pr.commit_count,
        };
        if is_version {
            // Never rebased: the release workflow rebuilds it from the tip and force-pushes it.
            self.log.push(format!(
                "#{n} picked: the version pull request is never rebased; releasing it as it is"
            ));
            return self.release(pick);
        }
        let dropping = self
            .state
            .moved_off
            .iter()
            .find(|m| m.number == n)
            .map(|m| m.head.clone());
        let onto = self.default_branch();
        let why = format!("picked: first of {}", super::why::numbers(&report.order));
        self.log.push(format!(
            "#{n} {why}: rebasing onto `{onto}` and pushing leased against {}",
            super::markers::short(&pr.head_sha)
        ));
        self.ops.push(Op::Rebase {
            number: n,
            branch: pr.head_ref.clone(),
            onto,
            expected_head: pr.head_sha.clone(),
            dropping,
            reason: why.clone(),
        });
        self.ops.push(Op::Push {
            number: n,
            branch: pr.head_ref.clone(),
            lease: pr.head_sha.clone(),
            reason: why,
        });
        self.state.pending = Pending::Pick { pick };
        Wait::Results
    }

    /// Step 3a: one waiting pull request kept on the tip.
    fn keep_on_tip(&mut self, n: u64) -> Wait {
        let Some(pr) = self.pr(n).cloned() else {
            return self.sleep();
        };
        self.state.tried.push(n);
        let why = format!(
            "nothing else to do: kept on `{}` while it waits under `{}`",
            self.default_branch(),
            self.labels().skip_ci
        );
        self.log.push(format!("#{n}: {why}"));
        self.ops.push(Op::Rebase {
            number: n,
            branch: pr.head_ref.clone(),
            onto: self.default_branch(),
            expected_head: pr.head_sha.clone(),
            dropping: None,
            reason: why.clone(),
        });
        self.ops.push(Op::Push {
            number: n,
            branch: pr.head_ref.clone(),
            lease: pr.head_sha.clone(),
            reason: why,
        });
        self.state.pending = Pending::KeepOnTip {
            number: n,
            head: pr.head_sha.clone(),
        };
        Wait::Results
    }

    /// Record a failure, write its comment, then go on with `then`.
    fn set_aside(&mut self, number: u64, reason: Reason, head: &str, detail: &str, then: Then) -> Wait {
        self.log.push(format!(
            "#{number} set aside `{}`: {}",
            reason.code(),
            reason.sentence()
        ));
        let place = if reason.returns_to_lane() {
            self.place_once_fixed(number)
        } else {
            String::new()
        };
        let op = memory::set_aside(
            &mut self.state.records,
            &self.facts,
            number,
            reason,
            head,
            detail,
            &place,
        );
        self.remember();
        self.ops.push(op);
        self.write_comments(then)
    }

    /// Where `number` stands in the lane once its fix is pushed: a candidate again at its pick-order
    /// place (behind whatever is in flight), landing one CI run after the one before it. Read from
    /// the survey's lane with `number` taken out of flight; empty when it has no place.
    fn place_once_fixed(&self, number: u64) -> String {
        let mut report = self.report();
        let demoted = self.state.demoted.iter().any(|d| d.number == number);
        let Some(key) = self.key(&report, number).map(|k| OrderKey {
            demoted: k.demoted || demoted,
            ..k
        }) else {
            return String::new();
        };
        report.in_flight.retain(|&n| n != number);
        let mut keys: Vec<OrderKey> = report
            .order
            .iter()
            .filter(|&&n| n != number)
            .filter_map(|&n| self.key(&report, n))
            .collect();
        keys.push(key);
        order::sort(&mut keys);
        report.order = keys.iter().map(|k| k.number).collect();
        let lane = super::lane::lane(&self.ctx(), &report);
        let Some(e) = lane.entries.iter().find(|e| e.number == number) else {
            return String::new();
        };
        let when = e
            .eta
            .as_deref()
            .and_then(crate::core::time::parse_rfc3339)
            .map(|t| format!(", about {} (UTC) if the fix is pushed now", super::lane::clock(t)))
            .unwrap_or_default();
        format!(
            "Once fixed, it takes its place in the lane again: {} of {}{when}.",
            super::lane::ordinal(e.position),
            e.of
        )
    }

    /// An op failed transiently: nothing recorded (it may have been applied), the next survey reads
    /// what GitHub has, after a back-off that doubles with each such failure in a row.
    fn transient(&mut self, number: u64, what: &str) -> Wait {
        self.state.transient += 1;
        let after = (TRANSIENT_FIRST_WAIT_SECONDS << (self.state.transient - 1).min(5)).min(TRANSIENT_MAX_WAIT_SECONDS);
        self.log.push(format!("#{number}: {what} failed transiently (GitHub or the network, past the retries): nothing recorded; surveying again in {after} s to read what GitHub has"));
        Wait::Survey { after_seconds: after }
    }

    fn moved_under(&mut self, number: u64, what: &str) -> Wait {
        self.log.push(format!(
            "#{number}: {what}: someone else is moving it; nothing recorded, surveying again"
        ));
        self.survey_now()
    }

    /// The results of Rebase + Push: `Ok(new head)` or the wait that handles the failure.
    fn rebased(&mut self, number: u64, head: &str, then_on_failure: Then) -> Result<String, Wait> {
        let r = self.input.results.clone();
        let rebase = result(&r, 0).cloned();
        match rebase.as_ref().map(|r| r.outcome) {
            Some(Outcome::Done | Outcome::Unchanged) => {}
            Some(Outcome::Moved) => return Err(self.moved_under(number, "the branch moved before the rebase")),
            Some(Outcome::Transient) => return Err(self.transient(number, "fetching the branch to rebase it")),
            Some(Outcome::Empty) => {
                return Err(self.set_aside(number, Reason::AlreadyInBase, head, "", then_on_failure))
            }
            Some(_) | None => {
                let rb = rebase.unwrap_or(OpResult {
                    outcome: Outcome::Failed,
                    head: None,
                    files: vec![],
                    log: "no result was reported".into(),
                    op: None,
                    number: None,
                });
                let d = memory::detail(&[], &rb.files, &rb.log);
                return Err(self.set_aside(number, Reason::RebaseFailed, head, &d, then_on_failure));
            }
        }
        let push = result(&r, 1).cloned();
        match push.as_ref().map(|p| p.outcome) {
            Some(Outcome::Done | Outcome::Unchanged) => {}
            Some(Outcome::LeaseLost | Outcome::Moved) => {
                return Err(self.moved_under(number, "the push lost its lease"))
            }
            Some(Outcome::Transient) => return Err(self.transient(number, "the push")),
            _ => {
                let log = push.map(|p| p.log).unwrap_or_default();
                return Err(self.set_aside(
                    number,
                    Reason::PushFailed,
                    head,
                    &memory::detail(&[], &[], &log),
                    then_on_failure,
                ));
            }
        }
        let new = push
            .and_then(|p| p.head)
            .or(rebase.and_then(|r| r.head))
            .unwrap_or_else(|| head.to_string());
        self.pushed(number, head, &new);
        Ok(new)
    }

    /// The worker moved `number` from `old` to `new`: its demotion is carried along, it no longer
    /// carries a merged layer's commits, and the layers on it now sit on `new`.
    fn pushed(&mut self, number: u64, old: &str, new: &str) {
        if old == new {
            return;
        }
        memory::carry(&mut self.state.demoted, number, old, new);
        self.state.moved_off.retain(|m| m.number != number);
        for l in self.state.layers.iter_mut().filter(|l| l.parent == number) {
            l.parent_head = new.into();
        }
    }

    fn on_results(&mut self, pending: Pending) -> Wait {
        let results = self.input.results.clone();
        if !results.is_empty() && !results.iter().any(|r| r.outcome == Outcome::Transient) {
            self.state.transient = 0;
        }
        match pending {
            Pending::None => self.settle(),
            Pending::Comments { writes, then } => {
                for (i, w) in writes.into_iter().enumerate() {
                    if matches!(outcome(&results, i), Some(Outcome::Done | Outcome::Unchanged)) {
                        self.state.wrote.push(w);
                    } else {
                        self.log.push(format!(
                            "#{}: the comment could not be written; the record stands and 1b writes it again",
                            w.number
                        ));
                    }
                }
                self.remember();
                self.then(*then)
            }
            Pending::Restack {
                current,
                jobs,
                mut new_heads,
                mut moved,
                then,
            } => {
                let n = current.number;
                match (outcome(&results, 0), outcome(&results, 1)) {
                    (Some(Outcome::Skipped), _) => self.log.push(format!(
                        "#{n} no longer contains {}: GitHub rebased it or it was restacked already; passed over",
                        super::markers::short(&current.upstream)
                    )),
                    (Some(Outcome::Moved), _) | (_, Some(Outcome::LeaseLost)) => {
                        moved = true;
                        self.log
                            .push(format!("#{n} moved under the restack: left, nothing recorded"));
                    }
                    (Some(Outcome::Done | Outcome::Unchanged), Some(Outcome::Done | Outcome::Unchanged)) => {
                        let head = result(&results, 1)
                            .and_then(|r| r.head.clone())
                            .or(result(&results, 0).and_then(|r| r.head.clone()))
                            .unwrap_or(current.expected_head.clone());
                        if head != current.expected_head {
                            moved = true;
                        }
                        self.pushed(n, &current.expected_head, &head);
                        self.state.moved_off.retain(|m| m.number != n);
                        self.log.push(format!(
                            "#{n} restacked to {}: {}",
                            super::markers::short(&head),
                            current.why
                        ));
                        new_heads.retain(|h| h.number != n);
                        new_heads.push(Head { number: n, head });
                    }
                    (Some(Outcome::Conflict), _) => {
                        let files = result(&results, 0).map(|r| r.files.join(", ")).unwrap_or_default();
                        self.log.push(format!(
                            "#{n} cannot be restacked: a conflict ({files}); left where it is, nothing recorded"
                        ));
                    }
                    _ => self.log.push(format!(
                        "#{n} cannot be restacked ({}); left where it is, nothing recorded",
                        result(&results, 1)
                            .or(result(&results, 0))
                            .map(|r| r.log.lines().last().unwrap_or("").to_string())
                            .unwrap_or_default()
                    )),
                }
                self.restack(jobs, new_heads, moved, *then)
            }
            Pending::Pick { pick } => {
                let n = pick.number;
                let new = match self.rebased(n, &pick.head.clone(), Then::Triage) {
                    Ok(h) => h,
                    Err(w) => return w,
                };
                let pick = Pick {
                    new_head: new.clone(),
                    ..pick
                };
                if new == pick.head {
                    if !pick.skip_ci {
                        self.log.push(format!("#{n}: the rebase changed nothing and there is no `{}` to take off: GitHub's merge state was stale; waiting {STALE_WAIT_SECONDS} s", self.labels().skip_ci));
                        return Wait::Survey {
                            after_seconds: STALE_WAIT_SECONDS,
                        };
                    }
                    self.log.push(format!("#{n} is already on the tip"));
                    return self.release(pick);
                }
                self.log.push(format!(
                    "#{n} rebased and pushed: {} -> {}",
                    super::markers::short(&pick.head),
                    super::markers::short(&new)
                ));
                let jobs = restack::above(&self.ctx(), n);
                if jobs.is_empty() {
                    return self.release(pick);
                }
                let heads = vec![Head { number: n, head: new }];
                self.restack(jobs, heads, true, Then::Release { pick })
            }
            Pending::Arm { pick } => match outcome(&results, 0) {
                Some(Outcome::Done) => {
                    self.log.push(format!(
                        "#{} armed at {}",
                        pick.number,
                        super::markers::short(&pick.new_head)
                    ));
                    self.unlabel(pick)
                }
                Some(Outcome::GuardFailed | Outcome::Moved) => {
                    self.moved_under(pick.number, "the re-read before arming found it changed")
                }
                Some(Outcome::Transient) => self.transient(pick.number, "arming auto-merge"),
                _ => {
                    let log = result(&results, 0).map(|r| r.log.clone()).unwrap_or_default();
                    self.set_aside(
                        pick.number,
                        Reason::ArmFailed,
                        &pick.new_head,
                        &memory::detail(&[], &[], &log),
                        Then::Triage,
                    )
                }
            },
            Pending::Unlabel { pick } => match outcome(&results, 0) {
                Some(Outcome::Done) => {
                    self.log.push(format!(
                        "#{} released: `{}` taken off at {}; its checks run once, on the head that will merge",
                        pick.number,
                        self.labels().skip_ci,
                        super::markers::short(&pick.new_head)
                    ));
                    self.state.pending = Pending::Released { pick };
                    self.survey_now()
                }
                Some(Outcome::GuardFailed | Outcome::Moved) => {
                    self.moved_under(pick.number, "the re-read before taking the label off found it changed")
                }
                Some(Outcome::Transient) => {
                    self.transient(pick.number, &format!("taking `{}` off", self.labels().skip_ci))
                }
                _ => {
                    let log = result(&results, 0).map(|r| r.log.clone()).unwrap_or_default();
                    self.set_aside(
                        pick.number,
                        Reason::UnlabelFailed,
                        &pick.new_head,
                        &memory::detail(&[], &[], &log),
                        Then::Triage,
                    )
                }
            },
            Pending::JobLogs {
                number,
                head,
                lines,
                reads,
            } => {
                let mut logs: Vec<(String, String)> = Vec::new();
                let mut lines = lines;
                for r in &reads {
                    match self.input.job_logs.iter().find(|l| l.job_id == r.job_id) {
                        Some(JobLog { error: None, log, .. }) => logs.push((r.name.clone(), log.clone())),
                        Some(JobLog { error: Some(e), .. }) => {
                            self.log
                                .push(format!("#{number}: the log of {} could not be read ({e})", r.name));
                            lines.push(format!(
                                "The log of {} could not be read.",
                                crate::core::text::inline(&r.name)
                            ));
                        }
                        None => lines.push(format!(
                            "The log of {} could not be read.",
                            crate::core::text::inline(&r.name)
                        )),
                    }
                }
                self.set_aside(
                    number,
                    Reason::ChecksFailed,
                    &head,
                    &memory::detail_logs(&lines, &[], &logs),
                    Then::CycleEnd,
                )
            }
            Pending::Yield { number } => {
                if outcome(&results, 0) != Some(Outcome::Done) {
                    self.log.push(format!(
                        "#{number}: `{}` could not be put back; the next survey sees two released",
                        self.labels().skip_ci
                    ));
                }
                self.survey_now()
            }
            Pending::KeepOnTip { number, head } => {
                let new = match self.rebased(number, &head, Then::Survey) {
                    Ok(h) => h,
                    Err(w) => return w,
                };
                if new == head {
                    self.log.push(format!("#{number} was already on the tip"));
                    return self.act();
                }
                self.log.push(format!(
                    "#{number} kept on the tip: {} -> {}",
                    super::markers::short(&head),
                    super::markers::short(&new)
                ));
                let jobs = restack::above(&self.ctx(), number);
                let heads = vec![Head { number, head: new }];
                self.restack(jobs, heads, true, Then::Survey)
            }
            Pending::WatchArm { watching } => match outcome(&results, 0) {
                Some(Outcome::Done) => self.watch(watching),
                Some(Outcome::GuardFailed | Outcome::Moved) => {
                    self.moved_under(watching.number, "the re-read before arming found it changed")
                }
                Some(Outcome::Transient) => self.transient(watching.number, "arming auto-merge"),
                _ => {
                    let log = result(&results, 0).map(|r| r.log.clone()).unwrap_or_default();
                    self.set_aside(
                        watching.number,
                        Reason::ArmFailed,
                        &watching.watch.pushed_head.clone(),
                        &memory::detail(&[], &[], &log),
                        Then::CycleEnd,
                    )
                }
            },
            Pending::AutoFix { watching } => {
                let n = watching.number;
                let head = watching.watch.pushed_head.clone();
                match (outcome(&results, 0), outcome(&results, 1)) {
                    (Some(Outcome::Moved), _) | (_, Some(Outcome::LeaseLost)) => {
                        self.moved_under(n, "the branch moved before the fix was pushed")
                    }
                    (_, Some(Outcome::Transient)) => self.transient(n, "pushing the fix"),
                    (Some(Outcome::Done), Some(Outcome::Done)) => {
                        let new = result(&results, 1)
                            .and_then(|r| r.head.clone())
                            .or(result(&results, 0).and_then(|r| r.head.clone()))
                            .unwrap_or(head.clone());
                        self.pushed(n, &head, &new);
                        self.log.push(format!("#{n}: the fix was pushed ({} -> {}); watching the new head, the next pull request is not picked", super::markers::short(&head), super::markers::short(&new)));
                        let watch = WatchState {
                            pushed_head: new,
                            green_polls: 0,
                            read_failures: 0,
                            ..watching.watch.clone()
                        };
                        self.watch(Watching {
                            watch,
                            fixed: true,
                            ..watching
                        })
                    }
                    (o, _) => {
                        let r = result(&results, 1)
                            .filter(|_| o == Some(Outcome::Done))
                            .or(result(&results, 0))
                            .cloned();
                        let why = match o {
                            Some(Outcome::Unchanged) => "auto-fix: the commands changed nothing".to_string(),
                            _ => "auto-fix: a command failed or the push was refused".to_string(),
                        };
                        let d = memory::detail(&[why], &[], &r.map(|r| r.log).unwrap_or_default());
                        self.set_aside(n, Reason::ChecksFailed, &head, &d, Then::CycleEnd)
                    }
                }
            }
            other @ (Pending::Watch { .. } | Pending::Released { .. }) => {
                // Results where a poll or a survey was due: read it as the survey it should be.
                self.state.pending = other;
                self.survey_now()
            }
        }
    }

    fn then(&mut self, then: Then) -> Wait {
        match then {
            Then::SurveyIfMoved => self.settle(),
            Then::Triage => self.act(),
            Then::Release { pick } => self.release(pick),
            Then::Survey => self.survey_now(),
            Then::CycleEnd => Self::cycle_end(),
        }
    }

    /// The next restack job, one layer per step (its `onto` is the new head the job before pushed).
    fn restack(&mut self, mut jobs: Vec<Job>, new_heads: Vec<Head>, moved: bool, then: Then) -> Wait {
        while !jobs.is_empty() {
            let job = jobs.remove(0);
            let onto = match (&job.onto, job.parent) {
                (Some(o), _) => o.clone(),
                (None, Some(p)) => match new_heads.iter().find(|h| h.number == p) {
                    Some(h) if h.head != job.upstream => h.head.clone(),
                    _ => {
                        self.log
                            .push(format!("#{}: the layer below (#{p}) did not move; left", job.number));
                        continue;
                    }
                },
                (None, None) => continue,
            };
            self.ops.push(Op::RebaseOnto {
                number: job.number,
                branch: job.branch.clone(),
                onto: onto.clone(),
                upstream: job.upstream.clone(),
                expected_head: job.expected_head.clone(),
                reason: job.why.clone(),
            });
            self.ops.push(Op::Push {
                number: job.number,
                branch: job.branch.clone(),
                lease: job.expected_head.clone(),
                reason: job.why.clone(),
            });
            self.state.pending = Pending::Restack {
                current: Job {
                    onto: Some(onto),
                    ..job
                },
                jobs,
                new_heads,
                moved,
                then: Box::new(then),
            };
            return Wait::Results;
        }
        match then {
            Then::SurveyIfMoved if moved => {
                self.log.push("layers moved: surveying again before triage".into());
                self.survey_now()
            }
            other => self.then(other),
        }
    }

    /// Step 3.3-3.4: arm, then take `skip-ci` off, each after a guarded re-read.
    fn release(&mut self, pick: Pick) -> Wait {
        if pick.arm {
            self.ops.push(self.arm_op(pick.number, &pick.new_head));
            self.state.pending = Pending::Arm { pick };
            return Wait::Results;
        }
        self.unlabel(pick)
    }

    fn unlabel(&mut self, pick: Pick) -> Wait {
        if pick.skip_ci {
            let l = self.labels();
            let reason = "its turn: the matrix runs once, on the head that will merge".to_string();
            self.ops.push(Op::EditLabels {
                number: pick.number,
                add: vec![],
                remove: vec![LabelChange {
                    label: l.skip_ci.clone(),
                    reason: reason.clone(),
                }],
                reason,
                guard: Guard {
                    head: Some(pick.new_head.clone()),
                    labels_on: vec![l.merge_queued.clone(), l.skip_ci.clone()],
                    ..Guard::default()
                },
            });
            self.state.pending = Pending::Unlabel { pick };
            return Wait::Results;
        }
        self.start_watch(pick)
    }

    fn start_watch(&mut self, pick: Pick) -> Wait {
        let watch = WatchState {
            pushed_head: pick.new_head.clone(),
            started_at: self.facts.now.clone(),
            bypass_only: pick.bypass_only,
            ..WatchState::default()
        };
        self.log.push(format!("#{}: watching", pick.number));
        self.watch(Watching {
            number: pick.number,
            branch: pick.branch,
            watch,
            fixed: false,
            commit_count: pick.commit_count,
        })
    }

    /// The survey straight after releasing: yield when another worker-owned pull request released
    /// in the same moment comes first.
    fn after_release(&mut self, pick: Pick) -> Wait {
        let report = self.report();
        let others: Vec<Released> = report
            .entries
            .iter()
            .filter(|e| e.released && e.number != pick.number)
            .filter_map(|e| {
                self.key(&report, e.number).map(|key| Released {
                    key,
                    worker_owned: e.owner == Some(Owner::Worker),
                    released_at_survey: pick.released_at_survey.contains(&e.number),
                })
            })
            .collect();
        let mine = pick.key.unwrap_or(OrderKey {
            number: pick.number,
            priority: Default::default(),
            dirty: false,
            version: false,
            demoted: false,
        });
        if let Some(first) = order::yields_to(mine, &others) {
            let l = self.labels().skip_ci.clone();
            self.log.push(format!("#{}: #{first} was released in the same moment and comes first: putting `{l}` back on #{} and surveying again", pick.number, pick.number));
            let reason = format!("yielding to #{first}, released in the same moment");
            self.ops.push(Op::EditLabels {
                number: pick.number,
                add: vec![LabelChange {
                    label: l,
                    reason: reason.clone(),
                }],
                remove: vec![],
                reason,
                guard: Guard::head(&pick.new_head),
            });
            self.state.pending = Pending::Yield { number: pick.number };
            return Wait::Results;
        }
        self.start_watch(pick)
    }

    fn on_poll(&mut self, pending: Pending) -> Wait {
        let Pending::Watch { watching } = pending else {
            return self.surveyed(pending);
        };
        let poll = self.input.poll.clone().unwrap_or(Poll {
            read_failed: true,
            ..Poll::default()
        });
        let mut cfg = self.config.queue.watch.clone();
        if let Some(m) = self.input.options.watch_timeout_minutes {
            cfg.timeout_minutes = m;
        }
        let step = watch::cycle_step(&poll, &watching.watch, self.config, &cfg);
        let n = watching.number;
        let watching = Watching {
            watch: step.state.clone(),
            ..watching
        };
        if step.outcome == watch::CONTINUE {
            if !step.detail.is_empty() {
                self.log.push(format!("#{n}: {}", step.detail));
            }
            return self.watch(watching);
        }
        let detail = if step.detail.is_empty() {
            String::new()
        } else {
            format!(" ({})", step.detail)
        };
        self.log
            .push(format!("#{n}: the watch ended `{}`{detail}", step.outcome));
        let head = watching.watch.pushed_head.clone();
        match step.outcome.as_str() {
            watch::STOPPED => Wait::Stop,
            watch::CHECKS_FAILED => self.checks_failed(watching, &poll, &step.detail),
            o => match memory::watch_reason(o) {
                Some(reason) => {
                    if reason == Reason::NotMerging {
                        memory::demote(&mut self.state.demoted, n, &head);
                        self.log
                            .push(format!("#{n} is picked last from now on, until someone else pushes"));
                    }
                    self.set_aside(n, reason, &head, &step.detail, Then::CycleEnd)
                }
                None => {
                    if o != watch::MERGED && o != watch::CLOSED {
                        self.log.push(format!("#{n}: nothing recorded"));
                    }
                    Self::cycle_end()
                }
            },
        }
    }

    /// Step 4a, or the `checks-failed` record.
    fn checks_failed(&mut self, watching: Watching, poll: &Poll, failed_labels: &str) -> Wait {
        let n = watching.number;
        let head = watching.watch.pushed_head.clone();
        // Read down to the matrix jobs under the aggregates: every failed run on the head, required
        // or not (`autoFix.ignore` names the aggregates).
        let mut names: Vec<String> = crate::core::checks::newest_runs(&poll.checks)
            .values()
            .filter(|(_, v)| *v == crate::core::checks::Rollup::Failing)
            .map(|(c, _)| c.name.clone())
            .collect();
        names.sort();
        names.dedup();
        let fix = if !self.input.options.auto_fix {
            autofix::AutoFix {
                reason: "auto-fix is off (--no-auto-fix)".into(),
                ..Default::default()
            }
        } else if watching.fixed {
            autofix::AutoFix {
                reason: "the head the fix pushed failed again: once per watch".into(),
                ..Default::default()
            }
        } else {
            autofix::auto_fix(self.config.queue.auto_fix.as_ref(), &names, watching.commit_count)
        };
        if fix.eligible {
            self.log.push(format!("#{n}: {}: fixing it", fix.reason));
            self.ops.push(Op::AutoFix {
                number: n,
                branch: watching.branch.clone(),
                expected_head: head.clone(),
                commands: fix.commands.clone(),
                timeout_minutes: self.config.queue.command_timeout_minutes,
                reason: fix.reason.clone(),
            });
            self.ops.push(Op::Push {
                number: n,
                branch: watching.branch.clone(),
                lease: head,
                reason: fix.reason,
            });
            self.state.pending = Pending::AutoFix { watching };
            return Wait::Results;
        }
        self.log.push(format!("#{n}: not auto-fixed: {}", fix.reason));
        // Check and job names are anyone's to choose: inline text in the comment.
        let mut lines = vec![format!("Failed: {}", crate::core::text::inline(failed_labels))];
        // Each failed run where people read it (the job's page), so the comment is where to start.
        let runs: Vec<String> = crate::core::checks::newest_runs(&poll.checks)
            .iter()
            .filter(|(_, (c, v))| *v == crate::core::checks::Rollup::Failing && c.url.is_some())
            .map(|((workflow, name), (c, _))| {
                format!(
                    "- [{}]({})",
                    crate::core::text::inline(&crate::core::checks::context_label(workflow, name)),
                    c.url.as_deref().unwrap_or_default().replace([' ', ')', '\n'], "")
                )
            })
            .collect();
        if !runs.is_empty() {
            lines.push(format!("The failed runs:\n{}", runs.join("\n")));
        }
        lines.push(format!("Not fixed automatically: {}.", fix.reason));
        let reads = Self::job_log_reads(n, poll, &self.facts, self.config);
        if reads.is_empty() {
            return self.set_aside(
                n,
                Reason::ChecksFailed,
                &head,
                &memory::detail(&lines, &[], ""),
                Then::CycleEnd,
            );
        }
        self.log.push(format!(
            "#{n}: reading the logs of {} to fold them in its comment",
            reads.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", ")
        ));
        self.job_logs = reads.clone();
        self.state.pending = Pending::JobLogs {
            number: n,
            head,
            lines,
            reads,
        };
        Wait::Results
    }

    /// The failed Actions jobs whose logs the comment folds, at most `MAX_JOB_LOGS`: a job's log is
    /// where the failed command printed its cause. Required contexts come last, since they are most
    /// often aggregates that failed only because a job under them did (their log says no more); a
    /// status or another app's check run has no job log to read.
    fn job_log_reads(number: u64, poll: &Poll, facts: &Facts, config: &Config) -> Vec<JobLogRead> {
        let required = crate::core::checks::required_contexts(
            if poll.required_checks.is_empty() {
                &facts.required_checks
            } else {
                &poll.required_checks
            },
            config,
        );
        let mut failed: Vec<(bool, String, u64)> = crate::core::checks::newest_runs(&poll.checks)
            .iter()
            .filter(|(_, (c, v))| *v == crate::core::checks::Rollup::Failing && c.workflow.is_some())
            .filter_map(|((workflow, name), (c, _))| {
                c.id.map(|id| {
                    (
                        required.iter().any(|r| r == name),
                        crate::core::checks::context_label(workflow, name),
                        id,
                    )
                })
            })
            .collect();
        failed.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        failed
            .into_iter()
            .take(MAX_JOB_LOGS)
            .map(|(_, name, job_id)| JobLogRead {
                number,
                job_id,
                name,
                lines: memory::LOG_TAIL_LINES as u32,
            })
            .collect()
    }
}
