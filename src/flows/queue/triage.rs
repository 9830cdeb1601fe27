//! Triage, step 2 of a cycle: every open pull request is ignored, noted (with the reason), a
//! candidate, in flight, failing, or held by its review, in the README's order of questions:
//! scope, owner, stacks, the Merge-After gate, the version pull request's own rules, the merge
//! state, then the review. Then the order, what to act on (at most one), and the release rule.

use super::ctx::Ctx;
use super::declare::Declared;
use super::green::{green, GreenState};
use super::order::{self, OrderKey};
use super::owner::{self, Claim, Owner};
use super::review_hold::{review_hold, ReviewHold};
use super::why::{self, numbers};
use crate::core::facts::{PullRequest, SetAsideRecord};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueClass")]
pub enum Class {
    Ignore,
    Note,
    Candidate,
    InFlight,
    Failing,
    Held,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueEntry")]
pub struct Entry {
    pub number: u64,
    pub title: String,
    pub triage: Class,
    /// A stable reason code (see `why.rs`).
    pub reason: String,
    /// The reason in words.
    pub detail: String,
    /// The owner, for a pull request in the queue.
    pub owner: Option<Owner>,
    pub owner_why: Option<String>,
    pub next_actor: String,
    pub next_action: String,
    /// 1-based place in the pick order, for candidates.
    pub place: Option<usize>,
    /// The open pull requests it waits for (Merge-After, inherited Start-After, the stack).
    pub waiting_on: Vec<u64>,
    pub declared: Declared,
    pub review: Option<ReviewHold>,
    /// Only a bypass merges it: released and watched, never armed.
    pub bypass_only: bool,
    pub set_aside: Option<SetAsideRecord>,
    pub claim: Option<Claim>,
    pub demoted: bool,
    /// Labelled `merge-queued` without `skip-ci`.
    pub released: bool,
    pub waiting_hours: Option<i64>,
    pub starved: bool,
}

/// What the worker does this cycle: watch the one in flight, or pick the first candidate, or keep
/// waiting ones on the tip, or nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueNext")]
pub struct Next {
    /// `watch`, `pick`, `keepOnTip` or `idle`.
    pub action: String,
    pub number: Option<u64>,
    /// Arm auto-merge (never for one only a bypass merges).
    pub arm: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "QueueReport")]
pub struct Report {
    pub entries: Vec<Entry>,
    /// Candidates in pick order.
    pub order: Vec<u64>,
    pub in_flight: Vec<u64>,
    pub next: Next,
    /// Every cycle in the dependency graph, by its numbers.
    pub cycles: Vec<Vec<u64>>,
    /// Open pull requests labelled `blocks-release` (named on every cycle: a forgotten draft holds every release).
    pub release_blockers: Vec<u64>,
    /// Queued pull requests released right now (at most one is wanted).
    pub released: Vec<u64>,
    /// Waiting pull requests the worker would rebase onto the tip when it has nothing else to do.
    pub keep_on_tip: Vec<u64>,
    pub settlement: super::setaside::Settlement,
    pub warnings: Vec<String>,
}

fn in_flight_state(s: &str) -> bool {
    matches!(s, "CLEAN" | "UNSTABLE" | "HAS_HOOKS")
}

struct Verdict {
    class: Class,
    code: &'static str,
    detail: String,
}

fn note(code: &'static str, detail: String) -> Verdict {
    Verdict {
        class: Class::Note,
        code,
        detail,
    }
}

