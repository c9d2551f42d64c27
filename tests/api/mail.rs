//! Sending mail (issue 30, docs/email.md): `quire mail test` through the real binary, and the
//! queue's sender through the real server, both against a real SMTP server
//! (tests/support/smtp_sink.py, on Debian's python3-aiosmtpd; scripts/test.sh installs it).

use std::io::{BufRead, BufReader};
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use quire::config::{MailConfig, Relay, Security};
use quire::db::mail_queue::{MailKind, NewContent, Recipient, enqueue};
use tempfile::TempDir;

use crate::helpers::{Browser, TestApp, quire, quire_within, serve_on, stderr, stdout};

pub(crate) const FROM: &str = "Quire <noreply@example.com>";

/// An Ed25519 key as `openssl genpkey -algorithm ed25519` writes it (RFC 8410's example).
const ED25519_KEY: &str = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----\n";

/// The SMTP sink on a free 127.0.0.1 port, killed when dropped.
pub(crate) struct Sink {
    child: Child,
    /// Its port.
    pub(crate) port: u16,
    /// Where it stores messages (and `auth.log`).
    pub(crate) dir: TempDir,
}

impl Sink {
    /// Starts the sink; `later@...` recipients are answered 421 their first `later_fails` tries.
    fn start(later_fails: u32) -> Sink {
        Sink::start_slow(later_fails, 0)
    }

    /// [`Sink::start`], answering each message `delay_ms` after it is written.
    fn start_slow(later_fails: u32, delay_ms: u64) -> Sink {
        Sink::start_with(&[&later_fails.to_string(), &delay_ms.to_string()])
    }

    /// The sink, with `args` after its directory and port (tests/support/smtp_sink.py's usage).
    pub(crate) fn start_with(args: &[&str]) -> Sink {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/smtp_sink.py");
        let mut child = Command::new("/usr/bin/python3")
            .arg(script)
            .arg(dir.path())
            .arg(port.to_string())
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the SMTP sink runs (apt-get install python3-aiosmtpd)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP sink starts");
        Sink { child, port, dir }
    }

    /// The messages accepted so far, in order, as text.
    pub(crate) fn messages(&self) -> Vec<String> {
        let mut names: Vec<_> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "eml"))
            .collect();
        names.sort();
        names.iter().map(|path| std::fs::read_to_string(path).unwrap()).collect()
    }

    /// Waits (10 s at most) until `count` messages arrived; answers them.
    async fn wait_for(&self, count: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let messages = self.messages();
            if messages.len() >= count || Instant::now() > deadline {
                return messages;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The relay settings of a server sending here at `per_minute`.
    fn config(&self, per_minute: u32) -> MailConfig {
        relay_config(self.port, per_minute, Duration::from_millis(20))
    }
}

/// The relay settings of a server sending to 127.0.0.1:`port` at `per_minute`, each minute of
/// its backoff lasting `retry_unit`.
fn relay_config(port: u16, per_minute: u32, retry_unit: Duration) -> MailConfig {
    MailConfig {
        relay: Relay { security: Security::Plain, host: "127.0.0.1".into(), port, credentials: None },
        relay_roots: Vec::new(),
        from: FROM.parse().unwrap(),
        per_minute: NonZeroU32::new(per_minute).unwrap(),
        per_blog_per_day: 10_000,
        retry_unit,
        connect_timeout: Duration::from_secs(2),
        answer_timeout: Duration::from_secs(2),
        dkim: None,
    }
}

/// Mail on, through a relay that is down (a port nobody listens on), its backoff real: what a
/// test queues stays in the queue for the test to read.
pub(crate) fn dead_relay() -> MailConfig {
    relay_config(free_port(), 60, Duration::from_secs(60))
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The message sent to `to`, if any.
pub(crate) fn to<'a>(messages: &'a [String], address: &str) -> Option<&'a String> {
    messages.iter().find(|m| m.starts_with(&format!("X-Sink-To: {address}\r\n")))
}

