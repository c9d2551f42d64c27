use std::process::Command;
use std::time::{Duration, Instant};

use crate::helpers::{ServeProcess, quire, quire_within, s, stderr, stdout};

#[test]
fn an_unknown_subcommand_or_flag_is_refused_with_a_clear_line() {
    for args in [&["frobnicate"][..], &["serve", "--colour", "blue"][..], &["serve", "--listen", "nowhere"][..]] {
        let out = quire(args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.lines().next().unwrap_or("").starts_with("error:"), "{args:?}: {err}");
    }
}

#[test]
fn help_names_every_subcommand_and_the_environment_variables() {
    let out = quire(&["--help"]);
    assert!(out.status.success());
    let help = stdout(&out);
    for word in ["serve", "migrate", "backup", "restore", "reindex", "export", "import", "federation", "blogs"] {
        assert!(help.contains(word), "{word} missing from --help");
    }
    let serve = stdout(&quire(&["serve", "--help"]));
    for flag in [
        "--listen",
        "--host",
        "--https",
        "--data-dir",
        "--oidc-issuer",
        "--oidc-client-id",
        "--oidc-name",
        "--imgur-client-id",
        "--support-url",
        "--emoji-cdn",
        "--trusted-proxy",
        "QUIRE_TRUSTED_PROXY",
        "--access-log",
        "--access-log-format",
        "QUIRE_ACCESS_LOG",
        "QUIRE_DATA_DIR",
        "QUIRE_HOST",
    ] {
        assert!(serve.contains(flag), "{flag} missing from serve --help");
    }
}

#[test]
fn a_data_dir_that_cannot_be_created_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = quire(&["serve", "--listen", "127.0.0.1:0", "--data-dir", s(&file.join("data"))]);
    assert!(!out.status.success());
    let err = stderr(&out);
    let last = err.lines().last().unwrap();
    assert!(last.starts_with("quire: cannot create data directory"), "{err}");
}

#[test]
fn a_port_in_use_is_one_clear_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let out = quire(&["serve", "--listen", &addr, "--data-dir", s(dir.path())]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.lines().last().unwrap().contains(&format!("cannot listen on {addr}")), "{err}");
}

#[test]
fn a_bad_host_is_refused_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let out = quire(&["serve", "--host", "https://example.com/", "--data-dir", s(&dir.path().join("d"))]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--host"), "{}", stderr(&out));
    assert!(!dir.path().join("d").exists(), "nothing was created");
}

#[test]
fn flags_can_come_from_quire_environment_variables() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("from-env");
    let out =
        Command::new(env!("CARGO_BIN_EXE_quire")).args(["migrate"]).env("QUIRE_DATA_DIR", &data).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(data.join("quire.db").is_file());
}

#[test]
fn migrate_applies_then_reports_up_to_date_and_status_lists_versions() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let status = quire(&["migrate", "--status", "--data-dir", s(&data)]);
    assert!(status.status.success());
    assert!(stdout(&status).contains("pending"), "{}", stdout(&status));
    assert!(!data.join("quire.db").exists(), "--status changes nothing");

    let first = quire(&["migrate", "--data-dir", s(&data)]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stdout(&first).contains("applied"));
    let second = quire(&["migrate", "--data-dir", s(&data)]);
    assert!(stdout(&second).contains("up to date"), "{}", stdout(&second));
    let status = quire(&["migrate", "--status", "--data-dir", s(&data)]);
    assert!(stdout(&status).contains("applied") && !stdout(&status).contains("pending"));
}

