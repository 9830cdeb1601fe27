//! Fixture runner for the follow-up sweep: tests/fixtures/followup/*.json, each a rule, a config, the
//! first facts, and steps. A step moves the clock, lets people act (label edits, reviews), sweeps, checks
//! the expectation, then applies the plan to the facts the way GitHub would (comments by the tool's
//! account, label events in the timeline, the board body), so the next step sees what was written.
//! Every comment and board the fixtures produce is compared byte for byte with
//! tests/snapshots/followup/<fixture>.md; `UPDATE_SNAPSHOTS=1 cargo test` rewrites them. With
//! PRFLOW_FOLLOWUP_DUMP=path, every step's facts, config and native plan are written there for the Wasm
//! replay (tests/node/followup-fixtures.test.js).

use prflow::facts::{BoardIssue, Comment, Facts, Review, TimelineEvent};
use prflow::plan::Op;
use prflow::{sweep_values, SweepPlan};
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

#[path = "fixtures/dump.rs"]
mod dump;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Fixture {
    rule: String,
    #[serde(default)]
    config: Value,
    facts: Value,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Step {
    /// Why this step expects what it does.
    why: String,
    now: String,
    #[serde(default)]
    act: Vec<Act>,
    expect: Expect,
}

/// Something a person or another workflow does before the sweep.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Act {
    number: u64,
    #[serde(default)]
    add: Vec<String>,
    #[serde(default)]
    remove: Vec<String>,
    #[serde(default)]
    review: Option<String>,
    #[serde(default)]
    actor: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Expect {
    /// Every op but the board's, summarised (`comment #12 state=... level=60`, `labels #12 +a -b`).
    ops: Vec<String>,
    /// `create`, `update`, or `none`; unchecked when absent.
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    stop_the_line: Option<bool>,
    /// Substrings, each found in some warning.
    #[serde(default)]
    warnings: Vec<String>,
    #[serde(default)]
    config_errors: Vec<String>,
}

fn summary(op: &Op) -> Option<String> {
    match op {
        Op::UpsertComment { number, marker, .. } => {
            let inner = marker.trim_start_matches("<!-- prflow:followup ").trim_end_matches(" -->");
            Some(format!("comment #{number} {inner}"))
        }
        Op::EditLabels { number, add, remove, .. } => {
            let mut s = format!("labels #{number}");
            for a in add {
                s.push_str(&format!(" +{}", a.label));
            }
            for r in remove {
                s.push_str(&format!(" -{}", r.label));
            }
            Some(s)
        }
        Op::RequestReviewers { number, reviewers, .. } => Some(format!("request #{number} {}", reviewers.join(","))),
        Op::UpsertBoard { .. } | Op::SetStatus { .. } => None,
        // The merge queue worker's ops; the sweep writes none.
        Op::Rebase { .. } | Op::RebaseOnto { .. } | Op::Push { .. } | Op::AutoFix { .. } | Op::ArmAutoMerge { .. } | Op::RemoveLabel { .. } | Op::AddLabel { .. } => None,
    }
}

fn pr_mut(facts: &mut Facts, number: u64) -> &mut prflow::facts::PullRequest {
    facts.pull_requests.iter_mut().find(|p| p.number == number).unwrap_or_else(|| panic!("no pull request #{number} in the facts"))
}

fn label_event(kind: &str, label: &str, at: &str, actor: &str) -> TimelineEvent {
    TimelineEvent { kind: kind.into(), at: at.into(), actor: Some(actor.into()), label: Some(label.into()) }
}

fn act(facts: &mut Facts, a: &Act, now: &str) {
    let actor = a.actor.clone().unwrap_or_else(|| "a-person".into());
    let pr = pr_mut(facts, a.number);
    for r in &a.remove {
        pr.labels.retain(|l| l != r);
        pr.timeline.push(label_event("unlabeled", r, now, &actor));
    }
    for l in &a.add {
        if !pr.labels.contains(l) {
            pr.labels.push(l.clone());
        }
        pr.timeline.push(label_event("labeled", l, now, &actor));
    }
    if let Some(state) = &a.review {
        pr.reviews.push(Review { author: actor.clone(), state: state.clone(), commit: pr.head_sha.clone(), submitted_at: now.into(), body: String::new(), author_can_write: true });
    }
}

/// The plan applied as GitHub would store it.
fn apply(facts: &mut Facts, plan: &SweepPlan) {
    let viewer = facts.viewer.clone().unwrap_or_default();
    let now = facts.now.clone();
    for op in &plan.ops {
        match op {
            Op::UpsertComment { number, marker, body, .. } => {
                let pr = pr_mut(facts, *number);
                match pr.comments.iter_mut().find(|c| c.author == viewer && c.body.lines().next() == Some(marker.as_str())) {
                    Some(c) => c.body = body.clone(),
                    None => pr.comments.push(Comment { id: None, author: viewer.clone(), body: body.clone(), created_at: now.clone(), author_can_write: true }),
                }
            }
            Op::EditLabels { number, add, remove, .. } => {
                let pr = pr_mut(facts, *number);
                for r in remove {
                    pr.labels.retain(|l| l != &r.label);
                    pr.timeline.push(label_event("unlabeled", &r.label, &now, &viewer));
                }
                for a in add {
                    pr.labels.push(a.label.clone());
                    pr.timeline.push(label_event("labeled", &a.label, &now, &viewer));
                }
            }
            Op::UpsertBoard { number, title, body, .. } => {
                facts.board = Some(BoardIssue { number: number.unwrap_or(1000), title: title.clone(), body: body.clone() });
            }
            Op::RequestReviewers { .. } | Op::SetStatus { .. } => {}
            Op::Rebase { .. } | Op::RebaseOnto { .. } | Op::Push { .. } | Op::AutoFix { .. } | Op::ArmAutoMerge { .. } | Op::RemoveLabel { .. } | Op::AddLabel { .. } => {}
        }
    }
}

fn snapshot_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/followup").join(format!("{name}.md"))
}

