//! A requested subdomain: `Subdomain::parse` answers any text, and what it accepts is a
//! lowercase label of the documented shape that parses to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::domain::blog::subdomain::{RESERVED, Subdomain};

fuzz_target!(|raw: &str| {
    let Ok(subdomain) = Subdomain::parse(raw) else { return };
    let s = subdomain.as_str();
    assert!((3..=63).contains(&s.len()), "{s:?}");
    assert!(s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'), "{s:?}");
    assert!(!s.starts_with('-') && !s.ends_with('-') && !RESERVED.contains(&s), "{s:?}");
    assert_eq!(Subdomain::parse(s).as_ref(), Ok(&subdomain), "round trip");
});
