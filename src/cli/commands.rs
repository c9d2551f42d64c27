//! The flags of the subcommands other than `serve`: migrate, backup, restore, export, import and
//! federation.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{DataDirArg, FetchLoopbackArg, UploadsArgs};
use crate::data_dir::DataDir;

/// `quire federation`'s subcommands.
#[derive(Debug, Clone, Args)]
pub struct FederationArgs {
    #[command(subcommand)]
    pub action: FederationAction,
}

/// What `quire federation` does.
#[derive(Debug, Clone, Subcommand)]
pub enum FederationAction {
    /// Block DOMAIN and its subdomains for every blog, e.g. `quire federation block spam.example`.
    Block(DomainArgs),
    /// Unblock DOMAIN for the instance (blogs' own blocks stay).
    Unblock(DomainArgs),
    /// List the domains blocked for the whole instance, one a line.
    Blocks(DataDirArg),
}

impl FederationAction {
    /// The data directory it works on.
    pub fn data_dir(&self) -> DataDir {
        match self {
            FederationAction::Block(args) | FederationAction::Unblock(args) => args.data_dir.dir(),
            FederationAction::Blocks(args) => args.dir(),
        }
    }
}

/// Flags of `quire federation block` and `unblock`.
#[derive(Debug, Clone, Args)]
pub struct DomainArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// The domain, like spam.example (no scheme, port or path).
    #[arg(value_name = "DOMAIN")]
    pub domain: String,
}

/// Flags of `quire migrate`.
#[derive(Debug, Clone, Args)]
pub struct MigrateArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// Only list applied and pending migrations; change nothing.
    #[arg(long)]
    pub status: bool,
}

/// Flags of `quire backup`.
#[derive(Debug, Clone, Args)]
pub struct BackupArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// Backup file to write (must not exist), e.g. quire-2026-11-22.tar.
    #[arg(value_name = "OUT")]
    pub out: PathBuf,

    // With the server's --uploads-url, the uploads are read from its bucket.
    #[command(flatten)]
    pub uploads: UploadsArgs,
}

/// Flags of `quire export`.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// The subdomain of the blog to export.
    #[arg(long = "blog", value_name = "SUBDOMAIN")]
    pub blog: String,

    /// What to write: archive (everything, for any Quire), markdown (files with front matter
    /// for Hugo, Zola or Jekyll) or site (the public pages, for any static host).
    #[arg(long, default_value = "archive", value_parser = ["archive", "markdown", "site"])]
    pub format: String,

    #[command(flatten)]
    pub address: AddressArgs,

    /// The file to write (must not exist), e.g. alice.quire.zip.
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
}

/// The server's public address and where its uploads live, for commands that make addresses or
/// read and write images without running it.
#[derive(Debug, Clone, Args)]
pub struct AddressArgs {
    /// The server's public host name, as `quire serve --host` has it.
    #[arg(long, env = "QUIRE_HOST", default_value = "localhost:8080", value_name = "HOST[:PORT]")]
    pub host: String,

    /// The server's public URLs use https (as `quire serve --https`).
    #[arg(long, env = "QUIRE_HTTPS")]
    pub https: bool,

    // The server's --uploads-url (and its credentials): images are read from and written to its bucket.
    #[command(flatten)]
    pub uploads: UploadsArgs,
}

/// Flags of `quire import`.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// The subdomain of the blog to import into.
    #[arg(long = "blog", value_name = "SUBDOMAIN")]
    pub blog: String,

    /// The old site's address, e.g. https://old.example.com. A Ghost export does not say
    /// where the site was: with it, its images are downloaded from there. Other exports name
    /// their site themselves; it is used only when they don't.
    #[arg(long, value_name = "URL")]
    pub site_url: Option<String>,

    #[command(flatten)]
    pub address: AddressArgs,

    /// The server's --imgur-client-id, when it keeps images on Imgur: an import cannot upload
    /// there, so imported images are kept as links to where they were.
    #[arg(long, env = "QUIRE_IMGUR_CLIENT_ID", value_name = "ID")]
    pub imgur_client_id: Option<String>,

    #[command(flatten)]
    pub fetch_loopback: FetchLoopbackArg,

    /// The export to import, e.g. alice.WordPress.2026-11-24.xml.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Flags of `quire restore`.
#[derive(Debug, Clone, Args)]
pub struct RestoreArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// Backup file written by `quire backup`.
    #[arg(value_name = "BACKUP")]
    pub backup: PathBuf,

    /// Replace the contents of a data directory that already holds a database.
    #[arg(long)]
    pub force: bool,
}
