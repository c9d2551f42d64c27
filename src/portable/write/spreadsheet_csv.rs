//! CSV for a spreadsheet (the owner's subscriber export, issue 30): RFC 4180 quoting, and no
//! cell a spreadsheet would run as a formula. A cell starting with `=`, `+`, `-`, `@`, a tab or a
//! carriage return (an address may: `=cmd@example.com` is valid) is written with a leading `'`,
//! which spreadsheets show as text (OWASP's advice on CSV injection).

/// The CSV of `header` and `rows`, each row as many cells as the header.
pub fn write<'a>(header: &[&str], rows: impl IntoIterator<Item = Vec<&'a str>>) -> String {
    let mut out = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::new());
    // Writing to memory does not fail, and every row is text.
    let _ = out.write_record(header.iter().map(|cell| guarded(cell)));
    for row in rows {
        let _ = out.write_record(row.iter().map(|cell| guarded(cell)));
    }
    String::from_utf8(out.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// `cell`, with a `'` before it if a spreadsheet would take it for a formula.
fn guarded(cell: &str) -> String {
    match cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        true => format!("'{cell}"),
        false => cell.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_and_formulas_defused() {
        let csv = write(
            &["email", "note"],
            [
                vec!["=HYPERLINK(\"http://x\")@example.com", "a, \"b\""],
                vec!["+1@example.com", "-2"],
                vec!["ann@example.com", "@x"],
            ],
        );
        assert_eq!(
            csv,
            "email,note\r\n\"'=HYPERLINK(\"\"http://x\"\")@example.com\",\"a, \"\"b\"\"\"\r\n'+1@example.com,'-2\r\nann@example.com,'@x\r\n"
        );
    }
}
