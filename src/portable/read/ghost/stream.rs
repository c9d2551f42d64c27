//! A Ghost export walked as a stream of JSON, never held whole: `db[0].data` (or a bare
//! `data`) is visited key by key, its `posts` one element at a time, every table Quire does not
//! read skipped without being kept.
//!
//! The same walk runs twice. The first ([`Walk::scan`]) keeps the small tables (tags, their
//! links to posts, posts' metadata, the site's title and time zone), counts the posts and
//! members, and notes each post larger than the item cap, refusing the file past the caps
//! ([`ImportLimits`]); the second ([`Walk::posts`]) hands each post to the caller as it is read.
//! Every byte is counted as it is read ([`Counted`]), which measures each item, stops a row of a
//! kept table at the item cap before it is all in memory, and notices Ghost's `__GHOST_URL__`.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::io::{self, BufReader, Read};
use std::rc::Rc;

use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::types::{PostMeta, PostTag, Setting, Tag};
use super::{GHOST_URL, MAX_JSON_BYTES, WHAT};
use crate::domain::limits::ImportLimits;
use crate::portable::Unreadable;

/// What the first pass keeps of an export.
#[derive(Default)]
pub(super) struct Tables {
    pub(super) tags: Vec<Tag>,
    pub(super) posts_tags: Vec<PostTag>,
    pub(super) posts_meta: Vec<PostMeta>,
    /// The settings Quire reads (`title`, `timezone`); the others are dropped as they are read.
    pub(super) settings: Vec<Setting>,
    /// Posts and pages in the export.
    pub(super) posts: u64,
    /// Members (subscribers), counted for the report.
    pub(super) members: Option<u64>,
    /// The positions of the posts larger than the item cap, in order.
    pub(super) too_big: Vec<u64>,
    /// Whether the file names `__GHOST_URL__` anywhere.
    pub(super) uses_placeholder: bool,
}

/// What the second pass does with each post: its position and its JSON (`None` when it is
/// larger than the item cap); false stops the walk.
pub(super) type OnPost<'a> = dyn FnMut(u64, Option<Value>) -> bool + 'a;

/// One walk over an export.
pub(super) struct Walk<'a> {
    mode: Mode<'a>,
    limits: ImportLimits,
    tally: Rc<Tally>,
    /// Whether `data` was found (in `db[0]`, or bare beside `meta`).
    found: Found,
    /// Posts met so far, in every `posts` list of the file (a file may repeat the key): the
    /// next post's position, what the item cap and the large posts' positions count.
    posts_seen: u64,
}

