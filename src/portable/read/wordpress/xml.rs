//! The XML of a WXR file, streamed: a quick-xml pull parser over a reader that caps each event
//! at [`MAX_EVENT_BYTES`](super::MAX_EVENT_BYTES), refusing DOCTYPE and entity declarations,
//! nesting past `MAX_XML_DEPTH`, a file cut off or not WXR at all. Answers one element at a
//! time, read whole as an [`Item`] (its text and attributes).

use std::collections::HashMap;
use std::io::BufRead;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::{MAX_BODY_BYTES, MAX_EVENT_BYTES, MAX_XML_DEPTH};
use crate::portable::Unreadable;

/// A `BufRead` that refuses to hand out more than [`MAX_EVENT_BYTES`] between two resets:
/// the parser buffers one event whole, so this bounds its memory.
pub(super) struct Capped<R> {
    pub(super) inner: R,
    pub(super) since_reset: u64,
}

impl<R: BufRead> std::io::Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.since_reset += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Capped<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.since_reset > MAX_EVENT_BYTES {
            return Err(std::io::Error::other("event too large"));
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.since_reset += amount as u64;
        self.inner.consume(amount);
    }
}

pub(super) struct Wxr<R> {
    pub(super) reader: Reader<Capped<R>>,
    pub(super) buf: Vec<u8>,
}

/// A failure of the XML itself, as the message the person importing sees.
pub(super) type XmlResult<T> = Result<T, Unreadable>;

/// One element's text and attributes, read whole.
#[derive(Debug, Default)]
pub(super) struct Item {
    pub(super) fields: HashMap<String, String>,
    pub(super) categories: Vec<(String, String, String)>,
    pub(super) meta: Vec<(String, String)>,
    pub(super) comments: usize,
    pub(super) too_large: bool,
}

impl Item {
    pub(super) fn get(&self, name: &str) -> &str {
        self.fields.get(name).map_or("", String::as_str)
    }
}

pub(super) enum Found {
    /// A channel-level field (`title`, `link`, `wp:base_blog_url`, ...) and its text.
    Header(String, String),
    Item(Item),
    End,
}

impl<R: BufRead> Wxr<R> {
    pub(super) fn new(input: R) -> Wxr<R> {
        let mut reader = Reader::from_reader(Capped { inner: input, since_reset: 0 });
        let config = reader.config_mut();
        config.check_end_names = true;
        config.expand_empty_elements = false;
        Wxr { reader, buf: Vec::new() }
    }

