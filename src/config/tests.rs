//! `quire serve`'s flags as the command line gives them, checked into a [`Config`] or refused.

use super::*;
use crate::cli::{Cli, Command};
use clap::Parser;

/// `quire serve` flags as the command line gives them.
fn serve_args(flags: &[&str]) -> ServeArgs {
    let cli = Cli::try_parse_from(["quire", "serve"].iter().chain(flags)).expect("flags parse");
    match cli.command {
        Command::Serve(args) => args,
        _ => unreachable!("serve was given"),
    }
}

#[test]
fn the_local_issuer_is_refused_on_a_listen_address_other_machines_can_reach() {
    for listen in ["0.0.0.0:8080", "[::]:8080", "192.168.1.20:8080"] {
        let err = Config::from_serve_args(&serve_args(&["--listen", listen])).unwrap_err().to_string();
        assert!(err.starts_with("--listen") && err.contains("--oidc-client-id"), "{listen}: {err}");
    }
    for listen in ["127.0.0.1:8080", "127.0.0.2:8080", "[::1]:8080"] {
        assert!(Config::from_serve_args(&serve_args(&["--listen", listen])).is_ok(), "{listen}");
    }
    let provider = ["--listen", "0.0.0.0:8080", "--host", "blog.example.com", "--oidc-client-id", "id"];
    assert!(Config::from_serve_args(&serve_args(&provider)).is_ok(), "a real provider may listen anywhere");
}

#[cfg(debug_assertions)]
#[test]
fn the_test_only_loopback_allowance_needs_the_flag_and_a_loopback_listen_address() {
    assert!(!Config::from_serve_args(&serve_args(&[])).unwrap().fetch_allow_loopback, "off by default");
    for listen in ["127.0.0.1:8080", "[::1]:8080"] {
        let config = Config::from_serve_args(&serve_args(&["--test-only-fetch-loopback", "--listen", listen]));
        assert!(config.unwrap().fetch_allow_loopback, "{listen}");
    }
    let public = [
        "--test-only-fetch-loopback",
        "--listen",
        "0.0.0.0:8080",
        "--host",
        "blog.example.com",
        "--oidc-client-id",
        "id",
    ];
    let err = Config::from_serve_args(&serve_args(&public)).unwrap_err().to_string();
    assert!(err.starts_with("--test-only-fetch-loopback") && err.contains("0.0.0.0:8080"), "{err}");
}

#[cfg(debug_assertions)]
#[test]
fn the_test_only_dns_server_needs_loopback_addresses() {
    assert_eq!(Config::from_serve_args(&serve_args(&[])).unwrap().dns_server, None);
    let local = Config::from_serve_args(&serve_args(&["--test-only-dns-server", "127.0.0.1:5353"])).unwrap();
    assert_eq!(local.dns_server, Some("127.0.0.1:5353".parse().unwrap()));
    let err = Config::from_serve_args(&serve_args(&["--test-only-dns-server", "8.8.8.8:53"])).unwrap_err();
    assert!(err.to_string().starts_with("--test-only-dns-server"), "{err}");
    let public = [
        "--test-only-dns-server",
        "127.0.0.1:53",
        "--listen",
        "0.0.0.0:8080",
        "--host",
        "blog.example.com",
        "--oidc-client-id",
        "id",
    ];
    assert!(Config::from_serve_args(&serve_args(&public)).is_err());
}

#[cfg(not(debug_assertions))]
#[test]
fn a_release_build_has_no_test_only_dns_server_flag() {
    let err = Cli::try_parse_from(["quire", "serve", "--test-only-dns-server", "127.0.0.1:53"]).unwrap_err();
    assert_eq!(err.kind(), clap::error::ErrorKind::UnknownArgument);
}

#[cfg(debug_assertions)]
#[test]
fn the_test_only_delivery_retry_shortens_the_backoffs_minute() {
    assert_eq!(Config::from_serve_args(&serve_args(&[])).unwrap().delivery_retry_unit, Duration::from_secs(60));
    let fast = Config::from_serve_args(&serve_args(&["--test-only-delivery-retry-ms", "5"])).unwrap();
    assert_eq!(fast.delivery_retry_unit, Duration::from_millis(5));
}

#[cfg(not(debug_assertions))]
#[test]
fn a_release_build_has_no_delivery_retry_flag() {
    let err = Cli::try_parse_from(["quire", "serve", "--test-only-delivery-retry-ms", "5"]).unwrap_err();
    assert_eq!(err.kind(), clap::error::ErrorKind::UnknownArgument);
}

#[cfg(not(debug_assertions))]
#[test]
fn a_release_build_has_no_loopback_allowance_flag() {
    let err = Cli::try_parse_from(["quire", "serve", "--test-only-fetch-loopback"]).unwrap_err();
    assert_eq!(err.kind(), clap::error::ErrorKind::UnknownArgument);
}

