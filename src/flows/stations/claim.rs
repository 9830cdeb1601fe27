//! `prflow claim review|dev|any <machine>`: the next thing a machine should do, as one line a shell
//! script can `case` on, plus the label edit that claims it. Pure: the CLI writes the edit, waits the
//! settle time, reads the labels back and asks `resolve_claim_race` who keeps it.

use super::commands::machine_in;
use super::settings::Role;
use super::state::{derive, Derived, Phase};
use crate::core::config::Config;
use crate::core::facts::{Facts, PullRequest};
use crate::core::labels::{label_edit, Wants};
use crate::core::plan::{Guard, LabelChange, Op, Warning};
use crate::core::time::parse_rfc3339;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The words of the answer line.
pub const LINE_CLAIM: &str = "claim";
pub const LINE_WIP_FULL: &str = "wip-full";
pub const LINE_QUEUE_EMPTY: &str = "queue-empty";
pub const LINE_FIX: &str = "fix";
pub const LINE_NEW_WORK: &str = "new-work";
pub const LINE_LOST: &str = "lost";
pub const LINE_STOP_THE_LINE: &str = "stop-the-line";

/// A claimer gives up after this many lost races in one `prflow claim` (every loss takes a candidate
/// away, so this is only a guard against a loop).
pub const MAX_RACES: u32 = 20;

/// What the answer is, as the first word of its line says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    /// A pull request to review: write `ops`, wait `settleSeconds`, read its labels back and ask
    /// `resolveClaimRace` who keeps it.
    Claim,
    WipFull,
    QueueEmpty,
    /// A bounced pull request of the machine's own to fix (`number`).
    Fix,
    StopTheLine,
    NewWork,
}

/// The answer to `prflow claim`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimResult {
    /// `claim #N`, `wip-full n/w`, `queue-empty`, `fix #N`, `stop-the-line` or `new-work`.
    pub line: String,
    /// The line's first word, typed: what a shell acts on.
    pub kind: ClaimKind,
    /// The side the answer is for: `review` or `dev` (a machine of role `any` gets one of them).
    pub role: String,
    /// The pull request the line names, if any.
    pub number: Option<u64>,
    /// Its head commit as read: what a review of it is about, and what its writes expect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// The writes that make the claim (empty unless the line is `claim #N`).
    pub ops: Vec<Op>,
    /// Why this answer, in words.
    pub why: String,
    /// Seconds to wait before reading the claim back.
    pub settle_seconds: u32,
    pub warnings: Vec<Warning>,
}

/// The answer to "after the settle time, do I still hold it?".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RaceResult {
    pub won: bool,
    /// The claim label that keeps it: the lexicographically smallest `reviewer:*`.
    pub winner: Option<String>,
    /// `claim #N` when won, `lost #N to reviewer:x` when not.
    pub line: String,
    /// The loser's withdrawal (its own claim label removed; the winner's state label stays), or the
    /// winner's last step (the ready-for-review label removed, one label at a time).
    pub ops: Vec<Op>,
}

fn created(pr: &PullRequest) -> i64 {
    parse_rfc3339(&pr.created_at).unwrap_or(i64::MAX)
}

fn parse_role(role: &str) -> Result<Role, String> {
    match role {
        "review" => Ok(Role::Review),
        "dev" => Ok(Role::Dev),
        "any" => Ok(Role::Any),
        other => Err(format!("role: expected review, dev or any, found {other:?}")),
    }
}

struct Board<'a> {
    pulls: Vec<(&'a PullRequest, Derived)>,
}

impl<'a> Board<'a> {
    fn new(facts: &'a Facts, config: &Config) -> Self {
        let mut pulls: Vec<(&PullRequest, Derived)> = facts
            .pull_requests
            .iter()
            .map(|p| (p, derive(&config.stations, p, None)))
            .collect();
        pulls.sort_by_key(|(p, _)| (created(p), p.number));
        Board { pulls }
    }

