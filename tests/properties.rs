//! The reconciler's invariants over generated facts (proptest): whatever the board looks like, the plan
//! converges in one application, leaves exactly one state label, never says needs-human over a tree a
//! human could not merge, never removes a label on a fact it could not read, and does not depend on the
//! order GitHub happened to list reviews, checks, comments or timeline events in.
#![cfg(not(target_arch = "wasm32"))]

#[path = "fixtures/apply.rs"]
mod apply;

use prflow::core::checks::{check_rollup, Rollup};
use prflow::core::config::{BotPanel, Config, Stale};
use prflow::core::facts::{Check, Comment, Facts, Mergeable, PullFact, PullRequest, RepoFact, Review, TimelineEvent};
use prflow::core::plan::{Op, Plan};
use prflow::reconcile;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config as RunnerConfig, FileFailurePersistence};
use std::collections::BTreeMap;

const NOW: &str = "2026-07-21T12:00:00Z";
const VIEWER: &str = "prflow-bot";
const BOTS: [&str; 3] = ["claude-bot", "codex-bot", "gemini-bot"];
const HEAD: &str = "head0000";
/// Few distinct times, so that ties (same second) are generated often.
const TIMES: [&str; 6] = [
    "2026-05-30T08:00:00Z",
    "2026-07-01T08:00:00Z",
    "2026-07-10T08:00:00Z",
    "2026-07-20T08:00:00Z",
    "2026-07-21T09:00:00Z",
    "2026-07-21T11:00:00Z",
];
const SCOPE_LABELS: [&str; 2] = ["scope:docs", "scope:engine"];

fn all_labels(config: &Config) -> Vec<String> {
    let mut all: Vec<String> = config.labels.named().iter().map(|(_, n)| n.to_string()).collect();
    all.extend(SCOPE_LABELS.iter().map(|s| s.to_string()));
    all
}

/// The elements of `pool` a mask picks, each with probability `p`.
fn subset(pool: &'static [&'static str], p: f64) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(prop::bool::weighted(p), pool.len()).prop_map(move |mask| {
        pool.iter()
            .zip(mask)
            .filter(|(_, on)| *on)
            .map(|(s, _)| s.to_string())
            .collect()
    })
}

fn config() -> impl Strategy<Value = Config> {
    (
        prop::collection::vec(select(&["maintainer", "release-manager", "agent-box"][..]), 0..3),
        any::<bool>(),
        select(&[0u32, 3, 14][..]),
        any::<bool>(),
    )
        .prop_map(|(mut humans, request, days, sync)| {
            humans.dedup();
            let humans: Vec<String> = humans.into_iter().map(String::from).collect();
            let mut scopes = std::collections::BTreeMap::default();
            scopes.insert(
                "scope:docs".to_string(),
                vec!["docs/**".to_string(), "**/*.md".to_string()],
            );
            scopes.insert("scope:engine".to_string(), vec!["src/**".to_string()]);
            Config {
                bot_panel: BotPanel {
                    bots: BOTS.iter().map(|b| b.to_string()).collect(),
                    humans,
                    request_humans_when_approved: request,
                },
                stale: Stale { days },
                scopes,
                scope_sync: sync,
                ..Config::default()
            }
        })
}

fn review() -> impl Strategy<Value = Review> {
    (
        select(
            &[
                "claude-bot",
                "codex-bot",
                "gemini-bot",
                "Codex-Bot",
                "maintainer",
                "release-manager",
                "copilot",
                VIEWER,
            ][..],
        ),
        select(
            &[
                "APPROVED",
                "APPROVED",
                "COMMENTED",
                "CHANGES_REQUESTED",
                "DISMISSED",
                "PENDING",
            ][..],
        ),
        select(&[HEAD, HEAD, "old11111", "old22222"][..]),
        select(&TIMES[..]),
    )
        .prop_map(|(author, state, commit, at)| Review {
            author: author.into(),
            state: state.into(),
            commit: commit.into(),
            submitted_at: at.into(),
            body: String::new(),
            author_association: "MEMBER".into(),
        })
}

