//! `quire federation block|unblock|blocks`: the instance's blocked domains, in the data
//! directory's database. Safe while `quire serve` runs (the inbox reads the table on each
//! request, so a change takes effect at once).

use anyhow::bail;

use crate::cli::FederationAction;
use crate::data_dir::DataDir;
use crate::db::{self, blocked_domains};
use crate::domain::federation::domain_blocklist::blockable;

/// Runs `action` on the data directory's database.
pub fn run_command(data_dir: &DataDir, action: &FederationAction) -> anyhow::Result<()> {
    let mut conn = db::open_for_command(data_dir)?;
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
