//! Chain composition: which queued pull requests go into the next chain, bottom up, and where its CI
//! runs (the checkpoints). The worker rebases each onto the one before it, so one green run at a
//! checkpoint tests the whole prefix below it; serial is the chain of one.
//!
//! The queue's order is the input (triage's pick order, with what each waits for): a pull request
//! joins only after everything it waits for is in the chain (stacks bottom up, Merge-After), and two
//! whose changes collide are kept apart when another can go instead. A pair `git merge-tree` says
//! conflicts never shares a chain: the rebase of the second onto the first would stop. A pair that
//! only touches the same files shares one when nothing else can fill the place. A pull request and
//! one it waits for are exempt: the child was written on top of its parent.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One queued pull request, in the queue's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Queued {
    pub number: u64,
    /// The open pull requests it waits for (triage's `waitingOn`: Merge-After, the stack, Start-After).
    #[serde(default)]
    pub waiting_on: Vec<u64>,
}

/// Two queued pull requests whose changes meet, as the worker read them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Collision {
    pub a: u64,
    pub b: u64,
    /// The files both change.
    #[serde(default)]
    pub files: Vec<String>,
    /// `git merge-tree` of the two reports a conflict.
    #[serde(default)]
    pub conflict: bool,
}

/// One queued pull request left for a later chain, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Deferred {
    pub number: u64,
    pub why: String,
}

/// The next chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Chain {
    /// Bottom up: the first is rebased onto the base, each next onto the one before.
    pub batch: Vec<u64>,
    /// The pull requests whose `skip-ci` comes off, bottom up; the last is the top of the batch.
    pub checkpoints: Vec<u64>,
    /// Queued ones kept out of this chain by a collision, a wait or the size.
    pub deferred: Vec<Deferred>,
    pub reason: String,
}

fn related(a: &Queued, b: &Queued) -> bool {
    a.waiting_on.contains(&b.number) || b.waiting_on.contains(&a.number)
}

/// The next chain of at most `size` from `queue` (in the queue's order), with `speculate` checkpoints.
pub fn compose(queue: &[Queued], collisions: &[Collision], size: u32, speculate: u32) -> Chain {
    let size = size.max(1) as usize;
    let in_queue = |n: u64| queue.iter().any(|q| q.number == n);
    let collision = |x: u64, y: u64| {
        collisions
            .iter()
            .find(|c| (c.a == x && c.b == y) || (c.a == y && c.b == x))
    };
    let mut batch: Vec<usize> = Vec::new();
    // Two passes: the first keeps every collider out; the second lets one that only shares files fill
    // a place nothing else could.
    for allow_overlap in [false, true] {
        loop {
            let before = batch.len();
            for (i, q) in queue.iter().enumerate() {
                if batch.len() == size || batch.contains(&i) {
                    continue;
                }
                let waits_met = q
                    .waiting_on
                    .iter()
                    .all(|w| batch.iter().any(|&j| queue[j].number == *w));
                let collides = batch.iter().any(|&j| {
                    !related(q, &queue[j])
                        && collision(q.number, queue[j].number).is_some_and(|c| c.conflict || !allow_overlap)
                });
                if waits_met && !collides {
                    batch.push(i);
                }
            }
            // A pull request waiting for one later in the order joins on the next sweep.
            if batch.len() == before || batch.len() == size {
                break;
            }
        }
    }
    let numbers: Vec<u64> = batch.iter().map(|&i| queue[i].number).collect();
    let deferred: Vec<Deferred> = queue
        .iter()
        .filter(|q| !numbers.contains(&q.number))
        .map(|q| {
            let outside: Vec<u64> = q.waiting_on.iter().copied().filter(|&w| !in_queue(w)).collect();
            let waits: Vec<u64> = q.waiting_on.iter().copied().filter(|w| !numbers.contains(w)).collect();
            let hit = batch
                .iter()
                .filter(|&&j| !related(q, &queue[j]))
                .find_map(|&j| collision(q.number, queue[j].number).map(|c| (queue[j].number, c)));
            let why = if !outside.is_empty() {
                format!("waits for {}, which is not in the queue", list(&outside))
            } else if let Some((n, c)) = hit {
                let what = if c.conflict { "conflicts with" } else { "collides with" };
                let files = if c.files.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", c.files.join(", "))
                };
                format!("{what} #{n}{files}: a later chain")
            } else if !waits.is_empty() {
                format!("waits for {}, not in this chain", list(&waits))
            } else {
                format!("the chain is full at {size}")
            };
            Deferred { number: q.number, why }
        })
        .collect();
    let checkpoints = checkpoints(&numbers, speculate);
    let reason = if numbers.is_empty() {
        "nothing queued can go".to_string()
    } else {
        let cp = if checkpoints.len() == 1 {
            format!("CI at the top, #{}", checkpoints[0])
        } else {
            format!("CI at {} checkpoints: {}", checkpoints.len(), list(&checkpoints))
        };
        format!("a chain of {} ({}); {cp}", numbers.len(), list(&numbers))
    };
    Chain {
        batch: numbers,
        checkpoints,
        deferred,
        reason,
    }
}

/// `k` checkpoints spread evenly along the chain, the top always among them: at positions
/// ceil(n*i/k) for i in 1..=k.
pub fn checkpoints(chain: &[u64], speculate: u32) -> Vec<u64> {
    let n = chain.len();
    let k = (speculate.max(1) as usize).min(n);
    let mut at: Vec<usize> = (1..=k).map(|i| (n * i).div_ceil(k)).collect();
    at.dedup();
    at.into_iter().map(|p| chain[p - 1]).collect()
}

fn list(ns: &[u64]) -> String {
    ns.iter().map(|n| format!("#{n}")).collect::<Vec<_>>().join(", ")
}