fn check() -> impl Strategy<Value = Check> {
    (
        select(&["test", "lint", "build"][..]),
        select(&[Some("ci"), Some("ci"), Some("nightly"), None][..]),
        select(
            &[
                "COMPLETED",
                "COMPLETED",
                "COMPLETED",
                "QUEUED",
                "IN_PROGRESS",
                "SUCCESS",
                "FAILURE",
                "PENDING",
            ][..],
        ),
        select(
            &[
                Some("SUCCESS"),
                Some("SUCCESS"),
                Some("FAILURE"),
                Some("CANCELLED"),
                Some("NEUTRAL"),
                Some("SKIPPED"),
                Some("TIMED_OUT"),
                None,
            ][..],
        ),
        prop::option::of(select(&TIMES[..])),
        prop::option::of(1u64..6),
    )
        .prop_map(|(name, workflow, status, conclusion, started, id)| Check {
            name: name.into(),
            workflow: workflow.map(Into::into),
            status: status.into(),
            conclusion: conclusion.map(Into::into),
            started_at: started.map(Into::into),
            completed_at: None,
            id,
            run_id: None,
            url: None,
        })
}

fn comment() -> impl Strategy<Value = Comment> {
    (select(&["agent-box", "maintainer", VIEWER][..]), select(&TIMES[..])).prop_map(|(author, at)| Comment {
        id: None,
        author: author.into(),
        body: "a comment".into(),
        created_at: at.into(),
        author_association: "MEMBER".into(),
    })
}

fn event() -> impl Strategy<Value = TimelineEvent> {
    (
        select(
            &[
                "committed",
                "labeled",
                "unlabeled",
                "commented",
                "review_requested",
                "head_ref_force_pushed",
                "ready_for_review",
            ][..],
        ),
        select(&TIMES[..]),
        select(&[Some("agent-box"), Some(VIEWER), Some("maintainer"), None][..]),
    )
        .prop_map(|(kind, at, actor)| TimelineEvent {
            kind: kind.into(),
            at: at.into(),
            actor: actor.map(Into::into),
            label: None,
        })
}

const PR_LABELS: [&str; 13] = [
    "state:draft",
    "state:bots-reviewing",
    "state:addressing",
    "state:needs-human",
    "blocker:conflict",
    "blocker:checks",
    "blocker:unrequested",
    "merge-next",
    "stale",
    "scope:docs",
    "scope:engine",
    "bug",
    "state:needs-rebase",
];
const REQUESTABLE: [&str; 5] = ["claude-bot", "codex-bot", "gemini-bot", "maintainer", "release-manager"];
const FILES: [&str; 4] = ["src/lib.rs", "docs/flows.md", "README.md", "action/main.js"];
const PULL_FACTS: [PullFact; 7] = [
    PullFact::Labels,
    PullFact::Reviews,
    PullFact::ReviewRequests,
    PullFact::Checks,
    PullFact::Files,
    PullFact::Comments,
    PullFact::Timeline,
];

fn pull_request() -> impl Strategy<Value = PullRequest> {
    let shape = (
        prop::bool::weighted(0.15),
        select(
            &[
                Mergeable::Mergeable,
                Mergeable::Mergeable,
                Mergeable::Conflicting,
                Mergeable::Unknown,
            ][..],
        ),
        select(&["agent-box", "agent-rig", "maintainer"][..]),
        select(&TIMES[..4]),
        subset(&PR_LABELS, 0.2),
        subset(&REQUESTABLE, 0.25),
        subset(&FILES, 0.3),
        prop::collection::vec(prop::bool::weighted(0.08), PULL_FACTS.len()),
    );
    // Common shapes on purpose, so that needs-human and the human request are generated often, not only
    // by luck: the three bots approved the head, only commented on it, or two approved and one commented.
    let round_shape = select(&["none", "none", "approved", "approved", "commented", "two-and-a-comment"][..]);
    let history = (
        prop::collection::vec(review(), 0..7),
        prop::collection::vec(check(), 0..6),
        prop::collection::vec(comment(), 0..3),
        prop::collection::vec(event(), 0..4),
    );
    (shape, round_shape, history).prop_map(
        |(
            (draft, mergeable, author, created, labels, requests, files, unknown),
            round,
            (mut reviews, checks, comments, timeline),
        )| {
            for (i, bot) in BOTS.iter().enumerate() {
                let state = match (round, i) {
                    ("approved", _) | ("two-and-a-comment", 0 | 1) => "APPROVED",
                    ("commented", _) | ("two-and-a-comment", _) => "COMMENTED",
                    _ => continue,
                };
                reviews.push(Review {
                    author: bot.to_string(),
                    state: state.into(),
                    commit: HEAD.into(),
                    submitted_at: TIMES[5].into(),
                    body: String::new(),
                    author_association: "MEMBER".into(),
                });
            }
            PullRequest {
                number: 0,
                title: "generated".into(),
                author: author.into(),
                is_draft: draft,
                created_at: created.into(),
                head_sha: HEAD.into(),
                mergeable,
                labels,
                reviews,
                review_requests: requests,
                checks,
                files,
                comments,
                timeline,
                unknown: PULL_FACTS
                    .iter()
                    .zip(unknown)
                    .filter(|(_, on)| *on)
                    .map(|(f, _)| *f)
                    .collect(),
                ..PullRequest::default()
            }
        },
    )
}

