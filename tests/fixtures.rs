//! The one fixture runner: every corpus of tests/fixtures/ (reconcile, queue, stations, follow-up,
//! queue-cycle), all in one format (tests/fixtures/README.md). A case names the decision (a `call` of
//! src/api.rs), gives its input and the whole answer; `steps` are further calls where time passes, each
//! starting from the last call's input (with its ops applied by tests/fixtures/apply.rs when it says
//! `apply`). Every call is asked of `prflow::Engine` exactly as a shell asks it (the config builds the
//! engine, the decision is called by name) and goes, with its config, input and native answer, into one
//! dump (PRFLOW_FIXTURE_DUMP, set by scripts/test.sh) that tests/node/fixtures.test.js replays through
//! the Wasm engine, which must answer identically.
#![cfg(not(target_arch = "wasm32"))]

#[path = "fixtures/apply.rs"]
mod apply;
#[path = "fixtures/bless.rs"]
mod bless;
#[path = "fixtures/dump.rs"]
mod dump;

use prflow::core::plan::{Op, Plan};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The corpora, each a directory of tests/fixtures/, with at least this many cases (the sizes the
/// issues promised).
const CORPORA: [(&str, usize); 5] = [
    ("reconcile", 150),
    ("queue", 200),
    ("stations", 90),
    ("followup", 20),
    ("queue-cycle", 80),
];
const FILE_KEYS: [&str; 6] = ["about", "call", "config", "defaults", "snapshot", "cases"];
const CASE_KEYS: [&str; 9] = [
    "name", "rule", "why", "call", "config", "input", "expect", "error", "steps",
];
const STEP_KEYS: [&str; 9] = [
    "why", "call", "config", "advance", "apply", "carry", "input", "expect", "error",
];

/// One corpus run: how many cases, what failed, every engine call for the dump, and the files blessed.
struct Outcome {
    cases: usize,
    failures: Vec<String>,
    calls: Vec<Value>,
    blessed: Vec<String>,
}

/// The engine a case's config builds (`null`: no config file, the preset), asked `call` with `input`.
fn ask(config: &Value, call: &str, input: &Value) -> Result<Value, String> {
    let engine = if config.is_null() {
        prflow::Engine::preset()
    } else {
        prflow::Engine::from_value(config.clone())
    };
    engine.call_value(call, input)
}

/// One dump entry: what the Wasm replay asks, and the native answer it must equal.
fn entry(corpus: &str, name: &str, config: &Value, call: &str, input: &Value, answer: &Result<Value, String>) -> Value {
    let mut e = json!({ "corpus": corpus, "name": name, "config": config, "call": call, "input": input });
    match answer {
        Ok(output) => e["output"] = output.clone(),
        Err(error) => e["error"] = json!(error),
    }
    e
}

/// `patch` written over `base` (JSON merge patch): objects key by key, `null` removes a key, anything
/// else replaces. `facts.pullRequests` is a list of pull requests, each written over `pull` (at a case)
/// or, in a step, over the pull request of the same number (a new number is added over `pull`, and
/// `"gone": true` takes one away).
fn merge(base: &Value, patch: &Value, pull: &Value, by_number: bool, path: &str) -> Value {
    match (base, patch) {
        (_, Value::Object(p)) => {
            let mut out = base.as_object().cloned().unwrap_or_default();
            for (k, v) in p {
                if v.is_null() {
                    out.remove(k);
                } else if path == "$.facts" && k == "pullRequests" {
                    out.insert(k.clone(), pulls(out.get(k), v, pull, by_number));
                } else {
                    let old = out.get(k).cloned().unwrap_or(Value::Null);
                    out.insert(k.clone(), merge(&old, v, pull, by_number, &format!("{path}.{k}")));
                }
            }
            Value::Object(out)
        }
        _ => patch.clone(),
    }
}

fn pulls(base: Option<&Value>, patch: &Value, pull: &Value, by_number: bool) -> Value {
    let mut out: Vec<Value> = if by_number {
        base.and_then(Value::as_array).cloned().unwrap_or_default()
    } else {
        Vec::new()
    };
    for p in patch.as_array().into_iter().flatten() {
        let at = if by_number {
            out.iter().position(|o| o["number"] == p["number"])
        } else {
            None
        };
        match at {
            Some(i) if p.get("gone") == Some(&Value::Bool(true)) => {
                out.remove(i);
            }
            Some(i) => out[i] = merge(&out[i], p, pull, false, "$.pull"),
            None => out.push(merge(pull, p, pull, false, "$.pull")),
        }
    }
    Value::Array(out)
}

/// `advance` as seconds: a whole number with `s`, `m`, `h` or `d`.
fn seconds(advance: &str) -> Option<i64> {
    let (n, unit) = advance.split_at(advance.len().checked_sub(1)?);
    let n: i64 = n.parse().ok()?;
    Some(
        n * [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
            .iter()
            .find(|(u, _)| *u == unit)?
            .1,
    )
}

fn unknown_keys(obj: &Value, allowed: &[&str]) -> Vec<String> {
    obj.as_object()
        .map(|o| o.keys().filter(|k| !allowed.contains(&k.as_str())).cloned().collect())
        .unwrap_or_default()
}

/// Where `actual` first differs from `expect`, as a JSON path, or None.
fn differs(expect: &Value, actual: &Value, path: &str) -> Option<String> {
    match (expect, actual) {
        (Value::Object(e), Value::Object(a)) => {
            let keys: BTreeSet<&String> = e.keys().chain(a.keys()).collect();
            keys.into_iter().find_map(|k| match (e.get(k), a.get(k)) {
                (Some(x), Some(y)) => differs(x, y, &format!("{path}.{k}")),
                (Some(x), None) => Some(format!("{path}.{k}: missing, expected {x}")),
                (None, Some(y)) => Some(format!("{path}.{k}: not expected, found {y}")),
                (None, None) => None,
            })
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => e
            .iter()
            .zip(a)
            .enumerate()
            .find_map(|(i, (x, y))| differs(x, y, &format!("{path}[{i}]"))),
        _ if expect == actual => None,
        _ => Some(format!("{path}: expected {expect}, found {actual}")),
    }
}

/// The answer without `engine` when it is this build's version: a case pins the decision, not the
/// release it was written under (a different version is still a difference).
fn versionless(answer: &Value) -> Value {
    let mut out = answer.clone();
    if let Some(o) = out.as_object_mut() {
        if o.get("engine").and_then(Value::as_str) == Some(prflow::VERSION) {
            o.remove("engine");
        }
    }
    out
}

/// What holds of every reconcile answer, whatever the case pins: a bad config changes nothing, every
/// write has a one-line reason, and applying the plan then reconciling again leaves nothing to do.
fn reconcile_holds(config: &Value, input: &Value, answer: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(plan) = serde_json::from_value::<Plan>(answer.clone()) else {
        return vec!["the plan does not read back".into()];
    };
    if !plan.config_errors.is_empty() {
        if !plan.ops.is_empty() || !plan.pulls.is_empty() {
            out.push(format!(
                "a bad config must change nothing, but the plan has {} ops and {} verdicts",
                plan.ops.len(),
                plan.pulls.len()
            ));
        }
        return out;
    }
    for op in &plan.ops {
        let mut reasons: Vec<&str> = Vec::new();
        match op {
            Op::EditLabels {
                add, remove, reason, ..
            } => {
                reasons.push(reason);
                reasons.extend(add.iter().chain(remove).map(|c| c.reason.as_str()));
            }
            other => reasons.push(other.reason()),
        }
        if let Some(bad) = reasons.iter().find(|r| r.trim().is_empty() || r.contains('\n')) {
            out.push(format!("every write carries a one-line reason, got {bad:?} in {op:?}"));
        }
    }
    let Ok(mut facts) = prflow::views::reconcile::parse_facts(input["facts"].clone()) else {
        return out;
    };
    apply::apply(&mut facts, &plan);
    match ask(config, "reconcile", &json!({ "facts": facts }))
        .and_then(|a| serde_json::from_value::<Plan>(a).map_err(|e| e.to_string()))
    {
        Ok(again) if !again.ops.is_empty() => out.push(format!(
            "not idempotent: after applying the plan, reconciling again wants {:?}",
            again.ops
        )),
        Ok(_) => {}
        Err(e) => out.push(format!("the facts after applying the plan do not reconcile: {e}")),
    }
    out
}

/// What holds of every sweep answer: a follow-up comment's level (in its marker) is its row's `firing`,
/// the typed field the shells read instead of the marker.
fn sweep_holds(answer: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for op in answer["ops"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|op| op["op"] == "upsertComment")
    {
        let level = op["marker"]
            .as_str()
            .and_then(|m| m.split(" level=").nth(1))
            .and_then(|l| l.split(' ').next())
            .and_then(|l| l.parse::<u64>().ok());
        let row = answer["pulls"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["number"] == op["number"]);
        if level.is_none() || row.map(|r| r["firing"].as_u64()) != Some(level) {
            out.push(format!(
                "the comment on #{} fires level {level:?}, its row says {:?}",
                op["number"],
                row.map(|r| &r["firing"])
            ));
        }
    }
    out
}

/// The texts a step's ops write (comments and the board), for a file's snapshot.
fn texts(step: usize, answer: &Value) -> String {
    let mut out = String::new();
    for op in answer["ops"].as_array().into_iter().flatten() {
        let what = match op["op"].as_str() {
            Some("upsertComment") => format!("comment on #{}", op["number"]),
            Some("upsertBoard") => "board".to_string(),
            _ => continue,
        };
        out.push_str(&format!(
            "<!-- snapshot: step {step}, {what} -->\n{}\n",
            op["body"].as_str().unwrap_or("")
        ));
    }
    out
}

/// Compares `texts` with tests/snapshots/<corpus>/<name>.md (`PRFLOW_BLESS=1` rewrites it).
fn snapshot(corpus: &str, name: &str, texts: &str) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(corpus)
        .join(format!("{name}.md"));
    if texts.is_empty() && !path.exists() {
        return None;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if want != texts && bless::blessing() {
        std::fs::write(&path, texts).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return None;
    }
    (want != texts).then(|| {
        format!(
            "the texts differ from {}; run with PRFLOW_BLESS=1 and review the diff\n--- got ---\n{texts}",
            path.display()
        )
    })
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn run_file(corpus: &str, path: &Path, out: &mut Outcome) {
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not valid JSON: {e}", path.display()));
    let at_file = format!("{corpus}/{stem}.json");
    out.failures.extend(
        unknown_keys(&file, &FILE_KEYS)
            .into_iter()
            .map(|k| format!("{at_file}: unknown key {k:?}")),
    );
    let defaults = file.get("defaults").cloned().unwrap_or(json!({}));
    let (input0, pull) = (
        defaults.get("input").cloned().unwrap_or(json!({})),
        defaults.get("pull").cloned().unwrap_or(json!({})),
    );
    let file_config = file.get("config").cloned().unwrap_or(Value::Null);
    let mut snapshot_texts = String::new();
    let mut rewrites: Vec<bless::Rewrite> = Vec::new();
    let cases = file["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("{at_file}: $.cases must be a list"));
    for (i, case) in cases.iter().enumerate() {
        let name = case["name"]
            .as_str()
            .unwrap_or_else(|| panic!("{at_file}: $.cases[{i}].name missing"));
        let at_case = format!("{at_file}: $.cases[{i}] {name:?}");
        out.failures.extend(
            unknown_keys(case, &CASE_KEYS)
                .into_iter()
                .map(|k| format!("{at_case}: unknown key {k:?}")),
        );
        out.cases += 1;
        let steps = case.get("steps").and_then(Value::as_array).cloned().unwrap_or_default();
        // The case itself is the first call; each step is the next.
        let calls: Vec<&Value> = std::iter::once(case).chain(steps.iter()).collect();
        let (mut input, mut config, mut call, mut last) = (
            Value::Null,
            file_config.clone(),
            file.get("call").and_then(Value::as_str).unwrap_or("").to_string(),
            Value::Null,
        );
        for (s, step) in calls.iter().enumerate() {
            let at = if s == 0 {
                at_case.clone()
            } else {
                format!("{at_case} step {s}")
            };
            if s > 0 {
                out.failures.extend(
                    unknown_keys(step, &STEP_KEYS)
                        .into_iter()
                        .map(|k| format!("{at}: unknown key {k:?}")),
                );
            }
            if let Some(c) = step.get("call").and_then(Value::as_str) {
                call = c.to_string();
            }
            if let Some(c) = step.get("config") {
                config = c.clone();
            }
            input = if s == 0 {
                merge(&input0, step.get("input").unwrap_or(&json!({})), &pull, false, "$")
            } else {
                let mut base = input.clone();
                if step.get("apply") == Some(&Value::Bool(true)) {
                    let ops: Vec<Op> = serde_json::from_value(last["ops"].clone())
                        .unwrap_or_else(|e| panic!("{at}: apply: the last answer's ops do not read: {e}"));
                    let mut facts: prflow::core::facts::Facts = serde_json::from_value(base["facts"].clone())
                        .unwrap_or_else(|e| panic!("{at}: apply: the facts do not read: {e}"));
                    apply::apply_ops(&mut facts, &ops);
                    base["facts"] = json!(facts);
                }
                for k in step.get("carry").and_then(Value::as_array).into_iter().flatten() {
                    let k = k.as_str().expect("carry names keys of the last answer");
                    base[k] = last[k].clone();
                }
                if let Some(a) = step.get("advance") {
                    let secs = a
                        .as_str()
                        .and_then(seconds)
                        .unwrap_or_else(|| panic!("{at}: advance: expected a duration such as \"90m\", found {a}"));
                    let now = base["facts"]["now"]
                        .as_str()
                        .and_then(prflow::core::time::parse_rfc3339)
                        .unwrap_or_else(|| panic!("{at}: advance: the facts have no time"));
                    base["facts"]["now"] = json!(prflow::core::time::format_rfc3339(now + secs));
                }
                merge(&base, step.get("input").unwrap_or(&json!({})), &pull, true, "$")
            };
            let dump_name = if s == 0 {
                format!("{stem}: {name}")
            } else {
                format!("{stem}: {name} / step {s}")
            };
            let answer = ask(&config, &call, &input);
            out.calls
                .push(entry(corpus, &dump_name, &config, &call, &input, &answer));
            let problem = match (&answer, step.get("error"), step.get("expect")) {
                (Err(e), Some(want), _) if Some(e.as_str()) == want.as_str() => None,
                (Err(e), _, _) => Some(format!("error: {e}")),
                (Ok(_), Some(want), _) => Some(format!("expected the error {want}, got an answer")),
                (Ok(a), None, Some(want)) => differs(want, &versionless(a), "$"),
                (Ok(_), None, None) => Some("no expect and no error: a call must pin its answer".into()),
            };
            if let Some(p) = problem {
                if !bless::blessing() {
                    out.failures.push(format!("{at}: {p}"));
                    break;
                }
                // Blessed: this call now pins what the engine answered, and the case goes on from it.
                let mut path = vec![("cases".to_string(), i)];
                if s > 0 {
                    path.push(("steps".to_string(), s - 1));
                }
                rewrites.push(bless::Rewrite {
                    path,
                    answer: answer.as_ref().map(versionless).map_err(String::clone),
                });
            }
            last = answer.unwrap_or(Value::Null);
            if call == "reconcile" {
                out.failures.extend(
                    reconcile_holds(&config, &input, &last)
                        .into_iter()
                        .map(|p| format!("{at}: {p}")),
                );
            }
            if call == "sweep" {
                out.failures
                    .extend(sweep_holds(&last).into_iter().map(|p| format!("{at}: {p}")));
            }
            if file.get("snapshot") == Some(&Value::Bool(true)) {
                snapshot_texts.push_str(&texts(s + 1, &last));
            }
        }
    }
    if file.get("snapshot") == Some(&Value::Bool(true)) {
        out.failures
            .extend(snapshot(corpus, &stem, &snapshot_texts).map(|p| format!("{at_file}: {p}")));
    }
    if !rewrites.is_empty() {
        let blessed = bless::apply(&text, &rewrites).unwrap_or_else(|e| panic!("{at_file}: {e}"));
        std::fs::write(path, blessed).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.blessed.push(format!(
            "{at_file} ({} call{})",
            rewrites.len(),
            if rewrites.len() == 1 { "" } else { "s" }
        ));
    }
}

/// `PRFLOW_FIXTURE_ONLY`: one corpus (`queue`) or one file (`queue/green`); unset, every one.
fn only() -> Option<String> {
    std::env::var("PRFLOW_FIXTURE_ONLY").ok().filter(|s| !s.is_empty())
}

fn run(corpus: &str) -> Outcome {
    let mut out = Outcome {
        cases: 0,
        failures: Vec::new(),
        calls: Vec::new(),
        blessed: Vec::new(),
    };
    for f in json_files(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(corpus),
    ) {
        let stem = f.file_stem().unwrap().to_string_lossy().to_string();
        if only().is_some_and(|o| o != corpus && o != format!("{corpus}/{stem}")) {
            continue;
        }
        run_file(corpus, &f, &mut out);
    }
    out
}

/// The demo's sample board (examples/) stays valid, decides something on most pull requests, and holds
/// what every plan holds; it joins the dump so the Wasm replay covers a realistic snapshot too.
fn the_sample_board() -> Outcome {
    let read = |p: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(p)).unwrap())
            .unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    let (facts, config) = (read("examples/snapshot.json"), read("examples/prflow.json"));
    let input = json!({ "facts": facts });
    let answer = ask(&config, "reconcile", &input);
    let mut failures = Vec::new();
    match answer
        .as_ref()
        .map_err(String::clone)
        .and_then(|a| serde_json::from_value::<Plan>(a.clone()).map_err(|e| e.to_string()))
    {
        Ok(plan) => {
            if !plan.config_errors.is_empty() || plan.ops.len() < 8 || plan.pulls.len() < 10 {
                failures.push(format!("examples: the sample board should be valid and non-trivial, got {} config errors, {} ops over {} pulls", plan.config_errors.len(), plan.ops.len(), plan.pulls.len()));
            }
            failures.extend(
                reconcile_holds(&config, &input, answer.as_ref().unwrap())
                    .into_iter()
                    .map(|f| format!("examples: {f}")),
            );
        }
        Err(e) => failures.push(format!("examples/snapshot.json: {e}")),
    }
    let calls = vec![entry(
        "reconcile",
        "examples: snapshot.json under prflow.json",
        &config,
        "reconcile",
        &input,
        &answer,
    )];
    Outcome {
        cases: 0,
        failures,
        calls,
        blessed: Vec::new(),
    }
}

#[test]
fn every_corpus() {
    let mut dumped = Vec::new();
    let mut problems = Vec::new();
    let mut lines = vec!["fixture corpora (cases, engine calls):".to_string()];
    for (corpus, min) in CORPORA {
        let mut outcome = run(corpus);
        if only().is_some() && outcome.cases == 0 {
            continue;
        }
        if corpus == "reconcile" && only().is_none() {
            let sample = the_sample_board();
            outcome.failures.extend(sample.failures);
            outcome.calls.extend(sample.calls);
        }
        lines.push(format!(
            "  {:<11} {:>4} cases {:>5} calls{}",
            corpus,
            outcome.cases,
            outcome.calls.len(),
            if outcome.failures.is_empty() {
                String::new()
            } else {
                format!("  ({} FAILED)", outcome.failures.len())
            }
        ));
        if outcome.cases < min && only().is_none() {
            problems.push(format!("{corpus}: {} cases, at least {min} promised", outcome.cases));
        }
        problems.extend(outcome.failures.into_iter().map(|f| format!("{corpus}: {f}")));
        dumped.extend(outcome.calls);
        lines.extend(
            outcome
                .blessed
                .into_iter()
                .map(|f| format!("  blessed {f}: review the diff")),
        );
    }
    lines.push(format!("  {:<11} {:>4} cases {:>5} calls", "total", "", dumped.len()));
    // Past the harness's capture, so every `cargo test` shows the corpus sizes.
    use std::io::Write;
    let _ = std::io::stdout().write_all(format!("\n{}\n", lines.join("\n")).as_bytes());
    // A run of one corpus or file leaves the dump alone: the Wasm replay wants every corpus.
    if only().is_none() {
        dump::write("PRFLOW_FIXTURE_DUMP", &dumped);
    }
    assert!(
        problems.is_empty(),
        "{} fixture problem(s):\n\n{}\n",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn the_example_followup_config_is_valid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/followup.json");
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("examples/followup.json")).expect("JSON");
    let config = prflow::Config::from_value(config).expect("examples/followup.json validates");
    let levels = config.followup.effective_levels(&config.stations.labels);
    assert_eq!(
        levels["state:ready-to-merge"].len(),
        2,
        "its own ready-to-merge levels replace the default"
    );
    assert_eq!(
        levels["state:reviewing"].len(),
        2,
        "the other states keep the article's table"
    );
}

#[test]
fn the_format_builds_inputs_as_its_readme_says() {
    let pull = json!({ "author": "dev", "labels": ["a"] });
    // A case: a merge patch over the defaults; null removes; each pull request over `pull`.
    let case = merge(
        &json!({ "facts": { "now": "t", "viewer": "bot" }, "role": "dev" }),
        &json!({ "facts": { "viewer": null, "pullRequests": [{ "number": 1 }, { "number": 2, "labels": null }] } }),
        &pull,
        false,
        "$",
    );
    assert_eq!(
        case,
        json!({ "facts": { "now": "t", "pullRequests": [{ "number": 1, "author": "dev", "labels": ["a"] }, { "number": 2, "author": "dev" }] }, "role": "dev" })
    );
    // A step: pull requests changed by number, added over `pull`, taken away with `gone`.
    let step = merge(
        &case,
        &json!({ "facts": { "pullRequests": [{ "number": 2, "labels": ["b"] }, { "number": 1, "gone": true }, { "number": 3 }] } }),
        &pull,
        true,
        "$",
    );
    assert_eq!(
        step["facts"]["pullRequests"],
        json!([{ "number": 2, "author": "dev", "labels": ["b"] }, { "number": 3, "author": "dev", "labels": ["a"] }])
    );
    assert_eq!(
        [
            seconds("90m"),
            seconds("2h"),
            seconds("1d"),
            seconds("30s"),
            seconds("5"),
            seconds("m")
        ],
        [Some(5400), Some(7200), Some(86_400), Some(30), None, None]
    );
    assert_eq!(differs(&json!({ "a": [1, 2] }), &json!({ "a": [1, 2] }), "$"), None);
    assert_eq!(
        differs(&json!({ "a": 1 }), &json!({ "a": 1, "b": 2 }), "$").as_deref(),
        Some("$.b: not expected, found 2")
    );
}
