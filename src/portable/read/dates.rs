//! Dates as exports write them: RFC 3339 (`2015-01-12T10:00:00.000Z`), WordPress's
//! `2015-01-12 10:00:00`, Jekyll's `2015-01-12 10:00:00 +0200`, a bare day, RFC 2822, or
//! milliseconds since 1970. A time without an offset is in the zone given (the site's), else
//! UTC. Every time is answered in UTC.

use time::format_description::well_known::{Rfc2822, Rfc3339};
use time::macros::format_description;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use crate::domain::blog::time_zone::TimeZone;

/// `text` read as a date and time, or `None` when it is none of the shapes above (or is
/// WordPress's "no date", `0000-00-00 00:00:00`).
pub(crate) fn parse(text: &str) -> Option<OffsetDateTime> {
    parse_in(text, None)
}

/// [`parse`], a time without an offset being local time in `zone`.
pub(crate) fn parse_in(text: &str, zone: Option<&TimeZone>) -> Option<OffsetDateTime> {
    let text = text.trim();
    if text.is_empty() || text.starts_with("0000-00-00") {
        return None;
    }
    if let Ok(at) = OffsetDateTime::parse(text, &Rfc3339).or_else(|_| OffsetDateTime::parse(text, &Rfc2822)) {
        return Some(at.to_offset(UtcOffset::UTC));
    }
    if text.len() >= 11 && text.bytes().all(|b| b.is_ascii_digit()) {
        return from_millis(text.parse().ok()?);
    }
    // `2015-01-12 10:00:00`, `2015-01-12T10:00`, with an optional fraction and offset.
    let normalized = text.replacen(' ', "T", 1);
    let (day, rest) = normalized.split_once('T').unwrap_or((normalized.as_str(), ""));
    let date = Date::parse(day, format_description!("[year]-[month]-[day]")).ok()?;
    let rest = rest.trim();
    if rest.is_empty() {
        return Some(local(date.midnight(), zone));
    }
    let (clock, offset) = split_offset(rest);
    let clock = clock.split('.').next().unwrap_or(clock);
    let time = Time::parse(clock, format_description!("[hour]:[minute]:[second]"))
        .or_else(|_| Time::parse(clock, format_description!("[hour]:[minute]")))
        .ok()?;
    let at = PrimitiveDateTime::new(date, time);
    match offset {
        Some(offset) => Some(at.assume_offset(parse_offset(offset)?).to_offset(UtcOffset::UTC)),
        None => Some(local(at, zone)),
    }
}

/// A local time in `zone` (UTC when none) as UTC. The offset is the one in force at that
/// moment, found by asking twice (around a change of offset the first guess may be off).
fn local(at: PrimitiveDateTime, zone: Option<&TimeZone>) -> OffsetDateTime {
    let as_utc = at.assume_utc();
    let Some(zone) = zone else { return as_utc };
    let first = i64::from(zone.offset_at(as_utc.unix_timestamp()));
    let second = i64::from(zone.offset_at(as_utc.unix_timestamp() - first));
    as_utc - time::Duration::seconds(second)
}

/// Milliseconds since 1970 (older Ghost exports).
pub(crate) fn from_millis(millis: i64) -> Option<OffsetDateTime> {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000).ok()
}

/// `10:00:00+02:00` → (`10:00:00`, `+02:00`); `10:00:00 +0200`, `10:00:00Z` likewise.
fn split_offset(rest: &str) -> (&str, Option<&str>) {
    if let Some(clock) = rest.strip_suffix('Z').or_else(|| rest.strip_suffix(" UTC")) {
        return (clock.trim(), Some("+00:00"));
    }
    match rest.rfind(['+', '-']) {
        Some(at) => (rest[..at].trim(), Some(rest[at..].trim())),
        None => (rest, None),
    }
}

/// `+02:00`, `+0200`, `-05`.
fn parse_offset(offset: &str) -> Option<UtcOffset> {
    let sign = if offset.starts_with('-') { -1 } else { 1 };
    let digits: String = offset[1..].chars().filter(char::is_ascii_digit).collect();
    let (hours, minutes) = match digits.len() {
        2 => (digits.parse::<i8>().ok()?, 0),
        4 => (digits[..2].parse::<i8>().ok()?, digits[2..].parse::<i8>().ok()?),
        _ => return None,
    };
    UtcOffset::from_hms(sign * hours, sign * minutes, 0).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn every_shape_exports_write_is_read() {
        let at = datetime!(2015-01-12 10:00:00 UTC);
        for text in [
            "2015-01-12T10:00:00.000Z",
            "2015-01-12T10:00:00Z",
            "2015-01-12 10:00:00",
            "2015-01-12T12:00:00+02:00",
            "2015-01-12 12:00:00 +0200",
            "2015-01-12 05:00:00 -05:00",
            "Mon, 12 Jan 2015 10:00:00 +0000",
            "1421056800000",
            "2015-01-12T10:00",
        ] {
            assert_eq!(parse(text), Some(at), "{text}");
        }
        assert_eq!(parse("2015-01-12"), Some(datetime!(2015-01-12 0:00 UTC)));
        assert_eq!(parse("0000-00-00 00:00:00"), None);
        assert_eq!(parse("yesterday"), None);
        assert_eq!(parse("2015-13-45"), None);
        let paris = TimeZone::parse("Europe/Paris").unwrap();
        assert_eq!(parse_in("2022-03-01T00:30:00", Some(&paris)), Some(datetime!(2022-02-28 23:30 UTC)));
        assert_eq!(parse_in("2021-06-05 16:00", Some(&paris)), Some(datetime!(2021-06-05 14:00 UTC)));
        assert_eq!(
            parse_in("2021-06-05T16:00:00Z", Some(&paris)),
            Some(datetime!(2021-06-05 16:00 UTC)),
            "an offset wins"
        );
        assert_eq!(parse(""), None);
    }
}