fn facts() -> impl Strategy<Value = Facts> {
    (
        prop::collection::vec(pull_request(), 1..4),
        select(&["all", "all", "some", "unknown"][..]),
        subset(&["test", "build"], 0.2),
        any::<u64>(),
    )
        .prop_map(|(mut pulls, repo_labels, required, seed)| {
            for (i, pr) in pulls.iter_mut().enumerate() {
                pr.number = 100 + i as u64;
            }
            let mut all = all_labels(&Config::default());
            let mut unknown = Vec::new();
            match repo_labels {
                "all" => {}
                "some" => all.retain(|l| (seed >> (l.len() % 17)) & 1 == 1),
                _ => {
                    all.clear();
                    unknown.push(RepoFact::Labels);
                }
            }
            Facts {
                repository: "acme/widgets".into(),
                now: NOW.into(),
                viewer: Some(VIEWER.into()),
                labels: all,
                required_checks: required,
                unknown,
                pull_requests: pulls,
                ..Facts::default()
            }
        })
}

/// A deterministic permutation from a seed (Fisher-Yates over a small LCG).
fn shuffle<T>(items: &mut [T], seed: &mut u64) {
    for i in (1..items.len()).rev() {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let j = (*seed >> 33) as usize % (i + 1);
        items.swap(i, j);
    }
}

fn edits(plan: &Plan, number: u64) -> (Vec<String>, Vec<String>) {
    let mut add = Vec::new();
    let mut remove = Vec::new();
    for op in &plan.ops {
        if let Op::EditLabels {
            number: n,
            add: a,
            remove: r,
            ..
        } = op
        {
            if *n == number {
                add.extend(a.iter().map(|c| c.label.clone()));
                remove.extend(r.iter().map(|c| c.label.clone()));
            }
        }
    }
    (add, remove)
}

fn on_head<'a>(pr: &'a PullRequest, bot: &'a str) -> impl Iterator<Item = &'a Review> + 'a {
    pr.reviews
        .iter()
        .filter(move |r| r.author.eq_ignore_ascii_case(bot) && r.commit == pr.head_sha)
}

/// Every panel bot reviewed the head (an approval or a comment on it), and none has a
/// CHANGES_REQUESTED on the head that a strictly later approval did not replace.
fn round_complete_on_head(pr: &PullRequest) -> bool {
    BOTS.iter().all(|bot| bot_done_on_head(pr, bot))
}

/// One bot reviewed the head, with no unanswered CHANGES_REQUESTED there.
fn bot_done_on_head(pr: &PullRequest, bot: &str) -> bool {
    {
        let reviewed = on_head(pr, bot).any(|r| r.state == "APPROVED" || r.state == "COMMENTED");
        let unanswered_changes = on_head(pr, bot).filter(|r| r.state == "CHANGES_REQUESTED").any(|cr| {
            !on_head(pr, bot).any(|a| {
                a.state == "APPROVED"
                    && prflow::core::time::parse_rfc3339(&a.submitted_at)
                        > prflow::core::time::parse_rfc3339(&cr.submitted_at)
            })
        });
        reviewed && !unanswered_changes
    }
}

/// Every panel bot's newest formal verdict on the head is an approval (COMMENTED never counts).
fn all_formally_approved(pr: &PullRequest) -> bool {
    BOTS.iter().all(|bot| {
        let approvals: Vec<&Review> = on_head(pr, bot).filter(|r| r.state == "APPROVED").collect();
        !approvals.is_empty()
            && on_head(pr, bot).filter(|r| r.state == "CHANGES_REQUESTED").all(|cr| {
                approvals.iter().any(|a| {
                    prflow::core::time::parse_rfc3339(&a.submitted_at)
                        > prflow::core::time::parse_rfc3339(&cr.submitted_at)
                })
            })
    })
}

