//! `quire invites create|list|revoke`: the invite codes of `--signups invite`, in the data
//! directory's database. Safe while `quire serve` runs (a creation reads the table in its own
//! transaction, so a new or revoked code counts at once). A code is printed once; only its
//! SHA-256 is kept.

use anyhow::bail;

use crate::auth::token_hash;
use crate::cli::{CreateInviteArgs, InvitesAction};
use crate::config::Config;
use crate::data_dir::DataDir;
use crate::db;
use crate::db::signups::{self, Invite};
use crate::domain::{duration, invite_code};

/// Runs `action` on the data directory's database.
pub fn run_command(data_dir: &DataDir, action: &InvitesAction) -> anyhow::Result<()> {
    // Flags are checked before the database is opened, so a typo changes nothing.
    let expires = match action {
        InvitesAction::Create(args) => expires_in(args)?,
        _ => None,
    };
    let conn = db::open_for_command(data_dir)?;
    match action {
        InvitesAction::Create(args) => {
            let config = Config::offline(&args.data_dir.data_dir, &args.address)?;
            let code = invite_code::new_code();
            let note = args.note.trim();
            let invite = signups::create_invite(
                &conn,
                &token_hash(&code),
                invite_code::prefix(&code),
                args.uses,
                expires,
                note,
            )?;
            println!("Invite code: {code}");
            println!("Link: {}/?invite={code}", config.app_url());
            let blogs = if invite.max_uses == 1 { "1 blog".to_owned() } else { format!("{} blogs", invite.max_uses) };
            let until = invite.expires_at.as_deref().map_or(String::new(), |at| format!(", until {at}"));
            println!("It may create {blogs}{until}. This is the only time the code is shown.");
        }
        InvitesAction::List(_) => {
            let invites = signups::list_invites(&conn)?;
            if invites.is_empty() {
                eprintln!("No invites yet: make one with `quire invites create`.");
            }
            for invite in invites {
                println!("{}", line(&invite));
            }
        }
        InvitesAction::Revoke(args) => {
            let raw = args.invite.trim();
            let found = match (invite_code::normalize(raw), raw.parse::<i64>()) {
                (Some(code), _) => signups::invite_by_hash(&conn, &token_hash(&code))?,
                (None, Ok(id)) => signups::invite_by_id(&conn, id)?,
                (None, Err(_)) => None,
            };
            let Some(invite) = found else {
                bail!("there is no invite with the code or id {raw:?} (see `quire invites list`)");
            };
            if invite.revoked_at.is_some() {
                println!("Invite #{} ({}…) was already revoked.", invite.id, invite.prefix);
            } else {
                signups::revoke_invite(&conn, invite.id)?;
                println!("Revoked invite #{} ({}…): it creates no more blogs.", invite.id, invite.prefix);
            }
        }
    }
    Ok(())
}

/// `--uses` and `--expires`, checked: the seconds until the code expires, if it does.
fn expires_in(args: &CreateInviteArgs) -> anyhow::Result<Option<u64>> {
    if args.uses == 0 {
        bail!("--uses must be at least 1");
    }
    match args.expires.as_deref() {
        None => Ok(None),
        Some(raw) => match duration::parse(raw) {
            Ok(span) => Ok(Some(span.as_secs())),
            Err(message) => bail!("--expires: {message}"),
        },
    }
}

/// One invite as `quire invites list` prints it.
fn line(invite: &Invite) -> String {
    let expiry = match &invite.expires_at {
        Some(at) => format!("expires {at}"),
        None => "no expiry".to_owned(),
    };
    let note = if invite.note.is_empty() { String::new() } else { format!("  {}", invite.note) };
    format!(
        "#{}  {}…  {}/{} used  {expiry}  {}{note}",
        invite.id,
        invite.prefix,
        invite.uses,
        invite.max_uses,
        invite.state()
    )
}
