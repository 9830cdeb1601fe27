//! Pull request numbers in words (`#1, #2`, a long cycle by its first members and a count), for every
//! reason and log line the queue writes.

/// `#1, #2`.
pub fn numbers(ns: &[u64]) -> String {
    ns.iter().map(|n| format!("#{n}")).collect::<Vec<_>>().join(", ")
}

/// Members a cycle's reason names in full; a longer cycle is named by its first members and a count.
pub const CYCLE_NAMED: usize = 8;

/// A cycle as one member's reason names it: every member up to CYCLE_NAMED (`#1, #2`), else the
/// first few, this member among them, and `and N more` (`#1, #2, #3, #57 and 9,996 more`). Every
/// member of a ring of 10,000 carrying the whole ring made the report quadratic (9.65 s, 1.68 GB);
/// the report's `cycles` still lists every member once.
pub fn cycle_numbers(cycle: &[u64], member: u64) -> String {
    if cycle.len() <= CYCLE_NAMED {
        return numbers(cycle);
    }
    let mut named: Vec<u64> = cycle.iter().copied().take(3).collect();
    // The caller names a member of this cycle; asking `cycle.contains` here would be quadratic again.
    if !named.contains(&member) {
        named.push(member);
    }
    format!("{} and {} more", numbers(&named), thousands(cycle.len() - named.len()))
}

/// `9996` as `9,996`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
