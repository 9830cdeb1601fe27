//! Time in state: from the last time the current state label was applied (read from the timeline)
//! to `now`, in wall-clock minutes or counting only the team's working hours.
//!
//! Zones: no tz database ships in the Wasm (it would triple its size and go stale). A fixed
//! `utcOffsetMinutes` covers any team; a small table of common zones adds the three daylight-saving
//! rules most teams live under (EU, US, south-east Australia). The offset is taken per local day at
//! noon, which is exact for working hours because every switch happens at night.

use crate::core::config::followup::WorkingHours;
use crate::core::facts::PullRequest;
use crate::core::time::parse_rfc3339;

pub use crate::core::zones::{parse_hhmm, weekday, zone, zone_names, Dst, Zone};

/// Counts minutes between two instants, by the wall clock or by working hours only.
#[derive(Debug, Clone)]
pub enum Clock {
    Wall,
    Working {
        zone: Zone,
        days: [bool; 7],
        start: i64,
        end: i64,
    },
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
            Some(m) => Zone {
                standard: m,
                dst: Dst::None,
            },
            None => zone(&wh.zone).unwrap_or(Zone {
                standard: 0,
                dst: Dst::None,
            }),
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
    use crate::core::config::followup::Day;
    use crate::core::time::days_from_civil;

    fn t(s: &str) -> i64 {
        parse_rfc3339(s).unwrap()
    }

    #[test]
    fn daylight_saving_dates() {
        // Rule → (a day in summer time, a day in standard time), checked against published 2026 dates.
        let cases = [
            (
                "Europe/Berlin: summer from 29 March",
                "Europe/Berlin",
                (2026, 3, 30),
                120,
                (2026, 3, 28),
                60,
            ),
            (
                "Europe/Berlin: winter from 25 October",
                "Europe/Berlin",
                (2026, 10, 24),
                120,
                (2026, 10, 26),
                60,
            ),
            (
                "America/New_York: summer from 8 March",
                "America/New_York",
                (2026, 3, 9),
                -240,
                (2026, 3, 7),
                -300,
            ),
            (
                "America/New_York: winter from 1 November",
                "America/New_York",
                (2026, 10, 31),
                -240,
                (2026, 11, 2),
                -300,
            ),
            (
                "Australia/Sydney: summer from 4 October",
                "Australia/Sydney",
                (2026, 10, 5),
                660,
                (2026, 10, 3),
                600,
            ),
            (
                "Asia/Taipei: no daylight saving",
                "Asia/Taipei",
                (2026, 7, 1),
                480,
                (2026, 1, 1),
                480,
            ),
        ];
        for (rule, name, summer, summer_off, winter, winter_off) in cases {
            let z = zone(name).unwrap();
            assert_eq!(
                z.offset_on(days_from_civil(summer.0, summer.1, summer.2)),
                summer_off,
                "{rule}"
            );
            assert_eq!(
                z.offset_on(days_from_civil(winter.0, winter.1, winter.2)),
                winter_off,
                "{rule}"
            );
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
            (
                "inside one working day, counted like the wall clock",
                wh(None, "UTC"),
                "2026-11-30T10:00:00Z",
                "2026-11-30T11:30:00Z",
                90,
            ),
            (
                "the night does not count",
                wh(None, "UTC"),
                "2026-11-30T17:00:00Z",
                "2026-12-01T10:00:00Z",
                120,
            ),
            (
                "Friday 17:00 to Monday 10:00 is two working hours",
                wh(None, "UTC"),
                "2026-11-27T17:00:00Z",
                "2026-11-30T10:00:00Z",
                120,
            ),
            (
                "a whole weekend counts nothing",
                wh(None, "UTC"),
                "2026-11-28T08:00:00Z",
                "2026-11-29T20:00:00Z",
                0,
            ),
            (
                "UTC+8: Friday 17:00 local (09:00Z) to Monday 10:00 local (02:00Z)",
                wh(Some(480), "UTC"),
                "2026-11-27T09:00:00Z",
                "2026-11-30T02:00:00Z",
                120,
            ),
            (
                "UTC+8: 18:00Z Sunday is 02:00 Monday local, before work",
                wh(Some(480), "UTC"),
                "2026-11-29T18:00:00Z",
                "2026-11-30T01:30:00Z",
                30,
            ),
            (
                "UTC-5 zone with DST: 14:00Z in July is 10:00 local",
                wh(None, "America/New_York"),
                "2026-07-01T12:00:00Z",
                "2026-07-01T14:00:00Z",
                60,
            ),
            (
                "before since: nothing",
                wh(None, "UTC"),
                "2026-11-30T12:00:00Z",
                "2026-11-30T11:00:00Z",
                0,
            ),
        ];
        for (rule, hours, since, now, minutes) in cases {
            assert_eq!(Clock::new(&hours).minutes(t(since), t(now)), minutes, "{rule}");
        }
        assert_eq!(
            Clock::Wall.minutes(t("2026-11-27T17:00:00Z"), t("2026-11-30T10:00:00Z")),
            65 * 60,
            "wall clock counts the weekend"
        );
    }

    #[test]
    fn hhmm() {
        assert_eq!(parse_hhmm("09:30"), Some(570));
        assert_eq!(parse_hhmm("24:00"), Some(1440));
        assert_eq!(parse_hhmm("9:30"), None);
        assert_eq!(parse_hhmm("25:00"), None);
    }
}