#[test]
fn an_http_issuer_must_be_exactly_this_machine() {
    let accepted = |issuer: &str| {
        Config::from_serve_args(&serve_args(&["--oidc-issuer", issuer, "--oidc-client-id", "id"])).is_ok()
    };
    for issuer in [
        "http://localhost",
        "http://localhost:8080/dev-idp",
        "http://127.0.0.1:9000",
        "http://[::1]:8080/x",
        "https://id.example.com",
    ] {
        assert!(accepted(issuer), "{issuer} is accepted");
    }
    for issuer in [
        "http://localhost:1@evil.com",
        "http://localhost@evil.com",
        "http://user@localhost",
        "http://localhost.evil.com",
        "http://127.0.0.1.nip.io",
        "http://evil.com/localhost",
        "http://id.example.com",
        "localhost:8080",
    ] {
        assert!(!accepted(issuer), "{issuer} is refused");
    }
}

#[test]
fn the_schemes_default_port_is_left_out_of_the_host() {
    let config = |args: &[&str]| {
        let cli = crate::cli::Cli::try_parse_from([&["quire", "serve"], args].concat()).unwrap();
        let crate::cli::Command::Serve(serve) = cli.command else { unreachable!() };
        Config::from_serve_args(&serve).unwrap()
    };
    let https = config(&["--host", "Example.com:443", "--https", "--oidc-client-id", "id"]);
    assert_eq!((https.host.as_str(), https.app_url()), ("example.com", "https://example.com".to_owned()));
    assert_eq!(config(&["--host", "localhost:80"]).app_url(), "http://localhost");
    assert_eq!(config(&["--host", "localhost:443"]).host, "localhost:443", "443 is not http's default");
    assert_eq!(config(&["--host", "localhost:8080"]).host, "localhost:8080");
}

#[test]
fn tls_flags_imply_https_and_refuse_what_cannot_work() {
    let acme = ["--acme-email", "admin@example.com", "--host", "example.com", "--oidc-client-id", "id"];
    let config = Config::from_serve_args(&serve_args(&acme)).unwrap();
    let tls = config.tls.as_ref().expect("TLS mode");
    assert!(config.https && config.app_url() == "https://example.com");
    assert_eq!(tls.acme.as_ref().unwrap().directory, crate::cli::LETS_ENCRYPT);
    assert_eq!((tls.https_listen.to_string().as_str(), tls.http_listen.to_string().as_str()), ("[::]:443", "[::]:80"));
    assert!(Config::from_serve_args(&serve_args(&[])).unwrap().tls.is_none(), "no flag, no TLS");
    let refused = |extra: &[&str], base: &[&str]| {
        Config::from_serve_args(&serve_args(&[base, extra].concat())).unwrap_err().to_string()
    };
    assert!(refused(&["--listen", "127.0.0.1:8080"], &acme).starts_with("--listen is for plain HTTP"));
    assert!(refused(&["--acme-directory", "http://ca.example/dir"], &acme).starts_with("--acme-directory"));
    let local = ["--acme-email", "admin@example.com"];
    assert!(refused(&[], &local).contains("public --host"), "localhost gets no ACME certificate");
    let ip = ["--acme-email", "a@example.com", "--host", "192.0.2.1", "--oidc-client-id", "id"];
    assert!(refused(&[], &ip).contains("public --host"));
    assert!(
        refused(&["--acme-email", "nobody"], &["--host", "example.com", "--oidc-client-id", "id"])
            .starts_with("--acme-email")
    );
    assert!(refused(&["--tls-cert", "c.pem"], &[]).starts_with("--tls-cert needs --tls-key"));
    assert!(refused(&["--tls-key", "k.pem"], &[]).starts_with("--tls-key needs --tls-cert"));
    let static_local = ["--tls-cert", "c.pem", "--tls-key", "k.pem"];
    assert!(refused(&[], &static_local).starts_with("--https-listen [::]:443 can be reached"), "local sign-in");
    let loopback = ["--https-listen", "127.0.0.1:8443", "--http-listen", "127.0.0.1:8080"];
    let config = Config::from_serve_args(&serve_args(&[&static_local[..], &loopback].concat())).unwrap();
    assert!(config.https && config.tls.unwrap().acme.is_none(), "a certificate of one's own on localhost");
}