#[test]
fn quire_mail_test_delivers_through_the_relay_and_prints_its_answer() {
    let sink = Sink::start(0);
    let url = format!("smtp://127.0.0.1:{}", sink.port);
    let output = quire(&["mail", "test", "reader@example.net", "--smtp-url", &url, "--mail-from", FROM]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).trim(), "250 2.0.0 Ok: queued as 00001");
    let messages = sink.messages();
    assert_eq!(messages.len(), 1);
    let message = to(&messages, "reader@example.net").expect("to the address given");
    assert!(message.contains("Subject: Quire: a test message"), "{message}");
    assert!(message.contains("From: Quire <noreply@example.com>"), "{message}");

    // A refused address: the relay's answer on one line, and a failure.
    let refused = quire(&["mail", "test", "bounce@example.net", "--smtp-url", &url, "--mail-from", FROM]);
    assert!(!refused.status.success());
    let err = stderr(&refused);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("550") && err.contains("no such user"), "{err}");
    assert_eq!(sink.messages().len(), 1);

    // With a DKIM key, the message is signed for --mail-from's domain.
    let key = sink.dir.path().join("dkim.pem");
    std::fs::write(&key, ED25519_KEY).unwrap();
    let signed = quire(&[
        "mail",
        "test",
        "signed@example.net",
        "--smtp-url",
        &url,
        "--mail-from",
        FROM,
        "--dkim-key",
        key.to_str().unwrap(),
        "--dkim-selector",
        "quire",
    ]);
    assert!(signed.status.success(), "{}", stderr(&signed));
    let messages = sink.messages();
    let message = to(&messages, "signed@example.net").expect("the signed message");
    assert!(message.contains("DKIM-Signature: v=1; a=ed25519-sha256; d=example.com; s=quire;"), "{message}");
    let half =
        quire(&["mail", "test", "a@example.net", "--smtp-url", &url, "--mail-from", FROM, "--dkim-selector", "quire"]);
    assert!(!half.status.success());
    assert!(stderr(&half).contains("--dkim-key and --dkim-selector go together"), "{}", stderr(&half));

    // Without --mail-from: one clear line.
    let missing = quire(&["mail", "test", "reader@example.net", "--smtp-url", &url]);
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("--mail-from"), "{}", stderr(&missing));
}

#[test]
fn quire_mail_test_fails_with_one_line_when_the_relay_is_down_or_silent() {
    let closed = free_port();
    let down = quire_within(
        &["mail", "test", "a@example.net", "--smtp-url", &format!("smtp://127.0.0.1:{closed}"), "--mail-from", FROM],
        Duration::from_secs(30),
    );
    assert!(!down.status.success());
    let err = stderr(&down);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.starts_with("quire: not sent:") && !err.contains("panicked"), "{err}");

    // A listener that takes the connection and never answers: given up at the timeout.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let started = Instant::now();
    let hung = quire_within(
        &[
            "mail",
            "test",
            "a@example.net",
            "--smtp-url",
            &format!("smtp://127.0.0.1:{port}"),
            "--mail-from",
            FROM,
            "--test-only-smtp-timeout-ms",
            "1000",
        ],
        Duration::from_secs(30),
    );
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert!(!hung.status.success());
    let err = stderr(&hung);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("did not answer"), "{err}");
    drop(silent);
}

/// Adds a confirmed subscriber to `blog`; answers its id.
fn subscriber(app: &TestApp, blog: i64, email: &str) -> i64 {
    let db = app.db();
    db.execute(
        "INSERT INTO subscribers (blog_id, email, state, unsubscribe_token) VALUES (?1, ?2, 'confirmed', ?3)",
        rusqlite::params![blog, email, format!("token-{email}")],
    )
    .unwrap();
    db.last_insert_rowid()
}

fn post_content(blog: i64, from_name: &str) -> NewContent {
    NewContent {
        blog_id: Some(blog),
        post_id: None,
        kind: MailKind::Post,
        subject: "A new post".into(),
        text: "Read the new post.".into(),
        html: "<html><body><p>Read the new post.</p></body></html>".into(),
        from_name: from_name.into(),
        reply_to: "ann@example.com".into(),
    }
}

