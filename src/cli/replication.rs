//! The flags of `quire replication config` (docs/replication.md).

use clap::{Args, Subcommand};

use super::DataDirArg;

/// Flags of `quire replication`.
#[derive(Debug, Args)]
pub struct ReplicationArgs {
    #[command(subcommand)]
    pub action: ReplicationAction,
}

/// What `quire replication` does.
#[derive(Debug, Clone, Subcommand)]
pub enum ReplicationAction {
    /// Print Litestream's configuration for the data directory's database, replicating it to
    /// REPLICA: `quire replication config --replica s3://bucket/quire > /etc/litestream.yml`.
    ///
    /// Credentials stay out of it: Litestream reads them from its own environment
    /// (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for S3). Safe while `quire serve` runs.
    Config(ReplicationConfigArgs),
}

/// Flags of `quire replication config`.
#[derive(Debug, Clone, Args)]
pub struct ReplicationConfigArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// Where Litestream keeps the replica: s3://BUCKET/PATH (S3 or any S3-compatible store; add
    /// ?endpoint=https://... for one that is not Amazon's), gs://, abs://, sftp://HOST/PATH,
    /// webdav(s)://, nats://, oss://, file:///PATH, or an absolute path (another disk). Never
    /// inside the data directory.
    #[arg(long, value_name = "URL")]
    pub replica: String,
}
