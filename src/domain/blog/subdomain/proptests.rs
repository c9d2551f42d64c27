//! Property tests of [`Subdomain::parse`]: it answers any text, accepts exactly the lowercase
//! labels of the documented shape, and what it accepts parses again to itself.

use proptest::prelude::*;

use super::*;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

/// The documented shape: 3-63 of a-z, 0-9 and inner hyphens.
fn has_the_shape(s: &str) -> bool {
    (3..=63).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// Requests a user could type: anything, label-like text with odd case, spaces, dots and
/// non-ASCII letters, and the reserved names.
fn requested() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ \t]{0,2}[a-zA-Z0-9-]{0,70}[ \t]{0,2}",
        "[a-z0-9-]{1,8}[._åK\u{212A}ı@ ][a-z0-9-]{1,8}",
        prop::sample::select(RESERVED.to_vec()).prop_map(str::to_owned),
        prop::sample::select(RESERVED.to_vec()).prop_map(str::to_uppercase),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn accepted_subdomains_are_lowercase_labels_of_the_allowed_shape(raw in requested()) {
        if let Ok(subdomain) = Subdomain::parse(&raw) {
            let s = subdomain.as_str();
            prop_assert!(has_the_shape(s), "{:?} accepted as {:?}", raw, s);
            prop_assert!(!RESERVED.contains(&s), "{:?} is reserved", s);
            prop_assert_eq!(s, raw.trim().to_ascii_lowercase(), "only spaces and case are changed");
            prop_assert_eq!(Subdomain::parse(s), Ok(subdomain.clone()), "it round-trips");
            prop_assert_eq!(subdomain.to_string(), s);
        }
    }

    #[test]
    fn every_label_of_the_allowed_shape_is_accepted_unless_reserved(label in "[a-z0-9][a-z0-9-]{1,61}[a-z0-9]") {
        let parsed = Subdomain::parse(&label);
        if RESERVED.contains(&label.as_str()) {
            prop_assert_eq!(parsed, Err(SubdomainError::Reserved));
        } else {
            prop_assert_eq!(parsed.map(|s| s.as_str().to_owned()), Ok(label));
        }
    }
}
