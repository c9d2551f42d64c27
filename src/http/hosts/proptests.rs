//! Property tests of [`classify`], which reads the Host header of every request: it answers
//! any text, names only valid labels as blogs, and ignores case, a trailing dot and a default
//! port.

use proptest::prelude::*;

use super::*;
use crate::config::parse_host;
use crate::domain::blog::subdomain::Subdomain;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

/// A configured host, normalized as `--host` is: a name of one to three labels, maybe a port.
fn app_host() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just("localhost".to_owned()),
        Just("127.0.0.1".to_owned()),
        "[a-z0-9]{1,10}(\\.[a-z0-9]{1,10}){0,2}",
    ];
    let port = prop_oneof![
        Just(None),
        prop::sample::select(vec![80u16, 443, 8080]).prop_map(Some),
        any::<u16>().prop_map(Some)
    ];
    (name, port)
        .prop_map(|(name, port)| port.map_or(name.clone(), |port| format!("{name}:{port}")))
        .prop_filter_map("a host --host accepts", |raw| parse_host(&raw).ok())
}

/// A request's host name part: the app's name, a label in front of it, or anything.
fn request_name(app_name: String) -> impl Strategy<Value = String> {
    prop_oneof![
        Just(app_name.clone()),
        "[a-zA-Z0-9_-]{0,70}".prop_map(move |label| format!("{label}.{app_name}")),
        "[a-zA-Z0-9.:_-]{0,40}",
        any::<String>(),
    ]
}

fn name_of(app_host: &str) -> String {
    split_port(app_host).0.to_owned()
}

fn is_valid_label(label: &str) -> bool {
    (1..=63).contains(&label.len()) && label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_host_header_is_classified_and_blogs_are_valid_labels(request in any::<String>(), app in app_host()) {
        if let Site::Blog(label) = classify(&request, &app) {
            prop_assert!(is_valid_label(&label), "{:?} routed to blog {:?}", request, label);
        }
    }

    #[test]
    fn case_a_trailing_dot_and_a_default_port_do_not_change_the_site(
        (app, name) in app_host().prop_flat_map(|app| (Just(app.clone()), request_name(name_of(&app)))),
    ) {
        let port = split_port(&app).1.map(|port| format!(":{port}")).unwrap_or_default();
        let plain = classify(&format!("{name}{port}"), &app);
        if let Site::Blog(label) = &plain {
            prop_assert!(is_valid_label(label), "{:?} routed to blog {:?}", name, label);
        }
        prop_assert_eq!(classify(&format!("{}{port}", name.to_ascii_uppercase()), &app), plain.clone(), "upper case");
        prop_assert_eq!(classify(&format!("{name}.{port}"), &app), plain.clone(), "a trailing dot");
        prop_assert_eq!(classify(&format!(" {name}{port} "), &app), plain.clone(), "surrounding spaces");
        if port.is_empty() || port == ":80" || port == ":443" {
            // Browsers leave out the default port: a request with one, or none, is the same.
            let bare = classify(&name, &app);
            prop_assert_eq!(classify(&format!("{name}:80"), &app), bare.clone(), ":80");
            prop_assert_eq!(classify(&format!("{name}:443"), &app), bare.clone(), ":443");
            prop_assert_eq!(bare, plain, "no port");
        }
    }

    #[test]
    fn every_accepted_subdomain_routes_to_its_blog(raw in "[a-z0-9][a-z0-9-]{1,61}[a-z0-9]", app in app_host()) {
        if let Ok(subdomain) = Subdomain::parse(&raw) {
            prop_assert_eq!(classify(&format!("{subdomain}.{app}"), &app), Site::Blog(subdomain.to_string()));
        }
        prop_assert_eq!(classify(&app, &app), Site::App);
    }
}
