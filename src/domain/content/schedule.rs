//! Scheduled publishing: the rules of the time a post is to be published at (`publish_at`),
//! sent as RFC 3339 and stored in UTC. The owner app checks the same rules, from
//! [`client_rules`], with the same messages (tests/fixtures/schedule_rules.json).

use serde::Serialize;
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Duration, OffsetDateTime, UtcOffset};
use ts_rs::TS;

/// How far ahead a post can be scheduled, in days (ten years, leap days included).
pub const MAX_DAYS_AHEAD: i64 = 3653;
/// Longest text read as a time: anything longer is not one.
const MAX_LEN: usize = 64;

/// The message for a text that is not an RFC 3339 date and time with an offset.
pub const MALFORMED: &str = "Should be a date and time such as 2030-01-31T09:00:00Z";
/// The message for a time that has already come.
pub const IN_THE_PAST: &str = "Should be in the future";
/// The message for a time past [`MAX_DAYS_AHEAD`].
pub const TOO_FAR: &str = "Should be at most 10 years ahead";

/// Parses `raw` as the time to publish at, seen at `now`: it must be later than `now` and at
/// most [`MAX_DAYS_AHEAD`] days after it. Returns it in the stored form (UTC, milliseconds,
/// `Z`), which sorts as text in time order, like every stored time.
pub fn parse_publish_at(raw: &str, now: OffsetDateTime) -> Result<String, &'static str> {
    if raw.len() > MAX_LEN {
        return Err(MALFORMED);
    }
    let at = OffsetDateTime::parse(raw.trim(), &Rfc3339).map_err(|_| MALFORMED)?;
    if at <= now {
        return Err(IN_THE_PAST);
    }
    if at > now + Duration::days(MAX_DAYS_AHEAD) {
        return Err(TOO_FAR);
    }
    Ok(stored(at))
}

/// A time in the stored form, `2026-11-22T05:07:01.123Z`.
pub fn stored(at: OffsetDateTime) -> String {
    at.to_offset(UtcOffset::UTC)
        .format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"))
        .unwrap_or_default()
}

/// A stored time, if it is one.
pub fn parse_stored(stored: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(stored, &Rfc3339).ok()
}

/// The scheduling rules as the owner app's page config carries them (`scheduleRules`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "app-settings.ts")]
pub struct ScheduleRules {
    /// How far ahead a post can be scheduled, in days.
    max_days_ahead: i64,
}

/// This server's scheduling rules.
pub const SCHEDULE_RULES: ScheduleRules = ScheduleRules { max_days_ahead: MAX_DAYS_AHEAD };

/// The rules as the owner app's page config carries them (`scheduleRules`), as JSON.
pub fn client_rules() -> Value {
    serde_json::to_value(SCHEDULE_RULES).expect("schedule rules are JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Case {
        #[serde(rename = "publishAt")]
        publish_at: String,
        error: Option<String>,
        stored: Option<String>,
    }

    #[test]
    fn the_shared_fixture_cases_give_their_messages() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/schedule_rules.json");
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("the shared fixture")).unwrap();
        assert_eq!(client_rules(), fixture["rules"], "the fixture's rules are the ones the server sends");
        let now = OffsetDateTime::parse(fixture["now"].as_str().unwrap(), &Rfc3339).unwrap();
        let cases: Vec<Case> = serde_json::from_value(fixture["cases"].clone()).unwrap();
        assert!(cases.len() >= 8);
        for case in cases {
            let got = parse_publish_at(&case.publish_at, now);
            match (&case.error, &case.stored) {
                (Some(error), _) => assert_eq!(got, Err(error.as_str()), "{}", case.publish_at),
                (None, Some(stored)) => {
                    assert_eq!(got.as_deref(), Ok(stored.as_str()), "{}", case.publish_at)
                }
                (None, None) => assert!(got.is_ok(), "{}", case.publish_at),
            }
        }
    }

    #[test]
    fn stored_times_sort_as_text_in_time_order() {
        let now = OffsetDateTime::now_utc();
        let (a, b) = (stored(now), stored(now + Duration::milliseconds(1)));
        assert!(a < b && a.len() == 24 && a.ends_with('Z'), "{a} {b}");
        assert_eq!(parse_stored(&a).map(stored), Some(a));
    }
}
