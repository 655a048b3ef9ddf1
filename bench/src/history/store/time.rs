//! A run's time as RFC 3339 text in UTC (`2026-11-29T05:30:00Z`) and as seconds since the
//! Unix epoch: read from ISO 8601 with any offset, written back in UTC, whole seconds.

use std::string::String;

use crate::calendar::{civil, days_from_civil};

/// `text` as seconds since the epoch: `YYYY-MM-DD`, or that with `THH:MM:SS` (a space for
/// the `T`), an optional fraction (dropped) and an optional `Z` or `±HH:MM` offset (none:
/// UTC); why not, where it is neither.
pub fn parse(text: &str) -> Result<i64, String> {
    let bad = || std::format!("{text:?} is not an ISO 8601 time (2026-11-29T05:30:00Z)");
    if !text.is_ascii() {
        return Err(bad());
    }
    let (date, rest) = text.split_at(text.len().min(10));
    let day = days_of(date).ok_or_else(bad)?;
    if rest.is_empty() {
        return Ok(day * 86_400);
    }
    let rest = rest.strip_prefix(['T', 't', ' ']).ok_or_else(bad)?;
    let (clock, zone) = rest.split_at(rest.len().min(8));
    let seconds = seconds_of(clock).ok_or_else(bad)?;
    let zone = match zone.strip_prefix(['.', ',']) {
        Some(fraction) if fraction.starts_with(|c: char| c.is_ascii_digit()) => {
            fraction.trim_start_matches(|c: char| c.is_ascii_digit())
        }
        Some(_) => return Err(bad()),
        None => zone,
    };
    let offset = offset_of(zone).ok_or_else(bad)?;
    Ok(day * 86_400 + seconds - offset)
}

/// `seconds` since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn format(seconds: i64) -> String {
    let (day, second) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (y, m, d) = civil(day);
    let (h, min, s) = (second / 3600, second / 60 % 60, second % 60);
    std::format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}Z")
}

/// The current time, in seconds since the epoch.
pub fn now() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    since.map_or(0, |d| d.as_secs() as i64)
}

/// The digits of `text` as a number, where it is all ASCII digits.
fn digits(text: &str) -> Option<i64> {
    let all = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    all.then(|| text.parse().ok()).flatten()
}

/// `YYYY-MM-DD` as days since 1970-01-01, where it is a real date.
fn days_of(date: &str) -> Option<i64> {
    let mut parts = date.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (y, m, d) = (digits(y)?, digits(m)?, digits(d)?);
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = [31, 28 + leap as i64, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let valid = (1..=12).contains(&m) && d >= 1 && d <= month_days[(m - 1).max(0) as usize];
    valid.then(|| days_from_civil(y, m, d))
}

/// `HH:MM:SS` as seconds into the day.
fn seconds_of(clock: &str) -> Option<i64> {
    let mut parts = clock.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    let [h, m, s] = [h, m, s].map(|p| (p.len() == 2).then(|| digits(p)).flatten());
    let (h, m, s) = (h?, m?, s?);
    (h < 24 && m < 60 && s < 61).then_some(h * 3600 + m * 60 + s)
}

/// A zone (`""`, `Z`, `+HH:MM`, `-HHMM`) as seconds ahead of UTC.
fn offset_of(zone: &str) -> Option<i64> {
    if zone.is_empty() || zone == "Z" || zone == "z" {
        return Some(0);
    }
    let sign = match zone.as_bytes()[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let hm = zone[1..].replace(':', "");
    let (h, m) = (digits(hm.get(..2)?)?, digits(hm.get(2..)?)?);
    (hm.len() == 4 && h < 24 && m < 60).then_some(sign * (h * 3600 + m * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_day_of_four_centuries_reads_back_as_written() {
        let first = days_from_civil(1900, 1, 1);
        for day in first..first + 146_097 {
            let text = format(day * 86_400 + 3661);
            assert_eq!(parse(&text), Ok(day * 86_400 + 3661), "{text}");
        }
        assert_eq!(format(0), "1970-01-01T00:00:00Z");
        assert_eq!(format(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn offsets_and_fractions_read_as_utc() {
        let utc = parse("2026-11-29T05:30:00Z").unwrap();
        assert_eq!(parse("2026-11-29T06:30:00+01:00"), Ok(utc));
        assert_eq!(parse("2026-11-29 00:30:00.999-0500"), Ok(utc));
        assert_eq!(parse("2026-11-29T05:30:00"), Ok(utc));
        assert_eq!(parse("2026-11-29"), Ok(utc - 5 * 3600 - 1800));
        assert_eq!(format(utc), "2026-11-29T05:30:00Z");
    }

    #[test]
    fn what_is_not_a_time_is_refused() {
        for bad in [
            "",
            "2026-13-01",
            "2026-02-30",
            "2026-11-29T25:00:00Z",
            "2026-11-29T05:30Z",
            "yesterday",
            "2026-11-29T05:30:00+1",
            "2026-11-29X05:30:00",
            "2026-11-29T05:30:00.Z",
            "2026-11-29T05:30:001Z",
            "2026-11-2é",
        ] {
            let why = parse(bad).unwrap_err();
            assert!(why.contains("not an ISO 8601 time"), "{bad}: {why}");
        }
    }
}