    /// Unclaimed, waiting for review, not opened by `machine`: prio:high first, then the oldest.
    fn queue(&self, config: &Config, machine: &str) -> Vec<&(&'a PullRequest, Derived)> {
        let l = &config.stations.labels;
        let own = format!("{}{machine}", l.from_prefix);
        let mut q: Vec<&(&PullRequest, Derived)> = self
            .pulls
            .iter()
            .filter(|(p, d)| {
                d.phase == Phase::InReview
                    && !p.is_draft
                    // An unread draft flag is no "ready for review": never claimed on a guess.
                    && !p.unknown(crate::core::facts::PullFact::IsDraft)
                    && d.claims.is_empty()
                    && !p.labels.iter().any(|x| machine_in(x, &l.reviewer_prefix).is_some())
                    && !p.has_label(&own)
            })
            .collect();
        q.sort_by_key(|(p, _)| (!p.has_label(&l.prio_high), created(p), p.number));
        q
    }
}

fn review(facts: &Facts, config: &Config, board: &Board, machine: &str, lost: u32) -> ClaimResult {
    let st = &config.stations;
    let l = &st.labels;
    let mine = format!("{}{machine}", l.reviewer_prefix);
    let held = board
        .pulls
        .iter()
        .filter(|(p, d)| d.phase == Phase::InReview && p.has_label(&mine))
        .count() as u32;
    let base = ClaimResult {
        line: String::new(),
        kind: ClaimKind::QueueEmpty,
        role: "review".into(),
        number: None,
        head: None,
        ops: vec![],
        why: String::new(),
        settle_seconds: st.settle_seconds,
        warnings: vec![],
    };
    if held >= st.review_wip {
        return ClaimResult {
            line: format!("{LINE_WIP_FULL} {held}/{}", st.review_wip),
            kind: ClaimKind::WipFull,
            why: format!(
                "{machine} already reviews {held} pull requests (limit {})",
                st.review_wip
            ),
            ..base
        };
    }
    if lost >= MAX_RACES {
        return ClaimResult {
            line: LINE_QUEUE_EMPTY.into(),
            why: format!("{machine} lost {lost} claim races in a row and stops here (limit {MAX_RACES})"),
            ..base
        };
    }
    let queue = board.queue(config, machine);
    let Some((pr, _)) = queue.first() else {
        return ClaimResult {
            line: LINE_QUEUE_EMPTY.into(),
            kind: ClaimKind::QueueEmpty,
            why: format!("no unclaimed pull request waits for review that {machine} did not open"),
            ..base
        };
    };
    let first_why = if pr.has_label(&l.prio_high) {
        format!("{} first", l.prio_high)
    } else {
        "the oldest waiting".to_string()
    };
    let why = format!(
        "{machine} claims #{} ({first_why}; holds {held}/{})",
        pr.number, st.review_wip
    );
    // Additions only: GitHub adds labels without replacing the set, so two stations claiming at
    // once both land and the read-back sees both. Replacing the set (one PATCH with the full list)
    // would let the later writer erase the earlier claim after it was read back as won. The winner
    // removes the ready-for-review label once it knows it won (resolve_claim_race).
    let mut wants = Wants::default();
    wants.present(&mine, format!("claimed by {machine}"));
    wants.present(&l.reviewing, format!("claimed by {machine}"));
    let mut warnings = Vec::new();
    let ops: Vec<Op> = label_edit(facts, pr, &wants, || why.clone(), &mut warnings)
        .into_iter()
        .collect();
    ClaimResult {
        line: format!("{LINE_CLAIM} #{}", pr.number),
        kind: ClaimKind::Claim,
        number: Some(pr.number),
        head: Some(pr.head_sha.clone()),
        ops,
        why,
        warnings,
        ..base
    }
}

