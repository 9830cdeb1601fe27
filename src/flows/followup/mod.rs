//! `sweep(facts, config)`: the scheduled follow-up. For every open pull request, how long it has sat
//! in its current state (from the timeline, never from memory), which level of that state is due, who
//! to tell, whether a stale claim is released, whether the line is stopped, and the board issue.
//!
//! Follow-up belongs to a scheduled job, not to anyone's memory; and because the job is stateless, the
//! only memory it has is what it wrote: a level fires once per stay in a state because its comment
//! carries a marker (state, start of the stay, level) that the next sweep finds. A sweep that comes
//! late fires only the highest level reached, never a backlog of stale pings.

pub mod board;
pub mod markers;
pub mod pull;
pub mod texts;

/// The section and the working-hours clock moved down to the core layer; the old paths still name them.
pub use crate::core::clock;
pub use crate::core::config::followup as settings;

use crate::core::config::{Config, ConfigError};
use crate::core::facts::{parse_facts, parse_facts_str, FactsError};
use crate::core::facts::{Facts, PullFact, PullRequest, RepoFact};
use crate::core::labels::{label_edit, Wants};
use crate::core::plan::{Guard, Op, Warning};
use crate::core::time::{format_rfc3339, parse_rfc3339};
use crate::VERSION;
use clock::Clock;
use markers::{trusted_marks, FollowupMark};
pub use pull::{FollowupPull, LevelRef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use settings::{Action, Level};
use std::collections::BTreeSet;

pub use settings::Followup;

/// Reviews that count as a verdict on a claim.
const VERDICTS: [&str; 2] = ["APPROVED", "CHANGES_REQUESTED"];

/// What a sweep wants written, and what it concluded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SweepPlan {
    pub engine: String,
    /// Problems in the config; when there are any, nothing is written.
    pub config_errors: Vec<ConfigError>,
    /// Follow-up comments, claim releases and the board, in the order to apply them.
    pub ops: Vec<Op>,
    /// Some pull request has waited past a stop-the-line level: development machines should open no
    /// new pull request (`prflow claim dev` answers `stop-the-line`). Derived on every sweep, so it
    /// turns itself off when the queue drains.
    pub stop_the_line: bool,
    /// One line per pull request that holds the line stopped.
    pub stop_reasons: Vec<String>,
    /// Every open pull request as the sweep saw it (the board's rows).
    pub pulls: Vec<FollowupPull>,
    pub warnings: Vec<Warning>,
}

/// Recipients resolved from a level's `who`.
struct Audience {
    logins: Vec<String>,
    notes: Vec<String>,
}

fn bare(login: &str) -> String {
    login.trim().trim_start_matches('@').to_string()
}

fn machines<'a>(pr: &'a PullRequest, prefix: &str) -> Vec<&'a str> {
    pr.labels.iter().filter_map(|l| l.strip_prefix(prefix)).collect()
}

