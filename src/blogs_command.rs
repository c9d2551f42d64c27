//! `quire blogs list|show|approve|silence|suspend|unsuspend|delete` (issue 29,
//! docs/public-instance.md "From the command line"), safe while `quire serve` runs.
//!
//! `list` and `show` only read the database. An action must have all its effects at once, and
//! a running server holds the search index and the page cache: so when the data directory is
//! in use (its lock, [`DataDir::lock`]), the command writes a request into `admin_requests` and
//! waits (at most [`WAIT`]) for the server, which performs it through the one write path
//! (`Blogs::act_as_admin`, blogs/review.rs) and records the outcome the command prints. With no
//! server running, the command takes the lock, opens the storage as `serve` does
//! (`app::open_storage`) and performs it itself, through the same write path. Either way the
//! record of admin actions names "command line".

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use rusqlite::Connection;
use time::OffsetDateTime;
use time::macros::format_description;

use crate::app::open_storage;
use crate::blogs::review::refusal_line;
use crate::blogs::{AdminDo, Blogs, COMMAND_LINE, PageGenerations, ServedNames};
use crate::cli::{AddressArgs, BlogsAction, ListArgs};
use crate::config::Config;
use crate::data_dir::{DataDir, InUse};
use crate::db::review::{self, AdminBlog, BlogFilter};
use crate::db::{self, admin_requests};
use crate::domain::blog::trust_state::{Moderation, TrustState};
use crate::domain::content::blocks::Rules;

/// How long an action waits for the running server to perform it.
pub const WAIT: Duration = Duration::from_secs(30);
/// How often it looks for the outcome meanwhile.
const LOOK_EVERY: Duration = Duration::from_millis(100);
/// Most blogs `list` prints.
const MAX_LISTED: u32 = 100_000;

/// Runs `action`; an unknown blog, or an action its state does not allow, is an error (one line,
/// a non-zero exit).
pub fn run_command(action: &BlogsAction) -> anyhow::Result<()> {
    let data_dir = action.data_dir();
    match action {
        BlogsAction::List(args) => list(&data_dir, args),
        BlogsAction::Show(args) => show(&data_dir, &args.subdomain),
        BlogsAction::Approve(args) => {
            act(&data_dir, AdminDo::Moderate(Moderation::Approve), &args.subdomain, &args.reason, &args.address)
        }
        BlogsAction::Silence(args) => {
            act(&data_dir, AdminDo::Moderate(Moderation::Silence), &args.subdomain, &args.reason, &args.address)
        }
        BlogsAction::Suspend(args) => {
            act(&data_dir, AdminDo::Moderate(Moderation::Suspend), &args.subdomain, &args.reason, &args.address)
        }
        BlogsAction::Unsuspend(args) => {
            act(&data_dir, AdminDo::Moderate(Moderation::Unsuspend), &args.subdomain, &args.reason, &args.address)
        }
        BlogsAction::Delete(args) => act(&data_dir, AdminDo::Delete, &args.subdomain, "", &args.address),
    }
}

fn list(data_dir: &DataDir, args: &ListArgs) -> anyhow::Result<()> {
    let conn = db::open_for_command(data_dir)?;
    let since = args.since.as_deref().map(since_time).transpose()?;
    let state = args.state.as_deref().and_then(TrustState::parse);
    let filter = BlogFilter { text: String::new(), state, since };
    let (_, blogs) = review::search(&conn, &filter, 0, MAX_LISTED)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&blogs)?);
        return Ok(());
    }
    if blogs.is_empty() {
        eprintln!("No blog matches.");
        return Ok(());
    }
    let now = OffsetDateTime::now_utc();
    println!("{:<24} {:<10} {:>5} {:>6} {:>5}  OWNER", "SUBDOMAIN", "STATE", "AGE", "POSTS", "RISK");
    for blog in &blogs {
        let state = match blog.flagged_at {
            Some(_) => format!("{}*", blog.state),
            None => blog.state.clone(),
        };
        println!(
            "{:<24} {:<10} {:>5} {:>6} {:>5}  {}",
            blog.subdomain,
            state,
            age(&blog.created_at, now),
            blog.post_count,
            blog.risk_score,
            blog.owner_email
        );
    }
    if blogs.iter().any(|blog| blog.flagged_at.is_some()) {
        println!("(* approved, and back in the review queue)");
    }
    Ok(())
}

fn show(data_dir: &DataDir, subdomain: &str) -> anyhow::Result<()> {
    let conn = db::open_for_command(data_dir)?;
    let blog = review::blog(&conn, subdomain)?.ok_or_else(|| no_such_blog(subdomain))?;
    print!("{}", describe(&blog, OffsetDateTime::now_utc()));
    Ok(())
}

