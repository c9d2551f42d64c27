//! Another service's list of email subscribers, as a CSV export (issue 30, docs/email.md "The
//! owner's side"): Substack (`email`, `created_at`, `email_disabled`), Ghost's members
//! (`email`, `created_at`, `subscribed_to_emails`), Buttondown (`email` or `email_address`,
//! `creation_date`, `subscriber_type` or `type`), or any CSV with a column named like an email
//! address. Each row's address is checked as the subscribe form checks it; readers the export
//! says unsubscribed, bounced or never confirmed there are left out.

use crate::domain::net::email_address::EmailAddress;

use super::dates;

/// Rows looked at, at most (beyond the body limit's bound, a clear refusal).
pub const MAX_ROWS: usize = 100_000;

/// Bad rows described one by one, at most (the rest are counted).
pub const MAX_DESCRIBED: usize = 20;

/// The names an address column goes by, lowercased.
const EMAIL_COLUMNS: &[&str] = &["email", "email_address", "email address", "e-mail", "emailaddress"];
/// The names of the column saying when the reader subscribed there.
const DATE_COLUMNS: &[&str] = &["created_at", "creation_date", "subscription date", "subscribed_at", "created"];
/// Buttondown's `subscriber_type` (or `type`) values of readers who get no mail there.
const BUTTONDOWN_NOT_SUBSCRIBED: &[&str] =
    &["unactivated", "unsubscribed", "removed", "spammy", "undeliverable", "complained", "blocked", "malformed"];

/// One reader of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedReader {
    /// The address, normalized.
    pub email: EmailAddress,
    /// When they subscribed there (RFC 3339, UTC, milliseconds), if the export said and it is
    /// not in the future.
    pub subscribed_at: Option<String>,
}

/// A row that could not be taken, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRow {
    /// Its line in the file (the header is line 1).
    pub line: u64,
    /// What is wrong with it.
    pub reason: String,
}

/// What the file holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubscriberList {
    /// The readers to import, each address once, in the file's order.
    pub readers: Vec<ListedReader>,
    /// Rows of readers the export says get no mail there.
    pub unsubscribed: u64,
    /// Rows repeating an address of an earlier row.
    pub repeated: u64,
    /// The first [`MAX_DESCRIBED`] bad rows.
    pub bad: Vec<BadRow>,
    /// All bad rows.
    pub bad_count: u64,
}

/// Reads `text`; a file that is not such a list is a message for the owner.
pub fn read(text: &str, now: time::OffsetDateTime) -> Result<SubscriberList, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new().flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|_| "The file is not a CSV file.".to_owned())?
        .iter()
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    let column = |names: &[&str]| names.iter().find_map(|name| headers.iter().position(|h| h == name));
    let Some(email_at) = column(EMAIL_COLUMNS) else {
        return Err("No column of email addresses was found: its header should be \"email\" (as Substack, Ghost and \
                    Buttondown export it)."
            .to_owned());
    };
    let date_at = column(DATE_COLUMNS);
    let status = Status::of(&column);
    let mut list = SubscriberList::default();
    let mut seen = std::collections::HashSet::new();
    for (index, record) in reader.records().enumerate() {
        if index >= MAX_ROWS {
            return Err(format!("The file has more than {MAX_ROWS} rows; split it."));
        }
        let record = record.map_err(|_| "The file is not a CSV file.".to_owned())?;
        // The reader's own line count skips blank lines; the owner's editor does not.
        let line = record.position().map_or(index as u64 + 2, |p| line_at(text, p.byte()));
        if record.iter().all(str::is_empty) {
            continue;
        }
        if !status.subscribed(&record) {
            list.unsubscribed += 1;
            continue;
        }
        let raw = record.get(email_at).unwrap_or("");
        match EmailAddress::parse(raw) {
            Ok(email) if !seen.insert(email.as_str().to_owned()) => list.repeated += 1,
            Ok(email) => {
                let subscribed_at = date_at
                    .and_then(|at| record.get(at))
                    .and_then(dates::parse)
                    .filter(|at| *at <= now)
                    .and_then(|at| at.format(&time::format_description::well_known::Rfc3339).ok());
                list.readers.push(ListedReader { email, subscribed_at });
            }
            Err(reason) => {
                list.bad_count += 1;
                if list.bad.len() < MAX_DESCRIBED {
                    let reason = if raw.is_empty() { "No address." } else { reason };
                    list.bad.push(BadRow { line, reason: reason.to_owned() });
                }
            }
        }
    }
    Ok(list)
}

/// The line (from 1) of the byte at `offset` in `text`.
fn line_at(text: &str, offset: u64) -> u64 {
    let bytes = text.as_bytes();
    let mut offset = usize::try_from(offset).unwrap_or(usize::MAX).min(bytes.len());
    // A record's position may be the start of the blank lines before it.
    while offset < bytes.len() && matches!(bytes[offset], b'\r' | b'\n') {
        offset += 1;
    }
    bytes[..offset].iter().filter(|&&b| b == b'\n').count() as u64 + 1
}

