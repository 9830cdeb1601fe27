//! The Action's and the CLI's call arena (src/arena.rs) tested where it is the allocator: inside Wasm,
//! in the full build. What a decision relies on: every block keeps its bytes however allocations of
//! both kinds interleave, grow, shrink and free; what was made outside a call survives the arena's
//! restart; and a Vec filled while strings are made grows where it is.
#![cfg(target_arch = "wasm32")]

use prflow::codec::arena::CallScope;
use wasm_bindgen_test::wasm_bindgen_test;

/// A pull request's check runs as the reader makes them: a string for each, the Vec growing between.
#[wasm_bindgen_test]
fn a_vec_filled_between_strings_grows_where_it_is() {
    let _call = CallScope::enter();
    let mut names: Vec<String> = Vec::with_capacity(64);
    let mut runs: Vec<(u64, u32)> = Vec::new();
    runs.push((0, 0));
    let first = runs.as_ptr();
    for i in 1..64u32 {
        names.push(format!("workflow {i} / job {i}"));
        runs.push((u64::from(i) * 3, i));
        // One region for both made every string after the Vec move it: a copy per doubling.
        assert_eq!(runs.as_ptr(), first, "the Vec moved at element {i}");
    }
    assert!(runs.iter().enumerate().all(|(i, &(a, b))| a == i as u64 * 3 && b == i as u32));
    assert!(names.iter().enumerate().all(|(i, n)| *n == format!("workflow {} / job {}", i + 1, i + 1)));
}

/// A small deterministic generator, so a failure replays.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// Strings and Vecs of every alignment made, grown, shrunk and dropped in a shuffled order, in nested
/// calls, checked against what each should hold; then a second call reuses the memory while blocks
/// made outside any call keep theirs.
#[wasm_bindgen_test]
fn blocks_keep_their_bytes_through_interleaved_growth_and_restarts() {
    let outside: Vec<String> = (0..50).map(|i| format!("made before any call {i}")).collect();
    for round in 0..3u64 {
        let _call = CallScope::enter();
        let mut rng = Lcg(round + 1);
        let mut texts: Vec<(String, u8)> = Vec::new();
        let mut words: Vec<(Vec<u64>, u64)> = Vec::new();
        let mut halves: Vec<Vec<u16>> = Vec::new();
        for step in 0..4000u64 {
            match rng.next(7) {
                0 => texts.push((String::new(), (step % 26) as u8)),
                1 => {
                    if let Some((text, letter)) = texts.last_mut() {
                        let n = rng.next(40) as usize;
                        text.extend(std::iter::repeat_n(char::from(b'a' + *letter), n));
                    }
                }
                2 => words.push(((0..rng.next(30)).map(|k| k * step).collect(), step)),
                3 => {
                    if let Some((w, factor)) = words.last_mut() {
                        let (base, factor) = (w.len() as u64, *factor);
                        w.extend((base..base + rng.next(20)).map(|k| k * factor));
                    }
                }
                4 => {
                    let i = rng.next(texts.len() as u64 + 1) as usize;
                    if i < texts.len() {
                        texts.swap_remove(i);
                    }
                }
                5 => {
                    let _inner = CallScope::enter();
                    halves.push((0..rng.next(50) as u16).collect());
                    if let Some(h) = halves.last_mut() {
                        h.shrink_to_fit();
                    }
                }
                _ => {
                    if let Some((text, _)) = texts.last_mut() {
                        text.truncate(text.len() / 2);
                        text.shrink_to_fit();
                    }
                }
            }
        }
        for (text, letter) in &texts {
            assert!(text.bytes().all(|b| b == b'a' + letter), "round {round}: a string lost its bytes");
        }
        for (w, factor) in &words {
            assert!(w.iter().enumerate().all(|(k, &v)| v == k as u64 * factor), "round {round}: a Vec<u64> lost its elements");
        }
        for h in &halves {
            assert!(h.iter().enumerate().all(|(k, &v)| usize::from(v) == k), "round {round}: a Vec<u16> lost its elements");
        }
        assert!(!texts.is_empty() && !words.is_empty() && !halves.is_empty(), "round {round}: the mix made every kind");
    }
    assert!(outside.iter().enumerate().all(|(i, s)| *s == format!("made before any call {i}")), "a block from outside the calls was reused");
}
