//! The flags of `quire invites create|list|revoke` (docs/public-instance.md, "Who may sign up").

use clap::{Args, Subcommand};

use super::{AddressArgs, DataDirArg};
use crate::data_dir::DataDir;

/// Flags of `quire invites`.
#[derive(Debug, Args)]
pub struct InvitesArgs {
    #[command(subcommand)]
    pub action: InvitesAction,
}

/// What `quire invites` does.
#[derive(Debug, Clone, Subcommand)]
pub enum InvitesAction {
    /// Make an invite code and print it with its link (the code is shown only now: only its
    /// hash is kept).
    Create(CreateInviteArgs),
    /// List the invites, newest first: id, the code's first characters, uses, expiry, state
    /// and note (never the codes).
    List(DataDirArg),
    /// Revoke an invite, by its code or its id (as `quire invites list` shows it): it creates
    /// no more blogs; the blogs it created stay.
    Revoke(RevokeInviteArgs),
}

impl InvitesAction {
    /// The data directory it works on.
    pub fn data_dir(&self) -> DataDir {
        match self {
            InvitesAction::Create(args) => args.data_dir.dir(),
            InvitesAction::List(args) => args.dir(),
            InvitesAction::Revoke(args) => args.data_dir.dir(),
        }
    }
}

/// Flags of `quire invites create`.
#[derive(Debug, Clone, Args)]
pub struct CreateInviteArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    #[command(flatten)]
    pub address: AddressArgs,

    /// How many blogs the code may create.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub uses: u32,

    /// How long the code works, like 30m, 12h, 7d or 2w (no end when not given).
    #[arg(long, value_name = "DURATION")]
    pub expires: Option<String>,

    /// A note for yourself, e.g. who the code is for (shown by `quire invites list`).
    #[arg(long, default_value = "", value_name = "TEXT")]
    pub note: String,
}

/// Flags of `quire invites revoke`.
#[derive(Debug, Clone, Args)]
pub struct RevokeInviteArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// The code, or the invite's id as `quire invites list` shows it.
    #[arg(value_name = "CODE|ID")]
    pub invite: String,
}