/// `show`'s lines for `blog`.
fn describe(blog: &AdminBlog, now: OffsetDateTime) -> String {
    let mut out = format!("{} ({})\n", blog.subdomain, blog.name);
    out += &format!("state:   {}", blog.state);
    if !blog.state_reason.is_empty() {
        out += &format!(" (reason: {})", blog.state_reason);
    }
    if let Some(flagged) = &blog.flagged_at {
        out += &format!(", back in the review queue since {flagged}");
    }
    out += &format!("\nowner:   {}\n", blog.owner_email);
    out += &format!("created: {} ({} ago)\n", blog.created_at, age(&blog.created_at, now));
    out += &format!("posts:   {}\n", blog.post_count);
    out += &format!("risk:    {} ({})\n", blog.risk_score, blog.risk_explanation);
    let hosts: Vec<String> = blog.link_hosts.iter().map(|h| format!("{} ×{}", h.host, h.links)).collect();
    out += &format!("links:   {}\n", if hosts.is_empty() { "none".to_owned() } else { hosts.join(", ") });
    out
}

fn act(data_dir: &DataDir, what: AdminDo, subdomain: &str, reason: &str, address: &AddressArgs) -> anyhow::Result<()> {
    let conn = db::open_for_command(data_dir)?;
    if review::blog(&conn, subdomain)?.is_none() {
        return Err(no_such_blog(subdomain));
    }
    match data_dir.lock() {
        Ok(_lock) => {
            drop(conn);
            perform_here(data_dir, what, subdomain, reason, address)
        }
        Err(err) if err.downcast_ref::<InUse>().is_some() => hand_to_server(&conn, what, subdomain, reason),
        Err(err) => Err(err),
    }
}

/// With no server running: performs the action through the write path, on this process's own
/// storage (the lock held by the caller).
fn perform_here(
    data_dir: &DataDir,
    what: AdminDo,
    subdomain: &str,
    reason: &str,
    address: &AddressArgs,
) -> anyhow::Result<()> {
    let config = Config::offline(data_dir.root(), address)?;
    let (db, search) = open_storage(data_dir)?;
    let search = Arc::new(search);
    let served = Arc::new(ServedNames::new(&config.host, Vec::new()));
    let rules = Rules { image_prefix: config.image_prefix() };
    let pages = Arc::new(PageGenerations::default());
    let media = crate::media_store::MediaStore::open(data_dir, &config.uploads)?;
    let blogs = Blogs::new(db, search.clone(), pages, data_dir.clone(), media, rules, served, Arc::new(config));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().max_blocking_threads(4).build()?;
    let done = runtime.block_on(blogs.act_as_admin(what, subdomain, reason, COMMAND_LINE));
    search.close_idle_writer(Duration::ZERO);
    match done {
        Ok(line) => {
            println!("{line}");
            Ok(())
        }
        // A fault of ours is told in full here: this process is the one whose log would say it.
        Err(err) if err.messages().is_none() => Err(anyhow!(err)),
        Err(err) => Err(anyhow!(refusal_line(&err))),
    }
}

/// With `quire serve` running: queues the request and waits for the server's outcome.
fn hand_to_server(conn: &Connection, what: AdminDo, subdomain: &str, reason: &str) -> anyhow::Result<()> {
    let id = admin_requests::add(conn, what.as_str(), subdomain, reason)?;
    let started = Instant::now();
    while started.elapsed() < WAIT {
        if let Some(outcome) = admin_requests::outcome(conn, id)? {
            return printed(outcome);
        }
        std::thread::sleep(LOOK_EVERY);
    }
    if admin_requests::withdraw(conn, id)? {
        bail!(
            "the running quire serve did not perform it within {} s; nothing was changed (is it an older version?)",
            WAIT.as_secs()
        );
    }
    let outcome = admin_requests::outcome(conn, id)?.ok_or_else(|| anyhow!("the request disappeared"))?;
    printed(outcome)
}

fn printed((ok, line): (bool, String)) -> anyhow::Result<()> {
    match ok {
        true => {
            println!("{line}");
            Ok(())
        }
        false => Err(anyhow!(line)),
    }
}

fn no_such_blog(subdomain: &str) -> anyhow::Error {
    anyhow!("there is no blog {subdomain:?} (see `quire blogs list`)")
}

/// The creation time `raw` (30m, 12h, 7d, 2w) before now, as blogs' times are stored.
fn since_time(raw: &str) -> anyhow::Result<String> {
    let duration = crate::domain::duration::parse(raw).map_err(|message| anyhow!("--since {message}"))?;
    let at = OffsetDateTime::now_utc() - duration;
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    Ok(at.format(&format)?)
}

/// How long ago `created_at` was, in its largest whole unit (`5m`, `3h`, `12d`).
fn age(created_at: &str, now: OffsetDateTime) -> String {
    let Ok(at) = OffsetDateTime::parse(created_at, &time::format_description::well_known::Rfc3339) else {
        return "?".to_owned();
    };
    let minutes = (now - at).whole_minutes().max(0);
    match minutes {
        m if m < 60 => format!("{m}m"),
        m if m < 60 * 48 => format!("{}h", m / 60),
        m => format!("{}d", m / (60 * 24)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_are_told_in_their_largest_whole_unit() {
        let now =
            OffsetDateTime::parse("2026-11-28T12:00:00Z", &time::format_description::well_known::Rfc3339).unwrap();
        assert_eq!(age("2026-11-28T11:55:00.000Z", now), "5m");
        assert_eq!(age("2026-11-27T09:00:00.000Z", now), "27h");
        assert_eq!(age("2026-11-18T12:00:00.000Z", now), "10d");
        assert_eq!(age("not a time", now), "?");
    }
}
