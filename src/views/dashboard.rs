//! `dashboard(facts, config)`: what the dashboard page draws, one row per open pull request, composed
//! from the engine's own readings (reconcile's state and why, the follow-up sweep's time in state,
//! owner and claimers, the merge queue's triage), so the page derives nothing and cannot drift from
//! what the Action and the sweep decide. It also answers who acts next on each one (the page groups
//! by it), the failed checks to link, the set-aside and claim records, the state's stays replayed from
//! the timeline, and the dependency graph laid out in layers: the page draws, it never derives.

use crate::core::config::{Config, ConfigError};
use crate::core::facts::Facts;
use crate::core::plan::Warning;
use crate::flows::followup::sweep_rows;
use crate::flows::queue::owner::{Claim, Owner};
use crate::flows::queue::triage::{Class, Next};
use crate::views::reconcile::{parse_facts_str, reconcile, FactsError, VERSION};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Everything the page shows. With config errors, only `configErrors` is filled (the page then shows
/// them and asks again with the preset).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardView {
    pub engine: String,
    pub config_errors: Vec<ConfigError>,
    /// One per open pull request, by number.
    pub rows: Vec<DashboardRow>,
    /// The merge queue: candidates in pick order, what is in flight, and what the worker does next.
    pub queue: QueueView,
    /// Development machines should open no new pull request (the sweep's stop-the-line), and why.
    pub stop_the_line: bool,
    pub stop_reasons: Vec<String>,
    /// Reconcile's and the sweep's warnings, then the queue's (without a number).
    pub warnings: Vec<Warning>,
    /// The snapshot's time (GitHub's clock as the reader saw it), which every duration is measured to.
    pub now: String,
    /// The account the facts were read as: who "you" is.
    pub viewer: Option<String>,
    /// The rows grouped by who acts next, in the order the page shows them; every row is in one group.
    pub groups: Vec<Group>,
    /// Every actor in that order, with its heading, empty groups included: how a page showing several
    /// repositories merges their groups.
    pub actors: Vec<ActorHeading>,
    /// The queue's dependency graph (Merge-After, stacks, inherited Start-After), laid out in layers.
    pub graph: DepGraph,
    /// Colour (hex, no `#`) of every label the config names, as `prflow labels` creates them.
    pub label_colors: std::collections::BTreeMap<String, String>,
    /// What a board's reader must still fetch, as `queueReads` answers on the same facts: the reader
    /// reads them and asks again, and draws the first answer that names none (one whole-board call a
    /// round instead of `queueReads` then `dashboard`). Empty under config errors.
    pub reads: crate::flows::queue::reads::Reads,
}

/// Who moves a pull request next.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Actor {
    /// Not an actor but the first group: rows that waited past a stop-the-line level, whoever acts
    /// next on them (their row's `actor` still says who).
    StopTheLine,
    /// The account the page reads as: a review asked of it, its own pull request back with it, or a
    /// person's turn when it is one of the humans who merge.
    You,
    /// Reviewers: the panel bots or a review station.
    Reviewers,
    /// The author's agents (or the queue's fixer).
    Agents,
    /// The merge-queue worker.
    Queue,
    /// A person: merge, run the gate, retarget, break a cycle.
    Person,
    /// No rule covers it, or its state could not be decided: a bug or an unread fact.
    #[default]
    Nobody,
}

impl Actor {
    /// The page's order, most urgent first: what stops the line, then what a person does (the reader,
    /// then anyone), then the machines' turns, then what no rule covers.
    pub const ALL: [Actor; 7] = [
        Actor::StopTheLine,
        Actor::You,
        Actor::Person,
        Actor::Reviewers,
        Actor::Agents,
        Actor::Queue,
        Actor::Nobody,
    ];

    pub fn heading(self) -> &'static str {
        match self {
            Actor::StopTheLine => "Stop the line: waited past its limit",
            Actor::You => "You",
            Actor::Reviewers => "Reviewers",
            Actor::Agents => "Agents",
            Actor::Queue => "The merge queue",
            Actor::Person => "A person",
            Actor::Nobody => "Nobody (a bug, or facts that could not be read)",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActorHeading {
    pub actor: Actor,
    pub heading: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    pub actor: Actor,
    pub heading: String,
    /// Longest in its state first, then by number.
    pub numbers: Vec<u64>,
}

/// A failed check's newest run, with the ids a link to it needs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailedCheck {
    pub name: String,
    pub workflow: Option<String>,
    /// The check run's id (`/runs/ID` on the web), none for a commit status.
    pub id: Option<u64>,
    pub run_id: Option<u64>,
}

/// The checks on the head, by outcome of each context's newest run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChecksCell {
    pub failed: Vec<FailedCheck>,
    pub pending: Vec<String>,
    pub passed: usize,
}

/// The queue's set-aside standing at this head, and the comment holding its Retry box.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetAsideCell {
    pub reason: String,
    pub sentence: String,
    pub head: String,
    pub comment_id: Option<u64>,
}

