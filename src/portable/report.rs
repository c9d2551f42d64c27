//! What an import tells the owner at its end: how much it brought in, and one line for every
//! item it skipped or changed, with the reason.

use serde::{Deserialize, Serialize};

/// Most lines a report keeps: a 10,000-post import that changes something in each post
/// still makes a report the owner app can show (the rest are counted in `linesOmitted`).
pub const MAX_LINES: usize = 5_000;

/// Longest item name in a line, in characters.
pub const MAX_ITEM: usize = 300;
/// Longest message in a line, in characters (a reader's error may quote a whole file).
pub const MAX_MESSAGE: usize = 1_000;

/// The item of lines about the export as a whole (what its reader could not carry over).
pub const EXPORT_ITEM: &str = "The export";
/// The item of lines about the blog's settings.
pub const SETTINGS_ITEM: &str = "Blog settings";
/// The item of lines about the comments and webmentions a Quire archive carries.
pub const RESPONSES_ITEM: &str = "Comments and webmentions";
/// The item of the line about the trash a Quire archive carries.
pub const TRASH_ITEM: &str = "Trash";

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
    /// The post's or page's title (its source id when untitled), [`EXPORT_ITEM`],
    /// [`SETTINGS_ITEM`], [`RESPONSES_ITEM`] or [`TRASH_ITEM`].
    pub item: String,
    /// What happened, and why.
    pub message: String,
}

impl Report {
    /// Adds a line (or counts it, past [`MAX_LINES`]); an item's name is cut to
    /// [`MAX_ITEM`] characters, a message to [`MAX_MESSAGE`].
    pub fn line(&mut self, item: &str, message: impl Into<String>) {
        if self.lines.len() < MAX_LINES {
            self.lines.push(Line { item: cut(item, MAX_ITEM), message: cut(&message.into(), MAX_MESSAGE) });
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

/// `text` cut to `max` characters, with an ellipsis when it was longer.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
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
        report.line(&"i".repeat(MAX_ITEM + 1), "m".repeat(MAX_MESSAGE + 1));
        assert_eq!(report.lines_omitted, 5, "past the last line");
        let mut one = Report::default();
        one.line(&"i".repeat(MAX_ITEM + 1), "m".repeat(MAX_MESSAGE + 1));
        assert_eq!(
            (one.lines[0].item.chars().count(), one.lines[0].message.chars().count()),
            (MAX_ITEM + 1, MAX_MESSAGE + 1)
        );
        assert!(one.lines[0].message.ends_with("m…"));
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["linesOmitted"], 5);
        assert_eq!(json["lines"][0], serde_json::json!({ "item": "Hello", "message": "change 0" }));
    }
}