enum Mode<'a> {
    Scan(&'a mut Tables),
    Posts { too_big: &'a [u64], on_post: &'a mut OnPost<'a> },
}

#[derive(Default)]
struct Found {
    data: bool,
    bare_data: bool,
    meta: bool,
}

impl<'a> Walk<'a> {
    /// The first pass: the tables, the counts, the posts too large.
    pub(super) fn scan(input: impl Read, limits: ImportLimits) -> Result<Tables, Unreadable> {
        let mut tables = Tables::default();
        let tally = Rc::new(Tally::default());
        Walk { mode: Mode::Scan(&mut tables), limits, tally: tally.clone(), found: Found::default(), posts_seen: 0 }
            .run(input)?;
        tables.uses_placeholder = tally.placeholder.get();
        Ok(tables)
    }

    /// The second pass: each post to `on_post`, in order; the positions in `too_big` (from the
    /// first pass) are skipped unread. Ends early, without an error, when `on_post` says stop.
    pub(super) fn posts(
        input: impl Read,
        limits: ImportLimits,
        too_big: &'a [u64],
        on_post: &'a mut OnPost<'a>,
    ) -> Result<(), Unreadable> {
        let mode = Mode::Posts { too_big, on_post };
        let walk = Walk { mode, limits, tally: Rc::default(), found: Found::default(), posts_seen: 0 };
        match walk.run(input) {
            Err(Refused::Stopped) | Ok(()) => Ok(()),
            Err(Refused::File(err)) => Err(err),
        }
    }

    fn run(mut self, input: impl Read) -> Result<(), Refused> {
        let tally = self.tally.clone();
        let counted = Counted::new(BufReader::with_capacity(64 * 1024, input), tally.clone());
        let mut de = serde_json::Deserializer::from_reader(counted);
        let walked = (&mut de).deserialize_map(FileSeed(&mut self)).and_then(|()| de.end());
        if let Some(refused) = tally.refused.borrow_mut().take() {
            return Err(refused);
        }
        walked.map_err(|err| {
            Refused::File(Unreadable::new(if err.is_eof() {
                format!("{WHAT} is cut off before its end: export it again and upload the whole file")
            } else {
                format!("This file is not valid JSON ({err})")
            }))
        })?;
        let Found { data, bare_data, meta } = self.found;
        if !data || (bare_data && !meta) {
            return Err(Refused::File(super::not_ghost()));
        }
        Ok(())
    }

    /// Stops the walk with `refused`: the error serde carries is only a token.
    fn refuse<E: serde::de::Error>(&self, refused: Refused) -> E {
        *self.tally.refused.borrow_mut() = Some(refused);
        E::custom("refused")
    }
}

/// Why a walk stopped early.
enum Refused {
    /// The file is refused, with this message.
    File(Unreadable),
    /// The second pass's caller wants no more posts.
    Stopped,
}

impl From<Refused> for Unreadable {
    fn from(refused: Refused) -> Unreadable {
        match refused {
            Refused::File(err) => err,
            Refused::Stopped => Unreadable::new("The import stopped"),
        }
    }
}

/// The top level: `{"db": [{"meta", "data"}]}` or `{"meta", "data"}`.
struct FileSeed<'w, 'a>(&'w mut Walk<'a>);

impl<'de> Visitor<'de> for FileSeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Ghost export")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "db" if !self.0.found.data => map.next_value_seed(DbSeed(&mut *self.0))?,
                "data" if !self.0.found.data => {
                    map.next_value_seed(DataSeed(&mut *self.0))?;
                    self.0.found.bare_data = true;
                }
                "meta" => {
                    self.0.found.meta = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// `db`: its first entry's `data`; the other entries are skipped.
struct DbSeed<'w, 'a>(&'w mut Walk<'a>);

impl<'de> DeserializeSeed<'de> for DbSeed<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for DbSeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of databases")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if seq.next_element_seed(DbEntrySeed(&mut *self.0))?.is_some() {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
        }
        Ok(())
    }
}

/// One entry of `db`: `{"meta", "data"}`.
struct DbEntrySeed<'w, 'a>(&'w mut Walk<'a>);

impl<'de> DeserializeSeed<'de> for DbEntrySeed<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DbEntrySeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a database with its data")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "data" && !self.0.found.data {
                map.next_value_seed(DataSeed(&mut *self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// `data`: the tables, by name.
struct DataSeed<'w, 'a>(&'w mut Walk<'a>);

impl<'de> DeserializeSeed<'de> for DataSeed<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_map(DataSeed(&mut *self.0))?;
        self.0.found.data = true;
        Ok(())
    }
}