fn recipient(id: i64, email: &str) -> Recipient {
    Recipient {
        to: email.into(),
        subscriber_id: Some(id),
        unsubscribe_url: format!("http://ann.localhost/unsubscribe?t=token-{email}&x=1"),
    }
}

#[tokio::test]
async fn queued_mail_arrives_with_its_headers_retries_a_421_and_bounces_a_550() {
    let sink = Sink::start(1);
    let config = sink.config(600);
    let app = TestApp::spawn_with(move |c| c.mail = Some(config)).await;
    let blog = app.browser.sign_up_with_blog("ann@example.com", "ann").await;
    let reader = subscriber(&app, blog, "reader@example.net");
    let later = subscriber(&app, blog, "later@example.net");
    let bounce = subscriber(&app, blog, "bounce@example.net");
    let content = enqueue(
        &app.db(),
        &post_content(blog, "Ann <b@evil.example> & \"co\""),
        &[
            recipient(reader, "reader@example.net"),
            recipient(later, "later@example.net"),
            recipient(bounce, "bounce@example.net"),
        ],
    )
    .unwrap();

    let messages = sink.wait_for(2).await;
    assert_eq!(messages.len(), 2, "the reader's, and later@'s after its 421");
    let raw = to(&messages, "reader@example.net").expect("the reader's message");
    let message = mail_parser::MessageParser::default().parse(raw.as_bytes()).expect("a MIME message");
    let unsubscribe = "http://ann.localhost/unsubscribe?t=token-reader@example.net&x=1";
    assert_eq!(message.header_raw("List-Unsubscribe").map(str::trim), Some(format!("<{unsubscribe}>").as_str()));
    assert_eq!(message.header_raw("List-Unsubscribe-Post").map(str::trim), Some("List-Unsubscribe=One-Click"));
    assert_eq!(message.subject(), Some("A new post"));
    let from = message.from().and_then(|from| from.first()).expect("a From");
    assert_eq!(from.name(), Some("Ann <b@evil.example> & \"co\""), "the display name, kept as a name");
    assert_eq!(from.address(), Some("noreply@example.com"), "the hostile name is no address");
    let reply_to = message.reply_to().and_then(|r| r.first()).and_then(|r| r.address());
    assert_eq!(reply_to, Some("ann@example.com"));
    assert!(message.message_id().is_some_and(|id| id.ends_with("@example.com")), "{raw}");
    assert!(message.date().is_some());
    assert_eq!(message.text_body_count(), 1);
    assert_eq!(message.html_body_count(), 1);
    let text = message.body_text(0).unwrap();
    assert!(text.starts_with("Read the new post.") && text.contains(&format!("Unsubscribe: {unsubscribe}")), "{text}");
    let html = message.body_html(0).unwrap();
    let link = "<p><a href=\"http://ann.localhost/unsubscribe?t=token-reader@example.net&amp;x=1\">Unsubscribe</a></p>";
    assert!(html.contains(&format!("{link}</body>")), "{html}");
    assert!(to(&messages, "later@example.net").is_some(), "retried after the 421");

    // The 550: given up, counted as a bounce, and the subscriber gets no more mail.
    let db = app.db();
    let (sent, failed, bounced): (i64, i64, i64) = db
        .query_row("SELECT sent_count, failed_count, bounced_count FROM mail_contents WHERE id = ?1", [content], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!((sent, failed, bounced), (2, 1, 1));
    let state: String = db.query_row("SELECT state FROM subscribers WHERE id = ?1", [bounce], |r| r.get(0)).unwrap();
    assert_eq!(state, "bounced");
    let last_sent: Option<String> =
        db.query_row("SELECT last_sent_at FROM subscribers WHERE id = ?1", [reader], |r| r.get(0)).unwrap();
    assert!(last_sent.is_some());
    assert_eq!(app.count("mail_queue"), 0);
}

#[tokio::test]
async fn a_burst_waits_for_the_per_minute_allowance_and_a_suspended_blog_waits() {
    let sink = Sink::start(0);
    let config = sink.config(2);
    let app = TestApp::spawn_with(move |c| c.mail = Some(config)).await;
    let blog = app.browser.sign_up_with_blog("ann@example.com", "ann").await;
    let recipients: Vec<Recipient> = (0..5)
        .map(|i| {
            let email = format!("r{i}@example.net");
            recipient(subscriber(&app, blog, &email), &email)
        })
        .collect();
    enqueue(&app.db(), &post_content(blog, "Ann"), &recipients).unwrap();
    assert_eq!(sink.wait_for(2).await.len(), 2);
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(sink.messages().len(), 2, "--mail-per-minute 2 holds the rest of the burst");
    assert_eq!(app.count("mail_queue"), 3, "held, not dropped");

    // A suspended blog's mail waits (beside the allowance, which a second server resets).
    let sink = Sink::start(0);
    let config = sink.config(600);
    let app = TestApp::spawn_with(move |c| c.mail = Some(config)).await;
    let blog = app.browser.sign_up_with_blog("bob@example.com", "bob").await;
    let reader = subscriber(&app, blog, "reader@example.net");
    app.db().execute("UPDATE blogs SET state = 'suspended' WHERE id = ?1", [blog]).unwrap();
    enqueue(&app.db(), &post_content(blog, "Bob"), &[recipient(reader, "reader@example.net")]).unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(sink.messages().len(), 0, "held while suspended");
    assert_eq!(app.count("mail_queue"), 1);
    app.db().execute("UPDATE blogs SET state = 'approved' WHERE id = ?1", [blog]).unwrap();
    assert_eq!(sink.wait_for(1).await.len(), 1, "sent after unsuspension");
}

/// `kill -9`: the process gets no chance to finish anything.
fn kill_9(child: &mut Child) {
    let status = Command::new("kill").args(["-9", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let _ = child.wait();
}

/// A `quire serve` child, killed when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_send_loses_no_message_and_duplicates_at_most_those_in_flight() {
    // 20 messages, each answered 250 ms after the relay stored it: about 5 s in all. The server
    // is killed 1.5 s in (inside some message's wait) and started again.
    let sink = Sink::start_slow(0, 250);
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let url = format!("smtp://127.0.0.1:{}", sink.port);
    let flags = ["--smtp-url", url.as_str(), "--mail-from", FROM, "--mail-per-minute", "1000"];
    let mut served = Served(serve_on(dir.path(), port, &flags));
    let ann = Browser::new(&format!("http://localhost:{port}"), port);
    let blog = ann.sign_up_with_blog("ann@example.com", "ann").await;
    let db = rusqlite::Connection::open(dir.path().join("quire.db")).unwrap();
    let recipients: Vec<Recipient> = (0..20)
        .map(|i| {
            let email = format!("r{i:02}@example.net");
            db.execute(
                "INSERT INTO subscribers (blog_id, email, state, unsubscribe_token) VALUES (?1, ?2, 'confirmed', ?2)",
                rusqlite::params![blog, email],
            )
            .unwrap();
            recipient(db.last_insert_rowid(), &email)
        })
        .collect();
    enqueue(&db, &post_content(blog, "Ann"), &recipients).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while sink.messages().len() < 3 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    kill_9(&mut served.0);
    let before = sink.messages().len();
    assert!((3..20).contains(&before), "killed mid-send ({before} sent)");
    let sending: i64 =
        db.query_row("SELECT count(*) FROM mail_queue WHERE state = 'sending'", [], |r| r.get(0)).unwrap();
    assert!(sending <= i64::from(quire::mail::sender::IN_FLIGHT), "{sending} messages in flight");

    let _restarted = Served(serve_on(dir.path(), port, &flags));
    let messages = sink.wait_for(20 + sending as usize).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let messages = if sink.messages().len() > messages.len() { sink.messages() } else { messages };
    for i in 0..20 {
        assert!(to(&messages, &format!("r{i:02}@example.net")).is_some(), "r{i:02} got its message");
    }
    assert!(messages.len() as i64 <= 20 + sending, "at most those in flight twice ({} messages)", messages.len());
    let left: i64 = db.query_row("SELECT count(*) FROM mail_queue", [], |r| r.get(0)).unwrap();
    assert_eq!(left, 0, "the queue is empty");
}