fn resolve(who: &[String], pr: &PullRequest, config: &Config) -> Audience {
    let f = &config.followup;
    let p = &f.people;
    let mut logins: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let on_duty = |notes: &mut Vec<String>, why: &str| -> Vec<String> {
        match &p.on_duty {
            Some(d) => vec![bare(d)],
            None => {
                notes.push(format!("{why}, and followup.people.onDuty is not set"));
                Vec::new()
            }
        }
    };
    for w in who {
        let found: Vec<String> = match w.as_str() {
            "author" => {
                let ms = machines(pr, &f.author_prefix);
                if ms.is_empty() {
                    (!pr.author.is_empty()).then(|| bare(&pr.author)).into_iter().collect()
                } else {
                    ms.iter()
                        .map(|m| match p.machine_owners.get(*m) {
                            Some(o) => bare(o),
                            None => {
                                notes.push(format!(
                                    "machine {m:?} has no owner in followup.people.machineOwners; its author was told"
                                ));
                                bare(&pr.author)
                            }
                        })
                        .filter(|s| !s.is_empty())
                        .collect()
                }
            }
            "claimer" => {
                let ms = machines(pr, &f.claim_prefix);
                let mut out = Vec::new();
                for m in ms {
                    match p.machine_owners.get(m) {
                        Some(o) => out.push(bare(o)),
                        None => {
                            let why = format!("machine {m:?} has no owner in followup.people.machineOwners");
                            let duty = on_duty(&mut notes, &why);
                            if !duty.is_empty() {
                                notes.push(format!("{why}; the person on duty was told"));
                            }
                            out.extend(duty);
                        }
                    }
                }
                out
            }
            "reviewers" if p.reviewers.is_empty() => on_duty(&mut notes, "followup.people.reviewers is empty"),
            "reviewers" => p.reviewers.iter().map(|r| bare(r)).collect(),
            "onDuty" => on_duty(&mut notes, "a level names onDuty"),
            "gateOwner" => match &p.gate_owner {
                Some(g) => vec![bare(g)],
                None => on_duty(&mut notes, "followup.people.gateOwner is not set"),
            },
            "everyone" => {
                let all = if p.humans.is_empty() {
                    &config.bot_panel.humans
                } else {
                    &p.humans
                };
                if all.is_empty() {
                    on_duty(&mut notes, "followup.people.humans is empty")
                } else {
                    all.iter().map(|h| bare(h)).collect()
                }
            }
            other => vec![bare(other)],
        };
        for l in found {
            if !l.is_empty() && !logins.iter().any(|x| x.eq_ignore_ascii_case(&l)) {
                logins.push(l);
            }
        }
    }
    Audience { logins, notes }
}

fn level_ref(l: &Level) -> LevelRef {
    LevelRef {
        after: l.after,
        action: l.action,
    }
}

/// The sweep. Facts must carry `viewer` (whose markers are trusted), each pull request's labels,
/// timeline and comments, and the issues carrying the board label (`boards`, or `unknown: ["board"]`).
pub fn sweep(facts: &Facts, config: &Config) -> SweepPlan {
    sweep_with::<true>(facts, config, &[])
}

/// The sweep with the merge queue's lane for the board (a composer works it out: a flow reads no other).
pub fn sweep_with_lane(facts: &Facts, config: &Config, lane: &[crate::core::lane::LaneEntry]) -> SweepPlan {
    sweep_with::<true>(facts, config, lane)
}

/// The sweep's readings without its writing, for the dashboard, which shows them: every row, warning
/// and stop as `sweep` gives them, no comment and no board. The comments' and the board's texts are
/// then not in the page's Wasm at all (issue 16).
pub fn sweep_rows(facts: &Facts, config: &Config) -> SweepPlan {
    sweep_with::<false>(facts, config, &[])
}

