//! Which export a file is, from its first bytes and its shape: a zip holding
//! `quire-archive.json` (Quire's archive), `.xml` files (a WordPress.com export) or `.md`
//! files (a Markdown zip); XML declaring the WXR namespace (WordPress); JSON whose top level
//! is Ghost's (`db`, or `meta` with `data`) or WriteFreely's (`collections`/`posts` with
//! `username`); CSV with Bear Blog's header. Anything else gets a message saying what the file
//! seems to be and which exports Quire reads.

use std::io::{Read, Seek, SeekFrom};

use super::safe_zip::SafeZip;
use crate::portable::Unreadable;
use crate::portable::model::Format;

/// Bytes looked at before deciding (JSON is read further, key by key, when needed).
const HEAD_BYTES: usize = 64 * 1024;

/// The format of the export in `file`. Leaves the file's position anywhere.
pub fn detect<R: Read + Seek>(file: &mut R) -> Result<Format, Unreadable> {
    let mut head = Vec::with_capacity(HEAD_BYTES);
    file.by_ref().take(HEAD_BYTES as u64).read_to_end(&mut head).map_err(super::io_error)?;
    let text = String::from_utf8_lossy(&head);
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        file.seek(SeekFrom::Start(0)).map_err(super::io_error)?;
        return zip_format(file);
    }
    if head.is_empty() {
        return Err(not_an_export("it is empty"));
    }
    if trimmed.starts_with('<') {
        return xml_format(trimmed);
    }
    if trimmed.starts_with('{') {
        file.seek(SeekFrom::Start(0)).map_err(super::io_error)?;
        return json_format(file);
    }
    let first_line = trimmed.lines().next().unwrap_or("").to_ascii_lowercase();
    let columns: Vec<&str> = first_line.split(',').map(|c| c.trim().trim_matches('"')).collect();
    if ["title", "content"].iter().all(|c| columns.contains(c))
        && columns.iter().any(|c| matches!(*c, "uid" | "slug" | "published_date" | "publish"))
    {
        return Ok(Format::BearBlog);
    }
    let what = match &head[..] {
        h if h.starts_with(b"%PDF") => "it is a PDF document",
        h if h.starts_with(b"\x1f\x8b") => "it is compressed with gzip: unpack it first",
        h if h.starts_with(b"\x89PNG") || h.starts_with(b"\xff\xd8\xff") || h.starts_with(b"GIF8") => "it is an image",
        h if h.starts_with(b"SQLite format 3") => "it is a database file",
        _ if trimmed.starts_with('[') => "it is JSON, but not shaped like Ghost's or WriteFreely's export",
        _ => "its content is not one of their formats",
    };
    Err(not_an_export(what))
}

fn not_an_export(what: &str) -> Unreadable {
    Unreadable::new(format!(
        "This file is not an export Quire can read: {what}. Quire reads WordPress (.xml), Ghost (.json), WriteFreely (.json) and Bear Blog (.csv) exports, zips of Markdown files and Quire archives"
    ))
}

fn zip_format<R: Read + Seek>(file: &mut R) -> Result<Format, Unreadable> {
    let zip = SafeZip::open(file)?;
    let names = zip.names();
    if names.iter().any(|n| n == "quire-archive.json") {
        return Ok(Format::QuireArchive);
    }
    let lower: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
    if lower.iter().any(|n| n.ends_with(".md") || n.ends_with(".markdown")) {
        return Ok(Format::MarkdownZip);
    }
    if lower.iter().any(|n| n.ends_with(".xml")) {
        return Ok(Format::WordPress);
    }
    Err(not_an_export("it is a zip, but holds no Markdown files, no WordPress export and no quire-archive.json"))
}

fn xml_format(text: &str) -> Result<Format, Unreadable> {
    let lower = text.to_ascii_lowercase();
    if lower.contains("wordpress.org/export/") {
        return Ok(Format::WordPress);
    }
    let what = if lower.contains("<rss") || lower.contains("<feed") {
        "it is a feed, not a WordPress export (in WordPress, use Tools → Export)"
    } else if lower.contains("<html") || lower.starts_with("<!doctype html") {
        "it is a web page"
    } else {
        "it is XML, but not a WordPress export"
    };
    Err(not_an_export(what))
}

