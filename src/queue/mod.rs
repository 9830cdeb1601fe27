//! The merge queue's decisions: what each pull request declares, the dependency graph, triage,
//! the pick order, owners, set-asides, markers, the watch step and auto-fix eligibility. The loop
//! that rebases, pushes and watches only carries these out; every `if` about the queue lives here.

pub mod autofix;
pub mod claim;
pub mod codeowners;
pub mod declare;
pub mod fixer;
pub mod graph;
pub mod green;
pub mod markers;
pub mod open;
pub mod order;
pub mod owner;
pub mod reads;
pub mod review_hold;
pub mod setaside;
pub mod triage;
pub mod watch;
pub mod why;

/// The section moved down to the core layer (config types); the old path still names it.
pub use crate::config::queue as config;

use crate::facts::{Facts, PullRequest};
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
    heads: BTreeMap<&'a str, u64>,
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
            now: crate::time::parse_rfc3339(&facts.now),
            version_branch: format!("{}{default_branch}", config.queue.version_branch_prefix),
            default_branch,
            by_number: crate::sorting::map(facts.pull_requests.iter().map(|p| (p.number, p))),
            heads: crate::sorting::map(facts.pull_requests.iter().filter(|p| !p.is_fork).map(|p| (p.head_ref.as_str(), p.number))),
            declared: BTreeMap::new(),
            graph: graph::Graph::default(),
            settlement: setaside::settle(facts),
        };
        ctx.declared = crate::sorting::map(facts.pull_requests.iter().map(|p| (p.number, declare::declared(&ctx, p))));
        let mut index = graph::IssueIndex { open_issues: Default::default(), closers: BTreeMap::new() };
        for issue in &facts.issues {
            if issue.open && !issue.pull_request {
                index.open_issues.insert(issue.number);
            }
        }
        for (&n, d) in &ctx.declared {
            for c in &d.closes {
                index.closers.entry(c.number).or_default().push(n);
            }
        }
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
        self.heads.get(pr.base_ref.as_str()).copied().filter(|&n| n != pr.number)
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

/// The pull requests whose `builtOnBaseTip` triage reads: the version pull request, and what waits in
/// the queue under `skip-ci`. A reader asks git about these only (one compare call each), so the rule
/// of which branches matter stays here, beside the triage that reads the answer. Forks are left out:
/// the queue never rebases them; so is a branch based elsewhere than the default branch (a stacked
/// layer, an old release branch): the default branch's tip says nothing about it, and a compare
/// that cannot answer would only be a failed read.
pub fn tip_reads(facts: &Facts, config: &Config) -> Vec<u64> {
    let ctx = Ctx::new(facts, config);
    facts
        .pull_requests
        .iter()
        .filter(|pr| !pr.is_fork && pr.base_ref == ctx.default_branch)
        .filter(|pr| ctx.declared.get(&pr.number).is_some_and(|d| d.is_version || d.paused_in_queue()))
        .map(|pr| pr.number)
        .collect()
}