/// The development side: a bounced pull request of its own first (fixing opens nothing new), then
/// the follow-up sweep's stop-the-line (the same rule from the same facts, so the board and this
/// answer never disagree), then its WIP limit.
fn dev(facts: &Facts, config: &Config, board: &Board, machine: &str) -> ClaimResult {
    let st = &config.stations;
    let l = &st.labels;
    let own = format!("{}{machine}", l.from_prefix);
    let base = ClaimResult {
        line: String::new(),
        kind: ClaimKind::NewWork,
        role: "dev".into(),
        number: None,
        head: None,
        ops: vec![],
        why: String::new(),
        settle_seconds: st.settle_seconds,
        warnings: vec![],
    };
    let mine: Vec<&(&PullRequest, Derived)> = board.pulls.iter().filter(|(p, _)| p.has_label(&own)).collect();
    if let Some((pr, d)) = mine.iter().find(|(_, d)| d.phase == Phase::ChangesRequested) {
        return ClaimResult {
            line: format!("{LINE_FIX} #{}", pr.number),
            kind: ClaimKind::Fix,
            number: Some(pr.number),
            why: format!("#{} came back: {}", pr.number, d.why),
            ..base
        };
    }
    let (stopped, reasons) = crate::core::stay::stop_the_line(facts, config);
    if stopped {
        return ClaimResult {
            line: LINE_STOP_THE_LINE.into(),
            kind: ClaimKind::StopTheLine,
            why: format!(
                "open no new pull request until the review queue drains: {}",
                reasons.join("; ")
            ),
            ..base
        };
    }
    let open = mine.iter().filter(|(p, _)| !p.is_draft).count() as u32;
    if open >= st.dev_wip {
        return ClaimResult {
            line: format!("{LINE_WIP_FULL} {open}/{}", st.dev_wip),
            kind: ClaimKind::WipFull,
            why: format!(
                "{machine} has {open} open pull requests (limit {}); split, test or wait",
                st.dev_wip
            ),
            ..base
        };
    }
    ClaimResult {
        line: LINE_NEW_WORK.into(),
        kind: ClaimKind::NewWork,
        why: format!("{machine} has no bounced pull request and {open}/{} open", st.dev_wip),
        ..base
    }
}

/// `prflow claim <role> <machine>`.
pub fn claim(facts: &Facts, config: &Config, role: &str, machine: &str) -> Result<ClaimResult, String> {
    claim_after(facts, config, role, machine, 0)
}

/// `claim`, asked again after `lost` lost races in the same call: past `MAX_RACES` the review side
/// answers `queue-empty`, so a claimer that keeps losing stops.
pub fn claim_after(
    facts: &Facts,
    config: &Config,
    role: &str,
    machine: &str,
    lost: u32,
) -> Result<ClaimResult, String> {
    let asked = parse_role(role)?;
    if machine.is_empty() || machine.contains(char::is_whitespace) {
        return Err(format!("machine: expected a machine id such as m4, found {machine:?}"));
    }
    let st = &config.stations;
    let mut notes = Vec::new();
    match st.machines.get(machine) {
        None if !st.machines.is_empty() => notes.push(format!("{machine} is not in stations.machines")),
        Some(m) if m.role != Role::Any && asked != m.role && asked != Role::Any => {
            notes.push(format!("{machine} is configured as a {:?} machine but asked for {role}", m.role).to_lowercase())
        }
        _ => {}
    }
    let board = Board::new(facts, config);
    let mut result = match asked {
        Role::Review => review(facts, config, &board, machine, lost),
        Role::Dev => dev(facts, config, &board, machine),
        Role::Any => {
            let depth = board.queue(config, machine).len() as u32;
            if depth >= st.deep_queue {
                let r = review(facts, config, &board, machine, lost);
                if r.kind == ClaimKind::WipFull {
                    let mut d = dev(facts, config, &board, machine);
                    d.why = format!(
                        "review queue is deep ({depth} ≥ {}) but {}; so: {}",
                        st.deep_queue, r.why, d.why
                    );
                    d
                } else {
                    ClaimResult {
                        why: format!("review queue is deep ({depth} ≥ {}): {}", st.deep_queue, r.why),
                        ..r
                    }
                }
            } else {
                let d = dev(facts, config, &board, machine);
                ClaimResult {
                    why: format!("review queue is shallow ({depth} < {}): {}", st.deep_queue, d.why),
                    ..d
                }
            }
        }
    };
    result
        .warnings
        .extend(notes.into_iter().map(|message| Warning { number: None, message }));
    Ok(result)
}

/// After the settle time: the lexicographically smallest `reviewer:*` on the pull request keeps it.
pub fn resolve_claim_race(labels: &[String], machine: &str, number: u64, config: &Config) -> RaceResult {
    resolve_claim_race_timed(labels, machine, number, config, None)
}

