//! A Ghost export as a signed-in user uploads it (issue 28, finding 2): the streaming reader
//! answers any bytes with an export or a clear refusal, never reads more posts than the limit,
//! and hands every item over as a post or a reason.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use quire::domain::limits::ImportLimits;
use quire::portable::Options;
use quire::portable::read::ghost::read;

fuzz_target!(|data: &[u8]| {
    let limits = ImportLimits { max_items: 20, max_item_bytes: 4096, ..ImportLimits::default() };
    let options = Options { limits, ..Options::default() };
    let Ok(export) = read(Cursor::new(data.to_vec()), &options) else { return };
    assert!(export.read.expected_items.is_none_or(|n| n <= limits.max_items), "{:?}", export.read.expected_items);
    let items = export.items.take(limits.max_items as usize + 1).count();
    assert!(items as u64 <= limits.max_items, "{items} items read past the limit");
});