/// `WRITE` at compile time, so that a build calling only `sweep_rows` carries no text of a write.
fn sweep_with<const WRITE: bool>(facts: &Facts, config: &Config, lane: &[crate::core::lane::LaneEntry]) -> SweepPlan {
    let f = &config.followup;
    let now = parse_rfc3339(&facts.now).unwrap_or(0);
    let clock = Clock::new(&f.working_hours);
    let levels = f.effective_levels(&config.stations.labels);
    let viewer = facts.viewer.as_deref().filter(|v| !v.trim().is_empty());
    let mut plan = SweepPlan {
        engine: VERSION.to_string(),
        ..SweepPlan::default()
    };
    let mut notes: BTreeSet<String> = BTreeSet::new();
    let mut stops: Vec<board::Stop> = Vec::new();
    if viewer.is_none() {
        plan.warnings.push(Warning {
            number: None,
            message: "the tool's own login (facts.viewer) is unknown, so no marker can be trusted: no follow-up comment was written".into(),
        });
    }

    let mut pulls: Vec<&PullRequest> = facts.pull_requests.iter().collect();
    pulls.sort_by_key(|p| p.number);
    for pr in pulls {
        let mut row = FollowupPull {
            number: pr.number,
            title: pr.title.clone(),
            owner: match machines(pr, &f.author_prefix).as_slice() {
                [] => pr.author.clone(),
                ms => ms.join(", "),
            },
            claimers: machines(pr, &f.claim_prefix).iter().map(|m| m.to_string()).collect(),
            blockers: pr
                .labels
                .iter()
                .filter(|l| f.board.blocker_prefixes.iter().any(|b| l.starts_with(b.as_str())))
                .cloned()
                .collect(),
            ..FollowupPull::default()
        };
        let skip = |row: &mut FollowupPull, plan: &mut SweepPlan, problem: String| {
            plan.warnings.push(Warning {
                number: Some(pr.number),
                message: problem.clone(),
            });
            row.problem = Some(problem);
        };
        let stay = match crate::core::stay::stay(pr, config, &clock, now) {
            Ok(stay) => stay,
            Err(no) => {
                row.state = no.state;
                skip(&mut row, &mut plan, no.problem);
                plan.pulls.push(row);
                continue;
            }
        };
        let (state, since, minutes) = (stay.state.clone(), stay.since, stay.minutes);
        row.state = Some(state.clone());
        let state_levels: &[Level] = levels.get(&state).map(Vec::as_slice).unwrap_or(&[]);
        row.since = Some(format_rfc3339(since));
        row.minutes = Some(minutes);
        let reached = state_levels.iter().rev().find(|l| i64::from(l.after) <= minutes);
        row.reached = reached.map(level_ref);
        row.next = state_levels
            .iter()
            .find(|l| i64::from(l.after) > minutes)
            .map(level_ref);

        if let Some(stop) = crate::core::stay::stop_level(state_levels, &stay) {
            plan.stop_the_line = true;
            stops.push(board::Stop {
                number: pr.number,
                state: state.clone(),
                after: stop.after,
                minutes,
            });
            plan.stop_reasons
                .push(crate::core::stay::stop_reason(pr.number, &stay, stop));
        }

        let Some(level) = reached else {
            plan.pulls.push(row);
            continue;
        };
        if pr.unknown(PullFact::Comments) {
            skip(
                &mut row,
                &mut plan,
                "its comments could not be read, so whether a level already fired is unknown; nothing was written"
                    .into(),
            );
            plan.pulls.push(row);
            continue;
        }
        row.fired = trusted_marks(&pr.comments, viewer)
            .into_iter()
            .filter(|m| m.state == state && m.since == since)
            .map(|m| m.level)
            .collect();
        row.fired.sort();
        row.fired.dedup();
        // Once per stay: a level whose comment exists, or any higher one, has been dealt with.
        if row.fired.iter().any(|&l| l >= level.after) || viewer.is_none() {
            plan.pulls.push(row);
            continue;
        }
        let claims: Vec<String> = pr
            .labels
            .iter()
            .filter(|l| l.starts_with(&f.claim_prefix))
            .cloned()
            .collect();
        if level.action == Action::ReleaseClaim {
            if claims.is_empty() {
                // Nothing to release: no write, and no marker, so a later claim in the same stay is still watched.
                plan.pulls.push(row);
                continue;
            }
            let verdict = pr.reviews.iter().any(|r| {
                VERDICTS.contains(&r.state.as_str()) && parse_rfc3339(&r.submitted_at).is_some_and(|t| t >= since)
            });
            if verdict {
                plan.warnings.push(Warning {
                    number: Some(pr.number),
                    message: format!("a verdict came in during this stay, yet it is still in `{state}` past the release level; the claim was kept"),
                });
                plan.pulls.push(row);
                continue;
            }
        }
        let audience = resolve(&level.recipients(), pr, config);
        notes.extend(audience.notes);
        if WRITE {
            let mark = FollowupMark {
                state: state.clone(),
                since,
                level: level.after,
            };
            let next = state_levels.iter().find(|l| l.after > level.after);
            let body = texts::comment_body(&texts::CommentText {
                mark: &mark,
                level,
                next,
                mentions: &audience.logins,
                minutes,
                working_hours: matches!(clock, Clock::Working { .. }),
                claims: &claims,
                queue_state: &f.queue_state,
            });
            let reason = format!(
                "{} in `{state}` for {}: {} at {}",
                pr.number,
                texts::duration(minutes),
                level.action.word(),
                texts::duration(i64::from(level.after))
            );
            let marker = mark.line();
            // The comment to edit is named here, by the one own-account rule, so no shell judges authors.
            let comment_id = viewer.and_then(|v| {
                pr.comments
                    .iter()
                    .find(|c| {
                        crate::core::account::is_own(&c.author, v) && c.body.split('\n').next() == Some(marker.as_str())
                    })
                    .and_then(|c| c.id)
            });
            plan.ops.push(Op::UpsertComment {
                number: pr.number,
                marker,
                body,
                reason: format!("#{reason}"),
                comment_id,
                guard: Guard::default(),
            });
        }
        if level.action == Action::ReleaseClaim {
            let mut wants = Wants::default();
            let why = format!("claimed for {} with no verdict", texts::duration(minutes));
            for c in &claims {
                wants.absent(c, why.clone());
            }
            wants.absent(&state, why.clone());
            wants.present(&f.queue_state, "back to the queue after a released claim");
            // A release the labels cannot carry out is a warning from label_edit, never half a write.
            if let Some(op) = label_edit(
                facts,
                pr,
                &wants,
                || format!("release the claim: {why}"),
                &mut plan.warnings,
            ) {
                plan.ops.push(op);
                // The board shows the pull request as this plan leaves it, back in the queue from now,
                // so the next sweep, reading what was written, finds the board already true.
                row.firing = Some(level.after);
                let queue_levels: &[Level] = levels.get(&f.queue_state).map(Vec::as_slice).unwrap_or(&[]);
                row.state = Some(f.queue_state.clone());
                row.since = Some(format_rfc3339(now));
                row.minutes = Some(0);
                row.claimers.clear();
                row.fired.clear();
                row.reached = None;
                row.next = queue_levels.first().map(level_ref);
                plan.pulls.push(row);
                continue;
            }
        }
        row.firing = Some(level.after);
        plan.pulls.push(row);
    }

    if WRITE && f.board.enabled {
        if facts.repo_unknown(RepoFact::Board) {
            plan.warnings.push(Warning {
                number: None,
                message: "the board issue could not be read; it was not rewritten".into(),
            });
        } else {
            let view = board::BoardView {
                lane,
                pulls: &plan.pulls,
                warnings: &plan.warnings,
                stops: &stops,
                now,
                hours: clock.describe(&f.working_hours),
                order: &f.board.order,
            };
            let (digest, body) = board::render(&view);
            let current = board::the_board(&facts.boards);
            let unchanged = current.is_some_and(|b| board::digest_of(&b.body).as_deref() == Some(digest.as_str()));
            if !unchanged {
                plan.ops.push(Op::UpsertBoard {
                    number: current.map(|b| b.number),
                    label: f.board.label.clone(),
                    title: current
                        .map(|b| b.title.clone())
                        .filter(|t| !t.is_empty())
                        .unwrap_or_else(|| f.board.title.clone()),
                    body,
                    reason: if current.is_some() {
                        "the board's content changed".into()
                    } else {
                        format!("no open issue carries `{}`", f.board.label)
                    },
                    // The board is the issue that carries the label: one a person took it off is not rewritten.
                    guard: Guard {
                        labels_on: current.map(|_| vec![f.board.label.clone()]).unwrap_or_default(),
                        ..Guard::default()
                    },
                });
            }
        }
    }
    // Gaps in `people` show up only when a level fires, so they go to the run's summary, not to the
    // board: on the board they would appear and vanish, and rewrite it twice for nothing.
    plan.warnings
        .extend(notes.into_iter().map(|message| Warning { number: None, message }));
    plan
}

