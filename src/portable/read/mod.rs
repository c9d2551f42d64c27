//! The readers of other platforms' exports, one per source system, and what they share.
//!
//! [`open`] sniffs a file's format ([`detect`]) and hands it to its reader: [`wordpress`] (WXR,
//! read with an XML pull parser in two passes), [`ghost`] (JSON with lexical, mobiledoc or
//! HTML bodies), [`markdown_site`] (a zip of a Hugo, Jekyll or Zola site or an Obsidian vault),
//! [`writefreely`] (JSON), [`bear`] (CSV) and [`quire_archive`] (Quire's own archive). Each
//! answers an [`Export`]: the header, then its items one at a time.
//!
//! Shared by the readers: [`safe_zip`] (the one way a zip is read: no `../`, links or bombs),
//! [`dates`] (dates as exports write them), [`files`] (the files inside an export, which image
//! blocks name as `file:<path>`; the importer reads them too) and the byte-capped reading of a
//! whole file below. Markup becomes blocks in [`super::convert`].

pub mod bear;
mod dates;
pub mod detect;
pub mod files;
#[cfg(test)]
mod fixtures;
pub mod ghost;
pub mod markdown_site;
pub mod quire_archive;
pub mod quire_responses;
pub mod safe_zip;
pub mod subscriber_list;
pub mod wordpress;
pub mod writefreely;

use std::fs::File;
use std::io::{BufReader, Read as _, Seek, SeekFrom};
use std::path::Path;

use super::{Export, Options, Unreadable, model};

/// Reads the export at `path`, whatever its format: sniffs it ([`detect::detect`]) and opens
/// it with its reader, refusing an export of more items than `options.limits` allows. The file
/// is then read lazily, through [`Export::items`]; a WordPress export inside a zip (as
/// WordPress.com gives it) is first unpacked to a file in `options.work_dir`.
pub fn open(path: &Path, options: &Options) -> Result<Export, Unreadable> {
    let mut file = File::open(path).map_err(|err| Unreadable::new(format!("The file could not be opened: {err}")))?;
    let format = detect::detect(&mut file)?;
    file.seek(SeekFrom::Start(0)).map_err(io_error)?;
    let export = read_as(format, file, options)?;
    if export.read.expected_items.is_some_and(|items| items > options.limits.max_items) {
        return Err(Unreadable::new(options.limits.too_many_items("This export")));
    }
    Ok(export)
}

/// Opens the export at `path` as [`open`] does, with the files inside it
/// ([`files::of`]): what an import reads.
pub fn open_with_files(
    path: &Path,
    options: &Options,
) -> Result<(Export, std::sync::Arc<dyn files::ExportFiles>), Unreadable> {
    let export = open(path, options)?;
    let files = files::of(path, export.read.format)?;
    Ok((export, files))
}

/// Opens `file` with the reader of `format` (as [`detect::detect`] named it).
pub fn read_as(format: model::Format, mut file: File, options: &Options) -> Result<Export, Unreadable> {
    use model::Format;
    match format {
        Format::WordPress => {
            let mut magic = [0u8; 4];
            let zipped = file.read_exact(&mut magic).is_ok() && magic == *b"PK\x03\x04";
            file.seek(SeekFrom::Start(0)).map_err(io_error)?;
            if zipped {
                return wordpress::read(BufReader::new(unzip_wxr(file, options.work_dir.as_deref())?), options);
            }
            wordpress::read(BufReader::new(file), options)
        }
        Format::Ghost => ghost::read(file, options),
        Format::MarkdownZip => markdown_site::read(file, options),
        Format::WriteFreely => writefreely::read(file, options),
        Format::BearBlog => bear::read(file, options),
        Format::QuireArchive => quire_archive::read(file),
    }
}

/// The largest WordPress export unpacked from a zip: as large as an uploaded file may be.
pub const MAX_UNPACKED_BYTES: u64 = 512 * 1024 * 1024;

