//! The flags of `quire doctor`: those of `serve`, and the environment file a service reads.

use std::path::PathBuf;

use clap::Args;

use super::ServeArgs;

/// Flags of `quire doctor`.
#[derive(Debug, Clone, Args)]
pub struct DoctorArgs {
    /// Read settings from this file of QUIRE_...=value lines, as systemd's EnvironmentFile does
    /// (the Debian package's /etc/quire/quire.env). Flags on the command line win over the file,
    /// and the file over the environment.
    #[arg(long, value_name = "FILE")]
    pub env_file: Option<PathBuf>,

    /// Litestream's replica of the database (the URL of litestream.yml, or an absolute path):
    /// checks that it holds the database's recent writes. Reads file and s3:// replicas (with
    /// the AWS_* variables Litestream uses).
    #[arg(long, env = "QUIRE_REPLICA", value_name = "URL")]
    pub replica: Option<String>,

    /// How long the database may hold writes newer than the replica's newest file before the
    /// replica check fails (Litestream ships every second, and checkpoints every minute).
    #[arg(long, env = "QUIRE_REPLICA_MAX_LAG_SECS", default_value_t = 60, value_name = "SECONDS")]
    pub replica_max_lag_secs: u64,

    #[command(flatten)]
    pub serve: ServeArgs,
}