/// The entry point as the boundary calls it: JSON in, sweep plan out, errors in words.
pub fn sweep_values(facts: serde_json::Value, config: serde_json::Value) -> Result<SweepPlan, FactsError> {
    let facts = parse_facts(facts)?;
    Ok(match Config::from_value(config) {
        Ok(config) => sweep(&facts, &config),
        Err(errors) => SweepPlan {
            engine: VERSION.to_string(),
            config_errors: errors,
            ..SweepPlan::default()
        },
    })
}

/// The same from facts as JSON text: the boundary's path, sharing the reconciler's facts parser so the
/// Wasm carries one deserializer of the facts, not two.
pub fn sweep_text(facts: &str, config: serde_json::Value) -> Result<SweepPlan, FactsError> {
    let facts = parse_facts_str(facts)?;
    Ok(match Config::from_value(config) {
        Ok(config) => sweep(&facts, &config),
        Err(errors) => SweepPlan {
            engine: VERSION.to_string(),
            config_errors: errors,
            ..SweepPlan::default()
        },
    })
}

/// Whether development machines should open no new pull request, and why: for `prflow claim dev`,
/// which answers `stop-the-line` while this is on (fixing a bounced pull request is still allowed: it
/// opens nothing new). The same rule as the sweep's, from the same facts, so both always agree.
pub use crate::core::stay::stop_the_line;

