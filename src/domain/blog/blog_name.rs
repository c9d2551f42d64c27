//! A blog's display name.

/// Longest blog name, in characters.
pub const MAX_NAME: usize = 100;

/// Trims and checks a blog name; the error is the message to show on the `name` field.
pub fn parse(raw: &str) -> Result<String, String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err("Can't be blank".to_owned());
    }
    if name.chars().count() > MAX_NAME {
        return Err(format!("Should be at most {MAX_NAME} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("Should be one line of text".to_owned());
    }
    Ok(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_must_be_one_short_line() {
        assert_eq!(parse("  Notes  ").unwrap(), "Notes");
        assert_eq!(parse(" \t ").unwrap_err(), "Can't be blank");
        assert_eq!(parse(&"é".repeat(101)).unwrap_err(), "Should be at most 100 characters");
        assert!(parse(&"é".repeat(100)).is_ok());
        assert_eq!(parse("two\nlines").unwrap_err(), "Should be one line of text");
    }
}
