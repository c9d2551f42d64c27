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

    #[command(flatten)]
    pub serve: ServeArgs,
}