/// One stay in a state label, replayed from the timeline; `to` none while it lasts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Stay {
    pub label: String,
    pub from: String,
    pub to: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DepGraph {
    /// Pull requests with an edge in or out; `layer` 0 waits for nobody, each other layer waits for
    /// one below it; `slot` orders a layer. Edges inside a cycle are not followed; its members are marked.
    pub nodes: Vec<DepNode>,
    pub edges: Vec<DepEdge>,
    pub cycles: Vec<Vec<u64>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DepNode {
    pub number: u64,
    pub title: String,
    pub layer: usize,
    pub slot: usize,
    pub in_cycle: bool,
}

/// `from` waits for `to`: `via` is `mergeAfter`, `stack` or `startAfter` (with the issue it came through).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DepEdge {
    pub from: u64,
    pub to: u64,
    pub via: String,
    pub issue: Option<u64>,
    pub in_cycle: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueView {
    pub order: Vec<u64>,
    pub in_flight: Vec<u64>,
    pub next: Option<Next>,
    pub cycles: Vec<Vec<u64>>,
    /// What lands next and when, with today's landings and their CI runs.
    pub lane: crate::flows::queue::lane::Lane,
}

/// One open pull request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardRow {
    pub number: u64,
    pub title: String,
    pub author: String,
    pub head_ref: String,
    pub labels: Vec<String>,
    /// Who moves it next, and what they do, in words.
    pub actor: Actor,
    pub next_action: String,
    /// Failed, pending and passed contexts of the head commit.
    pub check_runs: ChecksCell,
    /// The queue's set-aside record standing at this head.
    pub set_aside: Option<SetAsideCell>,
    /// The queue's claim holding at this head.
    pub claim: Option<Claim>,
    /// Its stays in state labels, oldest first.
    pub stays: Vec<Stay>,
    /// The `state:*` label reconcile derives, or none when its facts could not be read.
    pub state: Option<String>,
    /// Reconcile's reason for that state.
    pub why: String,
    /// What the row shows as its state and reason, matching its group: the queue's label and reading
    /// for one the queue holds (not a review state that reads as a person's turn), else `state`/`why`.
    pub shown_state: Option<String>,
    pub shown_why: String,
    /// It waited past a stop-the-line level (the first group).
    pub stops_the_line: bool,
    pub blockers: Vec<String>,
    /// The head commit's check rollup.
    pub checks: String,
    /// `from:<machine>`, else the author (the sweep's owner).
    pub owner: String,
    /// `reviewer:<machine>` claims.
    pub claimers: Vec<String>,
    /// Start of the current stay in its state label (RFC 3339), and its length in minutes (working
    /// minutes when working hours are on), from the sweep.
    pub since: Option<String>,
    pub minutes: Option<i64>,
    /// Why the sweep could not time it (no single state label, unreadable timeline).
    pub problem: Option<String>,
    /// The merge queue's triage of it; absent when the queue ignores it and nobody owns it there (it
    /// is not queued), so a board of unqueued work shows no queue noise.
    pub queue: Option<QueueCell>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueCell {
    pub triage: Class,
    pub reason: String,
    pub detail: String,
    /// 1-based place in the pick order, for candidates.
    pub place: Option<usize>,
    pub waiting_on: Vec<u64>,
    pub next_actor: String,
    pub next_action: String,
    /// Its position in the lane and estimated landing (`3rd of 7, about 14:20`).
    pub lane: Option<crate::flows::queue::lane::LaneEntry>,
}

/// Whether a row shows the queue's triage: everything but what the queue ignores and nobody owns there.
fn in_queue(entry: &crate::flows::queue::triage::Entry) -> bool {
    !(entry.triage == Class::Ignore && entry.owner.is_none())
}

/// The view for facts under a valid config.
pub fn dashboard(facts: &Facts, config: &Config) -> DashboardView {
    let plan = reconcile(facts, config);
    // The page only reads: the sweep's rows are wanted, not its comments or its board.
    let swept = sweep_rows(facts, config);
    let ctx = crate::flows::queue::Ctx::new(facts, config);
    let queue = crate::flows::queue::triage::triage(&ctx);
    let lane = crate::flows::queue::lane::lane(&ctx, &queue);
    let places: std::collections::BTreeMap<u64, &crate::core::lane::LaneEntry> =
        lane.entries.iter().map(|e| (e.number, e)).collect();
    let mut required = facts.required_checks.clone();
    required.extend(
        config
            .required_checks
            .iter()
            .filter(|c| !facts.required_checks.contains(c))
            .cloned(),
    );
    let states = state_axis(config);

    // Looked up by number, so a board of thousands stays linear.
    let verdicts = std::collections::BTreeMap::from_iter(plan.pulls.iter().map(|v| (v.number, v)));
    let timings = std::collections::BTreeMap::from_iter(swept.pulls.iter().map(|p| (p.number, p)));
    let entries = std::collections::BTreeMap::from_iter(queue.entries.iter().map(|e| (e.number, e)));
    let mut pulls: Vec<&crate::core::facts::PullRequest> = facts.pull_requests.iter().collect();
    pulls.sort_by_key(|p| p.number);
    let rows: Vec<DashboardRow> = pulls
        .into_iter()
        .map(|pr| {
            let verdict = verdicts.get(&pr.number).copied();
            let timed = timings.get(&pr.number).copied();
            let entry = entries.get(&pr.number).copied().filter(|e| in_queue(e));
            let state = verdict.and_then(|v| v.state.clone());
            let (actor, next_action) = next_actor(facts, config, pr, state.as_deref(), entry);
            let why = verdict.map(|v| v.why.clone()).unwrap_or_default();
            let (shown_state, shown_why) = match entry.filter(|e| e.triage != Class::Ignore && e.owner.is_some()) {
                Some(e) => (
                    Some(config.queue.labels.merge_queued.clone()),
                    format!(
                        "{}: {}",
                        class_words(e.triage),
                        if e.detail.is_empty() { &e.reason } else { &e.detail }
                    ),
                ),
                None => (state.clone(), why.clone()),
            };
            let stops_the_line = timed.is_some_and(|t| stops(config, t));
            DashboardRow {
                number: pr.number,
                title: pr.title.clone(),
                author: pr.author.clone(),
                head_ref: pr.head_ref.clone(),
                labels: pr.labels.clone(),
                actor,
                next_action,
                check_runs: checks_cell(&pr.checks, &required),
                set_aside: entry.and_then(|e| e.set_aside.as_ref()).map(|r| SetAsideCell {
                    reason: r.reason.clone(),
                    sentence: crate::flows::queue::setaside::Reason::parse(&r.reason)
                        .map(|x| x.sentence())
                        .unwrap_or("a reason this version does not know.")
                        .to_string(),
                    head: r.head.clone(),
                    comment_id: crate::flows::queue::setaside::own_set_aside(facts, pr).and_then(|(c, _)| c.id),
                }),
                claim: entry.and_then(|e| e.claim.clone()),
                stays: stays(pr, &states),
                state,
                why,
                shown_state,
                shown_why,
                stops_the_line,
                blockers: verdict.map(|v| v.blockers.clone()).unwrap_or_default(),
                checks: verdict.map(|v| v.checks.clone()).unwrap_or_default(),
                owner: timed.map(|t| t.owner.clone()).unwrap_or_else(|| pr.author.clone()),
                claimers: timed.map(|t| t.claimers.clone()).unwrap_or_default(),
                since: timed.and_then(|t| t.since.clone()),
                minutes: timed.and_then(|t| t.minutes),
                problem: timed.and_then(|t| t.problem.clone()),
                queue: entry.map(|e| QueueCell {
                    triage: e.triage,
                    reason: e.reason.clone(),
                    detail: e.detail.clone(),
                    place: e.place,
                    waiting_on: e.waiting_on.clone(),
                    next_actor: e.next_actor.clone(),
                    next_action: e.next_action.clone(),
                    lane: places.get(&e.number).map(|l| (*l).clone()),
                }),
            }
        })
        .collect();

    let label_colors = std::collections::BTreeMap::from_iter(
        crate::views::catalog::label_catalog(config)
            .into_iter()
            .chain(crate::views::catalog::queue_labels(config))
            .map(|l| (l.name, l.color)),
    );
    let mut warnings = plan.warnings;
    warnings.extend(swept.warnings);
    warnings.extend(
        queue
            .warnings
            .into_iter()
            .map(|message| Warning { number: None, message }),
    );
    DashboardView {
        engine: VERSION.to_string(),
        config_errors: Vec::new(),
        groups: groups(&rows),
        actors: Actor::ALL
            .into_iter()
            .map(|actor| ActorHeading {
                actor,
                heading: actor.heading().into(),
            })
            .collect(),
        graph: dep_graph(&ctx),
        reads: crate::flows::queue::reads::reads_in(&ctx),
        rows,
        queue: QueueView {
            order: queue.order,
            in_flight: queue.in_flight,
            next: Some(queue.next),
            cycles: queue.cycles,
            lane,
        },
        stop_the_line: swept.stop_the_line,
        stop_reasons: swept.stop_reasons,
        warnings,
        now: facts.now.clone(),
        viewer: facts.viewer.clone(),
        label_colors,
    }
}

/// The queue's class as the row says it.
fn class_words(c: Class) -> &'static str {
    match c {
        Class::Ignore => "not queued",
        Class::Note => "queued, not moving",
        Class::Candidate => "waiting its turn",
        Class::InFlight => "in flight",
        Class::Failing => "failing",
        Class::Held => "held by its review",
    }
}

