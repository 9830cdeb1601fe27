//! The survey's shared context: what every queue decision reads, computed once (the pull requests by
//! number, what each declares, the dependency graph, the set-aside records).

use super::{declare, graph, setaside};
use crate::core::facts::{Facts, PullRequest};
use crate::Config;
use std::collections::BTreeMap;

/// Everything one survey's decisions share, computed once so every rule reads the same.
pub struct Ctx<'a> {
    pub facts: &'a Facts,
    pub config: &'a Config,
    pub now: Option<i64>,
    pub default_branch: String,
    /// `changeset-release/<default branch>`.
    pub version_branch: String,
    pub by_number: BTreeMap<u64, &'a PullRequest>,
    /// Head branch of every open pull request from this repository (a fork's is never a parent).
    pub heads: BTreeMap<&'a str, u64>,
    pub declared: BTreeMap<u64, declare::Declared>,
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
            by_number: BTreeMap::from_iter(facts.pull_requests.iter().map(|p| (p.number, p))),
            heads: BTreeMap::from_iter(
                facts
                    .pull_requests
                    .iter()
                    .filter(|p| !p.is_fork)
                    .map(|p| (p.head_ref.as_str(), p.number)),
            ),
            declared: BTreeMap::default(),
            graph: graph::Graph::default(),
            settlement: setaside::settle(facts),
        };
        ctx.declared = BTreeMap::from_iter(facts.pull_requests.iter().map(|p| {
            (
                p.number,
                declare::declared(facts, config, p, ctx.is_version(p), ctx.stack_parent(p)),
            )
        }));
        let index = graph::IssueIndex {
            open_issues: BTreeMap::from_iter(
                facts
                    .issues
                    .iter()
                    .filter(|i| i.open && !i.pull_request)
                    .map(|i| (i.number, ())),
            ),
            closers: ctx
                .declared
                .iter()
                .flat_map(|(&n, d)| d.closes.iter().map(move |c| (c.number, n)))
                .fold(BTreeMap::new(), |mut m: BTreeMap<u64, Vec<u64>>, (c, n)| {
                    m.entry(c).or_default().push(n);
                    m
                }),
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
        self.heads
            .get(&pr.base_ref.as_str())
            .copied()
            .filter(|&n| n != pr.number)
    }

    /// Based on the default branch or on an open pull request's branch.
    pub fn base_actionable(&self, pr: &PullRequest) -> bool {
        pr.base_ref == self.default_branch || self.stack_parent(pr).is_some()
    }
}
