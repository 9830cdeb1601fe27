//! The reconciler's rules as data: each file in tests/fixtures/reconcile/ is one rule family, each case
//! one rule, stated in words next to the facts that pin it. Cases are shallow-merged over the file's
//! defaults (a case changes the one fact that matters); only the keys present in `expect` are checked.
//!
//! Every case is also checked for what holds of every plan: a bad config changes nothing, every write
//! has a one-line reason, and applying the plan then reconciling again leaves nothing to do.
//! With PRFLOW_FIXTURE_DUMP=path, the expanded facts, config and native plan of every case are written
//! there, so tests/node/fixtures.test.js can replay the corpus through the Wasm module.
#![cfg(not(target_arch = "wasm32"))]

#[path = "fixtures/apply.rs"]
mod apply;
#[path = "fixtures/dump.rs"]
mod dump;

use prflow::plan::{Op, Plan, PullVerdict};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

const DIR: &str = "tests/fixtures/reconcile";
const FILE_KEYS: [&str; 5] = ["family", "config", "defaults", "cases", "about"];
const CASE_KEYS: [&str; 6] = ["name", "rule", "pr", "facts", "config", "expect"];
const EXPECT_KEYS: [&str; 10] =
    ["state", "blockers", "add", "remove", "requestReviewers", "warningsContain", "configErrors", "reasonContains", "checks", "noWarningContains"];

/// One case, expanded: what goes in, what must come out.
struct Case {
    file: String,
    name: String,
    facts: Value,
    config: Value,
    expect: Map<String, Value>,
}

