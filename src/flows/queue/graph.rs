//! The one dependency graph of the queue: `Merge-After:`, stacks and inherited `Start-After:` as
//! edges between open pull requests; every cycle found (Tarjan) and reported by its numbers, because
//! nothing here can move a pull request caught in one, so its members are left alone.

use super::declare::Declared;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Why one pull request waits for another.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", tag = "via")]
pub enum Via {
    MergeAfter,
    Stack,
    /// Inherited from the issue this pull request closes (`issue`); `named` is the number the issue
    /// named, which is `to` itself or an open issue `to` closes.
    StartAfter {
        issue: u64,
        named: u64,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    pub to: u64,
    #[serde(flatten)]
    pub via: Via,
}

#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub edges: BTreeMap<u64, Vec<Edge>>,
    /// Each cycle's members, ascending; cycles sorted by their smallest member.
    pub cycles: Vec<Vec<u64>>,
    /// Each member's cycle, by its index in `cycles`: finding a member's cycle is a lookup, not a
    /// scan of every cycle, so naming each member of a ring stays linear in the ring.
    cycle_index: BTreeMap<u64, usize>,
}

/// Issue facts the graph needs: which open issue is closed by which open pull requests.
pub struct IssueIndex {
    pub open_issues: BTreeMap<u64, ()>,
    pub closers: BTreeMap<u64, Vec<u64>>,
}

impl Graph {
    pub fn build(declared: &BTreeMap<u64, Declared>, issues: &IssueIndex) -> Graph {
        let edges = BTreeMap::from_iter(declared.iter().map(|(&n, d)| {
            let mut out: Vec<Edge> = Vec::new();
            let mut add = |to: u64, via: Via| {
                // The stack and a Merge-After naming the same layer mean the same: counted once.
                // A pull request naming itself keeps the edge: it waits for its own merge, so it
                // can never be picked, and is a cycle of one reported by its number.
                if declared.contains_key(&to) && !out.iter().any(|e| e.to == to) {
                    out.push(Edge { to, via });
                }
            };
            if let Some(parent) = d.stacked_on {
                add(parent, Via::Stack);
            }
            for &m in &d.merge_after {
                add(m, Via::MergeAfter);
            }
            for inh in &d.start_after {
                if declared.contains_key(&inh.number) {
                    add(
                        inh.number,
                        Via::StartAfter {
                            issue: inh.issue,
                            named: inh.number,
                        },
                    );
                } else if issues.open_issues.contains_key(&inh.number) {
                    for &q in issues.closers.get(&inh.number).into_iter().flatten() {
                        add(
                            q,
                            Via::StartAfter {
                                issue: inh.issue,
                                named: inh.number,
                            },
                        );
                    }
                }
            }
            (n, out)
        }));
        let cycles = cycles(&edges);
        let cycle_index = BTreeMap::from_iter(
            cycles
                .iter()
                .enumerate()
                .flat_map(|(i, c)| c.iter().map(move |&n| (n, i))),
        );
        Graph {
            edges,
            cycles,
            cycle_index,
        }
    }

    pub fn in_cycle(&self, n: u64) -> bool {
        self.cycle_index.contains_key(&n)
    }

    pub fn cycle_of(&self, n: u64) -> Option<&Vec<u64>> {
        self.cycle_index.get(&n).map(|&i| &self.cycles[i])
    }

    /// The open pull requests `n` waits for, excluding the stack (reported on its own).
    pub fn waits_for(&self, n: u64) -> Vec<&Edge> {
        self.edges
            .get(&n)
            .map(|v| v.iter().filter(|e| e.via != Via::Stack).collect())
            .unwrap_or_default()
    }
}

/// Strongly connected components with more than one member, or a member naming itself.
pub fn cycles(edges: &BTreeMap<u64, Vec<Edge>>) -> Vec<Vec<u64>> {
    // Nodes by their place in `edges` (a node without an entry there has no edges and is no one's
    // cycle): Tarjan's index and low link in arrays beside the map.
    struct T<'a> {
        keys: Vec<u64>,
        outs: Vec<&'a Vec<Edge>>,
        index: Vec<usize>,
        low: Vec<usize>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<u64>>,
    }
    const UNSEEN: usize = usize::MAX;
    // A node is on Tarjan's stack from its visit until its component is taken off, when its `low` is
    // set to DONE (never read again as a number): no set of its own.
    const DONE: usize = usize::MAX;
    // Iterative Tarjan: a long Merge-After chain must not overflow the Wasm stack.
    fn visit(t: &mut T, root: usize) {
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if *i == 0 {
                t.index[v] = t.next;
                t.low[v] = t.next;
                t.next += 1;
                t.stack.push(v);
            }
            let out = t.outs[v];
            if *i < out.len() {
                let to = out[*i].to;
                *i += 1;
                let Ok(w) = t.keys.binary_search(&to) else { continue };
                if t.index[w] == UNSEEN {
                    work.push((w, 0));
                } else if t.low[w] != DONE {
                    t.low[v] = t.low[v].min(t.index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                t.low[parent] = t.low[parent].min(t.low[v]);
            }
            if t.low[v] == t.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = t.stack.pop() {
                    t.low[w] = DONE;
                    comp.push(t.keys[w]);
                    if w == v {
                        break;
                    }
                }
                let (n, out) = (t.keys[v], t.outs[v]);
                let self_loop = out.iter().any(|e| e.to == n);
                if comp.len() > 1 || self_loop {
                    comp.sort();
                    t.out.push(comp);
                }
            }
        }
    }
    let count = edges.len();
    let mut t = T {
        keys: edges.keys().copied().collect(),
        outs: edges.values().collect(),
        index: vec![UNSEEN; count],
        low: vec![0; count],
        stack: vec![],
        next: 0,
        out: vec![],
    };
    for v in 0..count {
        if t.index[v] == UNSEEN {
            visit(&mut t, v);
        }
    }
    t.out.sort();
    t.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: u64, close: bool) -> BTreeMap<u64, Vec<Edge>> {
        BTreeMap::from_iter((1..=n).map(|i| {
            let to = if i == n && close { 1 } else { i + 1 };
            (
                i,
                if i < n || close {
                    vec![Edge {
                        to,
                        via: Via::MergeAfter,
                    }]
                } else {
                    vec![]
                },
            )
        }))
    }

    #[test]
    fn a_chain_of_five_thousand_has_no_cycle_and_does_not_overflow_the_stack() {
        assert!(cycles(&chain(5_000, false)).is_empty());
    }

    #[test]
    fn a_ring_of_five_thousand_is_one_cycle_with_every_member() {
        let c = cycles(&chain(5_000, true));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].len(), 5_000);
    }
}
