//! One sort and one map builder for the whole engine. The standard library's sort is generic, so each
//! element type and each key closure compiled its own copy of it (about 4.5 KB of Wasm apiece: a
//! seventh of the module), and `collect()` into a `BTreeMap` sorts too. Here the comparison goes
//! behind one `dyn` over indices, so there is one copy of the sort; the elements are then moved into
//! that order. Stable, like `sort_by`.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// The order of `0..n` under `cmp`, stably: the only place the engine instantiates a sort. None when
/// `0..n` is in order already, the common case (a pull request's checks as GitHub lists them, the board
/// by number), which a stable sort leaves as it is: no index vectors to build. Checked here, behind the
/// `dyn`, so that the check too is one copy.
fn order(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Option<Vec<usize>> {
    if (1..n).all(|i| cmp(i - 1, i) != Ordering::Greater) {
        return None;
    }
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| cmp(a, b));
    Some(idx)
}

/// `v.sort_by(cmp)`, with one shared copy of the sort.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let Some(sources) = order(v.len(), &mut |a, b| cmp(&v[a], &v[b])) else { return };
    // Where each element goes, then swaps along the cycles: each swap puts one element in its place.
    let mut dest = vec![0; v.len()];
    for (to, from) in sources.into_iter().enumerate() {
        dest[from] = to;
    }
    for i in 0..v.len() {
        while dest[i] != i {
            let d = dest[i];
            v.swap(i, d);
            dest.swap(i, d);
        }
    }
}

/// `v.sort_by_key(key)`.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()`.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// `collect::<BTreeMap<_, _>>()` without the bulk build's sort: inserted one by one, a later
/// duplicate key replacing an earlier one, as `collect` does.
pub fn map<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut out = BTreeMap::new();
    for (k, v) in items {
        out.insert(k, v);
    }
    out
}

/// `collect::<BTreeSet<_>>()`, the same way.
pub fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut out = BTreeSet::new();
    for item in items {
        out.insert(item);
    }
    out
}

/// A set kept as a sorted `Vec`, for the engine's few small sets of strings (a pull request's claims
/// and approvers, a sweep's notes): a `BTreeSet<String>`, with its node code and rebalancing, was
/// 10 KB of the page's Wasm. The `BTreeSet` calls those sets make, in the same order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VecSet<T>(Vec<T>);

impl<T: Ord> VecSet<T> {
    pub fn new() -> Self {
        VecSet(Vec::new())
    }

    fn find<Q: Ord + ?Sized>(&self, q: &Q) -> Result<usize, usize>
    where
        T: std::borrow::Borrow<Q>,
    {
        self.0.binary_search_by(|x| x.borrow().cmp(q))
    }

    pub fn insert(&mut self, item: T) -> bool {
        match self.find(&item) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, item);
                true
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, q: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
    {
        self.find(q).map(|i| self.0.remove(i)).is_ok()
    }

    pub fn contains<Q: Ord + ?Sized>(&self, q: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
    {
        self.find(q).is_ok()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl<T: Ord> Extend<T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.insert(item);
        }
    }
}

impl<T: Ord> FromIterator<T> for VecSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut set = VecSet::new();
        set.extend(items);
        set
    }
}

impl<T> IntoIterator for VecSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_like_the_standard_sort() {
        // (key, arrival): equal keys keep their arrival order.
        let items: Vec<(u8, usize)> = [3u8, 1, 2, 1, 3, 0, 2, 1].iter().enumerate().map(|(i, &k)| (k, i)).collect();
        let mut ours = items.clone();
        sort_by_key(&mut ours, |&(k, _)| k);
        let mut std_sorted = items;
        std_sorted.sort_by_key(|&(k, _)| k);
        assert_eq!(ours, std_sorted);
        assert_eq!(ours.iter().map(|p| p.1).collect::<Vec<_>>(), vec![5, 1, 3, 7, 2, 6, 0, 4]);
    }

    #[test]
    fn sorts_every_length_and_order_the_standard_way() {
        // Lengths 0 to 39 with many equal keys, from a small generator, against std.
        let mut seed = 7u64;
        for len in 0..40 {
            for _ in 0..20 {
                let v: Vec<(u32, String)> = (0..len)
                    .map(|i| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        (((seed >> 33) % 5) as u32, format!("s{i}"))
                    })
                    .collect();
                let (mut a, mut b) = (v.clone(), v);
                sort_by(&mut a, |x, y| x.0.cmp(&y.0));
                b.sort_by(|x, y| x.0.cmp(&y.0));
                assert_eq!(a, b);
            }
        }
        let mut words = vec!["b".to_string(), "a".into(), "c".into(), "a".into()];
        sort(&mut words);
        assert_eq!(words, ["a", "a", "b", "c"]);
    }

    #[test]
    fn builds_maps_and_sets_like_collect() {
        let pairs = vec![(3, "c"), (1, "a"), (3, "C"), (2, "b")];
        assert_eq!(map(pairs.clone()), pairs.into_iter().collect::<BTreeMap<_, _>>(), "a later duplicate wins, as in collect");
        let nums = [5u64, 1, 5, 3];
        assert_eq!(set(nums), nums.into_iter().collect::<BTreeSet<_>>());
    }

    #[test]
    fn a_vec_set_answers_as_a_btree_set() {
        // The same calls on both, from a fixed xorshift: every answer and the order they iterate in.
        let mut x: u32 = 0x9e37_79b9;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let (mut ours, mut theirs) = (VecSet::new(), BTreeSet::new());
        for _ in 0..5_000 {
            let word = format!("m{}", next() % 40);
            match next() % 5 {
                0 | 1 => assert_eq!(ours.insert(word.clone()), theirs.insert(word)),
                2 => assert_eq!(ours.remove(word.as_str()), theirs.remove(word.as_str())),
                3 => assert_eq!(ours.contains(&word), theirs.contains(&word)),
                _ if next() % 50 == 0 => {
                    ours.clear();
                    theirs.clear();
                }
                _ => {}
            }
            assert_eq!(ours.is_empty(), theirs.is_empty());
        }
        ours.extend(["b".to_string(), "a".into(), "b".into()]);
        theirs.extend(["b".to_string(), "a".into(), "b".into()]);
        assert_eq!(ours.iter().collect::<Vec<_>>(), theirs.iter().collect::<Vec<_>>());
        assert_eq!(ours.into_iter().collect::<Vec<_>>(), theirs.into_iter().collect::<Vec<_>>());
    }
}
