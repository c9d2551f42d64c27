//! What an import tells the owner at its end: how much it brought in, and one line for every
//! item it skipped or changed, with the reason.

use serde::{Deserialize, Serialize};

/// Most lines a report keeps: a 10,000-post import that changes something in each post
/// still makes a report the owner app can show (the rest are counted in `linesOmitted`).
pub const MAX_LINES: usize = 5_000;

/// The item of lines about the export as a whole (what its reader could not carry over).
pub const EXPORT_ITEM: &str = "The export";
/// The item of lines about the blog's settings.
pub const SETTINGS_ITEM: &str = "Blog settings";

/// An import's report (JSON: camelCase).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Posts written (pages not counted; drafts and scheduled posts counted).
    pub posts: u64,
    /// Pages written.
    pub pages: u64,
    /// Of the posts and pages written, the drafts.
    pub drafts: u64,
    /// Of the posts and pages written, those scheduled.
    pub scheduled: u64,
    /// Images downloaded or read from the export and stored.
    pub images: u64,
    /// Distinct tags on the posts written.
    pub tags: u64,
    /// Old addresses that now redirect to the posts written.
    pub redirects: u64,
    /// Items not written: already imported, unreadable, refused, or past a full blog.
    pub skipped: u64,
    /// What was skipped or changed, item by item.
    pub lines: Vec<Line>,
    /// Lines left out past [`MAX_LINES`].
    pub lines_omitted: u64,
}

/// One thing the owner should know about one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The post's or page's title (its source id when untitled), [`EXPORT_ITEM`] or
    /// [`SETTINGS_ITEM`].
    pub item: String,
    /// What happened, and why.
    pub message: String,
}

impl Report {
    /// Adds a line (or counts it, past [`MAX_LINES`]).
    pub fn line(&mut self, item: &str, message: impl Into<String>) {
        if self.lines.len() < MAX_LINES {
            self.lines.push(Line { item: item.to_owned(), message: message.into() });
        } else {
            self.lines_omitted += 1;
        }
    }

    /// Counts an item as skipped, with its reason.
    pub fn skip(&mut self, item: &str, reason: impl Into<String>) {
        self.skipped += 1;
        self.line(item, reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_camel_case_json_with_bounded_lines() {
        let mut report = Report::default();
        for n in 0..MAX_LINES + 3 {
            report.line("Hello", format!("change {n}"));
        }
        report.skip("Bye", "already imported");
        assert_eq!((report.lines.len(), report.lines_omitted, report.skipped), (MAX_LINES, 4, 1));
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["linesOmitted"], 4);
        assert_eq!(json["lines"][0], serde_json::json!({ "item": "Hello", "message": "change 0" }));
    }
}
