//! One worker per repository: the lease a queue worker (resident, or the Action's one cycle) holds on
//! GitHub before its first write. The shell reads the lease record and writes what this rule answers
//! with a compare-and-swap on what it read (a leased push of a ref), so two workers that decide "take"
//! at once cannot both win: the loser's write fails, it reads again and is told to wait.
//!
//! A lease lasts `ttlSeconds` from its last renewal. The holder keeps it without reading while more
//! than half of that is left (a lease no one else can take needs no read), renews it past that, and
//! writes it expired when it leaves; another worker takes it over only once it has expired, so a
//! worker that died stops the queue for at most one `ttlSeconds`.

use crate::core::markers;
use crate::core::time::{format_rfc3339, parse_rfc3339};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const KIND_LEASE: &str = "lease";
/// How long a lease lasts from its last renewal unless the shell says otherwise.
pub const DEFAULT_TTL_SECONDS: u64 = 600;

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LeaseInput {
    /// This worker's name (host, process): the holder it writes.
    pub me: String,
    /// GitHub's time now (the Date of its last answer).
    pub now: String,
    /// The lease record as read from GitHub; null when there is none (or when it was not read: see `held`).
    #[serde(default)]
    pub record: Option<String>,
    /// The record this worker last wrote, when it has not read since: enough to keep a lease with time left.
    #[serde(default)]
    pub held: Option<String>,
    /// How long a lease lasts from its last renewal (default 600).
    #[serde(default)]
    pub ttl_seconds: Option<u64>,
    /// The worker is leaving: write its lease expired.
    #[serde(default)]
    pub release: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeaseDecision {
    /// `keep` (held, time left: nothing to write), `read` (read the record and ask again), `take`,
    /// `renew`, `release` (write `record` swapped for what was read), `wait` (another holds it), `none`.
    pub action: String,
    /// The record to write for `take`, `renew` and `release`.
    pub record: Option<String>,
    /// Who holds the lease after this answer (for `wait`: the other worker).
    pub holder: Option<String>,
    /// Until when.
    pub until: Option<String>,
    /// For `wait`: seconds before asking again.
    pub wait_seconds: u64,
    /// What to log.
    pub message: String,
}

struct Lease {
    holder: String,
    until: i64,
}

fn parse(record: &str) -> Option<Lease> {
    let m = markers::parse(record).filter(|m| m.kind == KIND_LEASE)?;
    Some(Lease {
        holder: m.get("holder").to_string(),
        until: parse_rfc3339(m.get("until"))?,
    })
}

fn body(me: &str, now: i64, until: i64) -> String {
    markers::render(
        KIND_LEASE,
        &[
            ("holder", me),
            ("until", &format_rfc3339(until)),
            ("at", &format_rfc3339(now)),
        ],
    )
}

fn answer(
    action: &str,
    record: Option<String>,
    holder: Option<&str>,
    until: Option<i64>,
    wait_seconds: u64,
    message: String,
) -> LeaseDecision {
    LeaseDecision {
        action: action.into(),
        record,
        holder: holder.map(Into::into),
        until: until.map(format_rfc3339),
        wait_seconds,
        message,
    }
}

pub fn lease(i: &LeaseInput) -> Result<LeaseDecision, String> {
    let now = parse_rfc3339(&i.now).ok_or_else(|| format!("$.now: expected an RFC 3339 time, found {:?}", i.now))?;
    if !markers::valid_value(&i.me) {
        return Err(format!(
            "$.me: {:?} cannot be a holder's name (no spaces, `=` or `--`)",
            i.me
        ));
    }
    let ttl = i64::try_from(i.ttl_seconds.unwrap_or(DEFAULT_TTL_SECONDS).max(1)).unwrap_or(i64::MAX / 4);
    let me = i.me.as_str();
    if let Some(held) = i.held.as_deref().and_then(parse).filter(|l| l.holder == me) {
        if !i.release && held.until - now > ttl / 2 {
            return Ok(answer(
                "keep",
                None,
                Some(me),
                Some(held.until),
                0,
                format!("the queue's lease is ours until {}", format_rfc3339(held.until)),
            ));
        }
        return Ok(answer(
            "read",
            None,
            Some(me),
            Some(held.until),
            0,
            "the queue's lease is read before it is renewed or released".into(),
        ));
    }
    let current = i.record.as_deref().and_then(parse);
    match current {
        Some(l) if l.holder == me && i.release => Ok(answer(
            "release",
            Some(body(me, now, now)),
            None,
            None,
            0,
            "the queue's lease released".into(),
        )),
        Some(l) if l.holder == me => Ok(answer(
            "renew",
            Some(body(me, now, now + ttl)),
            Some(me),
            Some(now + ttl),
            0,
            format!("the queue's lease renewed until {}", format_rfc3339(now + ttl)),
        )),
        _ if i.release => Ok(answer(
            "none",
            None,
            None,
            None,
            0,
            "the queue's lease is not ours: nothing to release".into(),
        )),
        Some(l) if l.until > now => {
            // Asked again at the expiry, or sooner when the holder's lease is far off (it may leave early).
            let wait = u64::try_from((l.until - now).min(ttl)).unwrap_or(1).max(1);
            let message = format!(
                "the queue is held by {} until {}: waiting",
                l.holder,
                format_rfc3339(l.until)
            );
            Ok(answer("wait", None, Some(&l.holder), Some(l.until), wait, message))
        }
        Some(l) => {
            let message = format!(
                "the queue's lease taken over from {} (it expired at {}) until {}",
                l.holder,
                format_rfc3339(l.until),
                format_rfc3339(now + ttl)
            );
            Ok(answer(
                "take",
                Some(body(me, now, now + ttl)),
                Some(me),
                Some(now + ttl),
                0,
                message,
            ))
        }
        None => Ok(answer(
            "take",
            Some(body(me, now, now + ttl)),
            Some(me),
            Some(now + ttl),
            0,
            format!("the queue's lease taken until {}", format_rfc3339(now + ttl)),
        )),
    }
}
