//! `quire doctor` against a good set-up (every check passes, exit 0) and against each broken
//! one (its line fails with what to do, the exit status is 1), and that it changes nothing.
//! The sign-in provider is a real HTTP server on 127.0.0.1 serving a discovery document and a
//! key set, with its clock set right or ten minutes off.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, SystemTime};

use poem::web::Data;
use poem::{EndpointExt, IntoResponse, Response, Route, get, handler};
use rusqlite::Connection;
use serde_json::json;

use crate::helpers::{quire, s, stderr, stdout};

struct IssuerState {
    url: String,
    /// Seconds added to the `Date` the issuer sends.
    clock_offset: i64,
}

/// Serves an OpenID discovery document and a key set on 127.0.0.1; returns its URL.
async fn start_issuer(clock_offset: i64) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let url = format!("http://127.0.0.1:{}", addr.port());
    let state = std::sync::Arc::new(IssuerState { url: url.clone(), clock_offset });
    let routes =
        Route::new().at("/.well-known/openid-configuration", get(discovery)).at("/jwks", get(jwks)).data(state);
    let acceptor = poem::listener::TcpAcceptor::from_std(listener).unwrap();
    tokio::spawn(poem::Server::new_with_acceptor(acceptor).run(routes));
    url
}

fn dated(state: &IssuerState, body: serde_json::Value) -> Response {
    let now = SystemTime::now();
    let date = if state.clock_offset >= 0 {
        now + Duration::from_secs(state.clock_offset as u64)
    } else {
        now - Duration::from_secs(state.clock_offset.unsigned_abs())
    };
    poem::web::Json(body).with_header("Date", httpdate::fmt_http_date(date)).into_response()
}

#[handler]
fn discovery(state: Data<&std::sync::Arc<IssuerState>>) -> Response {
    let url = &state.url;
    dated(
        &state,
        json!({ "issuer": url, "authorization_endpoint": format!("{url}/authorize"), "jwks_uri": format!("{url}/jwks") }),
    )
}

#[handler]
fn jwks(state: Data<&std::sync::Arc<IssuerState>>) -> Response {
    dated(
        &state,
        json!({ "keys": [{ "kty": "RSA", "alg": "RS256", "use": "sig", "kid": "k1", "n": "AQAB", "e": "AQAB" }] }),
    )
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `quire doctor` with `extra` flags, off the test's runtime (the issuer runs on it).
async fn doctor(data: &Path, port: u16, extra: &[&str]) -> Output {
    let mut args: Vec<String> = ["doctor", "--data-dir", s(data), "--listen", &format!("127.0.0.1:{port}")]
        .iter()
        .map(|a| a.to_string())
        .collect();
    if !extra.contains(&"--host") {
        args.extend(["--host".to_owned(), format!("localhost:{port}")]);
    }
    args.extend(extra.iter().map(|a| a.to_string()));
    tokio::task::spawn_blocking(move || quire(&args.iter().map(String::as_str).collect::<Vec<_>>())).await.unwrap()
}

/// The line of check `name`.
fn line<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find(|l| l.get(6..).is_some_and(|rest| rest.starts_with(&format!("{name}:"))))
        .unwrap_or_else(|| panic!("no {name} line in:\n{out}"))
}

fn assert_fails(out: &Output, name: &str, says: &str) {
    let text = stdout(out);
    assert!(!out.status.success(), "doctor passed:\n{text}");
    let found = line(&text, name);
    assert!(found.starts_with("FAIL  "), "{found}");
    assert!(found.contains(says), "{found:?} should say {says:?}");
    assert!(found.contains(". Fix: "), "a failed check says what to do: {found}");
    assert!(stderr(out).contains("checks failed"), "{}", stderr(out));
}

