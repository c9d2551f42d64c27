//! The relay over TLS (issue 30, docs/email.md, "The SMTP relay"): `quire mail test` through the
//! real binary against the real SMTP sink (tests/support/smtp_sink.py) serving smtps and
//! STARTTLS with a certificate from a throwaway CA; `--smtp-ca-file`, the login over TLS only,
//! and the flag's refusals.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tempfile::TempDir;

use crate::helpers::{quire, quire_within, s, stderr, stdout};
use crate::mail::{FROM, Sink, free_port, to};
use crate::tls::TestCa;

/// A CA's certificate file and a leaf certificate and key it signed for `names`.
struct Certificates {
    dir: TempDir,
}

impl Certificates {
    fn new(names: &[&str]) -> Certificates {
        let dir = tempfile::tempdir().unwrap();
        let ca = TestCa::new();
        let (chain, key) = ca.leaf(names, 1, 30);
        std::fs::write(dir.path().join("ca.pem"), &ca.pem).unwrap();
        std::fs::write(dir.path().join("relay.pem"), chain).unwrap();
        std::fs::write(dir.path().join("relay.key"), key).unwrap();
        Certificates { dir }
    }

    fn ca(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    /// The sink with `mode` (`--tls` or `--starttls`) on this leaf, and `extra` arguments.
    fn sink(&self, mode: &str, extra: &[&str]) -> Sink {
        let cert = self.dir.path().join("relay.pem");
        let key = self.dir.path().join("relay.key");
        let mut args = vec![mode, s(&cert), s(&key)];
        args.extend_from_slice(extra);
        Sink::start_with(&args)
    }
}

/// `quire mail test ADDRESS` through `url`, with `extra` flags.
fn mail_test(address: &str, url: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["mail", "test", address, "--smtp-url", url, "--mail-from", FROM];
    args.extend_from_slice(extra);
    quire_within(&args, Duration::from_secs(60))
}

/// The one line a failed `quire mail test` printed.
fn one_line(output: &std::process::Output) -> String {
    assert!(!output.status.success(), "{}", stdout(output));
    let err = stderr(output);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("quire: not sent:") && !err.contains("panicked"), "{err}");
    err
}

/// The sink's record of AUTH attempts (`USER tls|plain ok|refused` lines).
fn auth_log(sink: &Sink) -> String {
    std::fs::read_to_string(sink.dir.path().join("auth.log")).unwrap_or_default()
}

#[test]
fn smtps_and_starttls_deliver_with_the_relays_ca_and_fail_with_one_line_without_it() {
    let certificates = Certificates::new(&["127.0.0.1", "localhost"]);
    let ca = certificates.ca();
    for (mode, scheme) in [("--tls", "smtps"), ("--starttls", "smtp+starttls")] {
        let sink = certificates.sink(mode, &[]);
        let url = format!("{scheme}://127.0.0.1:{}", sink.port);

        // A CA Quire does not know: nothing sent, the certificate named.
        let err = one_line(&mail_test("reader@example.net", &url, &[]));
        assert!(err.contains("TLS failed") && err.contains("certificate"), "{scheme}: {err}");
        assert!(err.contains("UnknownIssuer") && err.contains("--smtp-ca-file"), "{scheme}: {err}");
        assert!(sink.messages().is_empty(), "{scheme}");

        // With it, over 127.0.0.1 and over localhost.
        let sent = mail_test("reader@example.net", &url, &["--smtp-ca-file", s(&ca)]);
        assert!(sent.status.success(), "{scheme}: {}", stderr(&sent));
        assert!(stdout(&sent).starts_with("250 "), "{scheme}: {}", stdout(&sent));
        let by_name = format!("{scheme}://localhost:{}", sink.port);
        let sent = quire(&[
            "mail",
            "test",
            "second@example.net",
            "--smtp-url",
            &by_name,
            "--mail-from",
            FROM,
            "--smtp-ca-file",
            s(&ca),
        ]);
        assert!(sent.status.success(), "{scheme}: {}", stderr(&sent));
        let messages = sink.messages();
        assert_eq!(messages.len(), 2, "{scheme}");
        let message = to(&messages, "reader@example.net").expect("the message arrived");
        assert!(message.contains("Subject: Quire: a test message"), "{scheme}: {message}");
        assert!(to(&messages, "second@example.net").is_some(), "{scheme}");
    }

    // The name is checked too: a certificate of the same CA for another host is refused.
    let elsewhere = Certificates::new(&["mail.example.org"]);
    let sink = elsewhere.sink("--tls", &[]);
    let err = one_line(&mail_test(
        "reader@example.net",
        &format!("smtps://127.0.0.1:{}", sink.port),
        &["--smtp-ca-file", s(&elsewhere.ca())],
    ));
    assert!(err.contains("TLS failed") && err.contains("not valid for name"), "{err}");
    assert!(sink.messages().is_empty());
}