fn decide(ctx: &Ctx, pr: &PullRequest, d: &Declared, owner: &Option<owner::OwnerVerdict>, blockers: &[u64]) -> Verdict {
    // 2. Scope.
    if !d.merge_queued {
        return Verdict {
            class: Class::Ignore,
            code: why::NOT_QUEUED,
            detail: String::new(),
        };
    }
    if pr.is_draft {
        return note(why::DRAFT, "queued, but a draft".into());
    }
    // An unread draft flag is no "ready": held as a draft would be, never picked on a guess.
    if pr.unknown(crate::core::facts::PullFact::IsDraft) {
        return note(why::DRAFT, "queued, but whether it is a draft could not be read".into());
    }
    if !ctx.base_actionable(pr) {
        return note(
            why::BASE_NOT_ACTIONABLE,
            format!(
                "queued, but based on `{}`: neither `{}` nor an open pull request's branch",
                pr.base_ref, ctx.default_branch
            ),
        );
    }
    if let Some(cycle) = ctx.graph.cycle_of(pr.number) {
        return note(
            why::CYCLE,
            format!(
                "caught in the cycle {}: left alone",
                why::cycle_numbers(cycle, pr.number)
            ),
        );
    }
    // 3. Owner.
    if let Some(o) = owner {
        if o.owner != Owner::Worker {
            let code = match o.code.as_str() {
                "claimed" => why::CLAIMED,
                "fork" => why::FORK,
                "native-stack" => why::NATIVE_STACK,
                c if c.starts_with("set-aside") => why::SET_ASIDE,
                _ => why::OWNER_NONE,
            };
            return note(code, format!("owned by {}: {}", o.owner.as_str(), o.why));
        }
    }
    // 4. Stacks.
    if let Some(parent) = d.stacked_on {
        return note(
            why::STACKED,
            format!("stacked on #{parent}: the layer below goes first"),
        );
    }
    // 5. The Merge-After gate. It constrains picking only: one already merging is watched as ever.
    let waits: Vec<u64> = ctx.graph.waits_for(pr.number).iter().map(|e| e.to).collect();
    let merging = !d.skip_ci && pr.auto_merge && pr.merge_state_status.as_deref().is_some_and(in_flight_state);
    if !waits.is_empty() && !merging {
        let inherited: Vec<String> = ctx
            .graph
            .waits_for(pr.number)
            .iter()
            .filter_map(|e| match &e.via {
                super::graph::Via::StartAfter { issue, named } if *named == e.to => {
                    Some(format!("#{} from issue #{issue}", e.to))
                }
                super::graph::Via::StartAfter { issue, named } => {
                    Some(format!("#{} (closing issue #{named}) from issue #{issue}", e.to))
                }
                _ => None,
            })
            .collect();
        let mut detail = format!("waiting on {}", numbers(&waits));
        if !inherited.is_empty() {
            detail.push_str(&format!(" (inherited Start-After: {})", inherited.join(", ")));
        }
        return note(why::WAITING_MERGE_AFTER, detail);
    }
    let req = crate::core::checks::required_contexts(&ctx.facts.required_checks, ctx.config);
    // 6. The version pull request: judged by its checks, never by mergeStateStatus (GitHub's
    // cached answer), because being wrong here releases a set the branch was built before.
    if d.is_version {
        let others: Vec<u64> = blockers.iter().copied().filter(|&n| n != pr.number).collect();
        if !others.is_empty() {
            return note(
                why::RELEASE_BLOCKED,
                format!(
                    "held for the release: {} labelled `{}` still open",
                    numbers(&others),
                    ctx.config.queue.labels.blocks_release
                ),
            );
        }
        match pr.built_on_base_tip {
            Some(false) => {
                return note(
                    why::VERSION_NOT_ON_TIP,
                    "its branch is not built on the current tip: the release workflow has not rebuilt it yet".into(),
                )
            }
            None => {
                return note(
                    why::VERSION_TIP_UNKNOWN,
                    "whether its branch is built on the current tip could not be read".into(),
                )
            }
            Some(true) => {}
        }
        if d.skip_ci {
            return Verdict {
                class: Class::Candidate,
                code: why::VERSION_READY,
                detail: "the version pull request, built on the tip".into(),
            };
        }
        let g = green(&pr.checks, &req);
        return match g.state {
            GreenState::Failed => Verdict {
                class: Class::Failing,
                code: why::CHECKS_FAILED,
                detail: format!("failed: {}", g.failed.join(", ")),
            },
            GreenState::Green => Verdict {
                class: Class::InFlight,
                code: why::MERGING,
                detail: "the version pull request, released and green".into(),
            },
            GreenState::Pending => Verdict {
                class: Class::InFlight,
                code: why::CHECKS_RUNNING,
                detail: "the version pull request, released; checks running".into(),
            },
        };
    }
    // 7. The rest.
    if d.skip_ci {
        return Verdict {
            class: Class::Candidate,
            code: why::PAUSED,
            detail: format!("paused under `{}`", ctx.config.queue.labels.skip_ci),
        };
    }
    match pr.merge_state_status.as_deref().unwrap_or("UNKNOWN") {
        "BEHIND" => Verdict {
            class: Class::Candidate,
            code: why::BEHIND,
            detail: "behind the base".into(),
        },
        // DIRTY is GitHub's cached answer to whether merging conflicts, not whether a rebase will:
        // never a reason to exclude, only to order last.
        "DIRTY" => Verdict {
            class: Class::Candidate,
            code: why::DIRTY,
            detail: "GitHub reports a conflict; the rebase decides".into(),
        },
        s if in_flight_state(s) => Verdict {
            class: Class::InFlight,
            code: why::MERGING,
            detail: format!("{s}: merging once its checks pass"),
        },
        "BLOCKED" => {
            let g = green(&pr.checks, &req);
            match g.state {
                GreenState::Failed => Verdict {
                    class: Class::Failing,
                    code: why::CHECKS_FAILED,
                    detail: format!("failed: {}", g.failed.join(", ")),
                },
                GreenState::Pending => {
                    let mut detail = "checks running".to_string();
                    if !g.round_before.is_empty() {
                        detail.push_str(&format!(
                            "; red from the round before waits: {}",
                            g.round_before.join(", ")
                        ));
                    }
                    Verdict {
                        class: Class::InFlight,
                        code: why::CHECKS_RUNNING,
                        detail,
                    }
                }
                // What holds a green one (a review the queue cannot read) outranks BEHIND in GitHub's
                // answer, so a base that moved shows only in git: behind, a candidate like any other.
                GreenState::Green if pr.built_on_base_tip == Some(false) => Verdict {
                    class: Class::Candidate,
                    code: why::BEHIND,
                    detail: "behind the base (git says so; GitHub reads BLOCKED)".into(),
                },
                GreenState::Green => Verdict {
                    class: Class::InFlight,
                    code: why::GREEN_BLOCKED,
                    detail: "green, and GitHub still reads BLOCKED".into(),
                },
            }
        }
        other => note(
            why::MERGE_STATE_UNKNOWN,
            format!("merge state {other}: GitHub is still computing it"),
        ),
    }
}

