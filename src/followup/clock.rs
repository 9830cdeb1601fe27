//! Time in state: from the last time the current state label was applied (read from the timeline)
//! to `now`, in wall-clock minutes or counting only the team's working hours.
//!
//! Zones: no tz database ships in the Wasm (it would triple its size and go stale). A fixed
//! `utcOffsetMinutes` covers any team; a small table of common zones adds the three daylight-saving
//! rules most teams live under (EU, US, south-east Australia). The offset is taken per local day at
//! noon, which is exact for working hours because every switch happens at night.

use crate::facts::PullRequest;
use crate::time::{days_from_civil, parse_rfc3339};

use super::settings::WorkingHours;

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
    ZONES.iter().find(|(n, _, _)| *n == name).map(|&(_, standard, dst)| Zone { standard, dst })
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
    let last = if m == 12 { days_from_civil(y + 1, 1, 1) } else { days_from_civil(y, m + 1, 1) } - 1;
    last - (weekday(last) + 1) % 7
}

fn year_of(day: i64) -> i64 {
    // Good enough to pick the year's rule dates: the day's year in the proleptic calendar.
    let y = 1970 + day.div_euclid(365);
    (y - 2..=y + 1).rev().find(|&y| days_from_civil(y, 1, 1) <= day).unwrap_or(y)
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

/// Counts minutes between two instants, by the wall clock or by working hours only.
#[derive(Debug, Clone)]
pub enum Clock {
    Wall,
    Working { zone: Zone, days: [bool; 7], start: i64, end: i64 },
}

/// Beyond this many days the working clock stops counting further back: a stay that long is past
/// every level anyway, and the sweep must stay cheap.
const MAX_DAYS: i64 = 3700;

impl Clock {
    /// The clock of a validated config.
    pub fn new(wh: &WorkingHours) -> Clock {
        if !wh.enabled {
            return Clock::Wall;
        }
        let zone = match wh.utc_offset_minutes {
            Some(m) => Zone { standard: m, dst: Dst::None },
            None => zone(&wh.zone).unwrap_or(Zone { standard: 0, dst: Dst::None }),
        };
        let mut days = [false; 7];
        for d in &wh.days {
            days[d.index() as usize] = true;
        }
        let start = parse_hhmm(&wh.start).unwrap_or(540) as i64;
        let end = parse_hhmm(&wh.end).unwrap_or(1080) as i64;
        Clock::Working { zone, days, start, end }
    }

    /// Whole minutes from `since` to `now` (both seconds since the epoch); 0 if `since` is later.
    pub fn minutes(&self, since: i64, now: i64) -> i64 {
        if now <= since {
            return 0;
        }
        match self {
            Clock::Wall => (now - since) / 60,
            Clock::Working { zone, days, start, end } => {
                let widest = 15 * 3600; // no zone is further than this from UTC
                let mut first = (since - widest).div_euclid(86_400);
                let last = (now + widest).div_euclid(86_400);
                first = first.max(last - MAX_DAYS);
                let mut seconds = 0;
                for day in first..=last {
                    if !days[weekday(day) as usize] {
                        continue;
                    }
                    let off = i64::from(zone.offset_on(day)) * 60;
                    let open = day * 86_400 + start * 60 - off;
                    let close = day * 86_400 + end * 60 - off;
                    seconds += (close.min(now) - open.max(since)).max(0);
                }
                seconds / 60
            }
        }
    }

    /// A short description for the board: "Mon–Fri 09:00–18:00 UTC+08:00".
    pub fn describe(&self, wh: &WorkingHours) -> Option<String> {
        match self {
            Clock::Wall => None,
            Clock::Working { zone, .. } => {
                let days: Vec<String> = wh.days.iter().map(|d| format!("{d:?}")).collect();
                let tz = match wh.utc_offset_minutes {
                    Some(_) => utc_offset(zone.standard),
                    None => wh.zone.clone(),
                };
                Some(format!("{} {}–{} {}", days.join(" "), wh.start, wh.end, tz))
            }
        }
    }
}

/// `UTC+08:00`, `UTC-05:30`, `UTC`.
pub fn utc_offset(minutes: i32) -> String {
    if minutes == 0 {
        return "UTC".into();
    }
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.abs();
    format!("UTC{sign}{:02}:{:02}", m / 60, m % 60)
}

/// When `label` was last applied, from the timeline (seconds since the epoch).
pub fn last_applied(pr: &PullRequest, label: &str) -> Option<i64> {
    pr.timeline
        .iter()
        .filter(|e| e.kind == "labeled" && e.label.as_deref() == Some(label))
        .filter_map(|e| parse_rfc3339(&e.at))
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::followup::settings::Day;

    fn t(s: &str) -> i64 {
        parse_rfc3339(s).unwrap()
    }

    #[test]
    fn daylight_saving_dates() {
        // Rule → (a day in summer time, a day in standard time), checked against published 2026 dates.
        let cases = [
            ("Europe/Berlin: summer from 29 March", "Europe/Berlin", (2026, 3, 30), 120, (2026, 3, 28), 60),
            ("Europe/Berlin: winter from 25 October", "Europe/Berlin", (2026, 10, 24), 120, (2026, 10, 26), 60),
            ("America/New_York: summer from 8 March", "America/New_York", (2026, 3, 9), -240, (2026, 3, 7), -300),
            ("America/New_York: winter from 1 November", "America/New_York", (2026, 10, 31), -240, (2026, 11, 2), -300),
            ("Australia/Sydney: summer from 4 October", "Australia/Sydney", (2026, 10, 5), 660, (2026, 10, 3), 600),
            ("Asia/Taipei: no daylight saving", "Asia/Taipei", (2026, 7, 1), 480, (2026, 1, 1), 480),
        ];
        for (rule, name, summer, summer_off, winter, winter_off) in cases {
            let z = zone(name).unwrap();
            assert_eq!(z.offset_on(days_from_civil(summer.0, summer.1, summer.2)), summer_off, "{rule}");
            assert_eq!(z.offset_on(days_from_civil(winter.0, winter.1, winter.2)), winter_off, "{rule}");
        }
    }

    #[test]
    fn weekday_of_known_dates() {
        assert_eq!(weekday(days_from_civil(2026, 11, 30)), 0, "30 Nov 2026 is a Monday");
        assert_eq!(weekday(days_from_civil(1970, 1, 1)), 3, "1 Jan 1970 was a Thursday");
    }

    #[test]
    fn working_minutes() {
        let wh = |offset: Option<i32>, zone: &str| WorkingHours {
            enabled: true,
            utc_offset_minutes: offset,
            zone: zone.into(),
            days: vec![Day::Mon, Day::Tue, Day::Wed, Day::Thu, Day::Fri],
            start: "09:00".into(),
            end: "18:00".into(),
        };
        // (rule, hours, since, now, minutes)
        let cases = [
            ("inside one working day, counted like the wall clock", wh(None, "UTC"), "2026-11-30T10:00:00Z", "2026-11-30T11:30:00Z", 90),
            ("the night does not count", wh(None, "UTC"), "2026-11-30T17:00:00Z", "2026-12-01T10:00:00Z", 120),
            ("Friday 17:00 to Monday 10:00 is two working hours", wh(None, "UTC"), "2026-11-27T17:00:00Z", "2026-11-30T10:00:00Z", 120),
            ("a whole weekend counts nothing", wh(None, "UTC"), "2026-11-28T08:00:00Z", "2026-11-29T20:00:00Z", 0),
            ("UTC+8: Friday 17:00 local (09:00Z) to Monday 10:00 local (02:00Z)", wh(Some(480), "UTC"), "2026-11-27T09:00:00Z", "2026-11-30T02:00:00Z", 120),
            ("UTC+8: 18:00Z Sunday is 02:00 Monday local, before work", wh(Some(480), "UTC"), "2026-11-29T18:00:00Z", "2026-11-30T01:30:00Z", 30),
            ("UTC-5 zone with DST: 14:00Z in July is 10:00 local", wh(None, "America/New_York"), "2026-07-01T12:00:00Z", "2026-07-01T14:00:00Z", 60),
            ("before since: nothing", wh(None, "UTC"), "2026-11-30T12:00:00Z", "2026-11-30T11:00:00Z", 0),
        ];
        for (rule, hours, since, now, minutes) in cases {
            assert_eq!(Clock::new(&hours).minutes(t(since), t(now)), minutes, "{rule}");
        }
        assert_eq!(Clock::Wall.minutes(t("2026-11-27T17:00:00Z"), t("2026-11-30T10:00:00Z")), 65 * 60, "wall clock counts the weekend");
    }

    #[test]
    fn hhmm() {
        assert_eq!(parse_hhmm("09:30"), Some(570));
        assert_eq!(parse_hhmm("24:00"), Some(1440));
        assert_eq!(parse_hhmm("9:30"), None);
        assert_eq!(parse_hhmm("25:00"), None);
    }
}