fn migrated(data: &Path) {
    let out = quire(&["migrate", "--data-dir", s(data)]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[tokio::test]
async fn a_good_set_up_passes_every_check_and_nothing_is_changed() {
    let issuer = start_issuer(0).await;
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    migrated(&data);
    let before = std::fs::read(data.join("quire.db")).unwrap();
    let listing = |dir: &Path| {
        let mut names: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    let files = listing(&data);
    let port = free_port();
    let out = doctor(&data, port, &["--oidc-issuer", &issuer, "--oidc-client-id", "quire-test"]).await;
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    for name in ["flags", "data directory", "ports", "sign-in", "clock"] {
        assert!(line(&text, name).starts_with("ok    "), "{}", line(&text, name));
    }
    for name in ["DNS", "ACME", "mail", "uploads", "replica"] {
        assert!(line(&text, name).starts_with("skip  "), "{}", line(&text, name));
    }
    assert!(line(&text, "data directory").contains("(up to date)"), "{text}");
    assert!(line(&text, "sign-in").contains("1 signing key"), "{text}");
    assert!(text.ends_with("All 10 checks passed.\n"), "{text}");
    assert_eq!(std::fs::read(data.join("quire.db")).unwrap(), before, "the database is not written");
    assert_eq!(listing(&data), files, "no file is left behind");

    // The same settings from an environment file, as the package's service reads them.
    let env = root.path().join("quire.env");
    std::fs::write(
        &env,
        format!(
            "# quire.env\nQUIRE_OIDC_ISSUER={issuer}\nexport QUIRE_OIDC_CLIENT_ID=\"quire-test\"\nQUIRE_DATA_DIR={}\n",
            s(&data)
        ),
    )
    .unwrap();
    let out = tokio::task::spawn_blocking(move || {
        quire(&[
            "doctor",
            "--env-file",
            s(&env),
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--host",
            &format!("localhost:{port}"),
        ])
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    assert!(line(&stdout(&out), "sign-in").starts_with("ok    "), "{}", stdout(&out));
}

#[tokio::test]
async fn a_missing_data_directory_fails_and_is_not_created() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("missing");
    let out = doctor(&data, free_port(), &[]).await;
    assert_fails(&out, "data directory", "does not exist");
    assert!(!data.exists(), "the doctor changes nothing");
}

#[tokio::test]
async fn a_data_directory_that_cannot_be_written_fails() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    migrated(&data);
    // As root, permissions do not stop a write: a read-only mount does.
    let read_only = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", s(&data)])
        .status()
        .is_ok_and(|status| status.success());
    if !read_only {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o555)).unwrap();
    }
    let out = doctor(&data, free_port(), &[]).await;
    if read_only {
        let _ = std::process::Command::new("umount").arg(&data).status();
    } else {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert_fails(&out, "data directory", "cannot write in");
}

#[tokio::test]
async fn a_port_in_use_fails() {
    let root = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let out = doctor(root.path(), port, &[]).await;
    assert_fails(&out, "ports", &format!("127.0.0.1:{port} is in use"));
    assert!(line(&stdout(&out), "data directory").starts_with("ok    "), "{}", stdout(&out));
}

#[tokio::test]
async fn an_unreachable_sign_in_provider_fails() {
    let root = tempfile::tempdir().unwrap();
    let closed = free_port();
    let issuer = format!("http://127.0.0.1:{closed}");
    let out = doctor(root.path(), free_port(), &["--oidc-issuer", &issuer, "--oidc-client-id", "quire-test"]).await;
    assert_fails(&out, "sign-in", &format!("cannot reach {issuer}/.well-known/openid-configuration"));
}

#[tokio::test]
async fn a_host_that_does_not_resolve_fails() {
    let issuer = start_issuer(0).await;
    let root = tempfile::tempdir().unwrap();
    let out = doctor(
        root.path(),
        free_port(),
        &["--host", "quire-doctor-test.invalid", "--oidc-issuer", &issuer, "--oidc-client-id", "quire-test"],
    )
    .await;
    assert_fails(&out, "DNS", "quire-doctor-test.invalid does not resolve");
    assert!(line(&stdout(&out), "sign-in").starts_with("ok    "), "{}", stdout(&out));
}

#[tokio::test]
async fn a_database_from_a_newer_quire_fails() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    migrated(&data);
    Connection::open(data.join("quire.db")).unwrap().pragma_update(None, "user_version", 999).unwrap();
    let out = doctor(&data, free_port(), &[]).await;
    assert_fails(&out, "data directory", "has schema version 999, written by a newer quire");
}

#[tokio::test]
async fn a_skewed_clock_fails() {
    let issuer = start_issuer(-600).await;
    let root = tempfile::tempdir().unwrap();
    let out = doctor(root.path(), free_port(), &["--oidc-issuer", &issuer, "--oidc-client-id", "quire-test"]).await;
    assert_fails(&out, "clock", "s ahead of 127.0.0.1's");
}

#[tokio::test]
async fn flags_serve_would_refuse_fail() {
    let root = tempfile::tempdir().unwrap();
    let out = doctor(root.path(), free_port(), &["--host", "blog.example.com"]).await;
    assert_fails(&out, "flags", "--oidc-client-id");
}
