//! Tests of the access log: its lines' formats and its writer thread.

use super::*;

fn entry(uri: &str, user_agent: &[u8]) -> Entry {
    Entry {
        time: SystemTime::UNIX_EPOCH + Duration::from_millis(1_795_957_200_123),
        id: "a1b2c3d4e5f6".to_owned(),
        client: Some("203.0.113.9".parse().unwrap()),
        method: Method::GET,
        uri: uri.parse().unwrap(),
        version: Version::HTTP_11,
        host: Some(HeaderValue::from_static("alice.localhost:8080")),
        status: 200,
        bytes: Some(5123),
        referer: None,
        user_agent: Some(HeaderValue::from_bytes(user_agent).unwrap()),
        elapsed: Duration::from_micros(210),
    }
}

fn both(entry: &Entry) -> (String, String) {
    let mut clock = Clock::default();
    let (mut quire, mut combined) = (String::new(), String::new());
    quire_line(entry, clock.iso(entry.time), &mut quire);
    combined_line(entry, clock.clf(entry.time), &mut combined);
    (quire, combined)
}

#[test]
fn lines_have_every_field() {
    let (quire, combined) = both(&entry("/a-post?page=2", b"Mozilla/5.0 (X11)"));
    assert_eq!(
        quire,
        "2026-11-29T13:00:00.123Z a1b2c3d4e5f6 203.0.113.9 GET alice.localhost:8080 /a-post?page=2 200 5123 0.21ms\n"
    );
    assert_eq!(
        combined,
        "203.0.113.9 - - [29/Nov/2026:13:00:00 +0000] \"GET /a-post?page=2 HTTP/1.1\" 200 5123 \"-\" \"Mozilla/5.0 (X11)\"\n"
    );
}

#[test]
fn unknown_fields_are_dashes() {
    let mut e = entry("/", b"x");
    e.client = None;
    e.bytes = None;
    e.host = None;
    let (quire, combined) = both(&e);
    assert!(quire.contains(" - GET - / 200 - "), "{quire}");
    assert!(combined.starts_with("- - - ["), "{combined}");
    assert!(combined.contains("\" 200 - \""), "{combined}");
}

#[test]
fn a_forged_line_in_the_user_agent_stays_in_its_field() {
    // A header value may hold tabs and bytes over 0x7F, and a client may try quotes to end the field.
    let forged = b"curl\" 200 1 \"-\" \"x\"\t\xff\\";
    let (quire, combined) = both(&entry("/%22q%0A", forged));
    assert_eq!(combined.matches('\n').count(), 1);
    assert!(combined.ends_with(" \"-\" \"curl\\\" 200 1 \\\"-\\\" \\\"x\\\"\\x09\\xFF\\\\\"\n"), "{combined}");
    // Outside quotes, the escaped quote cannot end the user agent field: it is the last one, quoted.
    let fields: Vec<&str> = combined.trim_end().split(" \"").collect();
    assert_eq!(fields.len(), 4, "{combined}");
    assert_eq!(quire.matches('\n').count(), 1);
}

#[test]
fn escape_leaves_printable_ascii_and_marks_the_rest() {
    let mut out = String::new();
    escape(b"a b\r\n\x1b[31m\"\\\x7f\xc3\xa9", false, &mut out);
    assert_eq!(out, "a b\\x0D\\x0A\\x1B[31m\\\"\\\\\\x7F\\xC3\\xA9");
    out.clear();
    escape(b"a b", true, &mut out);
    assert_eq!(out, "a\\x20b");
}

#[test]
fn off_takes_no_line() {
    let log = AccessLog::start(&AccessLogConfig::off()).unwrap();
    assert!(!log.is_on());
    log.log(entry("/", b"x"));
}

#[test]
fn a_file_gets_the_lines_and_an_unwritable_path_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("access.log");
    let config = AccessLogConfig { target: AccessLogTarget::File(path.clone()), format: AccessLogFormat::Combined };
    let log = AccessLog::start(&config).unwrap();
    log.log(entry("/one", b"x"));
    log.log(entry("/two", b"x"));
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let mut text = String::new();
    while text.lines().count() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
        text = std::fs::read_to_string(&path).unwrap();
    }
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.contains("\"GET /one HTTP/1.1\""));

    // A line handed over while the writer sleeps between batches is written by a flush,
    // as the server does at shutdown, with no waiting for the next batch.
    std::thread::sleep(Duration::from_millis(2));
    log.log(entry("/last", b"x"));
    log.flush();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"GET /last HTTP/1.1\""), "{text}");

    let missing = AccessLogConfig { target: AccessLogTarget::File(dir.path().join("no/such/dir/a.log")), ..config };
    let err = AccessLog::start(&missing).err().unwrap();
    assert!(format!("{err:#}").starts_with("--access-log "), "{err:#}");
}
