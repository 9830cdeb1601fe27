//! The flake verdict: is a red checkpoint the change's failure, or the run's? Evidence first, in this
//! order: the same job passed on the same head before; signs of infrastructure on the red attempt (a
//! runner lost, a cancellation, a timeout, nearly every test of the job failing); the job red on the
//! base too. Only when none of that decides, and a real verdict would set a pull request aside, the
//! failed jobs are re-run once on the same head: a re-run costs one run, a false set-aside costs a
//! good pull request its place and its author a round trip. Higher in a bisection a red is judged
//! real at once, since the next step tests a smaller prefix anyway.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One attempt of the job on the head being judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Attempt {
    /// `success`, `failure`, `cancelled` or `timed_out` (the check run's conclusion).
    pub conclusion: String,
    /// The runner went away (GitHub's "lost communication with the server").
    #[serde(default)]
    pub runner_lost: bool,
    /// Failed tests and all tests of the job, where its JUnit output or annotations say.
    #[serde(default)]
    pub tests_failed: Option<u32>,
    #[serde(default)]
    pub tests_total: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FlakeInput {
    /// The job's name, for the reason.
    pub job: String,
    /// The job's attempts on this head, oldest first: the red one judged, and its re-run if there was one.
    pub attempts: Vec<Attempt>,
    /// The job's recent conclusions on the base, newest first.
    #[serde(default)]
    pub base_history: Vec<String>,
    /// A real verdict sets a pull request aside: the red head adds one pull request to a head known
    /// green (a chain of one, or bisection's last step).
    #[serde(default)]
    pub sets_aside: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    /// Not the change's failure: the prefix lands.
    Flake,
    /// The change's failure: bisect, or set aside.
    Real,
    /// Not enough evidence: re-run the failed jobs once on the same head.
    Rerun,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FlakeVerdict {
    pub verdict: Verdict,
    /// The evidence that decided, in words.
    pub reason: String,
}

/// Nearly every test failing is a setup that broke, not a change: at least this share, of at least
/// `MIN_TESTS` tests (three of three failing is as likely one broken helper).
const NEARLY_ALL: f64 = 0.9;
const MIN_TESTS: u32 = 10;

pub fn verdict(i: &FlakeInput) -> Result<FlakeVerdict, String> {
    let job = &i.job;
    let v = |verdict, reason: String| Ok(FlakeVerdict { verdict, reason });
    // A pass on the same head, before the red or on its re-run: the change can pass, so the red was not its.
    if let Some(n) = i.attempts.iter().position(|a| a.conclusion == "success") {
        return v(
            Verdict::Flake,
            format!(
                "`{job}` passed on this head (attempt {} of {})",
                n + 1,
                i.attempts.len()
            ),
        );
    }
    let Some((last, before)) = i.attempts.split_last() else {
        return Err("$.attempts: expected at least the red attempt, found none".into());
    };
    if last.runner_lost {
        return v(
            Verdict::Flake,
            format!("`{job}` lost its runner: the infrastructure failed, not the change"),
        );
    }
    match last.conclusion.as_str() {
        "cancelled" => {
            return v(
                Verdict::Flake,
                format!("`{job}` was cancelled: the infrastructure stopped it, not the change"),
            )
        }
        "timed_out" => {
            return v(
                Verdict::Flake,
                format!("`{job}` timed out: the infrastructure stalled, not the change"),
            )
        }
        _ => {}
    }
    if let (Some(failed), Some(total)) = (last.tests_failed, last.tests_total) {
        if total >= MIN_TESTS && f64::from(failed) >= NEARLY_ALL * f64::from(total) {
            return v(
                Verdict::Flake,
                format!("`{job}` failed {failed} of its {total} tests: its setup broke, not the change"),
            );
        }
    }
    if i.base_history.first().is_some_and(|c| c != "success") {
        return v(
            Verdict::Flake,
            format!("`{job}` is red on the base too (its latest run there)"),
        );
    }
    if !before.is_empty() {
        return v(
            Verdict::Real,
            format!("`{job}` failed again when re-run on the same head"),
        );
    }
    let history = if i.base_history.is_empty() {
        "no history on the base".to_string()
    } else {
        let red = i.base_history.iter().filter(|c| *c != "success").count();
        format!("red in {red} of its last {} runs on the base", i.base_history.len())
    };
    if !i.sets_aside {
        return v(Verdict::Real, format!("`{job}` failed with no sign of a flake ({history}); bisection tests a smaller prefix next, before anything is set aside"));
    }
    v(Verdict::Rerun, format!("`{job}` failed with no sign of a flake ({history}): re-run the failed jobs once on the same head before setting anything aside"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red() -> Attempt {
        Attempt {
            conclusion: "failure".into(),
            runner_lost: false,
            tests_failed: None,
            tests_total: None,
        }
    }

    #[test]
    fn a_second_red_on_the_same_head_is_real_and_a_first_one_is_re_run_only_before_a_set_aside() {
        let i = FlakeInput {
            job: "test".into(),
            attempts: vec![red()],
            base_history: vec![],
            sets_aside: true,
        };
        assert_eq!(verdict(&i).unwrap().verdict, Verdict::Rerun);
        assert_eq!(
            verdict(&FlakeInput {
                sets_aside: false,
                ..i.clone()
            })
            .unwrap()
            .verdict,
            Verdict::Real
        );
        assert_eq!(
            verdict(&FlakeInput {
                attempts: vec![red(), red()],
                ..i
            })
            .unwrap()
            .verdict,
            Verdict::Real
        );
    }
}
