//! Notes for the import report, said once each: a post with forty scripts gets one line
//! saying so, with the count.

/// Notes in the order first met, each with how often it was met.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    lines: Vec<(String, usize)>,
}

impl Notes {
    /// Records `note`, or counts it again when already recorded.
    pub(crate) fn add(&mut self, note: impl Into<String>) {
        let note = note.into();
        match self.lines.iter_mut().find(|(line, _)| *line == note) {
            Some((_, count)) => *count += 1,
            None => self.lines.push((note, 1)),
        }
    }

    /// Records every note of `notes`.
    pub(crate) fn extend(&mut self, notes: Vec<String>) {
        for note in notes {
            self.add(note);
        }
    }

    /// The lines, a repeated one ending with its count ("... (3 times)").
    pub(crate) fn into_lines(self) -> Vec<String> {
        self.lines
            .into_iter()
            .map(|(line, count)| if count > 1 { format!("{line} ({count} times)") } else { line })
            .collect()
    }
}

/// "1 comment", "3 comments".
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_notes_are_said_once_with_their_count() {
        let mut notes = Notes::default();
        notes.add("A script was removed");
        notes.add("A form was removed");
        notes.add("A script was removed");
        assert_eq!(notes.into_lines(), ["A script was removed (2 times)", "A form was removed"]);
        assert_eq!(count(1, "comment", "comments"), "1 comment");
        assert_eq!(count(0, "comment", "comments"), "0 comments");
    }
}
