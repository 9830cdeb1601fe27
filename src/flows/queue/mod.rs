//! The merge queue's decisions: what each pull request declares, the dependency graph, triage,
//! the pick order, owners, set-asides, markers, the watch step and auto-fix eligibility. The loop
//! that rebases, pushes and watches only carries these out; every `if` about the queue lives here.

pub mod autofix;
pub mod bisect;
pub mod chain;
pub mod claim;
pub mod codeowners;
pub mod cycle;
pub mod declare;
pub mod flake;
pub mod fixer;
pub mod graph;
pub mod green;
pub mod lane;
pub mod lease;
pub mod markers;
pub mod memory;
pub mod open;
pub mod order;
pub mod owner;
pub mod quiet;
pub mod reads;
pub mod restack;
pub mod review_hold;
pub mod setaside;
pub mod sizing;
pub mod triage;
pub mod watch;
pub mod why;

/// The section moved down to the core layer (config types); the old path still names it.
pub use crate::core::config::queue as config;

use crate::core::facts::{Facts, PullRequest};
use crate::Config;
use crate::codec::sorting::VecMap;

/// Everything one survey's decisions share, computed once so every rule reads the same.
pub struct Ctx<'a> {
    pub facts: &'a Facts,
    pub config: &'a Config,
    pub now: Option<i64>,
    pub default_branch: String,
    /// `changeset-release/<default branch>`.
    pub version_branch: String,
    pub by_number: VecMap<u64, &'a PullRequest>,
    /// Head branch of every open pull request from this repository (a fork's is never a parent).
    heads: VecMap<&'a str, u64>,
    pub declared: VecMap<u64, declare::Declared>,
    pub graph: graph::Graph,
    pub settlement: setaside::Settlement,
}

impl<'a> Ctx<'a> {
    pub fn new(facts: &'a Facts, config: &'a Config) -> Ctx<'a> {
        let default_branch = facts.default_branch.clone().unwrap_or_else(|| "main".into());
        let mut ctx = Ctx {
            facts,
            config,
            now: crate::core::time::parse_rfc3339(&facts.now),
            version_branch: format!("{}{default_branch}", config.queue.version_branch_prefix),
            default_branch,
            by_number: VecMap::new(facts.pull_requests.iter().map(|p| (p.number, p))),
            heads: VecMap::new(facts.pull_requests.iter().filter(|p| !p.is_fork).map(|p| (p.head_ref.as_str(), p.number))),
            declared: VecMap::default(),
            graph: graph::Graph::default(),
            settlement: setaside::settle(facts),
        };
        ctx.declared = VecMap::new(facts.pull_requests.iter().map(|p| (p.number, declare::declared(&ctx, p))));
        let index = graph::IssueIndex {
            open_issues: VecMap::new(facts.issues.iter().filter(|i| i.open && !i.pull_request).map(|i| (i.number, ()))),
            closers: VecMap::grouped(ctx.declared.iter().flat_map(|(&n, d)| d.closes.iter().map(move |c| (c.number, n)))),
        };
        ctx.graph = graph::Graph::build(&ctx.declared, &index);
        ctx
    }

    pub fn is_version(&self, pr: &PullRequest) -> bool {
        !pr.is_fork && pr.head_ref == self.version_branch
    }

    /// The open pull request whose branch this one is based on (a layer stacked on it).
    pub fn stack_parent(&self, pr: &PullRequest) -> Option<u64> {
        if pr.base_ref == self.default_branch {
            return None;
        }
        self.heads.get(&pr.base_ref.as_str()).copied().filter(|&n| n != pr.number)
    }

    /// Based on the default branch or on an open pull request's branch.
    pub fn base_actionable(&self, pr: &PullRequest) -> bool {
        pr.base_ref == self.default_branch || self.stack_parent(pr).is_some()
    }
}

/// `triage(facts, config)`.
pub fn triage(facts: &Facts, config: &Config) -> triage::Report {
    triage::triage(&Ctx::new(facts, config))
}

/// The pull requests whose `builtOnBaseTip` triage reads: the version pull request, what waits in
/// the queue under `skip-ci`, and a released one that is green while GitHub reads BLOCKED (a green
/// one that is not merging: once the base moves GitHub still says BLOCKED, not BEHIND). A reader asks
/// git about these only (one compare call each), so the rule
/// of which branches matter stays here, beside the triage that reads the answer. Forks are left out:
/// the queue never rebases them; so is a branch based elsewhere than the default branch (a stacked
/// layer, an old release branch): the default branch's tip says nothing about it, and a compare
/// that cannot answer would only be a failed read.
pub fn tip_reads(facts: &Facts, config: &Config) -> Vec<u64> {
    tip_reads_in(&Ctx::new(facts, config))
}

/// `tip_reads` from a context already built (a context reads every body: built once per answer).
pub fn tip_reads_in(ctx: &Ctx) -> Vec<u64> {
    ctx.facts
        .pull_requests
        .iter()
        .filter(|pr| !pr.is_fork && pr.base_ref == ctx.default_branch)
        .filter(|pr| ctx.declared.get(&pr.number).is_some_and(|d| d.is_version || d.paused_in_queue() || (d.merge_queued && !d.skip_ci && green_blocked(ctx, pr))))
        .map(|pr| pr.number)
        .collect()
}

/// GitHub reads BLOCKED and every required check is green.
fn green_blocked(ctx: &Ctx, pr: &PullRequest) -> bool {
    let required = crate::core::checks::required_contexts(&ctx.facts.required_checks, ctx.config);
    pr.merge_state_status.as_deref() == Some("BLOCKED") && green::green(&pr.checks, &required).state == green::GreenState::Green
}
