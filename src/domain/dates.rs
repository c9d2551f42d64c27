//! Stored times (RFC 3339 text, UTC) in the forms pages, feeds and headers need.

use time::OffsetDateTime;
use time::format_description::well_known::{Rfc2822, Rfc3339};
use time::macros::format_description;

fn parse(stored: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(stored, &Rfc3339).ok()
}

/// "22 November 2026".
pub fn human(stored: &str) -> String {
    parse(stored)
        .and_then(|t| t.format(format_description!("[day padding:none] [month repr:long] [year]")).ok())
        .unwrap_or_else(|| stored.to_owned())
}

/// RFC 3339 to the second, for Atom and `<time datetime>`.
pub fn iso(stored: &str) -> String {
    parse(stored)
        .map(|t| t.replace_nanosecond(0).unwrap_or(t))
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_else(|| stored.to_owned())
}

/// RFC 2822, for RSS.
pub fn rfc2822(stored: &str) -> String {
    parse(stored).and_then(|t| t.format(&Rfc2822).ok()).unwrap_or_else(|| stored.to_owned())
}

/// The HTTP date, for Last-Modified.
pub fn http(stored: &str) -> Option<String> {
    let t = parse(stored)?;
    t.format(format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    ))
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
        assert_eq!(human(t), "22 November 2026");
        assert_eq!(iso(t), "2026-11-22T05:07:01Z");
        assert_eq!(rfc2822(t), "Sun, 22 Nov 2026 05:07:01 +0000");
        assert_eq!(http(t).unwrap(), "Sun, 22 Nov 2026 05:07:01 GMT");
        assert_eq!(day(t), "2026-11-22");
    }
}
