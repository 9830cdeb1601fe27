//! What the worker remembers from a verdict, and for how long (step 5). A failure becomes a
//! set-aside record plus its comment (the comment IS the record across processes: the next run takes
//! it up in step 1b). Which reason a push clears and which `main` moving clears is
//! `setaside::Reason::cleared_by_main_move`; settling applies it. `not-merging` also demotes the pull
//! request to last, until someone else pushes: the worker's own pushes carry the demotion along.

use super::markers;
use super::setaside::{self, Reason};
use super::watch;
use crate::core::facts::{Demotion, Facts, SetAsideRecord};
use crate::core::plan::Op;

/// How many lines of a failed command's output the comment keeps.
pub const LOG_TAIL_LINES: usize = 60;

/// The record a watch outcome leaves, if any. A pull request that merged, closed, moved, went
/// behind, lost its auto-merge or got `skip-ci` back is not at fault: nothing is recorded.
pub fn watch_reason(outcome: &str) -> Option<Reason> {
    match outcome {
        watch::CHECKS_FAILED => Some(Reason::ChecksFailed),
        watch::AWAITING_BYPASS => Some(Reason::AwaitingBypass),
        watch::NOT_MERGING => Some(Reason::NotMerging),
        watch::TIMEOUT => Some(Reason::WatchTimeout),
        _ => None,
    }
}

/// The last `LOG_TAIL_LINES` lines of a command's output, folded for people.
pub fn log_tail(log: &str) -> String {
    folded("What the command printed", log)
}

/// The last `LOG_TAIL_LINES` lines of `log` folded under `title`. GitHub stamps each line of a job's
/// log with the time; the stamps are dropped, since they push what the command said off the screen.
fn folded(title: &str, log: &str) -> String {
    let lines: Vec<&str> = log.trim_end().lines().map(unstamped).collect();
    if lines.is_empty() {
        return String::new();
    }
    let tail = &lines[lines.len().saturating_sub(LOG_TAIL_LINES)..];
    format!(
        "<details><summary>{} (last {} lines)</summary>\n\n{}\n</details>",
        crate::core::text::inline(title),
        tail.len(),
        crate::core::text::code_block(&tail.join("\n"))
    )
}

/// A job log's line without the time GitHub stamps it with (`2026-11-30T12:00:00.0000000Z `).
fn unstamped(line: &str) -> &str {
    let Some((first, rest)) = line.split_once(' ') else {
        return line;
    };
    let b = first.as_bytes();
    let stamp =
        b.len() >= 20 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' && b[10] == b'T' && first.ends_with('Z');
    if stamp {
        rest
    } else {
        line
    }
}

/// The human part of a set-aside comment: what failed, the files, the log.
pub fn detail(lines: &[String], files: &[String], log: &str) -> String {
    let mut out: Vec<String> = lines.iter().filter(|l| !l.is_empty()).cloned().collect();
    if !files.is_empty() {
        // A path is the branch's to name: a code span it cannot close.
        out.push(format!(
            "Conflicting files:\n{}",
            files
                .iter()
                .map(|f| format!("- {}", crate::core::text::code_span(f)))
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    let tail = log_tail(log);
    if !tail.is_empty() {
        out.push(tail);
    }
    out.join("\n\n")
}

/// `detail` with a failed job's log each, folded under its name (a `checks-failed` comment).
pub fn detail_logs(lines: &[String], files: &[String], logs: &[(String, String)]) -> String {
    let mut out = detail(lines, files, "");
    for (name, log) in logs {
        let tail = folded(&format!("What {name} printed"), log);
        if !tail.is_empty() {
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(&tail);
        }
    }
    out
}

/// Record a set-aside and return the comment to write (edited in place when the tool's own
/// set-aside comment exists, resolved or not: one per pull request). `place` says where it stands
/// in the lane once fixed.
pub fn set_aside(
    records: &mut Vec<SetAsideRecord>,
    facts: &Facts,
    number: u64,
    reason: Reason,
    head: &str,
    detail: &str,
    place: &str,
) -> Op {
    let base = facts.base_tip_sha.clone().unwrap_or_default();
    records.retain(|r| r.number != number);
    records.push(SetAsideRecord {
        number,
        reason: reason.code().into(),
        head: head.into(),
        base: base.clone(),
    });
    let body = markers::set_aside_body(reason.code(), head, &base, detail, place);
    let existing = facts
        .pull_requests
        .iter()
        .find(|p| p.number == number)
        .and_then(|pr| setaside::own_set_aside(facts, pr))
        .map(|(c, _)| c);
    // An edit is guarded by the line the comment starts with now (as read, or as this run wrote it:
    // a resolved line, or a set-aside at an older head), not by the line it is about to get.
    let marker = existing
        .filter(|c| c.id.is_some())
        .map(|c| c.body.lines().next().unwrap_or_default())
        .unwrap_or_else(|| body.lines().next().unwrap_or_default())
        .to_string();
    Op::UpsertComment {
        number,
        marker,
        body,
        reason: format!("set aside `{}`: {}", reason.code(), reason.sentence()),
        comment_id: existing.and_then(|c| c.id),
        // Said of this head: a push since makes the comment wrong before it is written.
        guard: crate::core::plan::Guard::head(head),
    }
}

/// `not-merging`: last from now on, at this head.
pub fn demote(demoted: &mut Vec<Demotion>, number: u64, head: &str) {
    demoted.retain(|d| d.number != number);
    demoted.push(Demotion {
        number,
        head: head.into(),
    });
}

/// The worker pushed `number` from `old` to `new`: its own push does not end a demotion.
pub fn carry(demoted: &mut [Demotion], number: u64, old: &str, new: &str) {
    for d in demoted.iter_mut().filter(|d| d.number == number && d.head == old) {
        d.head = new.into();
    }
}