/// The one WordPress export inside a zip, unpacked (at most [`MAX_UNPACKED_BYTES`], through the
/// zip reader's caps) to a file without a name in `work_dir` (the data directory's, not the
/// system's temporary folder, which is RAM on many systems), gone when it is closed.
fn unzip_wxr(file: File, work_dir: Option<&Path>) -> Result<File, Unreadable> {
    let mut zip = safe_zip::SafeZip::open(file)?;
    let xml: Vec<String> = zip.names().iter().filter(|n| n.to_ascii_lowercase().ends_with(".xml")).cloned().collect();
    if xml.len() > 1 {
        return Err(Unreadable::new(format!(
            "This zip holds {} WordPress export files: upload each .xml file on its own",
            xml.len()
        )));
    }
    let name = xml.first().ok_or_else(|| Unreadable::new("This zip holds no WordPress export (.xml) file"))?;
    let mut out = match work_dir {
        Some(dir) => tempfile::tempfile_in(dir),
        None => tempfile::tempfile(),
    }
    .map_err(io_error)?;
    zip.copy(name, &mut out, MAX_UNPACKED_BYTES)?;
    out.seek(SeekFrom::Start(0)).map_err(io_error)?;
    Ok(out)
}

fn io_error(err: std::io::Error) -> Unreadable {
    Unreadable::new(format!("The file could not be read: {err}"))
}

/// Reads all of `input`, refusing more than `max` bytes with a message naming `what`.
fn read_capped(input: impl std::io::Read, max: u64, what: &str) -> Result<Vec<u8>, Unreadable> {
    let mut bytes = Vec::new();
    input.take(max + 1).read_to_end(&mut bytes).map_err(io_error)?;
    if bytes.len() as u64 > max {
        return Err(Unreadable::new(format!("{what} is larger than Quire reads ({} MB at most)", max / 1024 / 1024)));
    }
    Ok(bytes)
}

/// A JSON export parsed whole; `what` names it in the messages ("This Ghost export").
fn json_of<T: serde::de::DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, Unreadable> {
    serde_json::from_slice(bytes).map_err(|err| {
        Unreadable::new(if err.is_eof() {
            format!("{what} is cut off before its end: export it again and upload the whole file")
        } else {
            format!("This file is not valid JSON ({err})")
        })
    })
}

/// The text of a file that should be UTF-8, without its byte-order mark.
fn utf8(bytes: Vec<u8>, what: &str) -> Result<String, Unreadable> {
    let text = String::from_utf8(bytes).map_err(|_| Unreadable::new(format!("{what} is not UTF-8 text")))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::domain::content::blocks::Block;
    use crate::portable::read::safe_zip::tests::zip_of;

    fn file_of(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(bytes).unwrap();
        file
    }

    #[test]
    fn open_sniffs_the_format_and_reads_a_wordpress_export_inside_a_zip() {
        let wxr = r#"<?xml version="1.0"?><rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>T</title><wp:wxr_version>1.2</wp:wxr_version>
            <item><title>A</title><content:encoded><![CDATA[Hi]]></content:encoded><wp:post_id>4</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>
            </channel></rss>"#;
        let zipped = file_of(&zip_of(&[("site.wordpress.2024-01-01.000.xml", wxr.as_bytes())]));
        let export = open(zipped.path(), &Options::default()).unwrap();
        assert_eq!(export.read.format, model::Format::WordPress);
        let posts: Vec<model::Post> = export.items.map(Result::unwrap).collect();
        assert_eq!(posts[0].blocks, [Block::Paragraph { text: "Hi".into() }]);
        let plain = file_of(wxr.as_bytes());
        assert_eq!(open(plain.path(), &Options::default()).unwrap().items.count(), 1);
    }

    #[test]
    fn what_open_refuses_becomes_the_error_shape_of_the_api() {
        let err = open(file_of(b"%PDF-1.4").path(), &Options::default()).unwrap_err();
        let err: crate::error::Error = err.into();
        assert_eq!(err.status(), poem::http::StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            err.body("r")["errors"][0]["file"]
                .as_str()
                .unwrap()
                .starts_with("This file is not an export Quire can read")
        );
    }
}