fn check_invariants(facts: &Facts, config: &Config, shuffle_seed: u64) -> Result<(), TestCaseError> {
    let plan = reconcile(facts, config);
    let l = &config.labels;
    let states = l.states();

    // (a) Applying the plan and reconciling again leaves nothing to do.
    let mut applied = facts.clone();
    apply::apply(&mut applied, &plan);
    let again = reconcile(&applied, config);
    prop_assert!(
        again.ops.is_empty(),
        "not idempotent: after applying {:?}\nreconciling again wants {:?}",
        plan.ops,
        again.ops
    );

    let mut required = facts.required_checks.clone();
    required.extend(config.required_checks.iter().cloned());
    let repo_admits_states =
        facts.repo_unknown(RepoFact::Labels) || states.iter().all(|s| facts.labels.iter().any(|l| l == s));

    for pr in &facts.pull_requests {
        let after = applied.pull_requests.iter().find(|p| p.number == pr.number).unwrap();
        let verdict = plan.pulls.iter().find(|v| v.number == pr.number).unwrap();
        let (add, remove) = edits(&plan, pr.number);
        let known = |f: PullFact| !pr.unknown(f);

        // (b) Exactly one state label once applied, when everything the state depends on was read.
        // UNKNOWN mergeability that the state depends on leaves it undecided (issue 15): then the
        // labels stay as they were, however many that is.
        let decidable = pr.mergeable != Mergeable::Unknown || verdict.state.is_some();
        if known(PullFact::Labels)
            && known(PullFact::Reviews)
            && known(PullFact::ReviewRequests)
            && known(PullFact::Checks)
            && repo_admits_states
            && decidable
        {
            let n = after.labels.iter().filter(|x| states.contains(&x.as_str())).count();
            prop_assert_eq!(
                n,
                1,
                "PR {} has {} state labels after applying: {:?}",
                pr.number,
                n,
                after.labels
            );
        }

        // (c) needs-human only when a human could merge it right now.
        if verdict.state.as_deref() == Some(l.needs_human.as_str()) {
            prop_assert!(!pr.is_draft, "needs-human on a draft");
            prop_assert!(pr.mergeable != Mergeable::Conflicting, "needs-human over a conflict");
            prop_assert!(known(PullFact::Checks), "needs-human decided on unreadable checks");
            prop_assert!(
                check_rollup(&pr.checks, &required).state != Rollup::Failing,
                "needs-human over a failing check"
            );
            // The round is complete on the head, or a person asked early over bots that have not
            // reviewed at all (missing, not stale: issue 15 corrected issue 2's invariant).
            let asked_early = config.bot_panel.humans.iter().any(|h| {
                !h.eq_ignore_ascii_case(&pr.author) && pr.review_requests.iter().any(|r| r.eq_ignore_ascii_case(h))
            }) && BOTS.iter().all(|b| {
                bot_done_on_head(pr, b)
                    || !pr.reviews.iter().any(|r| {
                        r.author.eq_ignore_ascii_case(b)
                            && matches!(r.state.as_str(), "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED")
                    })
            });
            prop_assert!(
                round_complete_on_head(pr) || asked_early,
                "needs-human without a complete round on the head: {:?}",
                pr.reviews
            );
            prop_assert!(
                !BOTS
                    .iter()
                    .any(|b| pr.review_requests.iter().any(|r| r.eq_ignore_ascii_case(b))),
                "needs-human while a bot is still asked"
            );
        }
        // The human request only when every bot formally approved the head.
        for op in plan.ops.iter().filter(|op| op.number() == pr.number) {
            if let Op::RequestReviewers { reviewers, .. } = op {
                prop_assert!(
                    all_formally_approved(pr),
                    "humans {:?} requested without three formal approvals on the head: {:?}",
                    reviewers,
                    pr.reviews
                );
                prop_assert!(
                    !reviewers.iter().any(|h| h.eq_ignore_ascii_case(&pr.author)),
                    "the author was requested"
                );
                prop_assert_eq!(verdict.state.as_deref(), Some(l.needs_human.as_str()));
            }
        }

        // (d) A fact that could not be read never causes a removal of a label that depends on it.
        if !known(PullFact::Labels) {
            prop_assert!(
                add.is_empty() && remove.is_empty(),
                "labels unknown, yet edited: +{:?} -{:?}",
                add,
                remove
            );
        }
        if !known(PullFact::Checks) {
            prop_assert!(
                !remove.contains(&l.blocker_checks),
                "checks unknown, yet blocker:checks removed"
            );
        }
        if (!known(PullFact::Reviews) || !known(PullFact::ReviewRequests)) && !pr.is_draft {
            for s in states
                .iter()
                .chain([&l.merge_next.as_str(), &l.blocker_unrequested.as_str()])
            {
                prop_assert!(!remove.iter().any(|r| r == s), "reviews unknown, yet {} removed", s);
            }
            prop_assert!(
                plan.ops
                    .iter()
                    .all(|op| op.number() != pr.number || matches!(op, Op::EditLabels { .. })),
                "reviews unknown, yet a review request"
            );
        }
        if pr.mergeable == Mergeable::Unknown {
            prop_assert!(
                !remove.contains(&l.blocker_conflict),
                "mergeability UNKNOWN, yet blocker:conflict removed"
            );
            prop_assert!(
                !add.contains(&l.blocker_conflict),
                "mergeability UNKNOWN, yet blocker:conflict added"
            );
        }
        if !known(PullFact::Files) {
            prop_assert!(
                !add.iter().chain(&remove).any(|x| x.starts_with("scope:")),
                "files unknown, yet a scope label edited"
            );
        }
        if !known(PullFact::Timeline) || !known(PullFact::Comments) || !known(PullFact::Reviews) {
            prop_assert!(
                !add.contains(&l.stale) && !remove.contains(&l.stale),
                "activity unknown, yet stale edited"
            );
        }
    }
    if facts.repo_unknown(RepoFact::Labels) {
        prop_assert!(
            !plan.warnings.iter().any(|w| w.message.contains("does not exist")),
            "repository labels unknown, yet an addition was filtered"
        );
    }

    // (e) The order GitHub lists things in changes nothing.
    let mut shuffled = facts.clone();
    let mut seed = shuffle_seed;
    shuffle(&mut shuffled.pull_requests, &mut seed);
    shuffle(&mut shuffled.labels, &mut seed);
    for pr in &mut shuffled.pull_requests {
        shuffle(&mut pr.reviews, &mut seed);
        shuffle(&mut pr.checks, &mut seed);
        shuffle(&mut pr.timeline, &mut seed);
        shuffle(&mut pr.comments, &mut seed);
        shuffle(&mut pr.labels, &mut seed);
        shuffle(&mut pr.files, &mut seed);
    }
    prop_assert_eq!(
        reconcile(&shuffled, config),
        plan,
        "shuffling reviews, checks, comments and timeline events changed the plan"
    );
    Ok(())
}

