//! Table-driven cases of the stations flow, one JSON file per rule family in tests/fixtures/stations/.
//! The story format and the engine calls a case makes live in tests/fixtures/stations_story.rs. Every
//! call, with the native answer, is dumped where PRFLOW_STATIONS_DUMP says, so
//! tests/node/stations-fixtures.test.js can ask the Wasm module the same.

#[path = "fixtures/dump.rs"]
mod dump;
#[path = "fixtures/stations_story.rs"]
mod story;

use std::collections::BTreeSet;

#[test]
fn stations_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stations");
    let corpus = story::corpus(&dir).unwrap_or_else(|e| panic!("{e}"));
    let files: BTreeSet<&str> = corpus.iter().map(|(file, _, _)| file.as_str()).collect();
    let mut total = 0;
    let mut calls = 0;
    let mut failures = Vec::new();
    let mut names = BTreeSet::new();
    let mut dumped = Vec::new();
    for (i, (file, file_config, case)) in corpus.iter().enumerate() {
        let name = case["name"].as_str().unwrap_or_else(|| panic!("{file}: case {i} has no name"));
        assert!(case.get("rule").is_some(), "{file}: {name}: every case names the rule it pins");
        assert!(case.get("expect").is_some_and(|e| e.as_object().is_some_and(|o| !o.is_empty())), "{file}: {name}: no expectation");
        assert!(names.insert(name.to_string()), "duplicate case name {name}");
        total += 1;
        for call in story::calls_of(case, file_config) {
            calls += 1;
            dumped.push(call.to_json(file));
            for f in story::check(&call.call, &call.expect, &call.output) {
                failures.push(format!("{file}: {} [{}]: {f}", call.name, case["rule"].as_str().unwrap_or("")));
            }
        }
    }
    dump::write("PRFLOW_STATIONS_DUMP", &dumped);
    println!("stations fixtures: {total} cases ({calls} engine calls) in {} files", files.len());
    assert!(failures.is_empty(), "{} problems in {total} cases:\n{}", failures.len(), failures.join("\n"));
    assert!(total >= 90, "the issue asks for at least 90 cases, found {total}");
}
