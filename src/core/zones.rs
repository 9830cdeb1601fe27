//! Zones and `HH:MM` for working hours, without a tz database (it would triple the Wasm and go
//! stale): a fixed standard offset per zone and the three daylight-saving rules most teams live under.
//! Apart from the clock so the config's validation can name the zones without depending on it.

use crate::core::time::days_from_civil;

/// `HH:MM` to minutes after midnight.
pub fn parse_hhmm(s: &str) -> Option<u32> {
    let (h, m) = s.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h <= 24 && m <= 59 && h * 60 + m <= 1440).then_some(h * 60 + m)
}

/// A daylight-saving rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dst {
    None,
    /// Last Sunday of March to last Sunday of October.
    Eu,
    /// Second Sunday of March to first Sunday of November.
    Us,
    /// First Sunday of October to first Sunday of April (southern summer).
    Au,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Zone {
    /// Standard offset from UTC, minutes.
    pub standard: i32,
    pub dst: Dst,
}

const ZONES: &[(&str, i32, Dst)] = &[
    ("UTC", 0, Dst::None),
    ("Europe/London", 0, Dst::Eu),
    ("Europe/Dublin", 0, Dst::Eu),
    ("Europe/Lisbon", 0, Dst::Eu),
    ("Europe/Amsterdam", 60, Dst::Eu),
    ("Europe/Berlin", 60, Dst::Eu),
    ("Europe/Madrid", 60, Dst::Eu),
    ("Europe/Paris", 60, Dst::Eu),
    ("Europe/Rome", 60, Dst::Eu),
    ("Europe/Stockholm", 60, Dst::Eu),
    ("Europe/Warsaw", 60, Dst::Eu),
    ("Europe/Zurich", 60, Dst::Eu),
    ("Europe/Athens", 120, Dst::Eu),
    ("Europe/Helsinki", 120, Dst::Eu),
    ("Europe/Kyiv", 120, Dst::Eu),
    ("Europe/Istanbul", 180, Dst::None),
    ("Europe/Moscow", 180, Dst::None),
    ("Asia/Dubai", 240, Dst::None),
    ("Asia/Kolkata", 330, Dst::None),
    ("Asia/Singapore", 480, Dst::None),
    ("Asia/Shanghai", 480, Dst::None),
    ("Asia/Hong_Kong", 480, Dst::None),
    ("Asia/Taipei", 480, Dst::None),
    ("Asia/Seoul", 540, Dst::None),
    ("Asia/Tokyo", 540, Dst::None),
    ("Australia/Brisbane", 600, Dst::None),
    ("Australia/Melbourne", 600, Dst::Au),
    ("Australia/Sydney", 600, Dst::Au),
    ("America/Sao_Paulo", -180, Dst::None),
    ("America/New_York", -300, Dst::Us),
    ("America/Toronto", -300, Dst::Us),
    ("America/Chicago", -360, Dst::Us),
    ("America/Denver", -420, Dst::Us),
    ("America/Phoenix", -420, Dst::None),
    ("America/Los_Angeles", -480, Dst::Us),
    ("America/Vancouver", -480, Dst::Us),
];

pub fn zone(name: &str) -> Option<Zone> {
    ZONES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, standard, dst)| Zone { standard, dst })
}

pub fn zone_names() -> Vec<&'static str> {
    ZONES.iter().map(|(n, _, _)| *n).collect()
}

/// 0 = Monday.
pub fn weekday(day: i64) -> i64 {
    (day + 3).rem_euclid(7)
}

fn first_sunday(y: i64, m: i64) -> i64 {
    let d1 = days_from_civil(y, m, 1);
    d1 + (6 - weekday(d1))
}

fn last_sunday(y: i64, m: i64) -> i64 {
    let last = if m == 12 {
        days_from_civil(y + 1, 1, 1)
    } else {
        days_from_civil(y, m + 1, 1)
    } - 1;
    last - (weekday(last) + 1) % 7
}

fn year_of(day: i64) -> i64 {
    // Good enough to pick the year's rule dates: the day's year in the proleptic calendar.
    let y = 1970 + day.div_euclid(365);
    (y - 2..=y + 1)
        .rev()
        .find(|&y| days_from_civil(y, 1, 1) <= day)
        .unwrap_or(y)
}

impl Zone {
    /// The offset in minutes on a local calendar day (days since the epoch), at noon.
    pub fn offset_on(&self, day: i64) -> i32 {
        let y = year_of(day);
        let summer = match self.dst {
            Dst::None => false,
            Dst::Eu => last_sunday(y, 3) <= day && day < last_sunday(y, 10),
            Dst::Us => first_sunday(y, 3) + 7 <= day && day < first_sunday(y, 11),
            Dst::Au => !(first_sunday(y, 4) <= day && day < first_sunday(y, 10)),
        };
        self.standard + if summer { 60 } else { 0 }
    }
}