/// `resolve_claim_race`, told how long the claimer's own window took: from the start of its facts read
/// to its claim write acknowledged (`took_ms`, measured by the shell). The smallest label keeps the
/// claim only if that window was shorter than the settle: a double claim needs a rival that read back
/// and kept the pull request before this claim landed, after this claimer read facts that did not show
/// the rival's claim, so this claimer's window then outlasted the rival's settle. Withdrawing whenever
/// the window reached the settle therefore leaves at most one claimer (a slow one can leave none, and
/// tries again), whatever the latency or a `retry-after` added to the write.
pub fn resolve_claim_race_timed(
    labels: &[String],
    machine: &str,
    number: u64,
    config: &Config,
    took_ms: Option<u64>,
) -> RaceResult {
    let prefix = &config.stations.labels.reviewer_prefix;
    let mine = format!("{prefix}{machine}");
    let mut claimers: Vec<&String> = labels.iter().filter(|x| machine_in(x, prefix).is_some()).collect();
    claimers.sort();
    let winner = claimers.first().map(|s| s.to_string());
    let settle_ms = u64::from(config.stations.settle_seconds) * 1000;
    // A settle of 0 is no settle (tests that run one station): nothing to outlast, so no window is too long.
    if let Some(took) = took_ms.filter(|&t| settle_ms > 0 && t >= settle_ms && labels.contains(&mine)) {
        let reason = format!("{machine} withdraws its claim on #{number}: its claim took {took} ms, not less than the {settle_ms} ms settle");
        let ops = vec![Op::EditLabels {
            number,
            add: vec![],
            remove: vec![LabelChange {
                label: mine.clone(),
                reason: reason.clone(),
            }],
            reason,
            guard: Guard::default(),
        }];
        return RaceResult {
            won: false,
            winner,
            line: format!("{LINE_LOST} #{number}: slow claim ({took} ms, settle {settle_ms} ms)"),
            ops,
        };
    }
    if winner.as_deref() == Some(mine.as_str()) {
        let waiting = &config.stations.labels.ready_for_review;
        let ops = if labels.contains(waiting) {
            let reason = format!("{machine} keeps the claim on #{number}");
            vec![Op::EditLabels {
                number,
                add: vec![],
                remove: vec![LabelChange {
                    label: waiting.clone(),
                    reason: reason.clone(),
                }],
                reason,
                guard: Guard::default(),
            }]
        } else {
            vec![]
        };
        return RaceResult {
            won: true,
            winner,
            line: format!("{LINE_CLAIM} #{number}"),
            ops,
        };
    }
    let ops = if labels.contains(&mine) {
        let reason = format!(
            "{machine} lost the claim on #{number} to {}",
            winner.as_deref().unwrap_or("nobody")
        );
        vec![Op::EditLabels {
            number,
            add: vec![],
            remove: vec![LabelChange {
                label: mine.clone(),
                reason: reason.clone(),
            }],
            reason,
            guard: Guard::default(),
        }]
    } else {
        vec![]
    };
    let line = match &winner {
        Some(w) => format!("{LINE_LOST} #{number} to {w}"),
        None => format!("{LINE_LOST} #{number}"),
    };
    RaceResult {
        won: false,
        winner,
        line,
        ops,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config::from_value(serde_json::json!({"flow": "stations"})).expect("config")
    }

    #[test]
    fn a_claim_whose_own_window_reached_the_settle_withdraws_even_as_the_smallest() {
        let c = config();
        let labels = vec![
            "reviewer:m4".to_string(),
            "reviewer:m5".to_string(),
            "state:reviewing".to_string(),
        ];
        let fast = resolve_claim_race_timed(&labels, "m4", 7, &c, Some(2_999));
        assert!(fast.won, "{fast:?}");
        let slow = resolve_claim_race_timed(&labels, "m4", 7, &c, Some(3_000));
        assert!(!slow.won);
        assert_eq!(slow.line, "lost #7: slow claim (3000 ms, settle 3000 ms)");
        let removed: Vec<&str> = slow
            .ops
            .iter()
            .flat_map(|op| match op {
                Op::EditLabels { remove, .. } => remove.iter().map(|r| r.label.as_str()).collect::<Vec<_>>(),
                _ => vec![],
            })
            .collect();
        assert_eq!(removed, ["reviewer:m4"], "only its own claim label");
        assert_eq!(
            resolve_claim_race_timed(&labels, "m4", 7, &c, None),
            resolve_claim_race(&labels, "m4", 7, &c),
            "untimed: as before"
        );
        let no_settle = Config::from_value(serde_json::json!({"flow": "stations", "stations": {"settleSeconds": 0}}))
            .expect("config");
        assert!(
            resolve_claim_race_timed(&labels, "m4", 7, &no_settle, Some(50)).won,
            "a settle of 0 withdraws nothing"
        );
    }
}
