//! Timestamps as GitHub writes them (RFC 3339), turned into seconds since the epoch.
//! The engine has no clock: `now` is a fact like any other, so runs are reproducible.

/// Seconds since 1970-01-01T00:00:00Z. Accepts `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !(b[10] == b'T' || b[10] == b't' || b[10] == b' ') {
        return None;
    }
    // Digits only, folded by hand: this runs for every check and review of every pull request, and
    // `str::parse` would also take a sign.
    let num = |from: usize, to: usize| -> Option<i64> {
        b.get(from..to)?
            .iter()
            .try_fold(0i64, |n, &c| c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0')))
    };
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        rest = &frac[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ if rest.len() == 6 && (rest.starts_with('+') || rest.starts_with('-')) && &rest[3..4] == ":" => {
            let at = b.len() - 6;
            let (h, m) = (num(at + 1, at + 3)?, num(at + 4, at + 6)?);
            let sign = if rest.starts_with('-') { -1 } else { 1 };
            sign * (h * 3600 + m * 60)
        }
        _ => return None,
    };
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

/// Days since the epoch of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse, for writing timestamps back (markers, the board).
pub fn format_rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let tod = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        tod / 3600,
        tod % 3600 / 60,
        tod % 60
    )
}

/// "45 min", "2 h", "2 h 5 min", "1 d 3 h": zero parts after the first are left out.
pub fn duration(minutes: i64) -> String {
    let m = minutes.max(0);
    let parts = [(m / 1440, "d"), (m % 1440 / 60, "h"), (m % 60, "min")];
    let words: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n} {unit}"))
        .collect();
    if words.is_empty() {
        "0 min".into()
    } else {
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_github_timestamps() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2026-11-30T19:37:25Z"), Some(1_796_067_445));
        assert_eq!(parse_rfc3339("2026-11-30T19:37:25.123Z"), Some(1_796_067_445));
        assert_eq!(parse_rfc3339("2026-11-30T21:37:25+02:00"), Some(1_796_067_445));
        assert_eq!(parse_rfc3339("2026-11-30"), None);
        assert_eq!(parse_rfc3339("2026-13-30T19:37:25Z"), None);
        assert_eq!(parse_rfc3339("2026-11-30T19:37:25"), None);
        assert_eq!(parse_rfc3339("2026-11-30T14:07:25-05:30"), Some(1_796_067_445));
        // Every field is digits only: a sign inside one is not a number.
        assert_eq!(parse_rfc3339("2026-+1-30T19:37:25Z"), None);
        assert_eq!(parse_rfc3339("2026-11-30T19:37:25++2:00"), None);
        assert_eq!(parse_rfc3339("2026-11-30T19:37:25+0a:00"), None);
    }

    #[test]
    fn formats_back() {
        for t in [0, 1_796_067_445, 951_782_400, 4_107_542_399] {
            assert_eq!(parse_rfc3339(&format_rfc3339(t)), Some(t));
        }
        assert_eq!(format_rfc3339(1_796_067_445), "2026-11-30T19:37:25Z");
    }
}
