//! An abuse report a reader sends about a blog or one of its posts (issue 29; the report page,
//! `http/report_page.rs`): its reason, details and contact address, and the limits on each.

/// Longest details a report may carry, in characters.
pub const MAX_DETAILS_CHARS: usize = 4000;
/// Longest contact address, in characters (an email address's limit).
pub const MAX_EMAIL_CHARS: usize = 254;
/// Longest post address a report may name, in bytes.
pub const MAX_POST_URL: usize = 2048;

/// Why a reader reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportReason {
    /// Spam.
    Spam,
    /// Phishing or malware.
    Phishing,
    /// Illegal content.
    Illegal,
    /// Harassment.
    Harassment,
    /// Anything else (the details say what).
    Other,
}

impl ReportReason {
    /// Every reason, in the form's order.
    pub const ALL: [ReportReason; 5] = [
        ReportReason::Spam,
        ReportReason::Phishing,
        ReportReason::Illegal,
        ReportReason::Harassment,
        ReportReason::Other,
    ];

    /// Its stored and submitted name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReportReason::Spam => "spam",
            ReportReason::Phishing => "phishing",
            ReportReason::Illegal => "illegal",
            ReportReason::Harassment => "harassment",
            ReportReason::Other => "other",
        }
    }

    /// What the form and the Admin screen call it.
    pub fn label(self) -> &'static str {
        match self {
            ReportReason::Spam => "Spam",
            ReportReason::Phishing => "Phishing or malware",
            ReportReason::Illegal => "Illegal content",
            ReportReason::Harassment => "Harassment",
            ReportReason::Other => "Other",
        }
    }

    /// The reason named `raw`, if any.
    pub fn parse(raw: &str) -> Option<ReportReason> {
        ReportReason::ALL.into_iter().find(|reason| reason.as_str() == raw)
    }
}

/// A report's checked fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportText {
    /// Why.
    pub reason: ReportReason,
    /// What the reader adds (may be empty; trimmed).
    pub details: String,
    /// Where the admin may answer, if the reader gave it.
    pub contact_email: Option<String>,
}

/// One refused field of a report: its form name and the message shown beside it.
pub type FieldError = (&'static str, String);

/// Checks a report's fields as sent; every refusal names its field.
pub fn check(reason: &str, details: &str, contact_email: &str) -> Result<ReportText, Vec<FieldError>> {
    let mut errors = Vec::new();
    let parsed = ReportReason::parse(reason.trim());
    if parsed.is_none() {
        errors.push(("reason", "Choose a reason".to_owned()));
    }
    let details = details.trim();
    if details.chars().count() > MAX_DETAILS_CHARS {
        errors.push(("details", format!("Keep the details under {MAX_DETAILS_CHARS} characters")));
    }
    if details.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        errors.push(("details", "The details hold characters that are not text".to_owned()));
    }
    let email = contact_email.trim();
    let email_ok = email.is_empty()
        || (email.chars().count() <= MAX_EMAIL_CHARS
            && !email.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"'))
            && email.split_once('@').is_some_and(|(user, host)| !user.is_empty() && host.contains('.')));
    if !email_ok {
        errors.push(("email", "This is not an email address".to_owned()));
    }
    match (parsed, errors.is_empty()) {
        (Some(reason), true) => Ok(ReportText {
            reason,
            details: details.to_owned(),
            contact_email: (!email.is_empty()).then(|| email.to_owned()),
        }),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_needs_a_known_reason_and_takes_details_and_an_address_when_sane() {
        let text = check("phishing", "  It asks for bank logins. ", " me@example.org ").unwrap();
        assert_eq!(text.reason, ReportReason::Phishing);
        assert_eq!(text.details, "It asks for bank logins.");
        assert_eq!(text.contact_email.as_deref(), Some("me@example.org"));
        assert_eq!(check("spam", "", "").unwrap().contact_email, None);
        for reason in ReportReason::ALL {
            assert_eq!(ReportReason::parse(reason.as_str()), Some(reason));
        }
    }

    #[test]
    fn every_bad_field_is_named() {
        let errors = check("<script>", &"x".repeat(MAX_DETAILS_CHARS + 1), "not an address").unwrap_err();
        let fields: Vec<_> = errors.iter().map(|(field, _)| *field).collect();
        assert_eq!(fields, ["reason", "details", "email"]);
        assert_eq!(check("spam", "a\u{0}b", "").unwrap_err()[0].0, "details");
        assert_eq!(check("spam", "", "a@b.c d@e.f").unwrap_err()[0].0, "email");
        assert_eq!(check("spam", "", "\"x\"@y.z").unwrap_err()[0].0, "email");
        assert!(check("spam", &"é".repeat(MAX_DETAILS_CHARS), "").is_ok());
    }
}