fn run(path: &Path, dump: &mut Vec<Value>) -> Result<(), String> {
    let name = path.file_stem().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let fixture: Fixture = prflow::json_path::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut facts: Facts = serde_json::from_value(fixture.facts.clone()).map_err(|e| format!("{name}: facts: {e}"))?;
    let mut texts = String::new();
    let mut failures = Vec::new();
    for (i, step) in fixture.steps.iter().enumerate() {
        let at = format!("{name} step {} ({})", i + 1, step.why);
        facts.now = step.now.clone();
        for a in &step.act {
            act(&mut facts, a, &step.now);
        }
        let facts_value = serde_json::to_value(&facts).unwrap();
        let plan = sweep_values(facts_value.clone(), fixture.config.clone()).map_err(|e| format!("{at}: {e}"))?;
        dump.push(serde_json::json!({ "name": at, "facts": facts_value, "config": fixture.config, "plan": plan }));
        let ops: Vec<String> = plan.ops.iter().filter_map(summary).collect();
        if ops != step.expect.ops {
            failures.push(format!("{at}: ops\n  expected {:#?}\n  got {:#?}", step.expect.ops, ops));
        }
        let board: Vec<&Op> = plan.ops.iter().filter(|o| matches!(o, Op::UpsertBoard { .. })).collect();
        let board_kind = match board.as_slice() {
            [] => "none",
            [Op::UpsertBoard { number: None, .. }] => "create",
            [Op::UpsertBoard { number: Some(_), .. }] => "update",
            _ => "several",
        };
        if let Some(want) = &step.expect.board {
            if want != board_kind {
                failures.push(format!("{at}: board: expected {want}, got {board_kind}"));
            }
        }
        if let Some(want) = step.expect.stop_the_line {
            if plan.stop_the_line != want {
                failures.push(format!("{at}: stopTheLine: expected {want}, got {} ({:?})", plan.stop_the_line, plan.stop_reasons));
            }
        }
        for w in &step.expect.warnings {
            if !plan.warnings.iter().any(|x| x.message.contains(w.as_str())) {
                failures.push(format!("{at}: no warning contains {w:?}; warnings: {:#?}", plan.warnings));
            }
        }
        if step.expect.warnings.is_empty() && !plan.warnings.is_empty() {
            failures.push(format!("{at}: unexpected warnings {:#?}", plan.warnings));
        }
        let errors: Vec<String> = plan.config_errors.iter().map(|e| e.to_string()).collect();
        for want in &step.expect.config_errors {
            if !errors.iter().any(|e| e.contains(want.as_str())) {
                failures.push(format!("{at}: no config error contains {want:?}; errors: {errors:#?}"));
            }
        }
        if step.expect.config_errors.is_empty() && !errors.is_empty() {
            failures.push(format!("{at}: unexpected config errors {errors:#?}"));
        }
        for op in &plan.ops {
            let (what, body) = match op {
                Op::UpsertComment { number, body, .. } => (format!("comment on #{number}"), body),
                Op::UpsertBoard { body, .. } => ("board".to_string(), body),
                _ => continue,
            };
            texts.push_str(&format!("<!-- snapshot: step {}, {what} -->\n{body}\n", i + 1));
        }
        apply(&mut facts, &plan);
    }
    let snap = snapshot_path(&name);
    if !texts.is_empty() || snap.exists() {
        if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
            std::fs::write(&snap, &texts).map_err(|e| format!("{}: {e}", snap.display()))?;
        } else {
            let want = std::fs::read_to_string(&snap).unwrap_or_default();
            if want != texts {
                let first = want.lines().zip(texts.lines()).position(|(a, b)| a != b).map(|i| i + 1).unwrap_or(want.lines().count().min(texts.lines().count()) + 1);
                failures.push(format!(
                    "{name}: the texts differ from {} (first difference at line {first}); run with UPDATE_SNAPSHOTS=1 and review the diff\n--- got ---\n{texts}",
                    snap.display()
                ));
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}: {}\n{}", fixture.rule, failures.join("\n")))
    }
}

#[test]
fn followup_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/followup");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("fixture dir").map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    let mut steps = Vec::new();
    let failures: Vec<String> = files.iter().filter_map(|f| run(f, &mut steps).err()).collect();
    dump::write("PRFLOW_FOLLOWUP_DUMP", &steps);
    assert!(failures.is_empty(), "{} of {} fixtures failed:\n\n{}", failures.len(), files.len(), failures.join("\n\n"));
}

#[test]
fn the_example_followup_config_is_valid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/followup.json");
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("examples/followup.json")).expect("JSON");
    let config = prflow::Config::from_value(config).expect("examples/followup.json validates");
    let levels = config.followup.effective_levels(&config.stations.labels);
    assert_eq!(levels["state:ready-to-merge"].len(), 2, "its own ready-to-merge levels replace the default");
    assert_eq!(levels["state:reviewing"].len(), 2, "the other states keep the article's table");
}
