//! The access log's settings: `serve --access-log` (off, stderr or a file) and
//! `--access-log-format` (Quire's line or the combined log format).

use std::path::PathBuf;

use anyhow::bail;

/// `serve --access-log` and `--access-log-format`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessLogConfig {
    pub target: AccessLogTarget,
    pub format: AccessLogFormat,
}

/// Where the access log is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessLogTarget {
    Off,
    Stderr,
    /// Appended to this file, which is reopened on SIGHUP.
    File(PathBuf),
}

/// The form of an access line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessLogFormat {
    /// `2026-11-24T13:00:00.123Z a1b2c3d4e5f6 127.0.0.1 GET localhost:8080 /path 200 5123 0.21ms`
    Quire,
    /// Apache's and nginx's combined log format, which log analysers read.
    Combined,
}

impl AccessLogConfig {
    /// No access log (in-process tests).
    pub fn off() -> AccessLogConfig {
        AccessLogConfig { target: AccessLogTarget::Off, format: AccessLogFormat::Quire }
    }

    /// From the flags' values: `off`, `stderr` or a path; `quire` or `combined`.
    pub fn parse(target: &str, format: &str) -> anyhow::Result<AccessLogConfig> {
        let target = match target {
            "off" => AccessLogTarget::Off,
            "stderr" => AccessLogTarget::Stderr,
            "" => bail!("--access-log must be off, stderr or a file's path"),
            path => AccessLogTarget::File(PathBuf::from(path)),
        };
        let format = match format {
            "quire" => AccessLogFormat::Quire,
            "combined" => AccessLogFormat::Combined,
            other => bail!("--access-log-format must be quire or combined, got {other:?}"),
        };
        Ok(AccessLogConfig { target, format })
    }
}
