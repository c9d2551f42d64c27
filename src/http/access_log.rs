//! The access log: one line a request, formatted and written by a thread of its own.
//!
//! A request only gathers what its line needs (values it already holds, a few reference-counted
//! header values) and hands them to a bounded channel without waiting: it never formats, never
//! writes and never blocks on a slow or full disk. When the writer falls that far behind, lines
//! are dropped and counted, and the count is told on stderr. The writer drains the channel in
//! batches (at most every few milliseconds under load), so requests do not wake it one by one.
//! At shutdown, [`AccessLog::flush`] writes what is still queued before the process exits.
//!
//! The line is Quire's own format or the combined log format (`--access-log-format`,
//! config/access_log.rs), every value escaped. `http::middleware::observe` gathers each request's
//! values.

use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, TrySendError, channel, sync_channel};
use std::time::{Duration, SystemTime};

use anyhow::Context;
use poem::http::{HeaderValue, Method, Uri, Version};

use crate::config::{AccessLogConfig, AccessLogFormat, AccessLogTarget};

/// Lines that may wait for the writer: a burst of this many requests within one batch period.
const QUEUE: usize = 4096;
/// How long the writer sleeps between batches while lines keep coming.
const BATCH_PERIOD: Duration = Duration::from_millis(10);
/// How long [`AccessLog::flush`] waits for the writer (a stuck disk must not hold up shutdown).
const FLUSH_WAIT: Duration = Duration::from_secs(2);

/// What the writer's channel carries.
enum Message {
    Line(Entry),
    /// Write everything received so far now, then say so.
    Flush(Sender<()>),
}

/// What one access line says.
pub struct Entry {
    pub time: SystemTime,
    pub id: String,
    pub client: Option<IpAddr>,
    pub method: Method,
    pub uri: Uri,
    pub version: Version,
    pub host: Option<HeaderValue>,
    pub status: u16,
    /// The body's length, when known before it is sent (not for streamed bodies).
    pub bytes: Option<u64>,
    pub referer: Option<HeaderValue>,
    pub user_agent: Option<HeaderValue>,
    pub elapsed: Duration,
}

/// The request side of the access log; cheap to clone. Off, it takes no line.
#[derive(Clone, Default)]
pub struct AccessLog {
    shared: Option<Arc<Shared>>,
}

struct Shared {
    lines: SyncSender<Message>,
    dropped: AtomicU64,
    reopen: AtomicBool,
}

impl AccessLog {
    /// Starts the writer thread. A file that cannot be opened for appending is an error, so that
    /// `serve` refuses to start rather than serve without the log it was asked to keep.
    pub fn start(config: &AccessLogConfig) -> anyhow::Result<AccessLog> {
        let sink = match &config.target {
            AccessLogTarget::Off => return Ok(AccessLog::default()),
            AccessLogTarget::Stderr => Sink::Stderr,
            AccessLogTarget::File(path) => {
                let file =
                    open(path).with_context(|| format!("--access-log {}: cannot write there", path.display()))?;
                Sink::File(path.clone(), file)
            }
        };
        let (lines, rx) = sync_channel(QUEUE);
        let shared = Arc::new(Shared { lines, dropped: AtomicU64::new(0), reopen: AtomicBool::new(false) });
        let writer = Writer { sink, format: config.format, shared: Arc::downgrade(&shared), clock: Clock::default() };
        std::thread::Builder::new().name("access-log".to_owned()).spawn(move || writer.run(rx))?;
        Ok(AccessLog { shared: Some(shared) })
    }

    /// Whether lines are kept: when not, a request gathers nothing.
    pub fn is_on(&self) -> bool {
        self.shared.is_some()
    }

