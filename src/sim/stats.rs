//! Summaries of simulated times: percentiles by nearest rank over the pooled runs, rounded to a tenth
//! of a minute so a fixture pins what a reader sees, not the float's last digits.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A distribution of minutes: how many, and where its middle, its tail and its worst lie.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Spread {
    pub count: u64,
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub max: f64,
}

/// Rounded to one decimal, the precision every simulated figure is reported at.
pub fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Rounded to two decimals, for rates and ratios.
pub fn hundredth(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The value at quantile `q` of sorted `xs` by nearest rank (the smallest value with at least q of the
/// values at or below it); 0 for none.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub fn spread(mut xs: Vec<f64>) -> Spread {
    xs.sort_by(f64::total_cmp);
    let count = xs.len() as u64;
    let mean = if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    };
    Spread {
        count,
        mean: tenth(mean),
        p50: tenth(quantile(&xs, 0.5)),
        p90: tenth(quantile(&xs, 0.9)),
        p95: tenth(quantile(&xs, 0.95)),
        max: tenth(xs.last().copied().unwrap_or(0.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let s = spread(xs);
        assert_eq!(
            (s.count, s.p50, s.p90, s.p95, s.max, s.mean),
            (10, 5.0, 9.0, 10.0, 10.0, 5.5)
        );
        assert_eq!(spread(Vec::new()), Spread::default());
        assert_eq!(quantile(&[3.0], 0.0), 3.0);
    }
}
