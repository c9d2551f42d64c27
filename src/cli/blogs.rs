//! The flags of `quire blogs ...`: the operator's review tools on the command line (issue 29,
//! docs/public-instance.md "From the command line").

use clap::{Args, Subcommand};

use super::{AddressArgs, DataDirArg};
use crate::data_dir::DataDir;

/// `quire blogs`'s subcommands.
#[derive(Debug, Clone, Args)]
pub struct BlogsArgs {
    #[command(subcommand)]
    pub action: BlogsAction,
}

/// What `quire blogs` does.
#[derive(Debug, Clone, Subcommand)]
pub enum BlogsAction {
    /// List the blogs, newest first: subdomain, state, age, posts, risk score, owner email.
    List(ListArgs),
    /// Show one blog: its state, owner, posts, risk score and why, and its link hosts.
    Show(BlogArgs),
    /// Approve a blog: served, listed and federated normally (it leaves the review queue).
    Approve(ActionArgs),
    /// Silence a blog: still served, but hidden from search engines and lists, and what it
    /// would send to followers is dropped.
    Silence(ActionArgs),
    /// Suspend a blog: every public page answers 410; its owner sees the reason (--reason is
    /// required) and can only export and delete.
    Suspend(ActionArgs),
    /// Unsuspend a blog: it goes back to the state it had.
    Unsuspend(ActionArgs),
    /// Delete a blog and its owner's account, as "Delete Account" does (followers are told);
    /// the subdomain is never handed out again.
    Delete(DeleteArgs),
}

impl BlogsAction {
    /// The data directory it works on.
    pub fn data_dir(&self) -> DataDir {
        match self {
            BlogsAction::List(args) => args.data_dir.dir(),
            BlogsAction::Show(args) => args.data_dir.dir(),
            BlogsAction::Approve(args)
            | BlogsAction::Silence(args)
            | BlogsAction::Suspend(args)
            | BlogsAction::Unsuspend(args) => args.data_dir.dir(),
            BlogsAction::Delete(args) => args.data_dir.dir(),
        }
    }
}

/// Flags of `quire blogs list`.
#[derive(Debug, Clone, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// Only blogs in this state.
    #[arg(long, value_parser = ["new", "approved", "silenced", "suspended"])]
    pub state: Option<String>,

    /// Only blogs created within this time, e.g. 30m, 12h, 7d, 2w.
    #[arg(long, value_name = "DURATION")]
    pub since: Option<String>,

    /// Print JSON (one array of blogs) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `quire blogs show`.
#[derive(Debug, Clone, Args)]
pub struct BlogArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// The blog's subdomain.
    #[arg(value_name = "SUBDOMAIN")]
    pub subdomain: String,
}

/// Flags of `quire blogs approve|silence|suspend|unsuspend`.
#[derive(Debug, Clone, Args)]
pub struct ActionArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// Why (shown to the blog's owner; required to suspend).
    #[arg(long, default_value = "", value_name = "TEXT")]
    pub reason: String,

    #[command(flatten)]
    pub address: AddressArgs,

    /// The blog's subdomain.
    #[arg(value_name = "SUBDOMAIN")]
    pub subdomain: String,
}

/// Flags of `quire blogs delete`.
#[derive(Debug, Clone, Args)]
pub struct DeleteArgs {
    #[command(flatten)]
    pub data_dir: DataDirArg,

    #[command(flatten)]
    pub address: AddressArgs,

    /// The blog's subdomain.
    #[arg(value_name = "SUBDOMAIN")]
    pub subdomain: String,
}
