//! Table-driven cases of the stations flow, one JSON file per rule family in tests/fixtures/stations/.
//!
//! A case builds one pull request from `pr` (raw facts) and a `story`: steps one minute apart, each
//! a line such as `push`, `approve alice`, `say bot-m1 /ready`, `claim m4`, `gate success`.
//! A step starting with `=` happens at the same second as the one before. `call` picks the engine
//! entry: reconcile (default), claim, race, gateClassify, gateReport. `expect` holds only what the
//! case pins; anything not named is not checked.

#[path = "fixtures/apply.rs"]
mod apply;

use prflow::config::Config;
use prflow::facts::{Check, Comment, Facts, PullRequest, Review, TimelineEvent};
use prflow::plan::Op;
use prflow::stations::{claim, gate_classify, gate_report, resolve_claim_race};
use serde_json::{json, Value};
use std::collections::BTreeSet;

const T0: i64 = 1_767_261_600; // 2026-01-01T10:00:00Z

fn at(t: i64) -> String {
    prflow::time::format_rfc3339(t)
}

fn default_config() -> Value {
    json!({
        "flow": "stations",
        "stations": {
            "machines": {
                "m1": { "role": "dev", "owner": "@alice", "logins": ["bot-m1"] },
                "m2": { "role": "dev", "owner": "@bob", "logins": ["bot-m2"] },
                "m4": { "role": "review", "owner": "@alice", "logins": ["bot-m4"] },
                "m5": { "role": "review", "owner": "@bob", "logins": ["bot-m5"] },
                "m7": { "role": "any", "owner": "@carol", "logins": ["bot-m7"] }
            }
        }
    })
}

fn merge(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                merge(b.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
        (b, o) => *b = o.clone(),
    }
}

fn repo_labels(config: &Config) -> Vec<String> {
    let l = &config.stations.labels;
    let mut out: Vec<String> = l.states().iter().map(|s| s.to_string()).collect();
    for m in 1..=9 {
        out.push(format!("{}m{m}", l.from_prefix));
        out.push(format!("{}m{m}", l.reviewer_prefix));
    }
    out.push(l.prio_high.clone());
    out
}

/// Builds a pull request from raw facts and a story.
fn build_pr(spec: &Value, config: &Config, number: u64, created: i64) -> PullRequest {
    let mut raw = json!({
        "number": number,
        "author": "bot-m1",
        "createdAt": at(created),
        "headSha": "sha0",
        "labels": ["from:m1"],
        "files": ["src/main.rs"],
    });
    if let Some(pr) = spec.get("pr") {
        merge(&mut raw, pr);
    }
    let mut pr: PullRequest = serde_json::from_value(raw).expect("case pr parses");
    let st = &config.stations;
    let login_of = |m: &str| st.machines.get(m).and_then(|x| x.logins.first().cloned()).unwrap_or_else(|| format!("bot-{m}"));
    let mut t = created;
    let mut pushes = 0;
    for step in spec.get("story").and_then(Value::as_array).into_iter().flatten() {
        let step = step.as_str().expect("a story step is a string");
        let (same, step) = match step.strip_prefix('=') {
            Some(rest) => (true, rest),
            None => (false, step),
        };
        if !same {
            t += 60;
        }
        let now = at(t);
        let mut words = step.splitn(3, ' ');
        let verb = words.next().unwrap();
        let a = words.next().unwrap_or("");
        let rest = words.next().unwrap_or("");
        let ev = |kind: &str, label: Option<&str>, actor: Option<String>| TimelineEvent { kind: kind.into(), at: now.clone(), actor, label: label.map(str::to_string) };
        let review = |state: &str, commit: String| Review { author: a.into(), state: state.into(), commit, submitted_at: now.clone(), body: String::new() };
        match verb {
            "draft" => {
                pr.timeline.push(ev("convert_to_draft", None, None));
                pr.is_draft = true;
            }
            "ready" => {
                pr.timeline.push(ev("ready_for_review", None, None));
                pr.is_draft = false;
            }
            "reopen" => pr.timeline.push(ev("reopened", None, None)),
            "push" | "force-push" => {
                pushes += 1;
                pr.timeline.push(ev(if verb == "push" { "committed" } else { "head_ref_force_pushed" }, None, None));
                pr.head_sha = format!("sha{pushes}");
                pr.checks.clear(); // checks belong to the old head
                if !a.is_empty() {
                    pr.files = a.split(',').map(str::to_string).collect();
                }
            }
            "approve" => pr.reviews.push(review("APPROVED", pr.head_sha.clone())),
            "approve-old" => pr.reviews.push(review("APPROVED", "sha-old".into())),
            "request-changes" => pr.reviews.push(review("CHANGES_REQUESTED", pr.head_sha.clone())),
            "comment-review" => pr.reviews.push(review("COMMENTED", pr.head_sha.clone())),
            "dismissed" => pr.reviews.push(review("DISMISSED", pr.head_sha.clone())),
            "say" | "say!" => pr.comments.push(Comment {
                id: Some(pr.comments.len() as u64 + 1),
                author: a.into(),
                body: rest.replace("\\n", "\n"),
                created_at: now.clone(),
                author_can_write: verb == "say!",
            }),
            "claim" | "unclaim" => {
                let label = format!("{}{a}", st.labels.reviewer_prefix);
                if verb == "claim" {
                    pr.timeline.push(ev("labeled", Some(&label), Some(login_of(a))));
                    pr.labels.push(label);
                } else {
                    pr.timeline.push(ev("unlabeled", Some(&label), Some(login_of(a))));
                    pr.labels.retain(|x| x != &label);
                }
            }
            "label" => {
                pr.timeline.push(ev("labeled", Some(a), Some(rest.to_string()).filter(|s| !s.is_empty())));
                pr.labels.push(a.to_string());
            }
            "gate" | "job-gate" => pr.checks.push(Check {
                name: st.gate.context.clone(),
                workflow: (verb == "job-gate").then(|| "win-verify".to_string()),
                status: if a == "pending" { "PENDING".into() } else { "COMPLETED".into() },
                conclusion: (a != "pending").then(|| a.to_ascii_uppercase()),
                started_at: Some(now.clone()),
                completed_at: (a != "pending").then(|| now.clone()),
                id: None,
                run_id: None,
            }),
            "wait" => {}
            other => panic!("unknown story step {other:?}"),
        }
    }
    pr
}