proptest! {
    #![proptest_config(RunnerConfig {
        // A failing input is printed, shrunk; it is not written into the source tree.
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..RunnerConfig::with_cases(10_000)
    })]

    /// All five invariants, over 10,000 generated boards a run.
    #[test]
    fn reconcile_invariants(facts in facts(), config in config(), shuffle_seed in any::<u64>()) {
        check_invariants(&facts, &config, shuffle_seed)?;
    }
}

/// The generator is worth its cases only if it reaches the interesting states: checked over a fixed sample.
#[test]
fn the_generator_reaches_every_state_and_the_human_request() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        RunnerConfig::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let strategy = (facts(), config());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for _ in 0..2_000 {
        let (facts, config) = strategy.new_tree(&mut runner).unwrap().current();
        let plan = reconcile(&facts, &config);
        for v in &plan.pulls {
            *seen
                .entry(v.state.clone().unwrap_or_else(|| "undecided".into()))
                .or_default() += 1;
            for b in &v.blockers {
                *seen.entry(b.clone()).or_default() += 1;
            }
        }
        for op in &plan.ops {
            if let Op::RequestReviewers { .. } = op {
                *seen.entry("requestReviewers".into()).or_default() += 1;
            }
        }
    }
    for want in [
        "state:draft",
        "state:bots-reviewing",
        "state:addressing",
        "state:needs-human",
        "undecided",
        "blocker:conflict",
        "blocker:checks",
        "blocker:unrequested",
        "requestReviewers",
    ] {
        assert!(
            seen.get(want).copied().unwrap_or(0) >= 10,
            "the generator rarely reaches {want}: {seen:?}"
        );
    }
}
