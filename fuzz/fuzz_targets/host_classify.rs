//! A request's Host header: `classify` answers any text, a blog is always a valid label, and
//! letter case does not change the site.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::http::hosts::{Site, classify};

/// Hosts as `--host` leaves them (normalized, without the scheme's default port).
const APP_HOSTS: [&str; 4] = ["localhost:8080", "example.com", "blog.example.co.uk:8443", "127.0.0.1:80"];

fuzz_target!(|data: (u8, &str)| {
    let (pick, request) = data;
    let app = APP_HOSTS[pick as usize % APP_HOSTS.len()];
    let site = classify(request, app);
    if let Site::Blog(label) = &site {
        assert!((1..=63).contains(&label.len()), "{request:?} -> {label:?}");
        assert!(
            label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{request:?} -> {label:?}"
        );
    }
    assert_eq!(classify(&request.to_ascii_uppercase(), app), site, "case of {request:?}");
});
