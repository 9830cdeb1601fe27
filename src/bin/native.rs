//! The engine as a native command, for tests and benchmarks: `plan FACTS [CONFIG]`, `schemas`.

use std::process::ExitCode;

fn read_json(path: &str) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("plan") => {
            let facts = read_json(args.get(1).ok_or("usage: prflow-native plan FACTS [CONFIG]")?)?;
            let config = match args.get(2) {
                Some(p) => read_json(p)?,
                None => serde_json::json!({}),
            };
            let plan = prflow::reconcile_values(facts, config).map_err(|e| e.to_string())?;
            println!("{}", serde_json::to_string_pretty(&plan).unwrap());
            Ok(())
        }
        Some("sweep") => {
            let facts = read_json(args.get(1).ok_or("usage: prflow-native sweep FACTS [CONFIG]")?)?;
            let config = match args.get(2) {
                Some(p) => read_json(p)?,
                None => serde_json::json!({}),
            };
            let plan = prflow::sweep_values(facts, config).map_err(|e| e.to_string())?;
            println!("{}", serde_json::to_string_pretty(&plan).unwrap());
            Ok(())
        }
        Some("schemas") => {
            println!("{}", serde_json::to_string_pretty(&prflow::schemas()).unwrap());
            Ok(())
        }
        _ => Err("usage: prflow-native plan FACTS [CONFIG] | sweep FACTS [CONFIG] | schemas".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("prflow-native: {e}");
            ExitCode::from(2)
        }
    }
}