#[test]
fn serve_prints_the_url_to_open_and_stops_cleanly_on_sigterm() {
    let mut server = ServeProcess::start();
    let status = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "exit after SIGTERM: {status}");
            break;
        }
        assert!(Instant::now() < deadline, "server did not stop after SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_local_issuer_is_refused_on_a_listen_address_other_machines_can_reach() {
    for listen in ["0.0.0.0:0", "[::]:0"] {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("d");
        let out = quire_within(&["serve", "--listen", listen, "--data-dir", s(&data)], Duration::from_secs(10));
        assert!(!out.status.success(), "{listen}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("quire: --listen"), "{err}");
        assert!(err.contains("--oidc-client-id"), "{err}");
        assert!(!data.exists(), "nothing was created");
    }
}

#[test]
fn a_public_host_without_a_client_id_is_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let out = quire(&["serve", "--host", "blog.example.com", "--data-dir", s(dir.path())]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("--oidc-client-id"), "{err}");
    assert!(err.contains("http://blog.example.com/auth/callback"), "names the redirect URI: {err}");
    let out = quire(&["serve", "--host", "blog.example.com", "--https", "--data-dir", s(dir.path())]);
    assert!(stderr(&out).contains("https://blog.example.com/auth/callback"), "{}", stderr(&out));
}

#[test]
fn an_http_issuer_is_accepted_only_on_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let out = quire(&[
        "serve",
        "--oidc-issuer",
        "http://idp.example.com",
        "--oidc-client-id",
        "x",
        "--data-dir",
        s(dir.path()),
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--oidc-issuer must be an https:// URL"), "{}", stderr(&out));
    let out = quire(&[
        "serve",
        "--oidc-issuer",
        "http://localhost.evil.com",
        "--oidc-client-id",
        "x",
        "--data-dir",
        s(dir.path()),
    ]);
    assert!(!out.status.success(), "a look-alike of localhost is not loopback");
}

#[test]
fn an_invalid_trusted_proxy_is_one_clear_line_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d");
    for value in ["proxy.example.com", "10.0.0.0/33", "10.0.0.1, nonsense"] {
        let out = quire(&["serve", "--listen", "127.0.0.1:0", "--trusted-proxy", value, "--data-dir", s(&data)]);
        assert!(!out.status.success(), "{value}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("quire: --trusted-proxy "), "{value}: {err}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir", s(&data)])
        .env("QUIRE_TRUSTED_PROXY", "10.0.0.0/8,fe80::/1o")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).starts_with("quire: --trusted-proxy \"fe80::/1o\""), "{}", stderr(&out));
    assert!(!data.exists(), "nothing was created");
}

#[test]
fn serve_migrate_and_reindex_refuse_a_data_dir_with_data_but_no_database() {
    // A server that does start (the bug) is stopped after this long.
    const BOUND: Duration = Duration::from_secs(30);
    let root = tempfile::tempdir().unwrap();
    // Each case: the one file in otherwise empty uploads/, index/ and replaced-*/ folders.
    let cases = [
        ("uploads", "uploads/abc.png"),
        ("index", "index/meta.json"),
        ("replaced", "replaced-20260101T000000Z/quire.db"),
    ];
    for (name, file) in cases {
        let data = root.path().join(name);
        for folder in ["uploads", "index", "replaced-20260101T000000Z"] {
            std::fs::create_dir_all(data.join(folder)).unwrap();
        }
        std::fs::write(data.join(file), b"some data").unwrap();
        let serve =
            quire_within(&["serve", "--listen", "127.0.0.1:0", "--host", "localhost:0", "--data-dir", s(&data)], BOUND);
        let migrate = quire_within(&["migrate", "--data-dir", s(&data)], BOUND);
        let reindex = quire_within(&["reindex", "--data-dir", s(&data)], BOUND);
        for (command, out) in [("serve", serve), ("migrate", migrate), ("reindex", reindex)] {
            assert!(!out.status.success(), "{name}: {command} started");
            let err = stderr(&out);
            let last = err.trim().lines().last().unwrap_or("");
            assert!(last.starts_with("quire:") && last.contains("no database"), "{name}: {command}: {err}");
            assert!(last.contains("quire restore") && last.contains("move the folder away"), "{name}: {err}");
            assert!(!data.join("quire.db").exists(), "{name}: {command} created an empty database");
        }
    }
    // A fresh data dir (even with its empty folders) still starts.
    let fresh = root.path().join("fresh");
    std::fs::create_dir_all(fresh.join("uploads")).unwrap();
    std::fs::create_dir_all(fresh.join("index")).unwrap();
    let out = quire(&["migrate", "--data-dir", s(&fresh)]);
    assert!(out.status.success(), "{}", stderr(&out));
}