#[test]
fn the_login_goes_over_tls_only_and_a_wrong_password_fails_with_one_line() {
    let certificates = Certificates::new(&["127.0.0.1"]);
    let ca = certificates.ca();
    let trust = ["--smtp-ca-file", s(&ca)];
    for (mode, scheme) in [("--starttls", "smtp+starttls"), ("--tls", "smtps")] {
        let sink = certificates.sink(mode, &["--auth", "quire@example.com:s3cret pass"]);
        let url = |password: &str| format!("{scheme}://quire%40example.com:{password}@127.0.0.1:{}", sink.port);

        let sent = mail_test("reader@example.net", &url("s3cret%20pass"), &trust);
        assert!(sent.status.success(), "{scheme}: {}", stderr(&sent));
        assert_eq!(auth_log(&sink), "quire@example.com tls ok\n", "{scheme}");
        assert_eq!(sink.messages().len(), 1, "{scheme}");

        let err = one_line(&mail_test("reader@example.net", &url("wrong"), &trust));
        assert!(err.contains("535"), "{scheme}: {err}");
        assert!(!err.contains("wrong") && !err.contains("s3cret"), "no password in the error: {err}");
        assert_eq!(auth_log(&sink), "quire@example.com tls ok\nquire@example.com tls refused\n", "{scheme}");

        // No credentials: the relay refuses the mail.
        let err = one_line(&mail_test("reader@example.net", &format!("{scheme}://127.0.0.1:{}", sink.port), &trust));
        assert!(err.contains("530"), "{scheme}: {err}");
        assert_eq!(sink.messages().len(), 1, "{scheme}");
    }
}

#[test]
fn smtp_starttls_sends_no_password_to_a_relay_that_does_not_offer_starttls() {
    // A relay (or someone between) that offers AUTH in the clear and no STARTTLS.
    let sink = Sink::start_with(&["--auth", "quire:s3cret"]);
    let err = one_line(&mail_test(
        "reader@example.net",
        &format!("smtp+starttls://quire:s3cret@127.0.0.1:{}", sink.port),
        &[],
    ));
    assert!(err.contains("does not offer STARTTLS"), "{err}");
    assert_eq!(auth_log(&sink), "", "no login attempted");
    assert!(sink.messages().is_empty());

    // The sink does log a login in the clear, when the operator chose smtp:// for it.
    let sent = mail_test("reader@example.net", &format!("smtp://quire:s3cret@127.0.0.1:{}", sink.port), &[]);
    assert!(sent.status.success(), "{}", stderr(&sent));
    assert_eq!(auth_log(&sink), "quire plain ok\n");
    assert_eq!(sink.messages().len(), 1);
}

#[test]
fn a_missing_unreadable_or_non_pem_smtp_ca_file_is_one_line_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let not_pem = dir.path().join("not.pem");
    std::fs::write(&not_pem, "this is not a certificate\n").unwrap();
    let broken = dir.path().join("broken.pem");
    std::fs::write(&broken, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").unwrap();
    let missing = dir.path().join("missing.pem");
    let url = format!("smtps://127.0.0.1:{}", free_port());
    let cases: [(&Path, &str); 4] = [
        (&missing, "cannot read"),
        (dir.path(), "cannot read"),
        (&not_pem, "holds no PEM certificate"),
        (&broken, "cannot be read"),
    ];
    for (file, expected) in cases {
        let test = mail_test("reader@example.net", &url, &["--smtp-ca-file", s(file)]);
        let serve = quire_within(
            &[
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--host",
                "localhost:0",
                "--data-dir",
                s(&dir.path().join("data")),
                "--smtp-url",
                &url,
                "--mail-from",
                FROM,
                "--smtp-ca-file",
                s(file),
            ],
            Duration::from_secs(10),
        );
        for (command, out) in [("mail test", test), ("serve", serve)] {
            assert!(!out.status.success(), "{command} {file:?}");
            let err = stderr(&out);
            assert_eq!(err.trim().lines().count(), 1, "{command} {file:?}: one line: {err}");
            assert!(err.starts_with("quire: --smtp-ca-file: ") && err.contains(expected), "{command} {file:?}: {err}");
        }
    }
}