/// The engine's queue functions by name, JSON in and out: the fixture runner, the native CLI and
/// the Wasm exports all go through here, so they cannot drift apart.
pub fn call(name: &str, input: serde_json::Value) -> Result<serde_json::Value, String> {
    use serde_json::{json, to_value, Value};
    fn field<T: serde::de::DeserializeOwned>(input: &Value, key: &str) -> Result<T, String> {
        let v = input.get(key).cloned().unwrap_or(Value::Null);
        crate::json_path::from_value(&v).map_err(|e| format!("{key} {}: {}", e.path, e.message))
    }
    fn facts_config(input: &Value) -> Result<(Facts, Config), String> {
        let facts: Facts = field(input, "facts")?;
        let config = match input.get("config") {
            None | Some(Value::Null) => Config::default(),
            Some(v) => Config::from_value(v.clone()).map_err(|e| e.iter().map(|e| format!("config {e}")).collect::<Vec<_>>().join("; "))?,
        };
        Ok((facts, config))
    }
    let out = match name {
        "parseTrailers" => to_value(declare::parse_trailers(&field::<String>(&input, "body")?)),
        "closingKeywords" => to_value(declare::closing_keywords(&field::<String>(&input, "body")?)),
        "codeOwners" => to_value(codeowners::code_owners(&field::<String>(&input, "codeowners")?, &field::<String>(&input, "path")?)),
        "triage" => {
            let (facts, config) = facts_config(&input)?;
            to_value(triage(&facts, &config))
        }
        "tipReads" => {
            let (facts, config) = facts_config(&input)?;
            to_value(tip_reads(&facts, &config))
        }
        "reviewHold" => {
            let (facts, _) = facts_config(&input)?;
            let n: u64 = field(&input, "number")?;
            let pr = facts.pull_requests.iter().find(|p| p.number == n).ok_or(format!("number: #{n} is not in facts.pullRequests"))?;
            to_value(review_hold::review_hold(&facts, pr))
        }
        "owner" => {
            let (facts, config) = facts_config(&input)?;
            let ctx = Ctx::new(&facts, &config);
            let owners: BTreeMap<String, Option<owner::OwnerVerdict>> = crate::sorting::map(facts.pull_requests.iter().map(|p| (p.number.to_string(), owner::queue_owner(&ctx, p))));
            to_value(owners)
        }
        "green" => to_value(green::green(&field::<Vec<crate::facts::Check>>(&input, "checks")?, &field::<Option<Vec<String>>>(&input, "required")?.unwrap_or_default())),
        "watchStep" => {
            let config: Config = match input.get("config") {
                None | Some(Value::Null) => Config::default(),
                Some(v) => Config::from_value(v.clone()).map_err(|e| format!("config {}", e[0]))?,
            };
            let poll: watch::Poll = field(&input, "poll")?;
            let state: watch::WatchState = field(&input, "state")?;
            to_value(watch::watch_step(&poll, &state, &config.queue.labels.skip_ci, &config.queue.watch))
        }
        "order" => {
            let mut keys: Vec<order::OrderKey> = field(&input, "keys")?;
            order::sort(&mut keys);
            to_value(keys.iter().map(|k| k.number).collect::<Vec<_>>())
        }
        "yieldsTo" => to_value(order::yields_to(field(&input, "mine")?, &field::<Vec<order::Released>>(&input, "others")?)),
        "settle" => {
            let (facts, _) = facts_config(&input)?;
            to_value(setaside::settle(&facts))
        }
        "setAsideApplies" => {
            let g = |k: &str| field::<String>(&input, k);
            let tip: Option<String> = field(&input, "baseTip")?;
            to_value(setaside::applies(&g("reason")?, &g("atHead")?, &g("atBase")?, &g("head")?, tip.as_deref()))
        }
        "marker" => {
            let body: String = field(&input, "body")?;
            to_value(markers::parse(&body).map(|m| json!({"kind": m.kind, "fields": m.fields, "retryTicked": markers::retry_ticked(&body)})))
        }
        "setAsideComment" => {
            let g = |k: &str| field::<Option<String>>(&input, k).map(Option::unwrap_or_default);
            to_value(markers::set_aside_body(&g("reason")?, &g("head")?, &g("base")?, &g("detail")?))
        }
        "autoFix" => {
            let config: Config = Config::from_value(input.get("config").cloned().unwrap_or(json!({}))).map_err(|e| format!("config {}", e[0]))?;
            to_value(autofix::auto_fix(config.queue.auto_fix.as_ref(), &field::<Vec<String>>(&input, "failed")?, field(&input, "commitCount")?))
        }
        "claimPr" => {
            let (facts, config) = facts_config(&input)?;
            let ctx = Ctx::new(&facts, &config);
            to_value(claim::claim_pr(&ctx, field(&input, "number")?, &field::<String>(&input, "by")?, field::<Option<bool>>(&input, "release")?.unwrap_or(false)))
        }
        "claimPrReadBack" => {
            let (facts, config) = facts_config(&input)?;
            let ctx = Ctx::new(&facts, &config);
            to_value(claim::claim_pr_read_back(&ctx, field(&input, "number")?, &field::<String>(&input, "by")?, field::<Option<bool>>(&input, "release")?.unwrap_or(false)))
        }
        "openPr" => {
            let (facts, config) = facts_config(&input)?;
            to_value(open::open_pr(&Ctx::new(&facts, &config), &field(&input, "request")?))
        }
        "pushFixedPr" => {
            let (facts, config) = facts_config(&input)?;
            to_value(open::push_fixed_pr(&Ctx::new(&facts, &config), &field(&input, "request")?))
        }
        "fixerPick" => {
            let (facts, config) = facts_config(&input)?;
            to_value(fixer::fixer_pick(&Ctx::new(&facts, &config), &field::<String>(&input, "name")?))
        }
        "fixerBrief" => to_value(fixer::fixer_brief(&field(&input, "pick")?, &field(&input, "found")?)),
        "fixerGiveUp" => {
            let (facts, config) = facts_config(&input)?;
            to_value(fixer::fixer_give_up(&Ctx::new(&facts, &config), field(&input, "number")?, &field::<String>(&input, "name")?, &field::<String>(&input, "why")?))
        }
        "unownedIssues" => {
            let (facts, config) = facts_config(&input)?;
            let report = triage(&facts, &config);
            to_value(claim::unowned_issues(&report, &field::<Option<Vec<claim::KnownIssue>>>(&input, "issues")?.unwrap_or_default()))
        }
        "validateConfig" => {
            let errors = match Config::from_value(input.get("config").cloned().unwrap_or(json!({}))) {
                Ok(_) => vec![],
                Err(e) => e,
            };
            to_value(errors)
        }
        other => return Err(format!("unknown queue function {other:?}")),
    };
    out.map_err(|e| e.to_string())
}
