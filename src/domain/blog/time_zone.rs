//! A blog's time zone: an IANA name (`Asia/Tokyo`) from the tz database built into the binary
//! (chrono-tz), so every server agrees on the same names whatever its system has installed.

use chrono::{Offset, TimeZone as _};
use chrono_tz::{TZ_VARIANTS, Tz};

/// The message of a name the database does not know.
pub const UNKNOWN: &str = "Unknown time zone: choose one from the list, such as Europe/Paris";

/// The regions whose `Region/City` names the settings screen offers (the others, such as
/// `US/Pacific` or `Etc/GMT+5`, are old aliases the server still accepts).
const REGIONS: [&str; 10] =
    ["Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"];

/// A time zone the tz database knows; UTC unless the owner chose another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeZone(Tz);

impl TimeZone {
    /// Coordinated Universal Time, every blog's zone until its owner picks one.
    pub const UTC: TimeZone = TimeZone(Tz::UTC);

    /// The zone named exactly `raw` (surrounding spaces dropped); the error is the message to
    /// show on the `timeZone` field.
    pub fn parse(raw: &str) -> Result<TimeZone, &'static str> {
        let name = raw.trim();
        if name.is_empty() {
            return Err("Can't be blank");
        }
        name.parse::<Tz>().map(TimeZone).map_err(|_| UNKNOWN)
    }

    /// The stored zone `name`, or UTC if the database no longer knows it.
    pub fn from_stored(name: &str) -> TimeZone {
        TimeZone::parse(name).unwrap_or(TimeZone::UTC)
    }

    /// Its IANA name.
    pub fn name(&self) -> &'static str {
        self.0.name()
    }

    /// Its offset from UTC, in seconds, at `unix_seconds` (daylight saving time included).
    pub fn offset_at(&self, unix_seconds: i64) -> i32 {
        let Some(instant) = chrono::DateTime::from_timestamp(unix_seconds, 0) else {
            return 0;
        };
        self.0.offset_from_utc_datetime(&instant.naive_utc()).fix().local_minus_utc()
    }
}

/// The zones an owner chooses from, in alphabetical order: UTC and every `Region/City`.
pub fn choices() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = TZ_VARIANTS
        .iter()
        .map(|tz| tz.name())
        .filter(|name| name.split_once('/').is_some_and(|(region, _)| REGIONS.contains(&region)))
        .chain(["UTC"])
        .collect();
    names.sort_unstable();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_are_iana_names_spelled_exactly() {
        assert_eq!(TimeZone::parse(" Asia/Tokyo ").unwrap().name(), "Asia/Tokyo");
        assert_eq!(TimeZone::parse("US/Pacific").unwrap().name(), "US/Pacific", "old aliases still work");
        assert_eq!(TimeZone::parse("asia/tokyo").unwrap_err(), UNKNOWN);
        assert_eq!(TimeZone::parse("Mars/Olympus_Mons").unwrap_err(), UNKNOWN);
        assert_eq!(TimeZone::parse("+09:00").unwrap_err(), UNKNOWN);
        assert_eq!(TimeZone::parse("  ").unwrap_err(), "Can't be blank");
        assert_eq!(TimeZone::from_stored("Gone/Away"), TimeZone::UTC);
    }

    #[test]
    fn offsets_follow_daylight_saving_time() {
        let paris = TimeZone::parse("Europe/Paris").unwrap();
        assert_eq!(paris.offset_at(1_768_478_400), 3600, "January 2026");
        assert_eq!(paris.offset_at(1_784_116_800), 7200, "July 2026");
        assert_eq!(TimeZone::parse("Asia/Kolkata").unwrap().offset_at(0), 19_800);
        assert_eq!(TimeZone::UTC.offset_at(1_784_116_800), 0);
    }

    #[test]
    fn the_choices_are_utc_and_region_city_names_the_parser_accepts() {
        let choices = choices();
        assert!(
            choices.contains(&"UTC")
                && choices.contains(&"Asia/Tokyo")
                && choices.contains(&"America/Argentina/Buenos_Aires")
        );
        assert!(!choices.contains(&"US/Pacific") && !choices.contains(&"Etc/GMT+5"));
        assert!(choices.windows(2).all(|pair| pair[0] < pair[1]), "sorted, no repeats");
        assert!(choices.iter().all(|name| TimeZone::parse(name).is_ok()));
    }
}