impl<'de> Visitor<'de> for DataSeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the export's tables")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let walk = self.0;
        while let Some(key) = map.next_key::<String>()? {
            let scanning = matches!(walk.mode, Mode::Scan(_));
            match key.as_str() {
                "posts" => map.next_value_seed(PostsSeed(&mut *walk))?,
                "tags" if scanning => map.next_value_seed(RowsSeed::<Tag>::new(walk, "tag"))?,
                "posts_tags" if scanning => map.next_value_seed(RowsSeed::<PostTag>::new(walk, "posts_tags row"))?,
                "posts_meta" if scanning => map.next_value_seed(RowsSeed::<PostMeta>::new(walk, "posts_meta row"))?,
                "settings" if scanning => map.next_value_seed(RowsSeed::<Setting>::new(walk, "setting"))?,
                "members" if scanning => {
                    let members = map.next_value::<Option<Vec<IgnoredAny>>>()?.map(|m| m.len() as u64);
                    if let Mode::Scan(tables) = &mut walk.mode {
                        tables.members = members;
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// `posts`, one element at a time.
struct PostsSeed<'w, 'a>(&'w mut Walk<'a>);

impl<'de> DeserializeSeed<'de> for PostsSeed<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PostsSeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of posts")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let walk = self.0;
        let (limits, tally) = (walk.limits, walk.tally.clone());
        loop {
            let index = walk.posts_seen;
            match &mut walk.mode {
                Mode::Scan(tables) => {
                    if index == limits.max_items {
                        // One more element, and the export is over the cap.
                        if seq.next_element::<IgnoredAny>()?.is_some() {
                            let message = limits.too_many_items(WHAT);
                            return Err(walk.refuse(Refused::File(Unreadable::new(message))));
                        }
                        break;
                    }
                    let start = tally.read.get();
                    if seq.next_element::<AnObject>()?.is_none() {
                        break;
                    }
                    if tally.read.get() - start > limits.max_item_bytes {
                        tables.too_big.push(index);
                    }
                    tables.posts += 1;
                }
                Mode::Posts { too_big, on_post } => {
                    let post = if too_big.binary_search(&index).is_ok() {
                        match seq.next_element::<IgnoredAny>()? {
                            Some(_) => None,
                            None => break,
                        }
                    } else {
                        match seq.next_element::<Value>()? {
                            Some(value) => Some(value),
                            None => break,
                        }
                    };
                    if !on_post(index, post) {
                        return Err(walk.refuse(Refused::Stopped));
                    }
                }
            }
            walk.posts_seen += 1;
        }
        Ok(())
    }
}

/// An element that must be an object, read without being kept.
struct AnObject;

impl<'de> serde::Deserialize<'de> for AnObject {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<AnObject, D::Error> {
        de.deserialize_map(AnObject)
    }
}

impl<'de> Visitor<'de> for AnObject {
    type Value = AnObject;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a post (an object)")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnObject, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(AnObject)
    }
}

/// A table the first pass keeps: at most [`ImportLimits::max_rows`] rows, each read under the
/// item cap.
struct RowsSeed<'w, 'a, T> {
    walk: &'w mut Walk<'a>,
    what: &'static str,
    kind: std::marker::PhantomData<T>,
}

impl<'w, 'a, T> RowsSeed<'w, 'a, T> {
    fn new(walk: &'w mut Walk<'a>, what: &'static str) -> Self {
        RowsSeed { walk, what, kind: std::marker::PhantomData }
    }
}

/// Where a table's rows go in [`Tables`].
trait Row: DeserializeOwned {
    fn keep(self, tables: &mut Tables);
}

impl Row for Tag {
    fn keep(self, tables: &mut Tables) {
        tables.tags.push(self);
    }
}

impl Row for PostTag {
    fn keep(self, tables: &mut Tables) {
        tables.posts_tags.push(self);
    }
}

impl Row for PostMeta {
    fn keep(self, tables: &mut Tables) {
        tables.posts_meta.push(self);
    }
}

impl Row for Setting {
    fn keep(self, tables: &mut Tables) {
        if matches!(self.key.as_str(), "title" | "timezone") {
            tables.settings.push(self);
        }
    }
}

impl<'de, T: Row> DeserializeSeed<'de> for RowsSeed<'_, '_, T> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de, T: Row> Visitor<'de> for RowsSeed<'_, '_, T> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a list of {}s", self.what)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let (walk, what) = (self.walk, self.what);
        let (limits, tally) = (walk.limits, walk.tally.clone());
        let mut rows = 0u64;
        loop {
            tally.arm(limits.max_item_bytes, || {
                Unreadable::new(format!(
                    "A {what} in this Ghost export is larger than {} MB: Quire does not read it",
                    limits.max_item_mb()
                ))
            });
            let row = seq.next_element::<T>();
            tally.disarm();
            let Some(row) = row? else { break };
            rows += 1;
            if rows > limits.max_rows() {
                let message = format!(
                    "{WHAT} holds more than {} rows of {what}s: Quire reads at most {} (four times the server's --import-max-items)",
                    limits.max_rows(),
                    limits.max_rows()
                );
                return Err(walk.refuse(Refused::File(Unreadable::new(message))));
            }
            if let Mode::Scan(tables) = &mut walk.mode {
                row.keep(tables);
            }
        }
        Ok(())
    }
}

