//! Durations as an operator types them on the command line: a whole number and a unit,
//! `30s`, `30m`, `12h`, `7d` or `2w` (`quire invites create --expires 7d`, `--mail-grace 10m`).

use std::time::Duration;

/// The longest duration accepted: about 100 years (so adding it to now cannot overflow).
const MAX_SECONDS: u64 = 100 * 365 * 24 * 3600;

/// The duration `raw` names (`30s`, `30m`, `12h`, `7d`, `2w`), or a message saying what is wrong.
pub fn parse(raw: &str) -> Result<Duration, String> {
    let raw = raw.trim();
    let wrong = || format!("{raw:?} is not a duration: give a whole number and a unit, like 30m, 12h, 7d or 2w");
    let split = raw.find(|c: char| !c.is_ascii_digit()).ok_or_else(wrong)?;
    let (number, unit) = raw.split_at(split);
    let seconds_per_unit = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 24 * 3600,
        "w" => 7 * 24 * 3600,
        _ => return Err(wrong()),
    };
    let number: u64 = number.parse().map_err(|_| wrong())?;
    if number == 0 {
        return Err(format!("{raw:?} is no time at all: give at least 1{unit}"));
    }
    match number.checked_mul(seconds_per_unit) {
        Some(seconds) if seconds <= MAX_SECONDS => Ok(Duration::from_secs(seconds)),
        _ => Err(format!("{raw:?} is too long: at most 100 years")),
    }
}

/// A wait of `seconds` in plain words, rounded up: "in about 3 hours", "in about 20 minutes",
/// "in a minute".
pub fn about(seconds: u64) -> String {
    let minutes = seconds.div_ceil(60);
    match minutes {
        0 | 1 => "in a minute".to_owned(),
        2..=90 => format!("in about {minutes} minutes"),
        _ => format!("in about {} hours", minutes.div_ceil(60)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_is_said_in_minutes_then_hours_rounded_up() {
        assert_eq!(about(0), "in a minute");
        assert_eq!(about(59), "in a minute");
        assert_eq!(about(61), "in about 2 minutes");
        assert_eq!(about(90 * 60), "in about 90 minutes");
        assert_eq!(about(90 * 60 + 1), "in about 2 hours");
        assert_eq!(about(86_400), "in about 24 hours");
    }

    #[test]
    fn a_number_and_a_unit_is_a_duration() {
        assert_eq!(parse("45s"), Ok(Duration::from_secs(45)));
        assert_eq!(parse("30m"), Ok(Duration::from_secs(30 * 60)));
        assert_eq!(parse("12h"), Ok(Duration::from_secs(12 * 3600)));
        assert_eq!(parse("7d"), Ok(Duration::from_secs(7 * 86_400)));
        assert_eq!(parse(" 2w "), Ok(Duration::from_secs(14 * 86_400)));
    }

    #[test]
    fn anything_else_is_refused_with_a_message() {
        for raw in ["", "7", "d", "7 d", "7D", "-1d", "1.5h", "7days", "1y", "d7", "+3h"] {
            let message = parse(raw).expect_err(raw);
            assert!(message.contains("like 30m, 12h, 7d or 2w"), "{raw}: {message}");
        }
        assert!(parse("0h").unwrap_err().contains("no time at all"));
        assert!(parse("99999999999999999999d").unwrap_err().contains("not a duration"), "past u64");
        assert!(parse("5300w").unwrap_err().contains("too long"));
        assert!(parse("5200w").is_ok());
    }
}
