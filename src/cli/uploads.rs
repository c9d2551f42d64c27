//! Where uploaded images live (docs/replication.md, "Uploads on object storage"): the flags every
//! command that reads or writes them takes (`serve`, `doctor`, `backup`, `export`, `import`), and
//! `quire uploads migrate`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::DataDirArg;

/// The upload store's flags. Without `--uploads-url` images stay in the data directory's `uploads/`.
#[derive(Debug, Clone, Default, Args)]
pub struct UploadsArgs {
    /// Keep uploaded images in an S3-compatible bucket instead of the data directory's uploads/
    /// folder: s3://BUCKET or s3://BUCKET/PREFIX. The endpoint, region and credentials come from
    /// the usual AWS_* variables (AWS_ENDPOINT_URL, AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID,
    /// AWS_SECRET_ACCESS_KEY) or --uploads-credentials; never from this URL.
    #[arg(long, env = "QUIRE_UPLOADS_URL", value_name = "s3://BUCKET[/PREFIX]")]
    pub uploads_url: Option<String>,

    /// Send readers to this public address of the bucket (a CDN in front of it) instead of
    /// serving images through Quire: /media/NAME answers a redirect to URL/NAME.
    #[arg(long, env = "QUIRE_UPLOADS_PUBLIC_URL", value_name = "URL", requires = "uploads_url")]
    pub uploads_public_url: Option<String>,

    /// An AWS credentials file (the `[default]` profile, or AWS_PROFILE's) holding
    /// aws_access_key_id and aws_secret_access_key, instead of the environment variables.
    #[arg(long, env = "QUIRE_UPLOADS_CREDENTIALS", value_name = "FILE", requires = "uploads_url")]
    pub uploads_credentials: Option<PathBuf>,

    /// How long one request to the bucket may take before the upload (or page) fails with a
    /// clear message; a failed request is retried at most twice within it.
    #[arg(long, env = "QUIRE_UPLOADS_TIMEOUT_SECS", default_value_t = 20, value_name = "SECONDS")]
    pub uploads_timeout_secs: u64,
}

/// `quire uploads`.
#[derive(Debug, Clone, Args)]
pub struct UploadsCommandArgs {
    #[command(subcommand)]
    pub action: UploadsAction,
}

/// The subcommands of `quire uploads`.
#[derive(Debug, Clone, Subcommand)]
pub enum UploadsAction {
    /// Copy the data directory's uploads/ folder to the bucket of --uploads-url and check every
    /// file there against its name's SHA-256. Safe to run again, and while quire serve runs;
    /// the local files are left in place.
    Migrate(UploadsMigrateArgs),
}

/// Flags of `quire uploads migrate`.
#[derive(Debug, Clone, Args)]
pub struct UploadsMigrateArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    #[command(flatten)]
    pub uploads: UploadsArgs,
}
