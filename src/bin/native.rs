//! The engine as a native command, for tests, benchmarks and the build: `plan FACTS [CONFIG]`,
//! `schemas`, `catalog CONFIG` (the generated reference reads both).

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
        Some("bench") => {
            // Times what the Wasm path does: JSON text in, reconcile, JSON text out.
            let path = args.get(1).ok_or("usage: prflow-native bench FACTS CONFIG RUNS")?;
            let facts = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let config = std::fs::read_to_string(args.get(2).ok_or("missing CONFIG")?).map_err(|e| e.to_string())?;
            let runs: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(5);
            let config = prflow::Config::from_value(serde_json::from_str(&config).map_err(|e| e.to_string())?).map_err(|e| format!("{e:?}"))?;
            // Each phase timed on its own, so the report can say where the time goes.
            let (mut total, mut parse, mut decide, mut write) = (vec![], vec![], vec![], vec![]);
            let mut ops = 0;
            for _ in 0..runs {
                let t0 = std::time::Instant::now();
                let parsed = prflow::views::reconcile::parse_facts_str(&facts).map_err(|e| e.to_string())?;
                let t1 = std::time::Instant::now();
                let plan = prflow::reconcile(&parsed, &config);
                let t2 = std::time::Instant::now();
                let text = serde_json::to_string(&plan).unwrap();
                let t3 = std::time::Instant::now();
                drop(parsed);
                ops = plan.ops.len();
                std::hint::black_box(text);
                let ms = |a: std::time::Instant, b: std::time::Instant| (b - a).as_secs_f64() * 1000.0;
                total.push(ms(t0, t3));
                parse.push(ms(t0, t1));
                decide.push(ms(t1, t2));
                write.push(ms(t2, t3));
            }
            let median = |mut v: Vec<f64>| {
                v.sort_by(|a, b| a.partial_cmp(b).unwrap());
                v[v.len() / 2]
            };
            println!(
                "{{\"medianMs\": {}, \"parseMs\": {}, \"decideMs\": {}, \"serializeMs\": {}, \"ops\": {ops}}}",
                median(total),
                median(parse),
                median(decide),
                median(write)
            );
            Ok(())
        }
        // Any decision by name, the request as one JSON file: `call triage INPUT.json [CONFIG]`.
        Some("call") => {
            let usage = "usage: prflow-native call NAME INPUT.json [CONFIG]";
            let name = args.get(1).ok_or(usage)?;
            let input = read_json(args.get(2).ok_or(usage)?)?;
            let engine = match args.get(3) {
                Some(p) => prflow::Engine::new(&std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"))?),
                None => prflow::Engine::preset(),
            };
            let out = engine.call_value(name, &input)?;
            println!("{}", serde_json::to_string_pretty(&out).unwrap());
            Ok(())
        }
        Some("catalog") => {
            let config = read_json(args.get(1).ok_or("usage: prflow-native catalog CONFIG")?)?;
            println!("{}", serde_json::to_string_pretty(&prflow::views::catalog::catalog_value(config)).unwrap());
            Ok(())
        }
        Some("schemas") => {
            println!("{}", serde_json::to_string_pretty(&prflow::schemas()).unwrap());
            Ok(())
        }
        _ => Err("usage: prflow-native plan FACTS [CONFIG] | sweep FACTS [CONFIG] | schemas | catalog CONFIG | bench FACTS CONFIG RUNS | call NAME INPUT [CONFIG]".into()),
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
