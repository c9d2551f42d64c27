//! The command line. The doc comments here are the `--help` text.
//!
//! This file holds the command and its subcommands; `serve` the flags of `quire serve` (TLS,
//! the test-only flags), `federation_limits` its limits on remote servers, `blogs` the flags of
//! `quire blogs`, `commands` the flags of the other subcommands.

mod blogs;
mod commands;
mod doctor;
mod federation_limits;
mod generate;
mod invites;
mod mail;
mod public_instance;
mod replication;
mod serve;
mod uploads;

pub use blogs::{ActionArgs, BlogArgs, BlogsAction, BlogsArgs, DeleteArgs, ListArgs};
pub use commands::{
    AddressArgs, BackupArgs, DomainArgs, ExportArgs, FederationAction, FederationArgs, ImportArgs, MigrateArgs,
    RestoreArgs,
};
pub use doctor::DoctorArgs;
pub use federation_limits::FederationLimitsArgs;
pub use generate::{GenerateArgs, Generated, run_command as run_generate};
pub use invites::{CreateInviteArgs, InvitesAction, InvitesArgs, RevokeInviteArgs};
pub use mail::{
    DEFAULT_MAIL_PER_BLOG_PER_DAY, DEFAULT_MAIL_PER_MINUTE, MailAction, MailArgs, MailCommandArgs, MailTestArgs,
    MailTestOnlyArgs,
};
pub use public_instance::PublicInstanceArgs;
pub use replication::{ReplicationAction, ReplicationArgs, ReplicationConfigArgs};
pub use serve::{DeliveryRetryArg, DnsServerArg, FetchLoopbackArg, LETS_ENCRYPT, ServeArgs, TlsArgs};
pub use uploads::{UploadsAction, UploadsArgs, UploadsCommandArgs, UploadsMigrateArgs};

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::data_dir::DataDir;

/// Quire: a free blogging platform that runs as one binary.
///
/// Every flag can also be set with the environment variable named in its help,
/// for example QUIRE_DATA_DIR=/var/lib/quire.
#[derive(Debug, Parser)]
#[command(name = "quire", version = VERSION, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// What `quire --version` prints after the name: the version, and the commit a release was built
/// from (scripts/release.sh sets `QUIRE_COMMIT`; other builds say so), made by build.rs.
pub const VERSION: &str = env!("QUIRE_VERSION");

/// What `quire` should do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the owner app, the API and every public blog (applies pending migrations first).
    Serve(ServeArgs),
    /// Apply pending database migrations, or list them with --status.
    Migrate(MigrateArgs),
    /// Write an online, consistent backup of the database and uploads (and the ACME account and
    /// certificates, when Quire serves HTTPS itself) to OUT (a .tar file).
    ///
    /// Safe while `quire serve` runs and writes. OUT must not exist yet.
    Backup(BackupArgs),
    /// Restore a backup made by `quire backup` into the data directory.
    ///
    /// Checks the backup's integrity and schema version before anything is replaced.
    /// Stop `quire serve` first. Nothing is deleted: the data it replaces (quire.db, uploads/,
    /// and acme/ and certs/ when the backup has them) is moved into a new replaced-<UTC time>/ folder of the data directory, named
    /// in the output and kept until you remove it. If the swap fails midway, what was moved
    /// is put back.
    Restore(RestoreArgs),
    /// Rebuild the search index from the database (stop `quire serve` first; it also
    /// rebuilds a missing or stale index by itself at start).
    Reindex(DataDirArg),
    /// Export one blog to OUT (a .zip file): a Quire archive, Markdown files or its static site.
    ///
    /// Safe while `quire serve` runs (it only reads, one consistent snapshot). OUT must not
    /// exist yet. Give the --host (and --https) the server uses, so the static site's feeds
    /// and canonical links name the blog's address.
    Export(ExportArgs),
    /// Import an export file into one blog: WordPress (WXR .xml, or its zip), Ghost (JSON),
    /// WriteFreely (JSON), Bear Blog (CSV), a zip of Markdown files (Hugo, Jekyll, Zola,
    /// Obsidian) or a Quire archive, told apart by their content.
    ///
    /// Stop `quire serve` first (or import from Settings → Import and export). Prints what
    /// was imported and one line for each item skipped or changed. Importing the same file
    /// again adds only what is missing. Give the --host (and --https) the server uses, so
    /// imported images get the server's addresses.
    Import(ImportArgs),
    /// Block or unblock a domain for the whole instance, or list the blocked domains.
    ///
    /// A blocked domain's (and its subdomains') requests to every blog are dropped before any
    /// work. Safe while `quire serve` runs: it takes effect at once.
    Federation(FederationArgs),
    /// List, show, approve, silence, suspend, unsuspend or delete blogs (the review tools of a
    /// public instance; docs/public-instance.md).
    ///
    /// Safe while `quire serve` runs: list and show only read; an action is handed to the
    /// running server, which performs it at once with all its effects, and its outcome is
    /// printed. With no server running, the command performs it itself.
    Blogs(BlogsArgs),
    /// Make, list and revoke invite codes (for `quire serve --signups invite`).
    ///
    /// Safe while `quire serve` runs: a new or revoked code counts at once.
    Invites(InvitesArgs),
    /// Check the mail settings: `quire mail test ADDRESS` sends one message through the SMTP
    /// relay (the same --smtp-url and --mail-from as `serve`) and prints the relay's answer.
    Mail(MailCommandArgs),
    /// Check the set-up `quire serve` would start with (the same flags, or --env-file): the data
    /// directory, DNS, the ports, the sign-in provider, the ACME CA, the mail relay, the uploads'
    /// bucket, Litestream's replica (with --replica) and the clock.
    ///
    /// Prints one line a check, with what to do when it fails; exits 0 only when every check
    /// passes. It changes nothing (safe while `quire serve` runs).
    Doctor(DoctorArgs),
    /// Continuous replication of the database off the machine with Litestream: `quire
    /// replication config` prints its configuration (docs/replication.md).
    Replication(ReplicationArgs),
    /// Work on the uploaded images: `quire uploads migrate --uploads-url s3://BUCKET[/PREFIX]`
    /// copies the data directory's uploads/ to a bucket and checks every file there.
    Uploads(UploadsCommandArgs),
    /// Write the man pages or the commented environment file the release packages carry.
    #[command(hide = true)]
    Generate(GenerateArgs),
}

/// The data directory flag, shared by every subcommand.
#[derive(Debug, Clone, Args)]
pub struct DataDirArg {
    /// Directory holding quire.db, the search index and uploads (created when missing).
    #[arg(long, env = "QUIRE_DATA_DIR", default_value = "./data", value_name = "DIR")]
    pub data_dir: PathBuf,
}

impl DataDirArg {
    /// The data directory it names.
    pub fn dir(&self) -> DataDir {
        DataDir::new(&self.data_dir)
    }
}
