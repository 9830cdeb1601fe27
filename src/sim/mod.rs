//! Simulations behind two claims of the seeds: review stations should pull their work (`review`), and a
//! merge queue that runs one pull request at a time caps landings at working hours over CI time
//! (`queue`). Pure and deterministic for a seed: the seed is an input (the shells draw one when none
//! is given and print it), and every draw comes from the generator in `rng`, never from the platform.

pub mod agenda;
pub mod params;
pub mod queue;
pub mod review;
pub mod rng;
pub mod stats;

pub use params::Range;
pub use queue::{queue, QueueParams, QueueReport};
pub use review::{review, ReviewParams, ReviewReport};

#[cfg(test)]
mod tests {
    // The simulations answer through the engine's one request vocabulary (src/api.rs), like every decision.
    fn run(name: &str, input: &str) -> Result<String, String> {
        crate::Engine::preset().call(name, input)
    }

    #[test]
    fn json_errors_name_the_field() {
        let e = run("simReview", r#"{"seed": 1, "stations": "two"}"#).unwrap_err();
        assert!(
            e.starts_with("simReview $.stations: invalid type: string \"two\""),
            "{e}"
        );
        let e = run("simReview", r#"{"seed": 1, "stationz": 2}"#).unwrap_err();
        assert!(e.contains("unknown field `stationz`"), "{e}");
        let e = run("simQueue", r#"{"seed": 1, "ciMinutes": 0, "flakeRate": 0.95}"#).unwrap_err();
        assert_eq!(
            e,
            "simQueue $.ciMinutes: expected minutes from 0.5 to 1440, found 0
$.flakeRate: expected a share from 0 to 0.9, found 0.95"
        );
        let d: serde_json::Value = serde_json::from_str(&run("simQueueDefaults", "").unwrap()).unwrap();
        assert_eq!((d["ciMinutes"].as_f64(), d["seed"].is_null()), (Some(15.0), true));
    }
}