/// Sniffs JSON by its top-level keys, read without keeping their values.
fn json_format<R: Read>(file: &mut R) -> Result<Format, Unreadable> {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut keys = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                keys.push(key);
            }
            Ok(keys)
        }
    }
    let reader = std::io::BufReader::new(file.take(super::ghost::MAX_JSON_BYTES));
    let keys = serde_json::Deserializer::from_reader(reader).deserialize_map(Keys).map_err(|err| {
        if err.is_eof() {
            Unreadable::new("This JSON file is cut off before its end: export it again and upload the whole file")
        } else {
            not_an_export(&format!("it is not valid JSON ({err})"))
        }
    })?;
    let has = |key: &str| keys.iter().any(|k| k == key);
    if has("db") || (has("meta") && has("data")) {
        Ok(Format::Ghost)
    } else if has("collections") || (has("username") && has("posts")) {
        Ok(Format::WriteFreely)
    } else if has("format") && has("blog") {
        Err(not_an_export("it looks like a Quire archive's index alone: upload the whole .quire.zip"))
    } else {
        Err(not_an_export("it is JSON, but not shaped like Ghost's or WriteFreely's export"))
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;
    use crate::portable::read::safe_zip::tests::zip_of;

    fn sniff(bytes: &[u8]) -> Result<Format, Unreadable> {
        detect(&mut Cursor::new(bytes.to_vec()))
    }

    #[test]
    fn each_export_is_recognized() {
        let wxr = "<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:wp=\"http://wordpress.org/export/1.2/\"><channel></channel></rss>";
        assert_eq!(sniff(wxr.as_bytes()), Ok(Format::WordPress));
        assert_eq!(sniff(br#"{"db":[{"meta":{"version":"5.0"},"data":{}}]}"#), Ok(Format::Ghost));
        assert_eq!(sniff(br#"  {"meta":{},"data":{"posts":[]}}"#), Ok(Format::Ghost));
        assert_eq!(
            sniff(br#"{"username":"matt","collections":[{"alias":"blog","posts":[]}],"posts":[]}"#),
            Ok(Format::WriteFreely)
        );
        assert_eq!(
            sniff(b"uid,title,slug,alias,published_date,all_tags,publish,make_discoverable,is_page,content\n"),
            Ok(Format::BearBlog)
        );
        assert_eq!(sniff(&zip_of(&[("quire-archive.json", b"{}"), ("posts/a.json", b"{}")])), Ok(Format::QuireArchive));
        assert_eq!(sniff(&zip_of(&[("site/content/a.md", b"# A")])), Ok(Format::MarkdownZip));
        assert_eq!(sniff(&zip_of(&[("blog.wordpress.2024-01-01.000.xml", b"<rss/>")])), Ok(Format::WordPress));
    }

    #[test]
    fn anything_else_is_named_in_a_clear_message() {
        for (bytes, says) in [
            (&b"%PDF-1.7"[..], "it is a PDF document"),
            (b"", "it is empty"),
            (br#"{"name":"app","version":"1.0.0"}"#, "not shaped like Ghost's or WriteFreely's"),
            (b"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel/></rss>", "it is a feed"),
            (b"<!DOCTYPE html><html><body>hi</body></html>", "it is a web page"),
            (b"\x1f\x8b\x08\x00", "gzip"),
            (b"just some text", "not one of their formats"),
        ] {
            let err = sniff(bytes).unwrap_err();
            assert!(err.0.starts_with("This file is not an export Quire can read: "), "{err}");
            assert!(err.0.contains(says), "{err}");
        }
        assert!(sniff(br#"{"db": [{"meta": "#).unwrap_err().0.contains("cut off"));
        assert!(sniff(&zip_of(&[("a.txt", b"x")])).unwrap_err().0.contains("holds no Markdown files"));
    }
}
