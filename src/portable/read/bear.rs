//! Bear Blog's CSV export (Settings → Export → CSV; `data.csv`): a header of field names
//! (`uid,title,slug,alias,published date,all tags,publish,...,is page,content,...`), one row per
//! post or page, quoted fields holding the Markdown body. Parsed whole under [`MAX_CSV_BYTES`].
//! `publish` False → draft; True with a date still to come → scheduled; else published. `all
//! tags` is a JSON list. Old paths are `/<slug>/` and, when set, `/<alias>/`. `meta image` (the
//! post's image for link previews) becomes its first image block when the body lacks it.

use time::OffsetDateTime;

use super::dates;
use crate::domain::content::blocks::Block;
use crate::portable::convert::{Base, markdown};
use crate::portable::model::{Format, Kind, Post, Read, Settings, State};
use crate::portable::{Export, Options, Problem, Unreadable};

/// Largest Bear Blog export read.
pub const MAX_CSV_BYTES: u64 = 256 * 1024 * 1024;

/// Reads a Bear Blog CSV export. Refuses a CSV without Bear's columns.
pub fn read(input: impl std::io::Read, options: &Options) -> Result<Export, Unreadable> {
    let bytes = super::read_capped(input, MAX_CSV_BYTES, "This Bear Blog export")?;
    let text = super::utf8(bytes, "This Bear Blog export")?;
    let mut rows = parse_csv(&text).into_iter();
    let header: Vec<String> =
        rows.next().unwrap_or_default().into_iter().map(|h| h.trim().to_ascii_lowercase().replace('_', " ")).collect();
    let column = |name: &str| header.iter().position(|h| h == name);
    let (Some(title), Some(content)) = (column("title"), column("content")) else {
        return Err(Unreadable::new(
            "This CSV file is not a Bear Blog export: in Bear Blog, use Settings → Export → CSV",
        ));
    };
    let columns = Columns {
        uid: column("uid"),
        title,
        slug: column("slug"),
        alias: column("alias"),
        date: column("published date"),
        tags: column("all tags"),
        publish: column("publish"),
        page: column("is page"),
        content,
        image: column("meta image"),
    };
    let rows: Vec<Vec<String>> = rows.filter(|row| row.iter().any(|cell| !cell.trim().is_empty())).collect();
    let read = Read {
        format: Format::BearBlog,
        settings: Settings {
            subscribers: None,
            site_url: options.site_url.as_ref().map(|u| u.as_str().trim_end_matches('/').to_owned()),
            ..Settings::default()
        },
        expected_items: Some(rows.len() as u64),
        notes: Vec::new(),
    };
    let site = options.site_url.clone();
    let now = OffsetDateTime::now_utc();
    let items = rows.into_iter().enumerate().map(move |(i, row)| convert(&row, &columns, i, site.as_ref(), now));
    Ok(Export { read, items: Box::new(items) })
}

struct Columns {
    uid: Option<usize>,
    title: usize,
    slug: Option<usize>,
    alias: Option<usize>,
    date: Option<usize>,
    tags: Option<usize>,
    publish: Option<usize>,
    page: Option<usize>,
    content: usize,
    image: Option<usize>,
}

fn convert(
    row: &[String],
    columns: &Columns,
    index: usize,
    site: Option<&url::Url>,
    now: OffsetDateTime,
) -> Result<Post, Problem> {
    let cell = |at: Option<usize>| at.and_then(|i| row.get(i)).map_or("", |s| s.trim());
    let source_id = match cell(columns.uid) {
        "" => format!("row {}", index + 2),
        uid => uid.to_owned(),
    };
    let title = cell(Some(columns.title)).to_owned();
    let flag = |at: Option<usize>| matches!(cell(at).to_ascii_lowercase().as_str(), "true" | "1" | "yes");
    let date = dates::parse(cell(columns.date));
    let state = match date {
        _ if !flag(columns.publish) => State::Draft,
        Some(at) if at > now => State::Scheduled,
        _ => State::Published,
    };
    let tags_cell = cell(columns.tags);
    let tags: Vec<String> = if tags_cell.starts_with('[') {
        serde_json::from_str(tags_cell)
            .map_err(|_| Problem::item(&source_id, &title, "Its tags are not a readable list: not imported"))?
    } else {
        tags_cell.split(',').map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()).collect()
    };
    let slug = cell(columns.slug).to_owned();
    let mut old_paths = Vec::new();
    for path in [slug.as_str(), cell(columns.alias)] {
        let path = path.trim_matches('/');
        if !path.is_empty() && !old_paths.contains(&format!("/{path}/")) {
            old_paths.push(format!("/{path}/"));
        }
    }
    let body = cell(Some(columns.content)).replace("\r\n", "\n");
    let base = Base::site(site);
    let mut converted = markdown::to_blocks(&body, &base);
    if let Some(url) = base.image(cell(columns.image))
        && !converted.blocks.iter().any(|b| matches!(b, Block::Image { url: u, .. } if *u == url))
    {
        converted.blocks.insert(0, Block::Image { url, alt: String::new(), caption: String::new() });
    }
    Ok(Post {
        source_id,
        kind: if flag(columns.page) { Kind::Page } else { Kind::Post },
        title,
        slug,
        blocks: converted.blocks,
        state,
        created_at: date,
        published_at: if state == State::Draft { None } else { date },
        updated_at: None,
        tags,
        old_paths,
        page_position: None,
        comments_closed: false,
        unlisted: false,
        revisions: Vec::new(),
        notes: converted.notes,
    })
}

/// Rows of RFC 4180 CSV: fields split at commas, quoted fields may hold commas, line breaks
/// and doubled quotes; rows end with LF or CRLF. A row the reader cannot take ends the rows.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map_while(Result::ok)
        .map(|record| record.iter().map(str::to_owned).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_keep_commas_quotes_and_line_breaks() {
        assert_eq!(
            parse_csv("a,b\r\n\"x, y\",\"say \"\"hi\"\"\nthere\"\r\n"),
            [vec!["a", "b"], vec!["x, y", "say \"hi\"\nthere"]]
        );
    }

    #[test]
    fn a_csv_of_another_program_is_refused() {
        let err = read(&b"name,email\nAnn,a@b.c\n"[..], &Options::default()).err().unwrap();
        assert!(err.0.starts_with("This CSV file is not a Bear Blog export"), "{err}");
    }
}