    /// Hands a line to the writer without waiting; drops it (and counts it) when the queue is full.
    pub fn log(&self, entry: Entry) {
        let Some(shared) = &self.shared else { return };
        if let Err(TrySendError::Full(_)) = shared.lines.try_send(Message::Line(entry)) {
            shared.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Writes every line handed over so far before returning (or after [`FLUSH_WAIT`], when the
    /// writer is stuck on its disk); the server calls it as it shuts down, so the last requests'
    /// lines are not lost with the writer thread. Blocking: call it off the async runtime.
    pub fn flush(&self) {
        let Some(shared) = &self.shared else { return };
        let (done, flushed) = channel();
        // `send` waits while the queue is full: the writer is draining it.
        if shared.lines.send(Message::Flush(done)).is_ok() {
            let _ = flushed.recv_timeout(FLUSH_WAIT);
        }
    }

    /// Asks the writer to reopen its file before the next line (after a log rotation's rename).
    pub fn reopen(&self) {
        if let Some(shared) = &self.shared {
            shared.reopen.store(true, Ordering::Relaxed);
        }
    }
}

fn open(path: &Path) -> io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

enum Sink {
    Stderr,
    File(PathBuf, File),
}

struct Writer {
    sink: Sink,
    format: AccessLogFormat,
    /// Weak, so that the writer ends when the server's last handle is gone.
    shared: std::sync::Weak<Shared>,
    clock: Clock,
}

impl Writer {
    fn run(mut self, rx: Receiver<Message>) {
        let mut text = String::with_capacity(64 * 1024);
        let mut failing = false;
        let mut flushed = Vec::new();
        loop {
            // Blocks only when idle; under load it sleeps a period and takes what came meanwhile.
            let first = match rx.recv() {
                Ok(message) => message,
                Err(_) => return,
            };
            text.clear();
            let mut next = Some(first);
            while let Some(message) = next.take() {
                match message {
                    Message::Line(entry) => self.line(&entry, &mut text),
                    Message::Flush(done) => flushed.push(done),
                }
                next = rx.try_recv().ok();
            }
            self.maybe_reopen();
            let result = self.write(text.as_bytes());
            match (result, failing) {
                (Err(err), false) => {
                    eprintln!("quire: the access log could not be written ({err}); its lines are lost until it can");
                    failing = true;
                }
                (Ok(()), true) => {
                    eprintln!("quire: the access log is written again");
                    failing = false;
                }
                _ => {}
            }
            if let Some(shared) = self.shared.upgrade() {
                let dropped = shared.dropped.swap(0, Ordering::Relaxed);
                if dropped > 0 {
                    eprintln!("quire: {dropped} access log lines dropped: requests came faster than they were written");
                }
            }
            if !flushed.is_empty() {
                // Written: tell whoever waits (shutdown) and take the next message at once.
                for done in flushed.drain(..) {
                    let _ = done.send(());
                }
                continue;
            }
            std::thread::sleep(BATCH_PERIOD);
        }
    }

    fn line(&mut self, entry: &Entry, out: &mut String) {
        match self.format {
            AccessLogFormat::Quire => quire_line(entry, self.clock.iso(entry.time), out),
            AccessLogFormat::Combined => combined_line(entry, self.clock.clf(entry.time), out),
        }
    }

    fn maybe_reopen(&mut self) {
        let Some(shared) = self.shared.upgrade() else { return };
        if !shared.reopen.swap(false, Ordering::Relaxed) {
            return;
        }
        if let Sink::File(path, file) = &mut self.sink {
            match open(path) {
                Ok(reopened) => *file = reopened,
                Err(err) => eprintln!(
                    "quire: --access-log {}: cannot reopen ({err}); still writing the old file",
                    path.display()
                ),
            }
        }
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stderr => {
                let mut stderr = BufWriter::with_capacity(bytes.len(), io::stderr().lock());
                stderr.write_all(bytes)?;
                stderr.flush()
            }
            Sink::File(_, file) => file.write_all(bytes),
        }
    }
}

/// The time's text, made once a second (combined) or kept to the second (quire).
#[derive(Default)]
struct Clock {
    second: u64,
    iso: String,
    clf: String,
}

impl Clock {
    fn refresh(&mut self, time: SystemTime) -> (u64, u32) {
        let since = time.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
        let second = since.as_secs();
        if second != self.second || self.iso.is_empty() {
            self.second = second;
            let at =
                time::OffsetDateTime::from_unix_timestamp(second as i64).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
            const MONTHS: [&str; 12] =
                ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
            self.iso.clear();
            let _ = write!(
                self.iso,
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                at.year(),
                at.month() as u8,
                at.day(),
                at.hour(),
                at.minute(),
                at.second()
            );
            self.clf.clear();
            let _ = write!(
                self.clf,
                "{:02}/{}/{:04}:{:02}:{:02}:{:02} +0000",
                at.day(),
                MONTHS[at.month() as usize - 1],
                at.year(),
                at.hour(),
                at.minute(),
                at.second()
            );
        }
        (second, since.subsec_millis())
    }

    fn iso(&mut self, time: SystemTime) -> (&str, u32) {
        let (_, millis) = self.refresh(time);
        (&self.iso, millis)
    }

    fn clf(&mut self, time: SystemTime) -> &str {
        self.refresh(time);
        &self.clf
    }
}

/// `2026-11-24T13:00:00.123Z a1b2c3d4e5f6 127.0.0.1 GET localhost:8080 /path?q 200 5123 0.21ms`:
/// fields split by spaces, `-` for what is unknown; escaped so that no field holds a space.
pub fn quire_line(entry: &Entry, (time, millis): (&str, u32), out: &mut String) {
    let _ = write!(out, "{time}.{millis:03}Z {} ", entry.id);
    client(entry, out);
    out.push(' ');
    escape(entry.method.as_str().as_bytes(), true, out);
    out.push(' ');
    escape(entry.host.as_ref().map_or(b"-", |host| host.as_bytes()), true, out);
    out.push(' ');
    escape(entry.uri.path_and_query().map_or(entry.uri.path(), |pq| pq.as_str()).as_bytes(), true, out);
    let _ = write!(out, " {} ", entry.status);
    bytes(entry, out);
    let _ = writeln!(out, " {:.2}ms", entry.elapsed.as_secs_f64() * 1000.0);
}

/// Combined log format: `127.0.0.1 - - [24/Nov/2026:13:00:00 +0000] "GET /path HTTP/1.1" 200 5123
/// "referer" "user agent"`. Inside quotes, `"`, `\`, control and non-ASCII bytes are escaped as
/// nginx does (`\"`, `\\`, `\x0A`), so no request can forge a second line or end a field early.
pub fn combined_line(entry: &Entry, time: &str, out: &mut String) {
    client(entry, out);
    let _ = write!(out, " - - [{time}] \"");
    escape(entry.method.as_str().as_bytes(), false, out);
    out.push(' ');
    escape(entry.uri.path_and_query().map_or(entry.uri.path(), |pq| pq.as_str()).as_bytes(), false, out);
    let _ = write!(out, " {:?}\" {} ", entry.version, entry.status);
    bytes(entry, out);
    for header in [&entry.referer, &entry.user_agent] {
        out.push_str(" \"");
        escape(header.as_ref().map_or(b"-", |value| value.as_bytes()), false, out);
        out.push('"');
    }
    out.push('\n');
}

fn client(entry: &Entry, out: &mut String) {
    match entry.client {
        Some(ip) => {
            let _ = write!(out, "{ip}");
        }
        None => out.push('-'),
    }
}

fn bytes(entry: &Entry, out: &mut String) {
    match entry.bytes {
        Some(n) => {
            let _ = write!(out, "{n}");
        }
        None => out.push('-'),
    }
}

/// Printable ASCII as it is; `"`, `\`, control and non-ASCII bytes (and spaces, when `spaces`)
/// as `\"`, `\\` and `\xHH`.
pub fn escape(bytes: &[u8], spaces: bool, out: &mut String) {
    for &byte in bytes {
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b' ' if spaces => out.push_str("\\x20"),
            0x20..=0x7e => out.push(byte as char),
            _ => {
                let _ = write!(out, "\\x{byte:02X}");
            }
        }
    }
}

#[cfg(test)]
mod tests;