/// What the walk has read, shared between the reader and the visitors.
#[derive(Default)]
struct Tally {
    /// Bytes read so far.
    read: Cell<u64>,
    /// While a row is read: the position it may not pass, and the refusal if it does.
    armed: RefCell<Option<(u64, Unreadable)>>,
    /// Why the walk stopped early, when it did.
    refused: RefCell<Option<Refused>>,
    /// Whether `__GHOST_URL__` was met.
    placeholder: Cell<bool>,
}

impl Tally {
    fn arm(&self, bytes: u64, refusal: impl FnOnce() -> Unreadable) {
        *self.armed.borrow_mut() = Some((self.read.get().saturating_add(bytes), refusal()));
    }

    fn disarm(&self) {
        *self.armed.borrow_mut() = None;
    }
}

/// The export's bytes, counted as serde reads them (one at a time), refused past
/// [`MAX_JSON_BYTES`] or past an armed row's end, and searched for `__GHOST_URL__`.
struct Counted<R> {
    inner: R,
    tally: Rc<Tally>,
    /// How much of `__GHOST_URL__` the last bytes read match.
    matched: usize,
}

impl<R> Counted<R> {
    fn new(inner: R, tally: Rc<Tally>) -> Counted<R> {
        Counted { inner, tally, matched: 0 }
    }

    fn watch(&mut self, byte: u8) {
        let needle = GHOST_URL.as_bytes();
        // The needle starts with "__" and has no other repeated prefix: after a mismatch, what
        // still matches is "__" when the byte before was '_' too, else "_" or nothing.
        self.matched = if byte == needle[self.matched] {
            self.matched + 1
        } else if byte == b'_' {
            if self.matched >= 1 && needle[self.matched - 1] == b'_' { 2 } else { 1 }
        } else {
            0
        };
        if self.matched == needle.len() {
            self.tally.placeholder.set(true);
            self.matched = 0;
        }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let at = self.tally.read.get() + n as u64;
        self.tally.read.set(at);
        if at > MAX_JSON_BYTES {
            let message = format!("{WHAT} is larger than Quire reads ({} MB at most)", MAX_JSON_BYTES >> 20);
            *self.tally.refused.borrow_mut() = Some(Refused::File(Unreadable::new(message)));
            return Err(io::Error::other("over the file cap"));
        }
        let over = self.tally.armed.borrow().as_ref().is_some_and(|(end, _)| at > *end);
        if over && let Some((_, refusal)) = self.tally.armed.borrow_mut().take() {
            *self.tally.refused.borrow_mut() = Some(Refused::File(refusal));
            return Err(io::Error::other("over the item cap"));
        }
        if !self.tally.placeholder.get() {
            for &byte in &buf[..n] {
                self.watch(byte);
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placeholder_is_found_however_the_bytes_before_it_run() {
        for (text, found) in [
            ("x__GHOST_URL__y", true),
            ("___GHOST_URL__", true),
            ("_ _GHOST_URL__", false),
            ("__GHOST_URL_", false),
            ("__GHOST__GHOST_URL__", true),
            ("__G_GHOST_URL__", false),
            ("__GHOST_URL___GHOST_URL__", true),
        ] {
            let tally = Rc::new(Tally::default());
            let mut counted = Counted::new(text.as_bytes(), tally.clone());
            io::copy(&mut counted, &mut io::sink()).unwrap();
            assert_eq!(tally.placeholder.get(), found, "{text}");
            assert_eq!(tally.read.get(), text.len() as u64);
        }
    }
}
