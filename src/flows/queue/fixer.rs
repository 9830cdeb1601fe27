//! The fixer station's decisions (`prflow fixer NAME --ai CMD`): which set-aside pull request it takes
//! next (one whose owner is the fixer by the one owner function: set aside `rebase-failed` or
//! `checks-failed`, unclaimed or claimed by this fixer), how its worktree starts and whether the AI or
//! a generated branch's rebuild command fixes it, what the AI is told, and the ops of giving up. The
//! station only runs git and the command, and applies these through claim-pr and push-fixed-pr.

use super::claim::claim_pr;
use super::ctx::Ctx;
use super::declare::Priority;
use super::markers;
use super::owner::{self, Owner};
use super::setaside::{self, Reason};
use crate::core::plan::{Guard, Op};
use crate::core::text;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How many failed jobs' logs the station reads for the brief: the first few say what broke; a matrix
/// failing the same way everywhere says nothing more in its fortieth log.
pub const MAX_LOGS: usize = 5;
/// How much of each log the brief keeps: its last lines, where a failure's message is (the worker's
/// set-aside comment folds the same 60 lines of a failed command).
pub const LOG_TAIL_LINES: usize = 60;

/// How the worktree the command runs in starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum FixerStart {
    /// At the head, with `git rebase <base>` begun: the conflict the worker met is on disk.
    Rebase,
    /// At the head: the checks failed on it.
    Head,
    /// At the base's tip: a generated branch is built again from there, never resolved by hand.
    Base,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailedCheck {
    pub name: String,
    pub workflow: Option<String>,
    pub conclusion: String,
    pub run_id: Option<u64>,
    /// The Actions job whose log the station reads for the brief (on GitHub a job's id is its check
    /// run's): a failed check run of a workflow, the first MAX_LOGS of them. None for a commit status,
    /// another app's check run, or one past the first MAX_LOGS.
    #[serde(default)]
    pub log_job_id: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FixerPick {
    /// None when nothing is the fixer's.
    pub number: Option<u64>,
    /// `pick`, `resume` (this fixer's claim holds already), or `nothing`.
    pub code: String,
    pub message: String,
    pub head: String,
    pub branch: String,
    pub base: String,
    /// The set-aside reason (`rebase-failed`, `checks-failed`).
    pub reason: String,
    pub start: FixerStart,
    /// The generated branch's rebuild command; none means the AI command fixes it.
    pub rebuild: Option<String>,
    /// The set-aside comment as the worker wrote it (its prose carries the failed command's output).
    pub set_aside: String,
    pub failed_checks: Vec<FailedCheck>,
    /// The claim comment to write (claim-pr's decision), then read back.
    pub claim_ops: Vec<Op>,
    /// How long a claim holds (`queue.claimMinutes`): the station renews it well before.
    #[serde(default)]
    pub claim_minutes: u32,
    /// How long the AI or rebuild command may run (`queue.commandTimeoutMinutes`).
    #[serde(default)]
    pub command_timeout_minutes: u32,
}

fn nothing(message: String) -> FixerPick {
    FixerPick {
        number: None,
        code: "nothing".into(),
        message,
        head: String::new(),
        branch: String::new(),
        base: String::new(),
        reason: String::new(),
        start: FixerStart::Head,
        rebuild: None,
        set_aside: String::new(),
        failed_checks: vec![],
        claim_ops: vec![],
        claim_minutes: 0,
        command_timeout_minutes: 0,
    }
}

/// The next pull request for fixer `name`: its own claim first (a restarted fixer resumes), then
/// `priority:high`, unlabelled, `priority:low`, lowest number first within each.
pub fn fixer_pick(ctx: &Ctx, name: &str) -> FixerPick {
    if !markers::valid_value(name) {
        return nothing(format!("{name:?} cannot be a fixer's name (no spaces, `=` or `--`)"));
    }
    let mut candidates = Vec::new();
    for pr in &ctx.facts.pull_requests {
        let Some(verdict) = owner::queue_owner(ctx, pr) else {
            continue;
        };
        if verdict.owner != Owner::Fixer {
            continue;
        }
        let mine = owner::holding_claim(ctx, pr).map(|c| c.by == name);
        if mine == Some(false) {
            continue;
        }
        // A claim by this fixer over a set-aside: the set-aside says what to fix. A claim with no
        // set-aside standing (a person's session claimed it) is nothing a fixer station knows how to fix.
        let Some(record) = owner::standing_set_aside(ctx, pr) else {
            continue;
        };
        let Some(reason) = Reason::parse(&record.reason).filter(|r| r.owner() == Owner::Fixer) else {
            continue;
        };
        let rank = match ctx.declared.get(&pr.number).map(|d| d.priority) {
            Some(Priority::High) => 0,
            Some(Priority::Low) => 2,
            _ => 1,
        };
        candidates.push((mine != Some(true), rank, pr.number, pr, reason));
    }
    candidates.sort_by_key(|c| (c.0, c.1, c.2));
    let Some(&(fresh, _, number, pr, reason)) = candidates.first() else {
        return nothing("queue-empty: no set-aside pull request is the fixer's".into());
    };
    let claim = claim_pr(ctx, number, name, false);
    if !claim.ok {
        return nothing(claim.message);
    }
    let rebuild = ctx
        .config
        .queue
        .generated
        .iter()
        .find(|g| g.branch == pr.head_ref)
        .map(|g| g.rebuild.clone());
    let start = match (&rebuild, reason) {
        (Some(_), _) => FixerStart::Base,
        (None, Reason::RebaseFailed) => FixerStart::Rebase,
        (None, _) => FixerStart::Head,
    };
    let set_aside = setaside::own_set_aside(ctx.facts, pr)
        .map(|(c, _)| c.body.clone())
        .unwrap_or_default();
    let mut logs = 0;
    let failed_checks = pr
        .checks
        .iter()
        .filter(|c| {
            c.status == "COMPLETED"
                && matches!(
                    c.conclusion.as_deref(),
                    Some("FAILURE" | "TIMED_OUT" | "STARTUP_FAILURE" | "ERROR" | "ACTION_REQUIRED")
                )
        })
        .map(|c| {
            // Only a workflow's check run is an Actions job with a log to read.
            let log_job_id = c.id.filter(|_| c.workflow.is_some() && logs < MAX_LOGS);
            logs += usize::from(log_job_id.is_some());
            FailedCheck {
                name: c.name.clone(),
                workflow: c.workflow.clone(),
                conclusion: c.conclusion.clone().unwrap_or_default(),
                run_id: c.run_id,
                log_job_id,
            }
        })
        .collect();
    let how = if rebuild.is_some() {
        "a generated branch: its rebuild command builds it again"
    } else {
        "the AI command fixes it"
    };
    FixerPick {
        number: Some(number),
        code: if fresh { "pick" } else { "resume" }.into(),
        message: format!(
            "#{number}: set aside `{}` at {}; {how}",
            reason.code(),
            markers::short(&pr.head_sha)
        ),
        head: pr.head_sha.clone(),
        branch: pr.head_ref.clone(),
        base: pr.base_ref.clone(),
        reason: reason.code().into(),
        start,
        rebuild,
        set_aside,
        failed_checks,
        claim_ops: claim.ops,
        claim_minutes: ctx.config.queue.claim_minutes,
        command_timeout_minutes: ctx.config.queue.command_timeout_minutes,
    }
}

/// What the fixer's shell found in the worktree, for the AI's brief.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FixerFound {
    pub worktree: String,
    #[serde(default)]
    pub conflicting_files: Vec<String>,
    /// Each failed run's name and its log as the shell read it (or why it could not); the brief keeps
    /// the last LOG_TAIL_LINES lines.
    #[serde(default)]
    pub logs: Vec<RunLog>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RunLog {
    pub name: String,
    pub tail: String,
}

/// A log's last LOG_TAIL_LINES lines, each without the timestamp GitHub stamps on it (noise to a reader).
fn log_tail(text: &str) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let from = lines.len().saturating_sub(LOG_TAIL_LINES);
    lines[from..]
        .iter()
        .map(|l| strip_stamp(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `2026-11-30T09:10:00.0000000Z text` -> `text`; a line without the stamp is kept whole.
fn strip_stamp(line: &str) -> &str {
    match line.split_once(' ') {
        Some((stamp, rest))
            if stamp.len() >= 20
                && stamp.ends_with('Z')
                && stamp.as_bytes()[10] == b'T'
                && stamp.as_bytes()[..4].iter().all(u8::is_ascii_digit) =>
        {
            rest
        }
        _ => line,
    }
}

/// The text the AI command reads on stdin: what to fix, where, and how the station knows it is done.
pub fn fixer_brief(pick: &FixerPick, found: &FixerFound) -> String {
    let n = pick.number.unwrap_or_default();
    let mut out = format!("# Fix pull request #{n} (`{}` onto `{}`)\n\n", pick.branch, pick.base);
    out.push_str(&format!(
        "The merge queue set it aside as `{}` at {}. Its branch is checked out in the worktree\n\n    {}\n\n",
        pick.reason,
        markers::short(&pick.head),
        found.worktree
    ));
    match pick.start {
        FixerStart::Rebase => {
            out.push_str(&format!("A `git rebase {}` is under way there and stopped on a conflict. Resolve it, `git add` the files and `git rebase --continue` until the rebase is done.\n", pick.base));
        }
        FixerStart::Head => out.push_str("Make the failed checks pass and commit the fix there.\n"),
        FixerStart::Base => {
            out.push_str("The worktree is at the base's tip: build the branch again there and commit it.\n")
        }
    }
    out.push_str("\nLeave a commit and the station pushes it under skip-ci and hands the pull request back to the queue. Leave none, or exit non-zero, to give up: the station says so on the pull request.\n");
    if !found.conflicting_files.is_empty() {
        out.push_str("\n## Conflicting files\n\n");
        for f in &found.conflicting_files {
            out.push_str(&format!("- {f}\n"));
        }
    }
    if !pick.failed_checks.is_empty() {
        out.push_str("\n## Failed runs\n\n");
        for c in &pick.failed_checks {
            let workflow = c.workflow.as_deref().map(|w| format!("{w} / ")).unwrap_or_default();
            let run = c
                .run_id
                .map(|r| format!(" (run {r})"))
                .or(c.log_job_id.map(|j| format!(" (job {j})")))
                .unwrap_or_default();
            out.push_str(&format!("- {workflow}{}: {}{run}\n", c.name, c.conclusion));
        }
    }
    for log in &found.logs {
        // The log is the job's: a fence it cannot close, so it writes no section of its own here.
        out.push_str(&format!(
            "\n## Log tail: {}\n\n{}\n",
            text::inline(&log.name),
            text::code_block(&log_tail(&log.tail))
        ));
    }
    if !pick.set_aside.trim().is_empty() {
        out.push_str(&format!(
            "\n## The set-aside comment\n\n{}\n",
            pick.set_aside.trim_end()
        ));
    }
    out
}

/// Giving up: the claim released (claim-pr's release op) and a comment saying why, both guarded by
/// the head the fixer claimed, so a push in between voids them.
pub fn fixer_give_up(ctx: &Ctx, number: u64, name: &str, why: &str, output: &str) -> Vec<Op> {
    let release = claim_pr(ctx, number, name, true);
    let mut ops = release.ops;
    let head = ctx
        .by_number
        .get(&number)
        .map(|p| p.head_sha.clone())
        .unwrap_or_default();
    let why = why.trim();
    let why = if why.is_empty() { "no reason given" } else { why };
    // What the command printed is quoted only as code (redacted by the shell before it came here).
    let output = output.trim_end();
    let printed = if output.trim().is_empty() {
        String::new()
    } else {
        format!("\n\nIts last output:\n\n{}", text::code_block(output))
    };
    ops.push(Op::Comment { number, body: format!("**Fixer {name} gave up** on #{number} at `{}`: {}{printed}\n\nThe claim is released; the pull request stays set aside for a person or another fixer.\n", markers::short(&head), text::inline(why)), reason: format!("#{number}: fixer {name} gave up"), guard: Guard::head(&head) });
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_tail_is_its_last_lines_without_githubs_timestamps() {
        let log: String = (1..=LOG_TAIL_LINES + 5)
            .map(|i| format!("2026-11-30T09:10:00.0000000Z line {i}\n"))
            .collect();
        let tail = log_tail(&log);
        assert_eq!(tail.lines().count(), LOG_TAIL_LINES);
        assert_eq!(tail.lines().next(), Some("line 6"));
        assert_eq!(
            tail.lines().last(),
            Some(format!("line {}", LOG_TAIL_LINES + 5).as_str())
        );
    }

    #[test]
    fn a_line_without_a_timestamp_is_kept_whole() {
        assert_eq!(
            strip_stamp("error[E0308]: mismatched types"),
            "error[E0308]: mismatched types"
        );
        assert_eq!(strip_stamp("2026-11-30 not a stamp"), "2026-11-30 not a stamp");
        assert_eq!(strip_stamp("é"), "é");
    }
}