/// `over`'s keys replace `base`'s (one level deep): a case names only the facts it changes.
/// A `null` removes the default's key, for cases about a fact the snapshot leaves out.
fn shallow_merge(base: Option<&Value>, over: Option<&Value>) -> Value {
    let mut out = base.and_then(Value::as_object).cloned().unwrap_or_default();
    if let Some(over) = over.and_then(Value::as_object) {
        for (k, v) in over {
            if v.is_null() {
                out.remove(k);
            } else {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

fn unknown_keys(obj: &Value, allowed: &[&str]) -> Vec<String> {
    obj.as_object().map(|o| o.keys().filter(|k| !allowed.contains(&k.as_str())).cloned().collect()).unwrap_or_default()
}

/// Reads one family file into its cases; a malformed file is a failure naming the file and case.
fn load(path: &Path, problems: &mut Vec<String>) -> (String, Vec<Case>) {
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not valid JSON: {e}", path.display()));
    for k in unknown_keys(&doc, &FILE_KEYS) {
        problems.push(format!("{file}: unknown key {k:?} at the top level"));
    }
    let family = doc["family"].as_str().unwrap_or_else(|| panic!("{file}: $.family must be a string")).to_string();
    let defaults = doc.get("defaults").cloned().unwrap_or(json!({}));
    let mut cases = Vec::new();
    for (i, raw) in doc["cases"].as_array().unwrap_or_else(|| panic!("{file}: $.cases must be an array")).iter().enumerate() {
        let name = raw["name"].as_str().map(str::to_string).unwrap_or_else(|| format!("cases[{i}]"));
        let at = format!("{file}: {name}");
        for k in unknown_keys(raw, &CASE_KEYS) {
            problems.push(format!("{at}: unknown case key {k:?}"));
        }
        if raw["rule"].as_str().is_none_or(|r| r.trim().is_empty()) {
            problems.push(format!("{at}: says no rule (each case names the rule it pins)"));
        }
        let expect = raw["expect"].as_object().cloned().unwrap_or_default();
        if expect.is_empty() {
            problems.push(format!("{at}: expects nothing (a case without an assertion pins no rule)"));
        }
        for k in expect.keys().filter(|k| !EXPECT_KEYS.contains(&k.as_str())) {
            problems.push(format!("{at}: unknown expect key {k:?}"));
        }
        let pr = shallow_merge(defaults.get("pr"), raw.get("pr"));
        let mut facts = shallow_merge(defaults.get("facts"), raw.get("facts"));
        facts.as_object_mut().unwrap().entry("pullRequests").or_insert_with(|| json!([pr]));
        let config = shallow_merge(doc.get("config"), raw.get("config"));
        cases.push(Case { file: file.clone(), name, facts, config, expect });
    }
    (family, cases)
}

/// The verdict and the writes the case's expectations are about: the first pull request's.
fn subject(plan: &Plan) -> (Option<&PullVerdict>, Vec<String>, Vec<String>, Vec<String>) {
    let number = plan.pulls.first().map(|p| p.number);
    let verdict = plan.pulls.first();
    let (mut add, mut remove, mut reviewers) = (vec![], vec![], vec![]);
    for op in plan.ops.iter().filter(|op| Some(op.number()) == number) {
        match op {
            Op::EditLabels { add: a, remove: r, .. } => {
                add.extend(a.iter().map(|c| c.label.clone()));
                remove.extend(r.iter().map(|c| c.label.clone()));
            }
            Op::RequestReviewers { reviewers: r, .. } => reviewers.extend(r.iter().cloned()),
            Op::UpsertComment { .. } | Op::UpsertBoard { .. } | Op::SetStatus { .. } => {}
            Op::Rebase { .. } | Op::RebaseOnto { .. } | Op::Push { .. } | Op::AutoFix { .. } | Op::ArmAutoMerge { .. } | Op::RemoveLabel { .. } | Op::AddLabel { .. } => {}
        }
    }
    (verdict, add, remove, reviewers)
}

fn strings(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v.as_array().map(|a| a.iter().map(|s| s.as_str().unwrap_or("<not a string>").to_string()).collect()).unwrap_or_default();
    out.sort();
    out
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Compares the plan with the case's expectations, and checks what holds of every plan.
fn check(case: &Case, plan: &Plan) -> Vec<String> {
    let mut failures = Vec::new();
    let mut differ = |what: &str, expected: &dyn std::fmt::Debug, actual: &dyn std::fmt::Debug| {
        failures.push(format!("{what}: expected {expected:?}, got {actual:?}"));
    };
    let (verdict, add, remove, reviewers) = subject(plan);
    let e = &case.expect;
    if let Some(want) = e.get("state") {
        let want = want.as_str().map(str::to_string);
        let got = verdict.and_then(|v| v.state.clone());
        if want != got {
            differ("state", &want, &got);
        }
    }
    if let Some(want) = e.get("blockers") {
        let got = sorted(verdict.map(|v| v.blockers.clone()).unwrap_or_default());
        if strings(want) != got {
            differ("blockers", &strings(want), &got);
        }
    }
    for (key, got) in [("add", &add), ("remove", &remove), ("requestReviewers", &reviewers)] {
        if let Some(want) = e.get(key) {
            let got = sorted(got.clone());
            if strings(want) != got {
                differ(key, &strings(want), &got);
            }
        }
    }
    if let Some(want) = e.get("checks") {
        let got = verdict.map(|v| v.checks.clone());
        if want.as_str() != got.as_deref() {
            differ("checks", &want, &got);
        }
    }
    if let Some(want) = e.get("reasonContains").and_then(Value::as_str) {
        let got = verdict.map(|v| v.why.clone()).unwrap_or_default();
        if !got.contains(want) {
            differ("reason (verdict.why) containing", &want, &got);
        }
    }
    let warnings: Vec<&str> = plan.warnings.iter().map(|w| w.message.as_str()).collect();
    if let Some(want) = e.get("warningsContain").and_then(Value::as_str) {
        if !warnings.iter().any(|w| w.contains(want)) {
            differ("a warning containing", &want, &warnings);
        }
    }
    if let Some(want) = e.get("noWarningContains").and_then(Value::as_str) {
        if warnings.iter().any(|w| w.contains(want)) {
            differ("no warning containing", &want, &warnings);
        }
    }
    if let Some(want) = e.get("configErrors") {
        let want_paths: Vec<&str> = want.as_array().map(|a| a.iter().filter_map(|x| x["path"].as_str()).collect()).unwrap_or_default();
        let got_paths: Vec<&str> = plan.config_errors.iter().map(|c| c.path.as_str()).collect();
        if want_paths != got_paths {
            differ("configErrors paths", &want_paths, &plan.config_errors);
        }
        for (w, g) in want.as_array().into_iter().flatten().zip(&plan.config_errors) {
            for (key, got) in [("expected", &g.expected), ("found", &g.found)] {
                if let Some(sub) = w.get(key).and_then(Value::as_str) {
                    if !got.contains(sub) {
                        differ(&format!("configErrors {} {key} containing", g.path), &sub, got);
                    }
                }
            }
        }
    }

    // What holds of every plan.
    if !plan.config_errors.is_empty() && (!plan.ops.is_empty() || !plan.pulls.is_empty()) {
        failures.push(format!("a bad config must change nothing, but the plan has {} ops and {} verdicts", plan.ops.len(), plan.pulls.len()));
    }
    for op in &plan.ops {
        let mut reasons: Vec<&str> = Vec::new();
        match op {
            Op::EditLabels { add, remove, reason, .. } => {
                reasons.push(reason);
                reasons.extend(add.iter().chain(remove).map(|c| c.reason.as_str()));
            }
            Op::RequestReviewers { reason, .. } | Op::UpsertComment { reason, .. } | Op::UpsertBoard { reason, .. } | Op::SetStatus { reason, .. } => reasons.push(reason),
            Op::Rebase { reason, .. } | Op::RebaseOnto { reason, .. } | Op::Push { reason, .. } | Op::AutoFix { reason, .. } | Op::ArmAutoMerge { reason, .. } | Op::RemoveLabel { reason, .. } | Op::AddLabel { reason, .. } => reasons.push(reason),
        }
        if let Some(bad) = reasons.iter().find(|r| r.trim().is_empty() || r.contains('\n')) {
            failures.push(format!("every write carries a one-line reason, got {bad:?} in {op:?}"));
        }
    }
    failures
}

/// Applying the plan and reconciling again leaves nothing to do.
fn converges(case: &Case, plan: &Plan) -> Option<String> {
    if !plan.config_errors.is_empty() {
        return None;
    }
    let mut facts = prflow::reconcile::parse_facts(case.facts.clone()).ok()?;
    let config = prflow::Config::from_value(case.config.clone()).ok()?;
    apply::apply(&mut facts, plan);
    let again = prflow::reconcile(&facts, &config);
    (!again.ops.is_empty()).then(|| format!("not idempotent: after applying the plan, reconciling again wants {:?}", again.ops))
}

fn fixture_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(DIR)
        .unwrap_or_else(|e| panic!("{DIR}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn reconcile_fixtures() {
    let mut problems = Vec::new();
    let mut counts: BTreeMap<String, (String, usize, usize)> = BTreeMap::new();
    let mut dump = Vec::new();
    let mut names_seen = std::collections::BTreeSet::new();
    for path in fixture_files() {
        let (family, cases) = load(&path, &mut problems);
        for case in &cases {
            if !names_seen.insert((case.file.clone(), case.name.clone())) {
                problems.push(format!("{}: {}: duplicate case name", case.file, case.name));
            }
            let plan = match prflow::reconcile_values(case.facts.clone(), case.config.clone()) {
                Ok(plan) => plan,
                Err(e) => {
                    problems.push(format!("{}: {}\n    the facts do not parse: {e}", case.file, case.name));
                    continue;
                }
            };
            let mut failures = check(case, &plan);
            failures.extend(converges(case, &plan));
            let entry = counts.entry(case.file.clone()).or_insert((family.clone(), 0, 0));
            entry.1 += 1;
            if !failures.is_empty() {
                entry.2 += 1;
                problems.push(format!("{}: {}\n    {}", case.file, case.name, failures.join("\n    ")));
            }
            dump.push(json!({
                "name": format!("{}: {}", case.file, case.name),
                "facts": case.facts,
                "config": case.config,
                "plan": serde_json::to_value(&plan).unwrap(),
            }));
        }
    }

    // The demo's sample board (examples/) must stay valid, decide something on most pull requests, and
    // converge; it joins the dump so the Wasm replay covers a realistic snapshot too.
    let facts: Value = serde_json::from_str(&std::fs::read_to_string("examples/snapshot.json").unwrap()).expect("examples/snapshot.json parses");
    let config: Value = serde_json::from_str(&std::fs::read_to_string("examples/prflow.json").unwrap()).expect("examples/prflow.json parses");
    let sample = Case { file: "examples".into(), name: "snapshot.json under prflow.json".into(), facts, config, expect: Map::new() };
    match prflow::reconcile_values(sample.facts.clone(), sample.config.clone()) {
        Ok(plan) => {
            if !plan.config_errors.is_empty() || plan.ops.len() < 8 || plan.pulls.len() < 10 {
                problems.push(format!("examples: the sample board should be valid and non-trivial, got {} config errors, {} ops over {} pulls", plan.config_errors.len(), plan.ops.len(), plan.pulls.len()));
            }
            problems.extend(check(&sample, &plan).into_iter().chain(converges(&sample, &plan)).map(|f| format!("examples: {f}")));
            dump.push(json!({ "name": "examples: snapshot.json under prflow.json", "facts": sample.facts, "config": sample.config, "plan": serde_json::to_value(&plan).unwrap() }));
        }
        Err(e) => problems.push(format!("examples/snapshot.json: {e}")),
    }

    // Written past the test harness's capture, so `cargo test` shows the corpus size every run.
    let total: usize = counts.values().map(|c| c.1).sum();
    let mut out = format!("\nreconcile fixtures ({DIR}):\n");
    for (file, (family, n, failed)) in &counts {
        let failed = if *failed > 0 { format!(" ({failed} FAILED)") } else { String::new() };
        out += &format!("  {file:<20} {n:>4}  {family}{failed}\n");
    }
    out += &format!("  {:<20} {total:>4}\n", "total");
    let _ = std::io::stdout().write_all(out.as_bytes());

    dump::write("PRFLOW_FIXTURE_DUMP", &dump);
    assert!(problems.is_empty(), "{} fixture problem(s):\n\n{}\n", problems.len(), problems.join("\n\n"));
    assert!(total >= 150, "the corpus promises at least 150 cases, found {total}");
}
