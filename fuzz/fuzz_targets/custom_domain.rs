//! A custom domain an owner types: `CustomDomain::parse` answers any text, and what it accepts
//! is an A-label name of the documented shape that parses to itself, from its Unicode form too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::domain::blog::custom_domain::CustomDomain;
use quire::domain::net::dns_name::{MAX_LABEL, MAX_NAME};

fuzz_target!(|raw: &str| {
    let Ok(domain) = CustomDomain::parse(raw, "example.com") else { return };
    let name = domain.as_str();
    assert!(name.len() <= MAX_NAME && name.split('.').count() >= 2, "{raw:?} -> {name:?}");
    for label in name.split('.') {
        assert!((1..=MAX_LABEL).contains(&label.len()), "{raw:?} -> {name:?}");
        assert!(
            label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{raw:?} -> {name:?}"
        );
        assert!(!label.starts_with('-') && !label.ends_with('-'), "{raw:?} -> {name:?}");
    }
    assert_eq!(CustomDomain::parse(name, "example.com").as_ref(), Ok(&domain), "round trip");
    assert_eq!(CustomDomain::parse(&domain.display_name(), "example.com").as_ref(), Ok(&domain), "Unicode form");
});
