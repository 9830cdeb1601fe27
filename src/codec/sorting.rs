//! One sort and one map builder for the whole engine. The standard library's sort is generic, so each
//! element type and each key closure compiled its own copy of it (about 4.5 KB of Wasm apiece: a
//! seventh of the module), and `collect()` into a `BTreeMap` sorts too. Here the comparison goes
//! behind one `dyn` over indices, so there is one copy of the sort; the elements are then moved into
//! that order. Stable, like `sort_by`.

use std::cmp::Ordering;
use std::collections::BTreeMap;

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
    permute(v, destinations(&sources));
}

/// Where each element goes, from where each place's element comes from.
fn destinations(sources: &[usize]) -> Vec<usize> {
    let mut dest = vec![0; sources.len()];
    for (to, &from) in sources.iter().enumerate() {
        dest[from] = to;
    }
    dest
}

/// Moves element `i` to `dest[i]` by swaps along the cycles: each swap puts one element in its place.
fn permute<T>(v: &mut [T], mut dest: Vec<usize>) {
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

/// A map built once from pairs and then read (a pull request's number to its verdict, a branch to its
/// pull request, a config's machines by id): the keys sorted in one `Vec`, the values beside them. A
/// `BTreeMap` brought its node code (insert with splits, search, iteration, drop) for every key and
/// value type, about 14 KB of the page's Wasm for the maps keyed by number alone; here a lookup is a
/// binary search over the keys, one copy per key type, and building one sorts once. In JSON it is an
/// object, as a `BTreeMap` is (same text, same schema), so it serves the config's and facts' maps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    keys: Vec<K>,
    values: Vec<V>,
}

/// The pairs' keys and values side by side, stably sorted by key. Numbers usually arrive in order
/// (GitHub lists them so, and maps are built from maps): `order` says so and nothing moves.
fn by_key<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> (Vec<K>, Vec<V>) {
    let (mut keys, mut values): (Vec<K>, Vec<V>) = items.into_iter().unzip();
    if let Some(sources) = order(keys.len(), &mut |a, b| keys[a].cmp(&keys[b])) {
        let dest = destinations(&sources);
        permute(&mut keys, dest.clone());
        permute(&mut values, dest);
    }
    (keys, values)
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { keys: Vec::new(), values: Vec::new() }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// `collect::<BTreeMap<_, _>>()`: a later duplicate key replaces an earlier one.
    pub fn new(items: impl IntoIterator<Item = (K, V)>) -> Self {
        let (mut keys, mut values) = by_key(items);
        // Of equal keys (now adjacent, in arrival order) the last stays.
        let mut kept = 0;
        for i in 0..keys.len() {
            if i + 1 < keys.len() && keys[i] == keys[i + 1] {
                continue;
            }
            keys.swap(kept, i);
            values.swap(kept, i);
            kept += 1;
        }
        keys.truncate(kept);
        values.truncate(kept);
        VecMap { keys, values }
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.keys.binary_search_by(|k| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.values[i])
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// The key's place in key order (`0..len()`), for arrays kept beside the map.
    pub fn position(&self, key: &K) -> Option<usize> {
        self.find(key).ok()
    }

    /// `BTreeMap::insert`: the value a key had is replaced and returned. Linear in the map: for the
    /// small maps a config or a marker has, not for building a board's.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.values[i], value)),
            Err(i) => {
                self.keys.insert(i, key);
                self.values.insert(i, value);
                None
            }
        }
    }

    /// The entry at a place in key order.
    pub fn at(&self, place: usize) -> (&K, &V) {
        (&self.keys[place], &self.values[place])
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn keys(&self) -> std::slice::Iter<'_, K> {
        self.keys.iter()
    }

    pub fn values(&self) -> std::slice::Iter<'_, V> {
        self.values.iter()
    }

    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, V> {
        self.values.iter_mut()
    }

    pub fn iter(&self) -> std::iter::Zip<std::slice::Iter<'_, K>, std::slice::Iter<'_, V>> {
        self.keys.iter().zip(&self.values)
    }
}

