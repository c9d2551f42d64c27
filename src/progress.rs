//! Progress of long work: a bar on a terminal, a few plain lines otherwise.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// Progress over a known amount of work.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    total: u64,
    done: u64,
    last_reported_tenth: u64,
    unit: Unit,
}

/// What is counted.
#[derive(Clone, Copy)]
enum Unit {
    Bytes,
    Items(&'static str),
}

impl Progress {
    /// Starts reporting `label` over `total` bytes.
    pub fn bytes(label: &str, total: u64) -> Progress {
        Progress::start(label, total, Unit::Bytes)
    }

    /// Starts reporting `label` over `total` things called `noun` (plural).
    pub fn items(label: &str, total: u64, noun: &'static str) -> Progress {
        Progress::start(label, total, Unit::Items(noun))
    }

    fn start(label: &str, total: u64, unit: Unit) -> Progress {
        let template = match unit {
            Unit::Bytes => "{msg:12} [{bar:30}] {bytes}/{total_bytes} {eta}",
            Unit::Items(_) => "{msg:12} [{bar:30}] {pos}/{len} {eta}",
        };
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(ProgressStyle::with_template(template).expect("valid template").progress_chars("=> "));
            bar.set_message(label.to_owned());
            bar
        });
        let progress = Progress { bar, label: label.to_owned(), total, done: 0, last_reported_tenth: 0, unit };
        if progress.bar.is_none() {
            eprintln!("{label}: 0 of {}", progress.amount(total));
        }
        progress
    }

    fn amount(&self, n: u64) -> String {
        match self.unit {
            Unit::Bytes => human(n),
            Unit::Items(noun) => format!("{n} {noun}"),
        }
    }

    /// Records `n` more bytes done.
    pub fn add(&mut self, n: u64) {
        self.done += n;
        match &self.bar {
            Some(bar) => bar.inc(n),
            None if self.total > 0 => {
                let tenth = self.done * 10 / self.total;
                if tenth > self.last_reported_tenth && tenth < 10 {
                    self.last_reported_tenth = tenth;
                    eprintln!(
                        "{}: {}0% ({} of {})",
                        self.label,
                        tenth,
                        self.amount(self.done),
                        self.amount(self.total)
                    );
                }
            }
            None => {}
        }
    }

    /// Records that `done` in all are done.
    pub fn reach(&mut self, done: u64) {
        if done > self.done {
            self.add(done - self.done);
        }
    }

    /// Ends the report.
    pub fn finish(self) {
        match self.bar {
            Some(bar) => bar.finish_and_clear(),
            None => eprintln!("{}: done ({})", self.label, self.amount(self.done)),
        }
    }
}

/// Bytes in a short human form.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{value:.1} {}", UNITS[unit]) }
}
