//! The mail flags (issue 30; docs/email.md, "The SMTP relay"), shared by `quire serve` and
//! `quire mail test`: the operator's SMTP relay, the sender's address and the sending limits.

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `--mail-per-minute`'s default.
pub const DEFAULT_MAIL_PER_MINUTE: u32 = 60;
/// `--mail-per-blog-per-day`'s default.
pub const DEFAULT_MAIL_PER_BLOG_PER_DAY: u32 = 10_000;

/// The mail flags, of `serve` and `mail test`. Without `--smtp-url` Quire sends no mail.
#[derive(Debug, Clone, Args)]
pub struct MailArgs {
    /// The SMTP relay mail goes through: smtp://host:25 (plain), smtp+starttls://user:pass@host:587
    /// or smtps://user:pass@host:465 (credentials percent-encoded). Give it in the environment
    /// variable, or the password in --smtp-password-file, to keep the password out of `ps`.
    /// Without it every mail feature is off.
    #[arg(long, env = "QUIRE_SMTP_URL", value_name = "URL", hide_env_values = true)]
    pub smtp_url: Option<String>,

    /// A file holding the relay's password (its first line), used instead of one in --smtp-url.
    #[arg(long, env = "QUIRE_SMTP_PASSWORD_FILE", value_name = "FILE")]
    pub smtp_password_file: Option<PathBuf>,

    /// PEM certificates to trust for the relay's TLS, besides the Mozilla roots Quire carries
    /// (a relay whose certificate a private CA signed, or a self-signed one).
    #[arg(long, env = "QUIRE_SMTP_CA_FILE", value_name = "FILE")]
    pub smtp_ca_file: Option<PathBuf>,

    /// The sender of every message, e.g. "Quire <noreply@example.com>" (required with
    /// --smtp-url). A blog's mail shows the blog's name with this address.
    #[arg(long, env = "QUIRE_MAIL_FROM", value_name = "MAILBOX")]
    pub mail_from: Option<String>,

    /// Messages the instance sends a minute, at most.
    #[arg(long, env = "QUIRE_MAIL_PER_MINUTE", default_value_t = DEFAULT_MAIL_PER_MINUTE, value_name = "N")]
    pub mail_per_minute: u32,

    /// Messages one blog sends in a UTC day, at most; the rest wait for the next day.
    #[arg(long, env = "QUIRE_MAIL_PER_BLOG_PER_DAY", default_value_t = DEFAULT_MAIL_PER_BLOG_PER_DAY, value_name = "N")]
    pub mail_per_blog_per_day: u32,

    /// A DKIM private key in PEM (RSA, PKCS#1 or PKCS#8; or Ed25519, PKCS#8 as `openssl genpkey
    /// -algorithm ed25519` writes it): every message is signed for --mail-from's domain. With
    /// --dkim-selector.
    #[arg(long, env = "QUIRE_DKIM_KEY", value_name = "FILE")]
    pub dkim_key: Option<PathBuf>,

    /// The DKIM selector: the key's public half is published at SELECTOR._domainkey.DOMAIN.
    /// With --dkim-key.
    #[arg(long, env = "QUIRE_DKIM_SELECTOR", value_name = "NAME")]
    pub dkim_selector: Option<String>,

    #[command(flatten)]
    pub test_only: MailTestOnlyArgs,
}

/// The mail's test-only flags; compiled only into debug builds.
#[derive(Debug, Clone, Args)]
pub struct MailTestOnlyArgs {
    /// FOR TESTS ONLY, and only in debug builds: each minute of the mail queue's backoff
    /// (1 min, 5 min, 30 min, ...) lasts this many milliseconds instead.
    #[cfg(debug_assertions)]
    #[arg(long = "test-only-mail-retry-ms", value_name = "MS")]
    pub retry_ms: Option<u64>,

    /// FOR TESTS ONLY, and only in debug builds: the relay's connect and answer timeouts, in
    /// milliseconds, instead of 20 s and 60 s.
    #[cfg(debug_assertions)]
    #[arg(long = "test-only-smtp-timeout-ms", value_name = "MS")]
    pub timeout_ms: Option<u64>,
}

impl MailTestOnlyArgs {
    /// The backoff's minute and the relay's timeout, when the test-only flags shorten them.
    #[cfg(debug_assertions)]
    pub fn given(&self) -> (Option<std::time::Duration>, Option<std::time::Duration>) {
        use std::time::Duration;
        (self.retry_ms.map(Duration::from_millis), self.timeout_ms.map(Duration::from_millis))
    }

    /// None, in a release build: it has no such flags.
    #[cfg(not(debug_assertions))]
    pub fn given(&self) -> (Option<std::time::Duration>, Option<std::time::Duration>) {
        (None, None)
    }
}

/// `quire mail`'s arguments.
#[derive(Debug, Args)]
pub struct MailCommandArgs {
    #[command(subcommand)]
    pub action: MailAction,
}

/// What `quire mail` does.
#[derive(Debug, Subcommand)]
pub enum MailAction {
    /// Send one message to ADDRESS through the relay at once (not queued) and print the
    /// relay's answer; exits with a failure when the relay refuses it or cannot be reached.
    Test(MailTestArgs),
}

/// `quire mail test`'s arguments.
#[derive(Debug, Args)]
pub struct MailTestArgs {
    /// Where the test message goes.
    #[arg(value_name = "ADDRESS")]
    pub address: String,

    #[command(flatten)]
    pub mail: MailArgs,
}
