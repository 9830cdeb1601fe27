//! A discrete-event agenda: events come out by time, and events at the same time in the order they
//! were put in, so a run never depends on how a heap breaks ties.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

struct Entry<E> {
    time: f64,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.time.total_cmp(&other.time).then(self.seq.cmp(&other.seq))
    }
}

pub struct Agenda<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    seq: u64,
}

impl<E> Default for Agenda<E> {
    fn default() -> Self {
        Agenda {
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }
}

impl<E> Agenda<E> {
    pub fn at(&mut self, time: f64, event: E) {
        self.seq += 1;
        self.heap.push(Reverse(Entry {
            time,
            seq: self.seq,
            event,
        }));
    }

    pub fn pop(&mut self) -> Option<(f64, E)> {
        self.heap.pop().map(|Reverse(e)| (e.time, e.event))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn by_time_then_by_insertion() {
        let mut a = super::Agenda::default();
        a.at(2.0, "c");
        a.at(1.0, "a");
        a.at(2.0, "d");
        a.at(1.0, "b");
        let order: Vec<&str> = std::iter::from_fn(|| a.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
    }
}