/// Whether a timed stay passed a stop-the-line level of its state (core::stay::stop_level's rule).
fn stops(config: &Config, t: &crate::flows::followup::FollowupPull) -> bool {
    let (Some(state), Some(minutes)) = (t.state.as_ref(), t.minutes) else {
        return false;
    };
    let levels = config.followup.effective_levels(&config.stations.labels);
    levels.get(state).is_some_and(|ls| {
        ls.iter()
            .any(|l| l.action == crate::core::config::followup::Action::StopTheLine && i64::from(l.after) <= minutes)
    })
}

/// The state labels of the config's flow, in the order a pull request walks them.
fn state_axis(config: &Config) -> Vec<String> {
    match config.flow {
        crate::core::config::Flow::Stations => config.stations.labels.states().iter().map(|s| s.to_string()).collect(),
        _ => config.labels.states().iter().map(|s| s.to_string()).collect(),
    }
}

/// Who moves it next. The queue's owner answers for a queued pull request (worker, fixer, a human,
/// none); otherwise its state label says whose turn it is. "You" is the reading account when the
/// turn is its own: a review asked of it, its own pull request back with its author, or a person's
/// turn when it is one of the humans who merge.
fn next_actor(
    facts: &Facts,
    config: &Config,
    pr: &crate::core::facts::PullRequest,
    state: Option<&str>,
    entry: Option<&crate::flows::queue::triage::Entry>,
) -> (Actor, String) {
    let (actor, action) = if let Some(e) = entry.filter(|e| e.triage != Class::Ignore) {
        let actor = match e.owner {
            Some(Owner::Worker) => Actor::Queue,
            Some(Owner::Fixer) => Actor::Agents,
            Some(Owner::Human) => Actor::Person,
            Some(Owner::None) | None => Actor::Nobody,
        };
        (actor, e.next_action.clone())
    } else {
        by_state(config, state)
    };
    let Some(viewer) = facts.viewer.as_deref() else {
        return (actor, action);
    };
    let me = |login: &str| crate::core::account::is_own(login, viewer);
    let mine = match actor {
        Actor::Reviewers | Actor::Person => {
            pr.review_requests.iter().any(|r| me(r))
                || (actor == Actor::Person && config.bot_panel.humans.iter().any(|h| me(h)))
        }
        Actor::Agents => me(&pr.author),
        _ => false,
    };
    (if mine { Actor::You } else { actor }, action)
}