/// The column that says whether a reader gets mail there, as each service writes it.
enum Status {
    /// Ghost: `subscribed_to_emails` is `false` for a member who gets no newsletter.
    Ghost(usize),
    /// Substack: `email_disabled` is `true` for a reader who turned mail off.
    Substack(usize),
    /// Buttondown: `subscriber_type` (or `type`) names the reader's standing.
    Buttondown(usize),
    /// No such column: every row is a subscriber.
    Unknown,
}

impl Status {
    fn of(column: &dyn Fn(&[&str]) -> Option<usize>) -> Status {
        if let Some(at) = column(&["subscribed_to_emails"]) {
            Status::Ghost(at)
        } else if let Some(at) = column(&["email_disabled"]) {
            Status::Substack(at)
        } else if let Some(at) = column(&["subscriber_type", "type"]) {
            Status::Buttondown(at)
        } else {
            Status::Unknown
        }
    }

    fn subscribed(&self, record: &csv::StringRecord) -> bool {
        let value = |at: usize| record.get(at).unwrap_or("").to_ascii_lowercase();
        match *self {
            Status::Ghost(at) => value(at) != "false",
            Status::Substack(at) => value(at) != "true",
            Status::Buttondown(at) => !BUTTONDOWN_NOT_SUBSCRIBED.contains(&value(at).as_str()),
            Status::Unknown => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> time::OffsetDateTime {
        time::macros::datetime!(2026-11-28 12:00 UTC)
    }

    fn emails(list: &SubscriberList) -> Vec<&str> {
        list.readers.iter().map(|r| r.email.as_str()).collect()
    }

    #[test]
    fn a_ghost_members_export_keeps_those_who_get_the_newsletter() {
        let csv = "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers\n\
                   1,ann@example.com,Ann,\"likes, commas\nand lines\",true,,,2024-03-01T10:00:00.000Z,,,\n\
                   2,bob@example.com,Bob,,false,,,2024-03-02T10:00:00.000Z,,,\n\
                   3,Cat@Example.COM,Cat,,true,,,2030-01-01T00:00:00.000Z,,,\n";
        let list = read(csv, now()).unwrap();
        assert_eq!(emails(&list), ["ann@example.com", "cat@example.com"]);
        assert_eq!(list.readers[0].subscribed_at.as_deref(), Some("2024-03-01T10:00:00Z"));
        assert_eq!(list.readers[1].subscribed_at, None, "a date in the future is not believed");
        assert_eq!(list.unsubscribed, 1);
    }

    #[test]
    fn a_substack_export_leaves_out_readers_who_turned_mail_off() {
        let csv = "\u{feff}email,active_subscription,expiry,plan,email_disabled,created_at\n\
                   ann@example.com,false,,other,false,2023-01-05 08:00:00\n\
                   bob@example.com,false,,other,true,2023-01-06 08:00:00\n";
        let list = read(csv, now()).unwrap();
        assert_eq!(emails(&list), ["ann@example.com"]);
        assert_eq!(list.readers[0].subscribed_at.as_deref(), Some("2023-01-05T08:00:00Z"));
        assert_eq!(list.unsubscribed, 1);
    }

    #[test]
    fn a_buttondown_export_takes_regular_subscribers_only() {
        let csv = "email_address,notes,metadata,tags,creation_date,subscriber_type\n\
                   ann@example.com,,{},[],2022-07-01,regular\n\
                   bob@example.com,,{},[],2022-07-02,unsubscribed\n\
                   cat@example.com,,{},[],2022-07-03,unactivated\n\
                   dan@example.com,,{},[],2022-07-04,premium\n";
        let list = read(csv, now()).unwrap();
        assert_eq!(emails(&list), ["ann@example.com", "dan@example.com"]);
        assert_eq!(list.unsubscribed, 2);
    }

    #[test]
    fn bad_rows_are_named_by_line_and_repeats_counted() {
        let csv = "Email\nann@example.com\n\nnot an address\n\"evil@example.com\r\nBcc: x@y.z\"\nANN@example.com\n,\n";
        let list = read(csv, now()).unwrap();
        assert_eq!(emails(&list), ["ann@example.com"]);
        assert_eq!(list.repeated, 1, "ANN@example.com is ann@example.com again");
        assert_eq!(list.bad_count, 2);
        assert_eq!(list.bad[0].line, 4);
        assert_eq!(list.bad[0].reason, "This is not an email address.");
        assert_eq!(list.bad[1].line, 5);
    }

    #[test]
    fn a_file_without_an_address_column_is_refused() {
        let err = read("name,created_at\nAnn,2024-01-01\n", now()).unwrap_err();
        assert!(err.starts_with("No column of email addresses was found"), "{err}");
        assert!(read("", now()).unwrap_err().starts_with("No column"));
    }
}
