//! Bisection by prefixes: a chain whose checkpoint is red (judged real) is searched by the prefixes
//! it already holds. Each head holds everything below it, so testing a prefix is taking `skip-ci` off
//! one pull request, with no new push. The longest prefix known green lands at once; when the first
//! red prefix is one past it, the pull request that makes the difference is set aside and the ones
//! above it are chained again without it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BisectInput {
    /// The chain, bottom up.
    pub chain: Vec<u64>,
    /// The longest prefix known green (0: only the base).
    #[serde(default)]
    pub green: u32,
    /// The shortest prefix known red, judged real (the chain's length when only the top was run).
    pub red: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BisectStep {
    /// Land these now: the longest green prefix.
    pub land: Vec<u64>,
    /// Take `skip-ci` off this one next: the middle of what is still unknown.
    pub test: Option<u64>,
    /// The first failing pull request on its own: set aside, with its owner and today's comment.
    pub set_aside: Option<u64>,
    /// Chained again, onto the landed prefix, without the one set aside.
    pub rechain: Vec<u64>,
    pub reason: String,
}

/// The prefix length tested next between a green `g` and a red `r` (g + 1 < r).
pub fn middle(g: usize, r: usize) -> usize {
    g + (r - g) / 2
}

pub fn step(i: &BisectInput) -> Result<BisectStep, String> {
    let (g, r, n) = (i.green as usize, i.red as usize, i.chain.len());
    if r == 0 || r > n {
        return Err(format!(
            "$.red: expected a prefix length from 1 to the chain's {n}, found {r}"
        ));
    }
    if g >= r {
        return Err(format!("$.green: expected less than red ({r}), found {g}"));
    }
    let land = i.chain[..g].to_vec();
    let landed = if g == 0 {
        String::new()
    } else {
        format!("land {} (green); ", numbers(&land))
    };
    if r == g + 1 {
        let bad = i.chain[r - 1];
        let rechain = i.chain[r..].to_vec();
        let again = if rechain.is_empty() {
            String::new()
        } else {
            format!("; chain {} again without it", numbers(&rechain))
        };
        return Ok(BisectStep {
            land,
            test: None,
            set_aside: Some(bad),
            rechain,
            reason: format!("{landed}#{bad} is the first red on its own: set it aside{again}"),
        });
    }
    let m = middle(g, r);
    let test = i.chain[m - 1];
    Ok(BisectStep {
        land,
        test: Some(test),
        set_aside: None,
        rechain: Vec::new(),
        reason: format!(
            "{landed}red within {}: test the prefix up to #{test} (CI on it, {m} of {n})",
            numbers(&i.chain[g..r])
        ),
    })
}

fn numbers(ns: &[u64]) -> String {
    ns.iter().map(|n| format!("#{n}")).collect::<Vec<_>>().join(", ")
}