fn by_state(config: &Config, state: Option<&str>) -> (Actor, String) {
    let Some(state) = state else {
        return (
            Actor::Nobody,
            "read it again: the facts its state depends on could not be read".into(),
        );
    };
    let (l, s) = (&config.labels, &config.stations.labels);
    let (actor, action) = if config.flow == crate::core::config::Flow::Stations {
        match state {
            x if x == s.dev => (Actor::Agents, "its machine finishes it and marks it ready"),
            x if x == s.ready_for_review => (Actor::Reviewers, "a review station claims it"),
            x if x == s.reviewing => (Actor::Reviewers, "the station that claimed it reviews it"),
            x if x == s.changes_requested => (Actor::Agents, "its machine addresses the review and pushes"),
            x if x == s.gate => (Actor::Person, "the validation gate runs on the head commit"),
            x if x == s.ready_to_merge => (Actor::Person, "a person merges it (or queues it)"),
            _ => (Actor::Nobody, "file a bug: no rule gives this state an actor"),
        }
    } else {
        match state {
            x if x == l.draft => (Actor::Agents, "its author finishes the draft and marks it ready"),
            x if x == l.bots_reviewing => (Actor::Reviewers, "the panel bots review the head commit"),
            x if x == l.addressing => (
                Actor::Agents,
                "the author's agent answers what the reason names and pushes",
            ),
            x if x == l.needs_human => (Actor::Person, "a human reviews and merges it"),
            _ => (Actor::Nobody, "file a bug: no rule gives this state an actor"),
        }
    };
    (actor, action.to_string())
}

/// The head's checks by the one reduction every rule reads (each context's newest run).
fn checks_cell(checks: &[crate::core::facts::Check], required: &[String]) -> ChecksCell {
    let mut cell = ChecksCell::default();
    let newest = crate::core::checks::newest_runs(checks);
    for (check, outcome) in newest.values() {
        match outcome {
            crate::core::checks::Rollup::Failing => cell.failed.push(FailedCheck {
                name: check.name.clone(),
                workflow: check.workflow.clone(),
                id: check.id,
                run_id: check.run_id,
            }),
            crate::core::checks::Rollup::Pending => cell.pending.push(check.name.clone()),
            crate::core::checks::Rollup::Passing => cell.passed += 1,
        }
    }
    for context in required {
        if !newest.keys().any(|(_, name)| name == context) {
            cell.pending.push(format!("{context} (required, not reported yet)"));
        }
    }
    cell
}

/// Its stays in the flow's state labels, from the labeled/unlabeled events of the timeline: a stay
/// starts when a state label is applied and ends when it is taken off or another one is applied.
fn stays(pr: &crate::core::facts::PullRequest, states: &[String]) -> Vec<Stay> {
    let mut events: Vec<&crate::core::facts::TimelineEvent> = pr
        .timeline
        .iter()
        .filter(|e| {
            e.label.as_ref().is_some_and(|l| states.contains(l)) && (e.kind == "labeled" || e.kind == "unlabeled")
        })
        .collect();
    events.sort_by_key(|e| crate::core::time::parse_rfc3339(&e.at).unwrap_or(i64::MIN));
    let mut out: Vec<Stay> = Vec::new();
    for e in events {
        let label = e.label.clone().unwrap_or_default();
        let open = out.last_mut().filter(|s| s.to.is_none());
        if e.kind == "labeled" {
            if let Some(s) = open {
                if s.label == label {
                    continue;
                }
                s.to = Some(e.at.clone());
            }
            out.push(Stay {
                label,
                from: e.at.clone(),
                to: None,
            });
        } else if let Some(s) = open.filter(|s| s.label == label) {
            s.to = Some(e.at.clone());
        }
    }
    out
}

