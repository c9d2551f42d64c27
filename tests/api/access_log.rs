//! `quire serve --access-log`: one line a request, to a file in combined log format, to stderr,
//! or nowhere; a file Quire cannot write stops it at start.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::helpers::{quire_command, quire_within, s, serve_on, stderr};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Sends one HTTP/1.1 request with the given request target and User-Agent; returns the status line.
fn get(port: u16, target: &str, user_agent: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let request = format!(
        "GET {target} HTTP/1.1\r\nHost: localhost:{port}\r\nUser-Agent: {user_agent}\r\nReferer: http://example.com/from\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response.lines().next().unwrap_or("").to_owned()
}

/// The file's lines once it has `count` of them (the writer batches, so they come shortly after).
fn lines(path: &Path, count: usize) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        if lines.len() >= count || Instant::now() > deadline {
            return lines;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_request_is_one_combined_line_in_the_file_and_a_forged_line_stays_inside_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("access.log");
    let port = free_port();
    let flags = ["--access-log", s(&log), "--access-log-format", "combined"];
    let server = serve_on(&dir.path().join("data"), port, &flags);

    assert!(get(port, "/api/no-such-thing?x=1", "probe/1.0 (test)").contains(" 404 "));
    let found = lines(&log, 1);
    assert_eq!(found.len(), 1, "{found:?}");
    let line = &found[0];
    assert!(line.starts_with("127.0.0.1 - - ["), "{line}");
    assert!(line.contains("] \"GET /api/no-such-thing?x=1 HTTP/1.1\" 404 "), "{line}");
    assert!(line.ends_with(" \"http://example.com/from\" \"probe/1.0 (test)\""), "{line}");
    let bytes: u64 = line.split("\" 404 ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(bytes > 0, "{line}");

    // A user agent that tries to end its field and write a second, forged line.
    get(port, "/", "x\" 200 1 \"-\" \"forged\"\\");
    let found = lines(&log, 2);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[1].ends_with(" \"x\\\" 200 1 \\\"-\\\" \\\"forged\\\"\\\\\""), "{}", found[1]);

    // Log rotation: the file is renamed, SIGHUP reopens the path, the next line goes to the new file.
    let rotated = dir.path().join("access.log.1");
    std::fs::rename(&log, &rotated).unwrap();
    assert!(Command::new("kill").args(["-HUP", &server.id().to_string()]).status().unwrap().success());
    std::thread::sleep(Duration::from_millis(200));
    get(port, "/after-rotation", "probe");
    let fresh = lines(&log, 1);
    assert_eq!(fresh.len(), 1, "{fresh:?}");
    assert!(fresh[0].contains("\"GET /after-rotation HTTP/1.1\""), "{fresh:?}");
    assert_eq!(lines(&rotated, 2).len(), 2);

    // A burst of requests, then SIGTERM at once: the lines still queued for the writer (which
    // writes in batches every few milliseconds) are written before the process exits.
    for n in 0..100 {
        get(port, &format!("/burst/{n}"), "probe");
    }
    let mut server = server;
    assert!(Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap().success());
    assert!(server.wait().unwrap().success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().count(), 101, "every request before the shutdown has its line:\n{text}");
    assert!(text.contains("\"GET /burst/99 HTTP/1.1\""), "{text}");
}

/// Starts `serve` with its stderr in a file; returns the server and that file's path.
fn serve_with_stderr(dir: &Path, flags: &[&str], env: &[(&str, &str)]) -> (Child, u16) {
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let host = format!("localhost:{port}");
    let err = std::fs::File::create(dir.join("stderr.txt")).unwrap();
    let mut command =
        quire_command(&["serve", "--listen", &listen, "--host", &host, "--data-dir", s(&dir.join("data"))]);
    command.args(flags).envs(env.iter().copied()).stdout(Stdio::piped()).stderr(err);
    let mut child = command.spawn().unwrap();
    let mut first = [0u8; 8];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    (child, port)
}

#[test]
fn stderr_gets_the_quire_line_by_default_and_off_or_rust_log_warn_writes_none() {
    for (flags, env, logged) in [
        (&[][..], &[("RUST_LOG", "info")][..], true),
        (&["--access-log", "off"][..], &[("RUST_LOG", "info")][..], false),
        (&[][..], &[("RUST_LOG", "warn")][..], false),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (server, port) = serve_with_stderr(dir.path(), flags, env);
        assert!(get(port, "/some/page", "probe").starts_with("HTTP/1.1 "));
        std::thread::sleep(Duration::from_millis(300));
        stop(server);
        let text = std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap();
        let line = text.lines().find(|line| line.contains("/some/page"));
        assert_eq!(line.is_some(), logged, "{flags:?} {env:?}: {text}");
        if let Some(line) = line {
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields.len(), 9, "{line}");
            assert_eq!(&fields[2..6], ["127.0.0.1", "GET", &format!("localhost:{port}"), "/some/page"], "{line}");
            assert!(fields[8].ends_with("ms"), "{line}");
        }
    }
}

#[test]
fn a_log_file_quire_cannot_write_stops_it_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing-dir").join("access.log");
    let out = quire_within(
        &["serve", "--listen", "127.0.0.1:0", "--data-dir", s(&dir.path().join("data")), "--access-log", s(&path)],
        Duration::from_secs(20),
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    let line = err.lines().last().unwrap_or("");
    assert!(line.starts_with(&format!("quire: --access-log {}: cannot write there: ", path.display())), "{err}");
    assert_eq!(err.lines().filter(|l| l.starts_with("quire:")).count(), 1, "{err}");

    let out = quire_within(&["serve", "--access-log-format", "apache"], Duration::from_secs(20));
    assert!(stderr(&out).contains("--access-log-format must be quire or combined"), "{}", stderr(&out));
}