fn facts_of(config: &Config, pulls: Vec<PullRequest>, case: &Value) -> Facts {
    let mut facts = Facts { now: at(T0 + 86_400), labels: repo_labels(config), pull_requests: pulls, ..Facts::default() };
    if let Some(labels) = case.get("repoLabels") {
        facts.labels = serde_json::from_value(labels.clone()).unwrap();
    }
    if let Some(unknown) = case.get("unknownRepo") {
        facts.unknown = serde_json::from_value(unknown.clone()).unwrap();
    }
    facts
}

fn label_sets(ops: &[Op], number: u64) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut add = BTreeSet::new();
    let mut remove = BTreeSet::new();
    for op in ops {
        if let Op::EditLabels { number: n, add: a, remove: r, .. } = op {
            if *n == number {
                add.extend(a.iter().map(|c| c.label.clone()));
                remove.extend(r.iter().map(|c| c.label.clone()));
            }
        }
    }
    (add, remove)
}

fn statuses(ops: &[Op]) -> Vec<Value> {
    ops.iter()
        .filter_map(|o| match o {
            Op::SetStatus { sha, state, context, .. } => Some(json!({ "sha": sha, "state": state, "context": context })),
            _ => None,
        })
        .collect()
}

fn set(v: &Value) -> BTreeSet<String> {
    v.as_array().expect("a list of labels").iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

struct Outcome {
    state: Option<Value>,
    why: String,
    ops: Vec<Op>,
    number: u64,
    warnings: Vec<String>,
    extra: Value,
}

fn run_case(case: &Value, file_config: &Value) -> Outcome {
    let mut cv = default_config();
    merge(&mut cv, file_config);
    if let Some(c) = case.get("config") {
        merge(&mut cv, c);
    }
    let config = Config::from_value(cv).expect("case config is valid");
    let call = case.get("call").and_then(Value::as_str).unwrap_or("reconcile");
    match call {
        "reconcile" => {
            let pr = build_pr(case, &config, 1, T0);
            let facts = facts_of(&config, vec![pr], case);
            let plan = prflow::reconcile(&facts, &config);
            // Applied, then reconciled again: nothing is left to do (the plan is idempotent).
            let mut after = facts.clone();
            apply::apply(&mut after, &plan);
            let again = prflow::reconcile(&after, &config);
            assert!(again.ops.is_empty(), "{}: applying the plan and reconciling again must plan nothing, got {:?}", case["name"], again.ops);
            Outcome {
                state: Some(json!(plan.pulls[0].state)),
                why: plan.pulls[0].why.clone(),
                ops: plan.ops.clone(),
                number: 1,
                warnings: plan.warnings.iter().map(|w| w.message.clone()).collect(),
                extra: json!({}),
            }
        }
        "claim" => {
            let pulls: Vec<PullRequest> = case["pulls"]
                .as_array()
                .expect("claim cases list pulls")
                .iter()
                .map(|p| {
                    let number = p["number"].as_u64().expect("pull number");
                    let created = T0 + p.get("age").and_then(Value::as_i64).map_or(number as i64 * 60, |a| -a * 60);
                    build_pr(p, &config, number, created)
                })
                .collect();
            let facts = facts_of(&config, pulls, case);
            let r = claim(&facts, &config, case["role"].as_str().unwrap(), case["machine"].as_str().unwrap()).expect("claim answers");
            Outcome {
                state: None,
                why: r.why.clone(),
                number: r.number.unwrap_or(0),
                ops: r.ops.clone(),
                warnings: r.warnings.iter().map(|w| w.message.clone()).collect(),
                extra: json!({ "line": r.line, "role": r.role }),
            }
        }
        "race" => {
            let labels: Vec<String> = case["labels"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
            let r = resolve_claim_race(&labels, case["machine"].as_str().unwrap(), 1, &config);
            Outcome { state: None, why: String::new(), number: 1, ops: r.ops.clone(), warnings: vec![], extra: json!({ "line": r.line, "won": r.won, "winner": r.winner }) }
        }
        "gateClassify" | "gateReport" => {
            let pr = build_pr(case, &config, 1, T0);
            let facts = facts_of(&config, vec![pr], case);
            let r = if call == "gateClassify" {
                gate_classify(&facts, &config, 1)
            } else {
                gate_report(&facts, &config, 1, case["tested"].as_str().unwrap(), case["result"].as_str().unwrap())
            }
            .expect("gate answers");
            Outcome {
                state: None,
                why: r.why.clone(),
                number: 1,
                ops: r.ops.clone(),
                warnings: r.warnings.iter().map(|w| w.message.clone()).collect(),
                extra: json!({ "run": r.run, "need": r.need, "sha": r.sha }),
            }
        }
        other => panic!("unknown call {other:?}"),
    }
}

fn check(case: &Value, out: &Outcome) -> Vec<String> {
    let mut fails = Vec::new();
    let expect = &case["expect"];
    let (add, remove) = label_sets(&out.ops, out.number);
    for (key, value) in expect.as_object().expect("expect is an object") {
        match key.as_str() {
            "state" => {
                if out.state.as_ref() != Some(value) {
                    fails.push(format!("state: expected {value}, got {:?} ({})", out.state, out.why));
                }
            }
            "add" if set(value) != add => fails.push(format!("add: expected {value}, got {add:?}")),
            "remove" if set(value) != remove => fails.push(format!("remove: expected {value}, got {remove:?}")),
            "add" | "remove" => {}
            "why" => {
                let want = value.as_str().unwrap();
                if !out.why.contains(want) {
                    fails.push(format!("why: expected to contain {want:?}, got {:?}", out.why));
                }
            }
            "warnings" => {
                for w in value.as_array().unwrap() {
                    let w = w.as_str().unwrap();
                    if !out.warnings.iter().any(|x| x.contains(w)) {
                        fails.push(format!("warnings: none contains {w:?}; got {:?}", out.warnings));
                    }
                }
            }
            "noWarnings" => {
                if !out.warnings.is_empty() {
                    fails.push(format!("noWarnings: got {:?}", out.warnings));
                }
            }
            "status" => {
                let got = statuses(&out.ops);
                let got: Vec<Value> = got.iter().map(|s| json!({ "sha": s["sha"], "state": s["state"] })).collect();
                if &Value::Array(got.clone()) != value {
                    fails.push(format!("status: expected {value}, got {}", Value::Array(got)));
                }
            }
            "statusContext" => {
                let got = statuses(&out.ops);
                if got.iter().any(|s| &s["context"] != value) || got.is_empty() {
                    fails.push(format!("statusContext: expected {value}, got {got:?}"));
                }
            }
            other => match out.extra.get(other) {
                Some(got) if got == value => {}
                got => fails.push(format!("{other}: expected {value}, got {got:?} ({})", out.why)),
            },
        }
    }
    fails
}

#[test]
fn stations_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stations");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("fixture dir").map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    let mut total = 0;
    let mut failures = Vec::new();
    let mut names = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let file_config = doc.get("config").cloned().unwrap_or(json!({}));
        for (i, case) in doc["cases"].as_array().expect("cases").iter().enumerate() {
            let name = case["name"].as_str().unwrap_or_else(|| panic!("{}: $.cases[{i}] has no name", file.display()));
            assert!(case.get("rule").is_some(), "{}: {name}: every case names the rule it pins", file.display());
            assert!(case.get("expect").is_some_and(|e| e.as_object().is_some_and(|o| !o.is_empty())), "{}: {name}: no expectation", file.display());
            assert!(names.insert(name.to_string()), "duplicate case name {name}");
            total += 1;
            let out = run_case(case, &file_config);
            for f in check(case, &out) {
                failures.push(format!("{}: {name} [{}]: {f}", file.file_name().unwrap().to_string_lossy(), case["rule"].as_str().unwrap_or("")));
            }
        }
    }
    println!("stations fixtures: {total} cases in {} files", files.len());
    assert!(failures.is_empty(), "{} of {total} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert!(total >= 90, "the issue asks for at least 90 cases, found {total}");
}
