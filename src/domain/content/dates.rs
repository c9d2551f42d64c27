//! Stored times (RFC 3339 text, UTC) in the forms pages, feeds and headers need. What readers
//! see is in the blog's time zone; what machines read (feeds, headers, sitemaps) stays in UTC.

use time::format_description::well_known::{Rfc2822, Rfc3339};
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

use crate::domain::blog::time_zone::TimeZone;

fn parse(stored: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(stored, &Rfc3339).ok()
}

/// The stored time as a clock in `zone` shows it.
fn parse_in(stored: &str, zone: &TimeZone) -> Option<OffsetDateTime> {
    let t = parse(stored)?;
    let offset = UtcOffset::from_whole_seconds(zone.offset_at(t.unix_timestamp())).ok()?;
    Some(t.to_offset(offset))
}

/// The day in `zone`, for readers: "22 November 2026".
pub fn human(stored: &str, zone: &TimeZone) -> String {
    parse_in(stored, zone)
        .and_then(|t| t.format(format_description!("[day padding:none] [month repr:long] [year]")).ok())
        .unwrap_or_else(|| stored.to_owned())
}

/// RFC 3339 to the second with `zone`'s offset, for `<time datetime>` beside [`human`].
pub fn iso_in(stored: &str, zone: &TimeZone) -> String {
    parse_in(stored, zone).and_then(to_the_second).unwrap_or_else(|| stored.to_owned())
}

/// RFC 3339 to the second in UTC, for Atom.
pub fn iso(stored: &str) -> String {
    parse(stored).and_then(to_the_second).unwrap_or_else(|| stored.to_owned())
}

fn to_the_second(t: OffsetDateTime) -> Option<String> {
    t.replace_nanosecond(0).unwrap_or(t).format(&Rfc3339).ok()
}

/// RFC 2822, for RSS.
pub fn rfc2822(stored: &str) -> String {
    parse(stored).and_then(|t| t.format(&Rfc2822).ok()).unwrap_or_else(|| stored.to_owned())
}

/// The HTTP date, for Last-Modified.
pub fn http(stored: &str) -> Option<String> {
    let t = parse(stored)?;
    t.format(format_description!("[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"))
        .ok()
}

/// "2026-11-22", for sitemaps and view counts.
pub fn day(stored: &str) -> String {
    stored.get(..10).unwrap_or(stored).to_owned()
}

/// Today's date in UTC.
pub fn today() -> String {
    let now = OffsetDateTime::now_utc();
    format!("{:04}-{:02}-{:02}", now.year(), u8::from(now.month()), now.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_times_format_for_each_use() {
        let t = "2026-11-22T05:07:01.123Z";
        assert_eq!(human(t, &TimeZone::UTC), "22 November 2026");
        assert_eq!(iso_in(t, &TimeZone::UTC), "2026-11-22T05:07:01Z");
        assert_eq!(iso(t), "2026-11-22T05:07:01Z");
        assert_eq!(rfc2822(t), "Sun, 22 Nov 2026 05:07:01 +0000");
        assert_eq!(http(t).unwrap(), "Sun, 22 Nov 2026 05:07:01 GMT");
        assert_eq!(day(t), "2026-11-22");
    }

    #[test]
    fn readers_see_the_day_of_the_blogs_time_zone() {
        let late = "2026-03-14T23:30:00.000Z";
        let tokyo = TimeZone::parse("Asia/Tokyo").unwrap();
        assert_eq!(human(late, &tokyo), "15 March 2026");
        assert_eq!(iso_in(late, &tokyo), "2026-03-15T08:30:00+09:00");
        let new_york = TimeZone::parse("America/New_York").unwrap();
        assert_eq!(human("2026-03-15T03:30:00Z", &new_york), "14 March 2026");
        assert_eq!(iso_in("2026-03-15T03:30:00Z", &new_york), "2026-03-14T23:30:00-04:00");
        assert_eq!(human("not a time", &tokyo), "not a time");
    }
}