impl<K: Ord, V> VecMap<K, Vec<V>> {
    /// Each key with all its values, in arrival order (`entry(k).or_default().push(v)` for each pair).
    pub fn grouped(items: impl IntoIterator<Item = (K, V)>) -> Self {
        let (keys, values) = by_key(items);
        let mut map = VecMap::default();
        for (k, v) in keys.into_iter().zip(values) {
            if map.keys.last() != Some(&k) {
                map.keys.push(k);
                map.values.push(Vec::new());
            }
            map.values.last_mut().expect("a group was just opened").push(v);
        }
        map
    }
}

impl<K: Ord + std::borrow::Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;

    /// Like `BTreeMap`'s: the key must be there.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("a key of the map")
    }
}

impl<'m, K, V> IntoIterator for &'m VecMap<K, V> {
    type Item = (&'m K, &'m V);
    type IntoIter = std::iter::Zip<std::slice::Iter<'m, K>, std::slice::Iter<'m, V>>;

    fn into_iter(self) -> Self::IntoIter {
        self.keys.iter().zip(&self.values)
    }
}

impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for VecMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.keys.iter().zip(&self.values))
    }
}

impl<'de, K: serde::Deserialize<'de> + Ord, V: serde::Deserialize<'de>> serde::Deserialize<'de> for VecMap<K, V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Pairs<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: serde::Deserialize<'de> + Ord, V: serde::Deserialize<'de>> serde::de::Visitor<'de> for Pairs<K, V> {
            type Value = VecMap<K, V>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(VecMap::new(pairs))
            }
        }
        d.deserialize_map(Pairs(std::marker::PhantomData))
    }
}

/// The schema of the `BTreeMap` it stands for: an object.
impl<K: schemars::JsonSchema, V: schemars::JsonSchema> schemars::JsonSchema for VecMap<K, V> {
    fn is_referenceable() -> bool {
        BTreeMap::<K, V>::is_referenceable()
    }

    fn schema_name() -> String {
        BTreeMap::<K, V>::schema_name()
    }

    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        BTreeMap::<K, V>::json_schema(gen)
    }
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
    use std::collections::BTreeSet;

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
                b.sort_by_key(|x| x.0);
                assert_eq!(a, b);
            }
        }
        let mut words = vec!["b".to_string(), "a".into(), "c".into(), "a".into()];
        sort(&mut words);
        assert_eq!(words, ["a", "a", "b", "c"]);
    }

    #[test]
    fn builds_maps_like_collect() {
        let pairs = vec![(3, "c"), (1, "a"), (3, "C"), (2, "b")];
        assert_eq!(map(pairs.clone()), pairs.into_iter().collect::<BTreeMap<_, _>>(), "a later duplicate wins, as in collect");
    }

    // proptest is a native dev-dependency only; the other tests here also run inside Wasm.
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn a_vec_map_answers_as_a_btree_map(pairs in proptest::collection::vec((0u64..30, 0u32..1000), 0..80)) {
            let ours = VecMap::new(pairs.clone());
            let theirs: BTreeMap<u64, u32> = pairs.iter().copied().collect();
            proptest::prop_assert_eq!(ours.iter().map(|(&k, &v)| (k, v)).collect::<Vec<_>>(), theirs.iter().map(|(&k, &v)| (k, v)).collect::<Vec<_>>());
            for k in 0..31 {
                proptest::prop_assert_eq!(ours.get(&k), theirs.get(&k));
                proptest::prop_assert_eq!(ours.position(&k), theirs.keys().position(|&x| x == k));
            }
            let grouped = VecMap::grouped(pairs.clone());
            let mut want: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
            for (k, v) in pairs {
                want.entry(k).or_default().push(v);
            }
            proptest::prop_assert_eq!(grouped.iter().map(|(&k, v)| (k, v.clone())).collect::<Vec<_>>(), want.into_iter().collect::<Vec<_>>());
        }
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
