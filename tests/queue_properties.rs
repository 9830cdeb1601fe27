//! Properties of the merge queue's decisions over random queues (native only): the pick order is a
//! total order; no pull request in a cycle is ever a candidate; every queued pull request has
//! exactly one owner, the same one whichever command asks; at most one released pull request is
//! ever chosen, and of several released at once exactly one keeps its release.
#![cfg(not(target_arch = "wasm32"))]

use prflow::core::facts::{Check, Comment, Facts, PullRequest};
use prflow::flows::queue::declare::Priority;
use prflow::flows::queue::order::{yields_to, OrderKey, Released};
use prflow::flows::queue::triage::Class;
use prflow::Config;
use proptest::prelude::*;
use std::cmp::Ordering;

const LABELS: [&str; 7] = [
    "merge-queued",
    "skip-ci",
    "auto-rebase",
    "blocks-release",
    "priority:high",
    "priority:low",
    "merge-queued",
];
const STATES: [&str; 8] = [
    "BEHIND",
    "DIRTY",
    "CLEAN",
    "UNSTABLE",
    "HAS_HOOKS",
    "BLOCKED",
    "UNKNOWN",
    "BLOCKED",
];
const REASONS: [&str; 4] = ["rebase-failed", "checks-failed", "not-merging", "gremlins"];

/// One generated pull request: (labels, state, Merge-After targets, base, draft, marker, check, kind).
type PullSpec = (u8, u8, Vec<u8>, u8, bool, u8, u8, u8);

fn pull() -> impl Strategy<Value = PullSpec> {
    (
        any::<u8>(),
        0u8..8,
        proptest::collection::vec(0u8..12, 0..3),
        0u8..12,
        any::<bool>(),
        0u8..6,
        0u8..4,
        0u8..3,
    )
}

fn facts_from(spec: Vec<PullSpec>) -> Facts {
    let n = spec.len() as u64;
    let mut prs = Vec::new();
    for (i, (labels, state, after, base, draft, marker, check, kind)) in spec.into_iter().enumerate() {
        let number = i as u64 + 1;
        let mut pr = PullRequest {
            number,
            author: "dev".into(),
            head_sha: format!("h{number}"),
            head_ref: format!("b{number}"),
            base_ref: "main".into(),
            ..Default::default()
        };
        pr.labels = LABELS
            .iter()
            .enumerate()
            .filter(|(k, _)| labels & (1 << k) != 0)
            .map(|(_, l)| l.to_string())
            .collect();
        pr.merge_state_status = Some(STATES[state as usize].into());
        pr.body = after
            .iter()
            .map(|a| format!("Merge-After: #{}\n", u64::from(*a) % n + 1))
            .collect();
        if base < 3 && n > 1 {
            pr.base_ref = format!("b{}", u64::from(base) % n + 1);
        }
        pr.is_draft = draft && labels % 5 == 0;
        match kind {
            1 if i == 0 => pr.head_ref = "changeset-release/main".into(),
            2 => pr.is_fork = true,
            _ => {}
        }
        pr.built_on_base_tip = Some(labels % 3 != 0);
        pr.unresolved_threads = Some(0);
        pr.checks = match check {
            0 => vec![],
            1 => vec![Check {
                name: "ci-ok".into(),
                status: "COMPLETED".into(),
                conclusion: Some("FAILURE".into()),
                ..Default::default()
            }],
            2 => vec![Check {
                name: "ci-ok".into(),
                status: "IN_PROGRESS".into(),
                ..Default::default()
            }],
            _ => vec![Check {
                name: "ci-ok".into(),
                status: "COMPLETED".into(),
                conclusion: Some("SUCCESS".into()),
                ..Default::default()
            }],
        };
        let head = pr.head_sha.clone();
        match marker {
            1..=4 => pr.comments.push(Comment {
                id: Some(number),
                author: "bot".into(),
                body: format!(
                    "<!-- prflow:set-aside reason={} head={head} base=t -->\n- [ ] Retry",
                    REASONS[(marker - 1) as usize]
                ),
                ..Default::default()
            }),
            5 => pr.comments.push(Comment {
                id: Some(number),
                author: "bot".into(),
                body: format!("<!-- prflow:claim head={head} by=f at=2026-11-30T11:00:00Z -->"),
                ..Default::default()
            }),
            _ => {}
        }
        prs.push(pr);
    }
    Facts {
        now: "2026-11-30T12:00:00Z".into(),
        viewer: Some("bot".into()),
        default_branch: Some("main".into()),
        base_tip_sha: Some("t".into()),
        required_checks: vec!["ci-ok".into()],
        pull_requests: prs,
        ..Default::default()
    }
}

