//! The quiet rule: how long the worker sleeps when it has nothing to do. The active interval while
//! the list moves; once `idleAfter` surveys in a row saw the same open pull requests (head, merge
//! state, labels, auto-merge, draft flag, body), the same reasons a review holds any of them and the
//! same tip of `main`, the idle interval. Any change brings the short interval back, so a pull
//! request queued a moment ago is not left for minutes.

use super::triage::Report;
use crate::core::facts::Facts;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[schemars(rename = "QueueQuiet")]
pub struct Quiet {
    /// A digest of what the last survey saw (FNV-1a, hex): only equality is read.
    pub fingerprint: String,
    /// Surveys in a row that saw the same, this one included (1 after a change).
    pub streak: u32,
}

fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// What a survey saw that the rule compares, as one digest.
pub fn fingerprint(facts: &Facts, report: &Report) -> String {
    let mut text = format!("tip={}\n", facts.base_tip_sha.as_deref().unwrap_or("?"));
    let mut prs: Vec<&crate::core::facts::PullRequest> = facts.pull_requests.iter().collect();
    prs.sort_by_key(|p| p.number);
    for p in prs {
        let mut labels = p.labels.clone();
        labels.sort();
        let held = report
            .entries
            .iter()
            .find(|e| e.number == p.number)
            .and_then(|e| e.review.as_ref())
            .filter(|r| r.held)
            .map(|r| r.reasons.join(";"))
            .unwrap_or_default();
        text.push_str(&format!(
            "#{} {} {} [{}] am={} draft={} held={held:?} body={}\n",
            p.number,
            p.head_sha,
            p.merge_state_status.as_deref().unwrap_or("-"),
            labels.join(","),
            p.auto_merge,
            p.is_draft,
            fnv(&p.body)
        ));
    }
    fnv(&text)
}

/// The counter after one more survey.
pub fn observe(last: &Quiet, fingerprint: String) -> Quiet {
    let streak = if !last.fingerprint.is_empty() && last.fingerprint == fingerprint {
        last.streak + 1
    } else {
        1
    };
    Quiet { fingerprint, streak }
}

/// Seconds to sleep with nothing to do. The long wait begins once `idle_after` surveys in a row have
/// each found the same as the survey before (the streak counts the first of the run too, hence `>`).
pub fn interval(q: &Quiet, active: u32, idle_after: u32, idle: u32) -> u32 {
    if q.streak > idle_after {
        idle
    } else {
        active
    }
}
