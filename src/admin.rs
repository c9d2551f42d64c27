//! `quire federation block|unblock|blocks`: the instance's blocked domains, in the data
//! directory's database. Safe while `quire serve` runs (the inbox reads the table on each
//! request, so a change takes effect at once).

use anyhow::bail;
use rusqlite::Connection;

use crate::cli::FederationAction;
use crate::data_dir::DataDir;
use crate::db::{self, blocked_domains, migrate};
use crate::domain::federation::domain_blocklist::blockable;

/// The data directory's database, for a command that changes it while `quire serve` may run:
/// it must exist, be Quire's and be migrated.
pub fn open_database(data_dir: &DataDir) -> anyhow::Result<Connection> {
    let path = data_dir.database();
    data_dir.check_database_or_fresh()?;
    if !path.is_file() {
        bail!("there is no database at {}; start `quire serve` once first", path.display());
    }
    let conn = db::open_connection(&path, false)?;
    db::check_is_quire(&conn, &path)?;
    if migrate::check_not_newer(&conn)? < migrate::latest_version() {
        bail!("the database needs migrations first: run `quire migrate --data-dir {}`", data_dir.root().display());
    }
    Ok(conn)
}

/// Runs `action` on the data directory's database.
pub fn run_command(data_dir: &DataDir, action: &FederationAction) -> anyhow::Result<()> {
    let mut conn = open_database(data_dir)?;
    match action {
        FederationAction::Block(args) => {
            let domain = domain_of(&args.domain, "block")?;
            let tx = conn.transaction()?;
            let added = blocked_domains::add(&tx, None, &domain)?;
            let purged = blocked_domains::purge(&tx, None, &domain)?;
            tx.commit()?;
            let blocked = match added {
                false => format!("{domain} was already blocked for every blog"),
                true => format!("Blocked {domain} and its subdomains for every blog"),
            };
            println!(
                "{blocked}; removed {} followers, {} replies, {} likes and boosts, {} cached actors and {} \
                 deliveries of theirs.",
                purged.followers, purged.replies, purged.reactions, purged.actors, purged.deliveries
            );
        }
        FederationAction::Unblock(args) => {
            let domain = domain_of(&args.domain, "unblock")?;
            if !blocked_domains::remove(&conn, None, &domain)? {
                bail!("{domain} is not blocked for the instance (see `quire federation blocks`)");
            }
            println!("Unblocked {domain} for the instance.");
        }
        FederationAction::Blocks(_) => {
            let domains = blocked_domains::list(&conn, None)?;
            if domains.is_empty() {
                eprintln!("No domain is blocked for the instance.");
            }
            for domain in domains {
                println!("{domain}");
            }
        }
    }
    Ok(())
}

/// The stored form of a domain given on the command line, or an error saying what is wrong.
fn domain_of(raw: &str, verb: &str) -> anyhow::Result<String> {
    blockable(raw).map_err(|message| {
        let mut message = message.to_owned();
        message[..1].make_ascii_lowercase();
        anyhow::anyhow!("cannot {verb} {raw:?}: {message}")
    })
}
