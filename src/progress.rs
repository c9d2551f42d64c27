//! Progress of long work: a bar on a terminal, a few plain lines otherwise.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// Progress over a known number of bytes.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    total: u64,
    done: u64,
    last_reported_tenth: u64,
}

impl Progress {
    /// Starts reporting `label` over `total` bytes.
    pub fn bytes(label: &str, total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{msg:12} [{bar:30}] {bytes}/{total_bytes} {eta}")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            bar.set_message(label.to_owned());
            bar
        });
        if bar.is_none() {
            eprintln!("{label}: 0 of {}", human(total));
        }
        Progress { bar, label: label.to_owned(), total, done: 0, last_reported_tenth: 0 }
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
                    eprintln!("{}: {}0% ({} of {})", self.label, tenth, human(self.done), human(self.total));
                }
            }
            None => {}
        }
    }

    /// Ends the report.
    pub fn finish(self) {
        match self.bar {
            Some(bar) => bar.finish_and_clear(),
            None => eprintln!("{}: done ({})", self.label, human(self.done)),
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