fn key() -> impl Strategy<Value = OrderKey> {
    (0u64..40, 0u8..3, any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(number, p, dirty, version, demoted)| {
        OrderKey {
            number,
            priority: [Priority::High, Priority::Normal, Priority::Low][p as usize],
            dirty,
            version,
            demoted,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_order_is_a_total_order(a in key(), b in key(), c in key()) {
        // Antisymmetric, and equal only for the same pull request (the number breaks every tie).
        prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
        if a.number != b.number {
            prop_assert_ne!(a.cmp(&b), Ordering::Equal);
        }
        prop_assert_eq!(a.cmp(&a), Ordering::Equal);
        // Transitive.
        if a <= b && b <= c {
            prop_assert!(a <= c);
        }
    }

    #[test]
    fn decisions_over_random_queues(spec in proptest::collection::vec(pull(), 1..14)) {
        let facts = facts_from(spec);
        let config = Config::default();
        let report = prflow::flows::queue::triage(&facts, &config);
        let ctx = prflow::flows::queue::Ctx::new(&facts, &config);
        for e in &report.entries {
            // No pull request in a cycle is ever a candidate (or picked, or watched).
            if report.cycles.iter().any(|c| c.contains(&e.number)) {
                prop_assert!(!matches!(e.triage, Class::Candidate | Class::InFlight), "#{} in a cycle is {:?}", e.number, e.triage);
            }
            // Exactly one owner for every queued pull request, the same from the one function.
            let pr = facts.pull_requests.iter().find(|p| p.number == e.number).unwrap();
            let owner = prflow::flows::queue::owner::queue_owner(&ctx, pr);
            prop_assert_eq!(owner.as_ref().map(|o| o.owner), e.owner);
            prop_assert_eq!(e.declared.in_queue(), e.owner.is_some(), "#{} queued={} owner={:?}", e.number, e.declared.in_queue(), e.owner);
            // A candidate or one in flight is always the worker's.
            if matches!(e.triage, Class::Candidate | Class::InFlight) {
                prop_assert_eq!(e.owner, Some(prflow::flows::queue::owner::Owner::Worker));
            }
        }
        // At most one is chosen, and nothing is picked while one is in flight.
        match report.next.action.as_str() {
            "watch" => prop_assert_eq!(report.next.number, report.in_flight.first().copied()),
            "pick" => {
                prop_assert!(report.in_flight.is_empty());
                prop_assert_eq!(report.next.number, report.order.first().copied());
            }
            _ => prop_assert!(report.in_flight.is_empty() && report.order.is_empty()),
        }
        // The order lists every candidate once.
        let candidates = report.entries.iter().filter(|e| e.triage == Class::Candidate).count();
        prop_assert_eq!(candidates, report.order.len());
    }

    #[test]
    fn of_several_released_at_once_exactly_one_keeps_its_release(keys in proptest::collection::vec(key(), 1..8)) {
        let mut keys = keys;
        keys.sort_by_key(|k| k.number);
        keys.dedup_by_key(|k| k.number);
        let released: Vec<Released> = keys.iter().map(|&key| Released { key, worker_owned: true, released_at_survey: false }).collect();
        let keeping: Vec<u64> = keys.iter().filter(|k| yields_to(**k, &released).is_none()).map(|k| k.number).collect();
        prop_assert_eq!(keeping.len(), 1, "keeping {:?} of {:?}", keeping, keys);
        prop_assert_eq!(Some(keeping[0]), keys.iter().min().map(|k| k.number));
    }
}