pub fn triage(ctx: &Ctx) -> Report {
    let l = &ctx.config.queue.labels;
    let blockers: Vec<u64> = ctx
        .facts
        .pull_requests
        .iter()
        .filter(|p| ctx.declared[&p.number].blocks_release)
        .map(|p| p.number)
        .collect();
    let mut entries = Vec::new();
    let mut candidates: Vec<OrderKey> = Vec::new();
    let mut flying: Vec<OrderKey> = Vec::new();
    for pr in &ctx.facts.pull_requests {
        let d = &ctx.declared[&pr.number];
        let owner = owner::queue_owner(ctx, pr);
        let mut v = decide(ctx, pr, d, &owner, &blockers);
        // 8. Its review, for every candidate and every in-flight one GitHub still calls BLOCKED.
        let mut review = None;
        let mut bypass_only = false;
        let blocked = pr.merge_state_status.as_deref() == Some("BLOCKED");
        if v.class == Class::Candidate || (v.class == Class::InFlight && blocked) {
            let r = review_hold(ctx.facts, pr);
            if r.held {
                v = Verdict {
                    class: Class::Held,
                    code: why::REVIEW_HELD,
                    detail: r.reasons.join("; "),
                };
            } else if r.bypass_only {
                bypass_only = true;
                v.detail.push_str(&format!("; {} (never armed)", r.reasons.join("; ")));
            }
            review = Some(r);
        }
        let demoted = ctx.settlement.demoted.iter().any(|x| x.number == pr.number);
        let key = OrderKey {
            number: pr.number,
            priority: d.priority,
            dirty: pr.merge_state_status.as_deref() == Some("DIRTY"),
            version: d.is_version,
            demoted,
        };
        match v.class {
            Class::Candidate => candidates.push(key),
            Class::InFlight => flying.push(key),
            _ => {}
        }
        let mut detail = v.detail;
        if d.priority_conflict && v.class != Class::Ignore {
            detail.push_str(&format!(
                "; both `{}` and `{}`: read as neither",
                l.priority_high, l.priority_low
            ));
        }
        for u in &d.unread {
            if v.class != Class::Ignore {
                detail.push_str(&format!("; {u}"));
            }
        }
        let waited = why::waiting_since(pr, &l.merge_queued);
        let waiting_hours = match (ctx.now, waited) {
            (Some(now), Some(since)) if d.in_queue() => Some((now - since).max(0) / 3600),
            _ => None,
        };
        let starved = d.merge_queued
            && v.class != Class::Ignore
            && waiting_hours.is_some_and(|h| h >= i64::from(ctx.config.queue.target_age_hours));
        let owner_kind = owner.as_ref().map(|o| o.owner);
        let mut waiting_on: Vec<u64> = ctx
            .graph
            .edges
            .get(&pr.number)
            .map(|e| e.iter().map(|e| e.to).collect())
            .unwrap_or_default();
        waiting_on.sort();
        entries.push(Entry {
            number: pr.number,
            title: pr.title.clone(),
            triage: v.class,
            reason: v.code.to_string(),
            detail,
            owner: owner_kind,
            owner_why: owner.as_ref().map(|o| o.why.clone()),
            next_actor: owner_kind
                .map(|o| o.as_str().to_string())
                .unwrap_or_else(|| "nobody".into()),
            next_action: why::next_action(v.code, owner_kind),
            place: None,
            waiting_on,
            declared: d.clone(),
            review,
            bypass_only,
            set_aside: owner::standing_set_aside(ctx, pr),
            claim: owner::holding_claim(ctx, pr),
            demoted,
            // The README's word: `merge-queued` without `skip-ci`. A draft so labelled is released
            // too: its checks run, and it counts against the one-at-a-time rule.
            released: d.merge_queued && !d.skip_ci,
            waiting_hours,
            starved,
        });
    }
    order::sort(&mut candidates);
    order::sort(&mut flying);
    for (i, k) in candidates.iter().enumerate() {
        if let Some(e) = entries.iter_mut().find(|e| e.number == k.number) {
            e.place = Some(i + 1);
        }
    }
    let bypass = |n: u64| entries.iter().any(|e| e.number == n && e.bypass_only);
    let next = if let Some(k) = flying.first() {
        Next {
            action: "watch".into(),
            number: Some(k.number),
            arm: !bypass(k.number),
        }
    } else if let Some(k) = candidates.first() {
        Next {
            action: "pick".into(),
            number: Some(k.number),
            arm: !bypass(k.number),
        }
    } else {
        Next {
            action: "idle".into(),
            number: None,
            arm: false,
        }
    };
    let keep_on_tip: Vec<u64> = if next.action == "idle" {
        entries
            .iter()
            .filter(|e| {
                let pr = ctx.by_number[&e.number];
                e.declared.paused_in_queue()
                    && !pr.is_draft
                    && !pr.is_fork
                    && pr.base_ref == ctx.default_branch
                    && !e.declared.is_version
                    && e.owner == Some(Owner::Worker)
                    && pr.built_on_base_tip == Some(false)
            })
            .map(|e| e.number)
            .collect()
    } else {
        Vec::new()
    };
    let next = if next.action == "idle" && !keep_on_tip.is_empty() {
        Next {
            action: "keepOnTip".into(),
            number: keep_on_tip.first().copied(),
            arm: false,
        }
    } else {
        next
    };
    let released: Vec<u64> = entries.iter().filter(|e| e.released).map(|e| e.number).collect();
    let mut warnings = Vec::new();
    if released.len() > 1 {
        warnings.push(format!(
            "{} are released at once: only one can merge before the base moves",
            numbers(&released)
        ));
    }
    if flying.len() > 1 {
        warnings.push(format!(
            "{} are in flight at once; watching #{}",
            numbers(&flying.iter().map(|k| k.number).collect::<Vec<_>>()),
            flying[0].number
        ));
    }
    for e in &entries {
        if e.owner == Some(Owner::None) {
            warnings.push(format!(
                "#{} has no owner: {}",
                e.number,
                e.owner_why.clone().unwrap_or_default()
            ));
        }
    }
    if ctx.facts.repo_unknown(crate::core::facts::RepoFact::Rules) {
        warnings.push("the default branch's rules could not be read: whether code-owner review and resolved conversations are required is unknown".into());
    }
    if ctx.facts.repo_unknown(crate::core::facts::RepoFact::TeamMembers) {
        warnings.push("the members of a team CODEOWNERS names could not be read: the paths it owns stay held".into());
    }
    for pr in ctx
        .facts
        .pull_requests
        .iter()
        .filter(|p| p.unknown(crate::core::facts::PullFact::BuiltOnBaseTip))
    {
        warnings.push(format!(
            "#{}: whether its branch is built on the current tip could not be read",
            pr.number
        ));
    }
    if !blockers.is_empty() {
        warnings.push(format!(
            "the release is held by {} (`{}`)",
            numbers(&blockers),
            l.blocks_release
        ));
    }
    Report {
        entries,
        order: candidates.iter().map(|k| k.number).collect(),
        in_flight: flying.iter().map(|k| k.number).collect(),
        next,
        cycles: ctx.graph.cycles.clone(),
        release_blockers: blockers,
        released,
        keep_on_tip,
        settlement: ctx.settlement.clone(),
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn warnings(unknown: serde_json::Value) -> Vec<String> {
        let facts = json!({ "repository": "me/here", "now": "2026-01-01T00:00:00Z", "unknown": unknown });
        let report = crate::Engine::preset()
            .call_value("triage", &json!({ "facts": facts }))
            .expect("triage");
        serde_json::from_value(report["warnings"].clone()).expect("warnings")
    }

    /// A Merge-After ring of `n`: each pull request waits for the next, the last for the first.
    fn ring(n: u64) -> serde_json::Value {
        let pulls: Vec<_> = (1..=n)
            .map(|i| json!({ "number": i, "title": "t", "author": "dev", "baseRef": "main", "headRef": format!("b{i}"), "headSha": "h", "labels": ["merge-queued"], "body": format!("Merge-After: #{}", i % n + 1) }))
            .collect();
        json!({ "repository": "me/here", "now": "2026-01-01T00:00:00Z", "defaultBranch": "main", "pullRequests": pulls })
    }

    #[test]
    fn a_ring_of_two_thousand_is_named_once_and_each_reason_stays_short() {
        let report = crate::Engine::preset()
            .call_value("triage", &json!({ "facts": ring(2_000) }))
            .expect("triage");
        let cycles: Vec<Vec<u64>> = serde_json::from_value(report["cycles"].clone()).expect("cycles");
        assert_eq!(cycles, vec![(1..=2_000).collect::<Vec<u64>>()]);
        let entries = report["entries"].as_array().expect("entries");
        let detail = |n: u64| {
            entries
                .iter()
                .find(|e| e["number"] == n)
                .and_then(|e| e["detail"].as_str())
                .expect("detail")
                .to_string()
        };
        assert_eq!(detail(1), "caught in the cycle #1, #2, #3 and 1,997 more: left alone");
        assert_eq!(
            detail(1_500),
            "caught in the cycle #1, #2, #3, #1500 and 1,996 more: left alone"
        );
        // Linear: the whole ring in every reason (detail and ownerWhy) was 2,000 × ~28,000 bytes.
        let text: usize = entries.iter().map(|e| e.to_string().len()).sum();
        assert!(text < 2_000 * 2_000, "reasons of a ring of 2,000 take {text} bytes");
    }

    #[test]
    fn a_failed_rules_read_is_listed_unknown_not_read_as_not_required() {
        assert!(warnings(json!(["rules"]))
            .iter()
            .any(|w| w.contains("rules could not be read")));
        assert!(!warnings(json!([]))
            .iter()
            .any(|w| w.contains("rules could not be read")));
    }
}
