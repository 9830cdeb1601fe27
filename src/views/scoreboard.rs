//! `scoreboard(facts, config)`: how each agent's pull requests fare, from the same facts every other
//! decision reads: the open pull requests and the recent landings. An agent is the machine its
//! `from:` label names, else the author, as the sweep's owner is. Counts cover what the facts hold
//! (open pull requests, and the landings the reader read), so the answer says that window. Where the
//! facts hold no evidence (flake verdicts are not recorded yet), the answer says so instead of a number.

use crate::core::config::Config;
use crate::core::facts::{Facts, PullRequest};
use crate::core::time::parse_rfc3339;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Scoreboard {
    /// One per agent, most landed first, then by name.
    pub agents: Vec<AgentScore>,
    /// What the counts cover, in words.
    pub window: String,
    /// Why the flake columns have no number, when they have none.
    pub flakes_note: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentScore {
    /// The machine its `from:` label names, else the author's login.
    pub agent: String,
    /// Open now plus landed in the window.
    pub opened: u64,
    pub open: u64,
    pub landed: u64,
    /// Sent back at least once: a review asking for changes, or the flow's "back to the author" state.
    pub bounced: u64,
    /// Set aside by the merge queue at least once (its own comment, standing or resolved).
    pub set_aside: u64,
    /// Median minutes from opened to merged, over its landings; none without a landing.
    pub median_minutes_to_land: Option<i64>,
    /// CI minutes (every run's own length, summed) per landing; none without a timed landing.
    pub ci_minutes_per_landing: Option<i64>,
    /// Flakes the queue blamed on its pull requests, and cleared; none while no verdict is recorded.
    pub flakes_blamed: Option<u64>,
    pub flakes_cleared: Option<u64>,
}

/// The agent a pull request counts for: its first `from:` machine, else its author.
fn agent_of(labels: &[String], author: &str, prefix: &str) -> String {
    labels
        .iter()
        .find_map(|l| l.strip_prefix(prefix))
        .map(str::to_string)
        .unwrap_or_else(|| author.to_string())
}

fn bounced(pr: &PullRequest, config: &Config) -> bool {
    let back = [
        config.labels.addressing.as_str(),
        config.stations.labels.changes_requested.as_str(),
    ];
    pr.reviews.iter().any(|r| r.state == "CHANGES_REQUESTED")
        || pr
            .timeline
            .iter()
            .any(|e| e.kind == "labeled" && e.label.as_deref().is_some_and(|l| back.contains(&l)))
}

fn median(mut xs: Vec<i64>) -> Option<i64> {
    xs.sort();
    let n = xs.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(xs[n / 2]),
        _ => Some((xs[n / 2 - 1] + xs[n / 2]) / 2),
    }
}

pub fn scoreboard(facts: &Facts, config: &Config) -> Scoreboard {
    let prefix = &config.followup.author_prefix;
    #[derive(Default)]
    struct Tally {
        open: u64,
        bounced: u64,
        set_aside: u64,
        to_land: Vec<i64>,
        ci_seconds: i64,
        timed: u64,
        landed: u64,
    }
    let mut by: std::collections::BTreeMap<String, Tally> = std::collections::BTreeMap::new();
    for pr in &facts.pull_requests {
        let agent = agent_of(&pr.labels, &pr.author, prefix);
        let t = by.entry(agent).or_default();
        t.open += 1;
        t.bounced += u64::from(bounced(pr, config));
        t.set_aside += u64::from(crate::flows::queue::setaside::own_set_aside(facts, pr).is_some());
    }
    let landed_unread = facts.repo_unknown(crate::core::facts::RepoFact::Landed);
    for l in &facts.landed {
        let agent = agent_of(&l.labels, &l.author, prefix);
        let t = by.entry(agent).or_default();
        t.landed += 1;
        if let (Some(a), Some(b)) = (parse_rfc3339(&l.created_at), parse_rfc3339(&l.merged_at)) {
            t.to_land.push((b - a).max(0) / 60);
        }
        let runs: Vec<i64> = l
            .checks
            .iter()
            .filter_map(|c| crate::flows::queue::lane::span(std::slice::from_ref(c)))
            .collect();
        if !runs.is_empty() {
            t.ci_seconds += runs.iter().sum::<i64>();
            t.timed += 1;
        }
    }
    let mut agents: Vec<AgentScore> = by
        .into_iter()
        .map(|(agent, t)| AgentScore {
            agent,
            opened: t.open + t.landed,
            open: t.open,
            landed: t.landed,
            bounced: t.bounced,
            set_aside: t.set_aside,
            median_minutes_to_land: median(t.to_land),
            ci_minutes_per_landing: (t.timed > 0).then(|| {
                (t.ci_seconds / 60 + i64::try_from(t.timed).unwrap_or(1) / 2) / i64::try_from(t.timed).unwrap_or(1)
            }),
            flakes_blamed: None,
            flakes_cleared: None,
        })
        .collect();
    agents.sort_by_key(|a| (std::cmp::Reverse(a.landed), a.agent.clone()));
    let window = if landed_unread {
        format!(
            "{} open pull requests; the recent landings could not be read, so nothing landed is counted",
            facts.pull_requests.len()
        )
    } else {
        format!(
            "{} open pull requests and the last {} landings",
            facts.pull_requests.len(),
            facts.landed.len()
        )
    };
    Scoreboard {
        agents,
        window,
        flakes_note: Some(
            "no flake data yet: the merge queue records no flake verdicts, so none is blamed or cleared".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_is_its_from_label_else_its_author() {
        assert_eq!(agent_of(&["from:m1".into(), "x".into()], "dev-bot", "from:"), "m1");
        assert_eq!(agent_of(&["x".into()], "dev-bot", "from:"), "dev-bot");
    }

    #[test]
    fn the_median_is_the_middle_not_the_mean() {
        assert_eq!(median(vec![10, 90, 20]), Some(20));
        assert_eq!(median(vec![10, 20]), Some(15));
        assert_eq!(median(vec![]), None);
    }
}