/// What a shell must know before it reads: whether there is a board and the label that finds it, with
/// the defaults filled in by the engine rather than by each shell. (Kept to that: serializing the whole
/// section would put its serializers in the Wasm for no reader.)
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowupSettings {
    pub config_errors: Vec<ConfigError>,
    pub board: Option<settings::Board>,
}

pub fn followup_settings(config: serde_json::Value) -> FollowupSettings {
    match Config::from_value(config) {
        Ok(config) => FollowupSettings {
            config_errors: Vec::new(),
            board: Some(config.followup.board),
        },
        Err(errors) => FollowupSettings {
            config_errors: errors,
            board: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn effective_levels_lay_the_config_over_the_articles_table() {
        // (rule, config, state, expected minutes of its levels)
        let cases = [
            (
                "an empty config is the article's table",
                json!({}),
                "state:reviewing",
                vec![90, 180],
            ),
            (
                "a state in the config replaces its defaults",
                json!({"followup": {"levels": {"state:reviewing": [{"after": 45, "action": "ping"}]}}}),
                "state:reviewing",
                vec![45],
            ),
            (
                "other states keep theirs",
                json!({"followup": {"levels": {"state:reviewing": []}}}),
                "state:ready-for-review",
                vec![60, 120, 240],
            ),
        ];
        for (rule, config, state, minutes) in cases {
            let levels = Config::from_value(config)
                .expect(rule)
                .followup
                .effective_levels(&crate::flows::stations::settings::StationLabels::default());
            assert_eq!(
                levels[state].iter().map(|l| l.after).collect::<Vec<_>>(),
                minutes,
                "{rule}"
            );
        }
    }

    #[test]
    fn prefixes_and_queue_state_follow_the_stations_labels_unless_given() {
        // (rule, config, expected (authorPrefix, claimPrefix, queueState))
        let cases = [
            (
                "the defaults agree",
                json!({}),
                ("from:", "reviewer:", "state:ready-for-review"),
            ),
            (
                "renamed stations labels carry over",
                json!({"stations": {"labels": {"fromPrefix": "by:", "reviewerPrefix": "rv:", "readyForReview": "state:queued"}}}),
                ("by:", "rv:", "state:queued"),
            ),
            (
                "a key given in followup wins",
                json!({"stations": {"labels": {"fromPrefix": "by:"}}, "followup": {"authorPrefix": "author:"}}),
                ("author:", "reviewer:", "state:ready-for-review"),
            ),
        ];
        for (rule, config, (author, claim, queue)) in cases {
            let f = Config::from_value(config).expect(rule).followup;
            assert_eq!(
                (
                    f.author_prefix.as_str(),
                    f.claim_prefix.as_str(),
                    f.queue_state.as_str()
                ),
                (author, claim, queue),
                "{rule}"
            );
        }
    }

    #[test]
    fn settings_name_the_board_label_or_the_errors() {
        assert_eq!(followup_settings(json!({})).board.expect("valid").label, "flow:board");
        assert_eq!(
            followup_settings(json!({"followup": {"board": {"label": "board"}}}))
                .board
                .expect("valid")
                .label,
            "board"
        );
        assert_eq!(
            followup_settings(json!({"followup": {"board": {"label": ""}}})).config_errors[0].path,
            "$.followup.board.label"
        );
    }

    #[test]
    fn the_dashboards_sweep_reads_what_the_sweep_decides() {
        // sweep_rows (the page's) leaves out the comments and the board, and nothing else: the same rows,
        // warnings and stop, and the same label edits, as the writing sweep on every board here.
        let facts = |minutes_ago: i64, board: Option<&str>, own_mark: bool| -> Facts {
            let at = |m: i64| format_rfc3339(parse_rfc3339("2026-11-30T14:00:00Z").unwrap() - 60 * (minutes_ago + m));
            let mut comments = vec![];
            if own_mark {
                comments.push(json!({"id": 9, "author": "bot", "body": format!("<!-- prflow:followup state=state:reviewing since={} level=90 -->\nping", at(0)), "createdAt": at(0)}));
            }
            let mut f = json!({
                "now": "2026-11-30T14:00:00Z", "viewer": "bot",
                "labels": ["state:ready-for-review", "state:reviewing", "state:changes-requested", "reviewer:m4", "from:m1"],
                "pullRequests": [
                    {"number": 1, "author": "agent", "labels": ["state:ready-for-review", "from:m1"],
                     "timeline": [{"kind": "labeled", "at": at(0), "label": "state:ready-for-review"}]},
                    {"number": 2, "author": "agent", "labels": ["state:reviewing", "reviewer:m4", "from:m1"], "comments": comments,
                     "timeline": [{"kind": "labeled", "at": at(30), "label": "state:reviewing"}]},
                    {"number": 3, "author": "agent", "labels": ["state:changes-requested"],
                     "timeline": [{"kind": "labeled", "at": at(600), "label": "state:changes-requested"}]},
                    {"number": 4, "author": "agent", "labels": []},
                ],
            });
            match board {
                Some(body) => f["boards"] = json!([{"number": 50, "title": "Board", "body": body}]),
                None => f["unknown"] = json!(["board"]),
            }
            serde_json::from_value(f).unwrap()
        };
        // m4 has no owner and no one is on duty: the levels that fire leave notes among the warnings.
        let people = json!({"humans": ["alice"], "reviewers": ["alice"], "machineOwners": {"m1": "alice"}});
        let (mut comments, mut notes) = (0, 0);
        for minutes_ago in [0, 61, 95, 185, 250, 1000] {
            for (board_on, board) in [(true, Some("")), (true, None), (false, None)] {
                for own_mark in [false, true] {
                    let config =
                        Config::from_value(json!({"followup": {"board": {"enabled": board_on}, "people": people}}))
                            .unwrap();
                    let facts = facts(minutes_ago, board, own_mark);
                    let rows = sweep_rows(&facts, &config);
                    let mut quiet = config.clone();
                    quiet.followup.board.enabled = false;
                    let mut written = sweep(&facts, &quiet);
                    comments += written
                        .ops
                        .iter()
                        .filter(|op| matches!(op, Op::UpsertComment { .. }))
                        .count();
                    written
                        .ops
                        .retain(|op| !matches!(op, Op::UpsertComment { .. } | Op::UpsertBoard { .. }));
                    assert_eq!(
                        rows, written,
                        "{minutes_ago} minutes, board {board_on} {board:?}, marker {own_mark}"
                    );
                    notes += rows
                        .warnings
                        .iter()
                        .filter(|w| w.message.contains("machineOwners"))
                        .count();
                }
            }
        }
        assert!(
            comments >= 10,
            "the writing sweep wrote comments on these boards ({comments}), so the two were compared where they differ"
        );
        assert!(notes > 0, "some level's audience had a gap");
    }

    #[test]
    fn stop_the_line_for_claim_dev_agrees_with_the_sweep() {
        let facts = |applied: &str| -> Facts {
            serde_json::from_value(json!({
                "now": "2026-11-30T14:00:00Z", "viewer": "bot",
                "pullRequests": [{"number": 1, "labels": ["state:ready-for-review"],
                                  "timeline": [{"kind": "labeled", "at": applied, "label": "state:ready-for-review"}]}]
            }))
            .unwrap()
        };
        let config = Config::default();
        // (rule, when the queue state was applied, stopped)
        for (rule, applied, stopped) in [
            ("239 minutes in the queue: open", "2026-11-30T10:01:00Z", false),
            ("240 minutes: stopped", "2026-11-30T10:00:00Z", true),
        ] {
            let (on, reasons) = stop_the_line(&facts(applied), &config);
            assert_eq!(on, stopped, "{rule}");
            assert_eq!(
                on,
                sweep(&facts(applied), &config).stop_the_line,
                "{rule}: same answer as the sweep"
            );
            assert_eq!(reasons.len(), usize::from(stopped), "{rule}");
        }
    }
}