/// Groups in `Actor::ALL` order, empty ones left out; inside, longest in its state first.
fn groups(rows: &[DashboardRow]) -> Vec<Group> {
    Actor::ALL
        .into_iter()
        .filter_map(|actor| {
            let mut members: Vec<&DashboardRow> = rows
                .iter()
                .filter(|r| {
                    if r.stops_the_line {
                        actor == Actor::StopTheLine
                    } else {
                        r.actor == actor
                    }
                })
                .collect();
            members.sort_by_key(|r| (std::cmp::Reverse(r.minutes.unwrap_or(-1)), r.number));
            (!members.is_empty()).then(|| Group {
                actor,
                heading: actor.heading().into(),
                numbers: members.iter().map(|r| r.number).collect(),
            })
        })
        .collect()
}

/// The queue's graph with a layered layout: a node's layer is one more than the highest layer of
/// what it waits for (edges inside a cycle are not followed, so a cycle cannot climb forever); slots
/// in a layer go by number.
fn dep_graph(ctx: &crate::flows::queue::Ctx) -> DepGraph {
    use crate::flows::queue::graph::Via;
    let g = &ctx.graph;
    let mut edges = Vec::new();
    for (&from, out) in &g.edges {
        for e in out {
            let (via, issue) = match &e.via {
                Via::MergeAfter => ("mergeAfter", None),
                Via::Stack => ("stack", None),
                Via::StartAfter { issue, .. } => ("startAfter", Some(*issue)),
            };
            let in_cycle = g.cycle_of(from).is_some_and(|c| c.contains(&e.to));
            edges.push(DepEdge {
                from,
                to: e.to,
                via: via.into(),
                issue,
                in_cycle,
            });
        }
    }
    let mut numbers: Vec<u64> = edges.iter().flat_map(|e| [e.from, e.to]).collect();
    numbers.sort();
    numbers.dedup();
    // Every end of an edge is in `numbers`.
    let at = |n: u64| numbers.binary_search(&n).unwrap_or_default();
    let layer = layers(
        numbers.len(),
        edges.iter().filter(|e| !e.in_cycle).map(|e| (at(e.from), at(e.to))),
    );
    let mut next_slot = vec![0usize; numbers.len()];
    let nodes = numbers
        .iter()
        .zip(&layer)
        .map(|(&n, &l)| {
            next_slot[l] += 1;
            DepNode {
                number: n,
                title: ctx.by_number.get(&n).map(|p| p.title.clone()).unwrap_or_default(),
                layer: l,
                slot: next_slot[l] - 1,
                in_cycle: g.in_cycle(n),
            }
        })
        .collect();
    DepGraph {
        nodes,
        edges,
        cycles: g.cycles.clone(),
    }
}

/// Each node's layer, for edges `(from, to)` between nodes `0..count` with no cycle among them: 0 for
/// one that waits for nothing, else one more than the highest layer it waits for. Sinks first (Kahn's
/// order), so each edge is followed once: relaxing every edge until nothing moved took a pass per node
/// on a chain listed against its direction, 2.7 s for a chain of 4,000 (issue 16: every call linear).
fn layers(count: usize, edges: impl Iterator<Item = (usize, usize)>) -> Vec<usize> {
    let mut layer = vec![0usize; count];
    let mut waiting = vec![0usize; count];
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (from, to) in edges {
        waiting[from] += 1;
        into[to].push(from);
    }
    let mut ready: Vec<usize> = (0..count).filter(|&i| waiting[i] == 0).collect();
    while let Some(to) = ready.pop() {
        for &from in &into[to] {
            layer[from] = layer[from].max(layer[to] + 1);
            waiting[from] -= 1;
            if waiting[from] == 0 {
                ready.push(from);
            }
        }
    }
    layer
}