#[test]
fn the_mail_flags_are_checked_at_start_and_off_without_a_relay() {
    assert!(Config::from_serve_args(&serve_args(&[])).unwrap().mail.is_none(), "no --smtp-url: no mail");
    let url = ["--smtp-url", "smtps://me@mail.example.com"];
    let err = Config::from_serve_args(&serve_args(&url)).unwrap_err().to_string();
    assert!(err.contains("--mail-from"), "{err}");
    let from = ["--mail-from", "Quire <noreply@example.com>"];
    let zero = [&url[..], &from[..], &["--mail-per-minute", "0"]].concat();
    let err = Config::from_serve_args(&serve_args(&zero)).unwrap_err().to_string();
    assert!(err.contains("--mail-per-minute"), "{err}");
    let bad_from = [&url[..], &["--mail-from", "not an address"]].concat();
    assert!(Config::from_serve_args(&serve_args(&bad_from)).unwrap_err().to_string().contains("--mail-from"));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("password");
    std::fs::write(&file, "s3cret:@\n").unwrap();
    let flags = [&url[..], &from[..], &["--smtp-password-file", file.to_str().unwrap()]].concat();
    let mail = Config::from_serve_args(&serve_args(&flags)).unwrap().mail.expect("mail on");
    assert_eq!(mail.relay.credentials, Some(("me".to_owned(), "s3cret:@".to_owned())));
    assert_eq!((mail.per_minute.get(), mail.per_blog_per_day), (60, 10_000));
    assert_eq!(mail.from.email.to_string(), "noreply@example.com");
    let no_user =
        [&["--smtp-url", "smtps://mail.example.com"][..], &from[..], &["--smtp-password-file", file.to_str().unwrap()]]
            .concat();
    let err = Config::from_serve_args(&serve_args(&no_user)).unwrap_err().to_string();
    assert!(err.contains("user name"), "{err}");
}

#[test]
fn the_custom_css_limit_defaults_to_16_kb_and_refuses_what_a_save_could_not_carry() {
    assert_eq!(Config::from_serve_args(&serve_args(&[])).unwrap().max_custom_css_bytes, 16 * 1024);
    let chosen = Config::from_serve_args(&serve_args(&["--max-custom-css-bytes", "65536"])).unwrap();
    assert_eq!(chosen.max_custom_css_bytes, 65536);
    for bad in ["0", "524289"] {
        let err = Config::from_serve_args(&serve_args(&["--max-custom-css-bytes", bad])).unwrap_err().to_string();
        assert!(err.starts_with("--max-custom-css-bytes"), "{bad}: {err}");
    }
}

#[test]
fn the_page_cache_and_the_uncached_render_limit_have_defaults_and_refuse_nonsense() {
    let defaults = Config::from_serve_args(&serve_args(&[])).unwrap();
    assert_eq!(defaults.page_cache_bytes, 64 * 1024 * 1024);
    assert_eq!(defaults.uncached_renders, (600, 120));
    let chosen = Config::from_serve_args(&serve_args(&[
        "--page-cache-mb",
        "256",
        "--uncached-renders-per-minute",
        "60",
        "--uncached-renders-burst",
        "10",
    ]))
    .unwrap();
    assert_eq!((chosen.page_cache_bytes, chosen.uncached_renders), (256 * 1024 * 1024, (60, 10)));
    for bad in ["0", "4097"] {
        let err = Config::from_serve_args(&serve_args(&["--page-cache-mb", bad])).unwrap_err().to_string();
        assert!(err.starts_with("--page-cache-mb must be from 1 to 4096"), "{bad}: {err}");
    }
    assert_eq!(defaults.db_mmap_bytes, 0);
    assert_eq!(Config::from_serve_args(&serve_args(&["--db-mmap-mb", "2048"])).unwrap().db_mmap_bytes, 2048 << 20);
    let err = Config::from_serve_args(&serve_args(&["--db-mmap-mb", "2049"])).unwrap_err().to_string();
    assert!(err.starts_with("--db-mmap-mb must be from 0 to 2048"), "{err}");
    for flag in ["--uncached-renders-per-minute", "--uncached-renders-burst"] {
        let err = Config::from_serve_args(&serve_args(&[flag, "0"])).unwrap_err().to_string();
        assert!(err.contains("must be at least 1"), "{flag}: {err}");
    }
}

#[test]
fn new_blogs_allow_ai_crawlers_unless_the_operator_says_disallow() {
    let ai = |flags: &[&str]| Config::from_serve_args(&serve_args(flags)).map(|c| c.public.new_blogs_disallow_ai);
    assert!(!ai(&[]).unwrap());
    assert!(ai(&["--ai-crawlers", "disallow"]).unwrap());
    assert!(!ai(&["--ai-crawlers", "allow"]).unwrap());
    let err = ai(&["--ai-crawlers", "deny"]).unwrap_err().to_string();
    assert_eq!(err, r#"--ai-crawlers must be allow or disallow, got "deny""#);
}