    pub(super) fn event(&mut self) -> XmlResult<Event<'static>> {
        self.buf.clear();
        self.reader.get_mut().since_reset = 0;
        let at = self.reader.buffer_position();
        match self.reader.read_event_into(&mut self.buf) {
            Ok(Event::DocType(_)) => Err(Unreadable::new(
                "This file declares a DOCTYPE, which WordPress exports never do: Quire does not read it (entities are never expanded)",
            )),
            Ok(event) => Ok(event.into_owned()),
            Err(quick_xml::Error::Io(err)) if err.to_string().contains("event too large") => {
                Err(Unreadable::new(format!(
                    "This WordPress export has a single entry over {} MB (near byte {at}): Quire does not read it",
                    MAX_EVENT_BYTES / 1024 / 1024
                )))
            }
            Err(err) => Err(Unreadable::new(format!(
                "This WordPress export is not well-formed XML near byte {}: {err}",
                self.reader.error_position()
            ))),
        }
    }

    /// The next header field or item of the channel.
    pub(super) fn next(&mut self, keep_body: bool, stack: &mut Vec<String>) -> XmlResult<Found> {
        loop {
            match self.event()? {
                Event::Start(start) => {
                    let name = name_of(&start);
                    if stack.is_empty() && name != "rss" {
                        return Err(not_wxr());
                    }
                    if stack.len() == 2 && name == "item" {
                        return self.item(keep_body).map(Found::Item);
                    }
                    if stack.len() == 2 {
                        let text = self.text(&name, usize::MAX)?.0;
                        return Ok(Found::Header(name, text));
                    }
                    stack.push(name);
                    if stack.len() > MAX_XML_DEPTH {
                        return Err(Unreadable::new("This WordPress export nests its elements too deeply to be one"));
                    }
                }
                Event::Empty(start) if stack.is_empty() => {
                    let _ = start;
                    return Err(not_wxr());
                }
                Event::End(_) => {
                    stack.pop();
                }
                Event::Eof if stack.is_empty() => return Ok(Found::End),
                Event::Eof => return Err(cut_off()),
                _ => {}
            }
        }
    }

    /// The text of the element just opened, up to its end (nested elements' text included),
    /// and whether it was longer than `max` bytes (then cut).
    pub(super) fn text(&mut self, name: &str, max: usize) -> XmlResult<(String, bool)> {
        let mut text = String::new();
        let mut depth = 0usize;
        let mut cut = false;
        loop {
            let piece = match self.event()? {
                Event::Text(t) => t.xml10_content().into_owned(),
                Event::CData(c) => c.xml10_content().into_owned(),
                Event::GeneralRef(r) => match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => {
                        let name = r.xml10_content();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .map_or_else(|| format!("&{name};"), str::to_owned)
                    }
                },
                Event::Start(_) => {
                    depth += 1;
                    if depth > MAX_XML_DEPTH {
                        return Err(Unreadable::new("This WordPress export nests its elements too deeply to be one"));
                    }
                    continue;
                }
                Event::End(end) => {
                    if depth == 0 {
                        debug_assert_eq!(end.name().as_ref(), name);
                        return Ok((text, cut));
                    }
                    depth -= 1;
                    continue;
                }
                Event::Eof => return Err(cut_off()),
                _ => continue,
            };
            if text.len() + piece.len() > max {
                cut = true;
            } else {
                text.push_str(&piece);
            }
        }
    }

    /// An `item`, just opened, read to its end. Its body (`content:encoded`) is kept only
    /// when asked for.
    pub(super) fn item(&mut self, keep_body: bool) -> XmlResult<Item> {
        let mut item = Item::default();
        loop {
            match self.event()? {
                Event::Start(start) => {
                    let name = name_of(&start);
                    match name.as_str() {
                        "content:encoded" if !keep_body => {
                            self.text(&name, 0)?;
                        }
                        "content:encoded" => {
                            let (text, cut) = self.text(&name, MAX_BODY_BYTES)?;
                            item.too_large |= cut;
                            item.fields.insert(name, text);
                        }
                        "category" => {
                            let domain = attribute(&start, "domain");
                            let nicename = attribute(&start, "nicename");
                            let (text, _) = self.text(&name, 4096)?;
                            item.categories.push((domain, nicename, text));
                        }
                        "wp:postmeta" => {
                            let (key, value) = self.pair("wp:meta_key", "wp:meta_value")?;
                            item.meta.push((key, value));
                        }
                        "wp:comment" => {
                            item.comments += 1;
                            self.text(&name, 0)?;
                        }
                        _ => {
                            let (text, _) = self.text(&name, 1024 * 1024)?;
                            item.fields.insert(name, text);
                        }
                    }
                }
                Event::End(_) => return Ok(item),
                Event::Eof => return Err(cut_off()),
                _ => {}
            }
        }
    }

    /// The texts of two children (`wp:meta_key`, `wp:meta_value`) of the element just opened.
    pub(super) fn pair(&mut self, first: &str, second: &str) -> XmlResult<(String, String)> {
        let (mut a, mut b) = (String::new(), String::new());
        loop {
            match self.event()? {
                Event::Start(start) => {
                    let name = name_of(&start);
                    let (text, _) = self.text(&name, 1024 * 1024)?;
                    if name == first {
                        a = text;
                    } else if name == second {
                        b = text;
                    }
                }
                Event::End(_) => return Ok((a, b)),
                Event::Eof => return Err(cut_off()),
                _ => {}
            }
        }
    }
}

pub(super) fn name_of(start: &BytesStart) -> String {
    start.name().as_ref().to_owned()
}

pub(super) fn attribute(start: &BytesStart, name: &str) -> String {
    start
        .attributes()
        .flatten()
        .find(|a| a.key.as_ref() == name)
        .and_then(|a| a.normalized_value(quick_xml::XmlVersion::Implicit1_0).ok().map(|v| v.into_owned()))
        .unwrap_or_default()
}

pub(super) fn not_wxr() -> Unreadable {
    Unreadable::new(
        "This file is not a WordPress export: in WordPress, use Tools → Export and upload the .xml file it gives",
    )
}

pub(super) fn cut_off() -> Unreadable {
    Unreadable::new(
        "This WordPress export is cut off before its end (the download may have stopped): export it again and upload the whole file",
    )
}