/// The boundary's entry: facts as JSON text; a bad config gives its errors and no rows.
pub fn dashboard_text(facts: &str, config: serde_json::Value) -> Result<DashboardView, FactsError> {
    let facts = parse_facts_str(facts)?;
    Ok(match Config::from_value(config) {
        Ok(config) => dashboard(&facts, &config),
        Err(errors) => DashboardView {
            engine: VERSION.to_string(),
            config_errors: errors,
            ..DashboardView::default()
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// A pull request as facts carry it; `labels` and the rest vary per case.
    fn pull(number: u64, labels: &[&str], draft: bool) -> Value {
        json!({
            "number": number, "title": format!("change {number}"), "author": "dev-bot", "isDraft": draft,
            "baseRef": "main", "headRef": format!("b{number}"), "headSha": format!("{number:040}"),
            "createdAt": "2026-11-30T08:00:00Z",
            "labels": labels,
            "timeline": [{"kind": "labeled", "label": labels.first().copied().unwrap_or("none"), "actor": "prflow", "at": "2026-11-30T09:00:00Z"}],
        })
    }

    fn facts(pulls: Vec<Value>) -> Facts {
        let text = json!({"repository": "o/r", "now": "2026-11-30T10:00:00Z", "viewer": "prflow", "defaultBranch": "main", "pullRequests": pulls}).to_string();
        parse_facts_str(&text).expect("test facts parse")
    }

    #[test]
    fn rows_are_the_engines_own_readings() {
        // (rule, facts): each row must equal what reconcile, the sweep and the queue say on their own.
        let cases: Vec<(&str, Facts)> = vec![
            ("no pull request: no row", facts(vec![])),
            (
                "a draft and a ready one, out of order: rows by number",
                facts(vec![
                    pull(7, &["state:in-review"], false),
                    pull(3, &["state:draft"], true),
                ]),
            ),
            (
                "a pull request with no state label yet",
                facts(vec![pull(11, &[], false)]),
            ),
        ];
        for (rule, facts) in cases {
            let config = Config::default();
            let view = dashboard(&facts, &config);
            let plan = reconcile(&facts, &config);
            let queue = crate::flows::queue::triage(&facts, &config);
            let mut quiet = config.clone();
            quiet.followup.board.enabled = false;
            let swept = crate::flows::followup::sweep(&facts, &quiet);

            let mut numbers: Vec<u64> = facts.pull_requests.iter().map(|p| p.number).collect();
            numbers.sort();
            assert_eq!(
                view.rows.iter().map(|r| r.number).collect::<Vec<_>>(),
                numbers,
                "{rule}: one row per pull request, by number"
            );
            for row in &view.rows {
                let verdict = plan
                    .pulls
                    .iter()
                    .find(|v| v.number == row.number)
                    .expect("reconcile reads every pull request");
                assert_eq!(
                    (&row.state, &row.why, &row.blockers),
                    (&verdict.state, &verdict.why, &verdict.blockers),
                    "{rule}: #{} state and why are reconcile's",
                    row.number
                );
                let timed = swept
                    .pulls
                    .iter()
                    .find(|p| p.number == row.number)
                    .expect("the sweep reads every pull request");
                assert_eq!(
                    (&row.owner, &row.claimers, row.minutes),
                    (&timed.owner, &timed.claimers, timed.minutes),
                    "{rule}: #{} owner and minutes are the sweep's",
                    row.number
                );
                let entry = queue
                    .entries
                    .iter()
                    .find(|e| e.number == row.number)
                    .filter(|e| in_queue(e))
                    .map(|e| (e.triage, e.reason.clone()));
                assert_eq!(
                    row.queue.as_ref().map(|q| (q.triage, q.reason.clone())),
                    entry,
                    "{rule}: #{} queue triage is the queue's",
                    row.number
                );
            }
            assert_eq!(view.queue.order, queue.order, "{rule}: the pick order is the queue's");
            let order: Vec<Actor> = view.actors.iter().map(|a| a.actor).collect();
            assert_eq!(
                order,
                Actor::ALL.to_vec(),
                "{rule}: every actor is listed, in the page's order"
            );
            let grouped: Vec<usize> = view
                .groups
                .iter()
                .map(|g| order.iter().position(|a| *a == g.actor).unwrap())
                .collect();
            assert!(
                grouped.windows(2).all(|w| w[0] < w[1]),
                "{rule}: groups follow that order, each once"
            );
            assert_eq!(
                view.groups.iter().map(|g| g.numbers.len()).sum::<usize>(),
                view.rows.len(),
                "{rule}: every row in one group"
            );
            assert!(view.config_errors.is_empty(), "{rule}: a valid config has no errors");
        }
    }

    #[test]
    fn the_view_names_the_queues_reads_as_queue_reads_does() {
        // A board's reader draws the first answer that names no reads: they must be queueReads' own.
        let mut closing = pull(5, &["state:in-review"], false);
        closing["body"] = json!("Fixes #10");
        let cases: Vec<(&str, Facts, bool)> = vec![
            (
                "a closing keyword names an unread issue",
                facts(vec![closing.clone()]),
                true,
            ),
            ("nothing to read", facts(vec![pull(3, &["state:draft"], true)]), false),
        ];
        for (rule, facts, named) in cases {
            let config = Config::default();
            let view = dashboard(&facts, &config);
            assert_eq!(view.reads, crate::flows::queue::reads::reads(&facts, &config), "{rule}");
            assert_eq!(!view.reads.is_empty(), named, "{rule}");
        }
    }

    fn row(view: &DashboardView, n: u64) -> &DashboardRow {
        view.rows.iter().find(|r| r.number == n).expect("a row")
    }

    #[test]
    fn each_row_says_who_acts_next() {
        // (rule, labels, review requests, viewer, expected actor): the bot-panel preset's states.
        type Case<'a> = (&'a str, &'a [&'a str], &'a [&'a str], &'a str, Actor);
        let cases: Vec<Case> = vec![
            (
                "a draft is its author's agents'",
                &["state:draft"],
                &[],
                "prflow",
                Actor::Agents,
            ),
            (
                "a draft of the reading account's own is yours",
                &["state:draft"],
                &[],
                "dev-bot",
                Actor::You,
            ),
            (
                "a live bot request is the reviewers'",
                &["state:bots-reviewing"],
                &["claude-bot"],
                "prflow",
                Actor::Reviewers,
            ),
            (
                "a review asked of the reading account is yours",
                &["state:bots-reviewing"],
                &["claude-bot", "prflow"],
                "prflow",
                Actor::You,
            ),
            (
                "the agents' turn stays theirs though a review is asked of the reader",
                &[],
                &["prflow"],
                "prflow",
                Actor::Agents,
            ),
            (
                "queued and waiting its turn is the queue's",
                &["merge-queued"],
                &[],
                "prflow",
                Actor::Queue,
            ),
        ];
        for (rule, labels, requests, viewer, want) in cases {
            let mut p = pull(1, labels, labels.contains(&"state:draft"));
            p["reviewRequests"] = json!(requests);
            p["mergeStateStatus"] = json!("BEHIND");
            let text = json!({"repository": "o/r", "now": "2026-11-30T10:00:00Z", "viewer": viewer, "defaultBranch": "main", "pullRequests": [p]}).to_string();
            let config = Config::from_value(json!({"botPanel": {"bots": ["claude-bot"]}})).expect("a valid config");
            let view = dashboard(&parse_facts_str(&text).unwrap(), &config);
            let r = row(&view, 1);
            assert_eq!(r.actor, want, "{rule}: {} ({})", r.next_action, r.why);
            assert!(!r.next_action.is_empty(), "{rule}: the next action is said in words");
            assert_eq!(
                view.groups
                    .iter()
                    .map(|g| (g.actor, g.numbers.clone()))
                    .collect::<Vec<_>>(),
                vec![(want, vec![1])],
                "{rule}: its one group"
            );
        }
    }

    #[test]
    fn a_row_the_queue_holds_shows_the_queues_reading_and_its_lane_place() {
        // Approved and asked to merge (needs-human in the bot-panel flow), then queued: the queue holds
        // it, so the row must not read as a person's turn inside the queue's group.
        let mut queued = pull(22, &["state:needs-human", "merge-queued"], false);
        queued["mergeStateStatus"] = json!("BEHIND");
        let mut waiting = pull(23, &["merge-queued", "skip-ci"], false);
        waiting["mergeStateStatus"] = json!("BEHIND");
        let view = dashboard(
            &facts(vec![queued, waiting, pull(24, &["state:needs-human"], false)]),
            &Config::default(),
        );
        let r = row(&view, 22);
        assert_eq!(r.actor, Actor::Queue);
        assert_eq!(
            r.shown_state.as_deref(),
            Some("merge-queued"),
            "the state shown is the queue's, not {:?}",
            r.state
        );
        assert!(r.shown_why.starts_with("waiting its turn"), "{}", r.shown_why);
        assert_eq!(
            r.queue.as_ref().and_then(|q| q.lane.as_ref()).map(|l| l.words.as_str()),
            Some("1st of 2"),
            "no landing in the facts: a position and no guessed time"
        );
        assert_eq!(view.queue.lane.next, Some(22), "the next landing is named");
        let other = row(&view, 24);
        assert_eq!(
            (other.shown_state.as_deref(), other.shown_why.as_str()),
            (other.state.as_deref(), other.why.as_str()),
            "outside the queue the row shows reconcile's state"
        );
    }

    #[test]
    fn a_row_past_stop_the_line_leads_the_groups() {
        // Unclaimed for 20 days: past the stations preset's stop-the-line level (4 h).
        let mut old = pull(3, &["state:ready-for-review"], false);
        old["timeline"] = json!([{"kind": "labeled", "label": "state:ready-for-review", "actor": "prflow", "at": "2026-11-10T09:00:00Z"}]);
        let config = Config::from_value(json!({"flow": "stations"})).expect("a valid config");
        let view = dashboard(&facts(vec![old, pull(4, &["state:dev"], false)]), &config);
        assert!(view.stop_the_line, "the preset stops the line after that long");
        assert_eq!(
            view.groups.first().map(|g| (g.actor, g.numbers.clone())),
            Some((Actor::StopTheLine, vec![3]))
        );
        assert_eq!(row(&view, 3).actor, Actor::Reviewers, "its row still says who acts");
        assert!(!row(&view, 4).stops_the_line);
    }

    #[test]
    fn a_set_aside_names_its_comment_and_a_failed_check_its_run() {
        let mut p = pull(4, &["merge-queued"], false);
        p["headSha"] = json!("a".repeat(40));
        p["checks"] = json!([{"name": "test", "workflow": "ci", "status": "COMPLETED", "conclusion": "FAILURE", "id": 77, "runId": 9},
                             {"name": "lint", "workflow": "ci", "status": "COMPLETED", "conclusion": "SUCCESS", "id": 78, "runId": 9}]);
        p["comments"] = json!([{"id": 555, "author": "prflow", "body": crate::flows::queue::markers::set_aside_body("rebase-failed", &"a".repeat(40), "b", "", "")}]);
        let text = json!({"repository": "o/r", "now": "2026-11-30T10:00:00Z", "viewer": "prflow", "defaultBranch": "main", "pullRequests": [p]}).to_string();
        let view = dashboard(&parse_facts_str(&text).unwrap(), &Config::default());
        let r = row(&view, 4);
        let sa = r.set_aside.as_ref().expect("the set-aside stands at this head");
        assert_eq!((sa.reason.as_str(), sa.comment_id), ("rebase-failed", Some(555)));
        assert_eq!(r.actor, Actor::Agents, "a rebase-failed set-aside is the fixer's");
        assert_eq!(
            r.check_runs.failed,
            vec![FailedCheck {
                name: "test".into(),
                workflow: Some("ci".into()),
                id: Some(77),
                run_id: Some(9)
            }]
        );
        assert_eq!(r.check_runs.passed, 1);
    }

    #[test]
    fn stays_are_replayed_from_the_timeline() {
        let mut p = pull(5, &["state:addressing"], false);
        p["timeline"] = json!([
            {"kind": "labeled", "label": "state:bots-reviewing", "at": "2026-11-30T08:00:00Z"},
            {"kind": "labeled", "label": "scope:docs", "at": "2026-11-30T08:10:00Z"},
            {"kind": "unlabeled", "label": "state:bots-reviewing", "at": "2026-11-30T09:00:00Z"},
            {"kind": "labeled", "label": "state:addressing", "at": "2026-11-30T09:00:00Z"},
        ]);
        let text = json!({"repository": "o/r", "now": "2026-11-30T10:00:00Z", "pullRequests": [p]}).to_string();
        let view = dashboard(&parse_facts_str(&text).unwrap(), &Config::default());
        let stay = |label: &str, from: &str, to: Option<&str>| Stay {
            label: label.into(),
            from: from.into(),
            to: to.map(String::from),
        };
        assert_eq!(
            row(&view, 5).stays,
            vec![
                stay(
                    "state:bots-reviewing",
                    "2026-11-30T08:00:00Z",
                    Some("2026-11-30T09:00:00Z")
                ),
                stay("state:addressing", "2026-11-30T09:00:00Z", None)
            ]
        );
    }

    #[test]
    fn the_graph_is_laid_out_in_layers_with_cycles_marked() {
        // 3 waits for 2 waits for 1; 5 and 6 wait for each other; 7 is stacked on 1's branch.
        let mut pulls = vec![pull(1, &["merge-queued"], false)];
        for (n, body) in [
            (2, "Merge-After: #1"),
            (3, "Merge-After: #2"),
            (5, "Merge-After: #6"),
            (6, "Merge-After: #5"),
        ] {
            let mut p = pull(n, &["merge-queued"], false);
            p["body"] = json!(body);
            pulls.push(p);
        }
        let mut stacked = pull(7, &["merge-queued"], false);
        stacked["baseRef"] = json!("b1");
        pulls.push(stacked);
        let view = dashboard(&facts(pulls), &Config::default());
        let layers: Vec<(u64, usize, bool)> = view
            .graph
            .nodes
            .iter()
            .map(|n| (n.number, n.layer, n.in_cycle))
            .collect();
        assert_eq!(
            layers,
            vec![
                (1, 0, false),
                (2, 1, false),
                (3, 2, false),
                (5, 0, true),
                (6, 0, true),
                (7, 1, false)
            ]
        );
        let vias: Vec<(u64, u64, &str, bool)> = view
            .graph
            .edges
            .iter()
            .map(|e| (e.from, e.to, e.via.as_str(), e.in_cycle))
            .collect();
        assert_eq!(
            vias,
            vec![
                (2, 1, "mergeAfter", false),
                (3, 2, "mergeAfter", false),
                (5, 6, "mergeAfter", true),
                (6, 5, "mergeAfter", true),
                (7, 1, "stack", false)
            ]
        );
        assert_eq!(view.graph.cycles, vec![vec![5, 6]]);
    }

    // proptest is a native dev-dependency only; the other tests here also run inside Wasm.
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn layers_are_the_longest_path_to_a_sink(raw in proptest::collection::vec((0usize..40, 0usize..40), 0..120)) {
            // A DAG: every edge from a higher node to a lower one, listed in any order.
            let edges: Vec<(usize, usize)> = raw.into_iter().filter(|(a, b)| a != b).map(|(a, b)| (a.max(b), a.min(b))).collect();
            // The definition, by relaxation to the fixed point (one pass per node is enough).
            let mut want = vec![0usize; 40];
            for _ in 0..40 {
                for &(from, to) in &edges {
                    want[from] = want[from].max(want[to] + 1);
                }
            }
            proptest::prop_assert_eq!(layers(40, edges.iter().copied()), want);
        }
    }

    #[test]
    fn a_bad_config_gives_its_errors_and_no_rows() {
        let cases: Vec<(&str, Value, &str)> = vec![
            ("an unknown key is named by its path", json!({"nope": 1}), "$.nope"),
            (
                "a wrong type is named by its path",
                json!({"labels": {"draft": 3}}),
                "$.labels.draft",
            ),
        ];
        let text = json!({"repository": "o/r", "now": "2026-11-30T10:00:00Z", "pullRequests": [pull(1, &[], false)]})
            .to_string();
        for (rule, config, path) in cases {
            let view = dashboard_text(&text, config).expect("facts are good");
            assert!(view.rows.is_empty(), "{rule}: no rows under a bad config");
            assert!(
                view.config_errors.iter().any(|e| e.path == path),
                "{rule}: expected an error at {path}, got {:?}",
                view.config_errors
            );
        }
    }

    #[test]
    fn bad_facts_name_their_path() {
        let err =
            dashboard_text(r#"{"repository": "o/r", "now": "yesterday"}"#, json!({})).expect_err("now is not a time");
        assert!(err.0.contains("$.now"), "the error names $.now: {}", err.0);
    }
}
