//! A blog's description: one short paragraph of plain text under its name on the public home, in
//! its feeds, its OpenGraph tags and its ActivityPub actor (issue 33).

/// Longest blog description, in characters.
pub const MAX_DESCRIPTION: usize = 300;

/// Trims and checks a blog description ('' clears it); the error is the message to show on the
/// `description` field.
pub fn parse(raw: &str) -> Result<String, String> {
    let description = raw.trim();
    if description.chars().count() > MAX_DESCRIPTION {
        return Err(format!("Should be at most {MAX_DESCRIPTION} characters"));
    }
    if description.chars().any(char::is_control) {
        return Err("Should be one paragraph of plain text, without line breaks or control characters".to_owned());
    }
    Ok(description.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_trimmed_short_single_paragraphs_and_may_be_empty() {
        assert_eq!(parse("  Notes on <b>tea</b> & cake  ").unwrap(), "Notes on <b>tea</b> & cake");
        assert_eq!(parse(" \t ").unwrap(), "");
        assert!(parse(&"é".repeat(300)).is_ok());
        assert_eq!(parse(&"é".repeat(301)).unwrap_err(), "Should be at most 300 characters");
        assert!(parse("two\nlines").unwrap_err().contains("without line breaks"));
        assert!(parse("bell\u{7}").unwrap_err().contains("control characters"));
    }
}
