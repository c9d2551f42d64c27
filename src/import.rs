//! `quire import`: imports an export file (another platform's, or a Quire archive) into one
//! blog of a stopped server's data directory. It writes through the one write path
//! (`Blogs::import`, as an import from Settings does), so the search index follows, and it
//! downloads images through the guarded fetcher. It holds the data directory's lock, so it
//! refuses while `quire serve` runs there.
//!
//! The storage is opened as `serve` opens it (`app::open_storage`: migrations, the index brought up
//! to date). docs/import.md says what each platform's export becomes.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{anyhow, bail};

use crate::app::open_storage;
use crate::blogs::{Blogs, ImportOptions, ImportProgress, ImportSource, PageGenerations, ServedNames};
use crate::config::Config;
use crate::data_dir::{DataDir, InUse};
use crate::db::{self, migrate};
use crate::domain::blog::old_paths;
use crate::domain::content::blocks::Rules;
use crate::fetch::Fetcher;
use crate::portable::model::Format;
use crate::portable::report::Report;
use crate::portable::{self, Options};
use crate::progress::Progress;

/// Imports the export at `file` into the blog `subdomain`; `site_url` is the old site's
/// address where the file does not say it. `config` gives the server's addresses (imported
/// images are stored under its `/media/`) and the fetcher's rules. Prints the report; fails
/// with one line when nothing could be imported, or when Ctrl-C stopped it midway.
pub fn run_command(
    data_dir: &DataDir,
    subdomain: &str,
    site_url: Option<&str>,
    file: &Path,
    config: Config,
) -> anyhow::Result<()> {
    if !file.is_file() {
        bail!("there is no file {}; nothing was imported", file.display());
    }
    let site_url = site_url
        .map(|raw| {
            old_paths::site_url(raw).ok_or_else(|| {
                anyhow!("--site-url {raw:?} should be an http or https address, like https://old.example.com")
            })
        })
        .transpose()?;
    let path = data_dir.database();
    if !path.is_file() {
        bail!("there is no database at {}; nothing to import into", path.display());
    }
    let _lock = data_dir.lock().map_err(|err| match err.downcast_ref::<InUse>() {
        Some(_) => anyhow!(
            "another quire process is using data directory {}: stop quire serve first, or import from Settings → Import and export",
            data_dir.root().display()
        ),
        None => err,
    })?;
    let blog = {
        let conn = db::open_connection(&path, false)?;
        db::check_is_quire(&conn, &path)?;
        if migrate::check_not_newer(&conn)? < migrate::latest_version() {
            bail!("the database needs migrations first: run `quire migrate --data-dir {}`", data_dir.root().display());
        }
        db::exports::blog_settings(&conn, subdomain)?.ok_or_else(|| {
            anyhow!("there is no blog {subdomain:?} in {}; nothing was imported", data_dir.root().display())
        })?
    };
    let options = Options {
        site_url,
        time_zone: Some(blog.settings.time_zone.clone()),
        limits: config.import_limits,
        work_dir: Some(data_dir.exports()),
    };
    let (export, files) =
        portable::read::open_with_files(file, &options).map_err(|err| anyhow!("{}: {err}", file.display()))?;
    let format = export.read.format;
    if config.fetch_allow_loopback {
        tracing::warn!(
            "test-only: the import may download images from this machine's loopback addresses (127.0.0.0/8, ::1)"
        );
    }
    let fetcher = Fetcher::new(&config)?;
    let (db, search) = open_storage(data_dir)?;
    let rules = Rules { image_prefix: config.image_prefix() };
    let search = Arc::new(search);
    // A server running later reads the names it serves from the database; this process serves none.
    let served = Arc::new(ServedNames::new(&config.host, Vec::new()));
    let blogs = Blogs::new(
        db,
        search.clone(),
        Arc::new(PageGenerations::default()),
        data_dir.clone(),
        crate::media_store::MediaStore::open(data_dir, &config.uploads)?,
        rules,
        served,
        Arc::new(config),
    );
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().max_blocking_threads(16).build()?;
    let (report, stopped) = runtime.block_on(async {
        let blog = blogs.owned(blog.user_id, &blog.id.to_string()).await?;
        let stop = stop_on_ctrl_c();
        let mut progress = Progress::items("import", export.read.expected_items.unwrap_or(0), "items");
        let on_progress = |at: ImportProgress| {
            progress.reach(at.done);
            !stop.load(Ordering::SeqCst)
        };
        let source = ImportSource { read: export.read, posts: export.items, files };
        let report = blogs.import(&blog, &fetcher, source, ImportOptions::default(), on_progress).await?;
        let stopped = stop.load(Ordering::SeqCst);
        if !stopped {
            progress.finish(); // a stopped bar stays as it stood
        }
        anyhow::Ok((report, stopped))
    })?;
    search.close_idle_writer(std::time::Duration::ZERO);
    let seconds = started.elapsed().as_secs_f64();
    println!("Imported {} ({}) into {subdomain} in {seconds:.1} s.", file.display(), format_name(format));
    print_report(&report);
    if stopped {
        bail!("the import was stopped (Ctrl-C): importing the same file again brings in the rest");
    }
    Ok(())
}

/// A flag set by the first Ctrl-C, so the import stops after its current batch (what was
/// written stays); a second Ctrl-C ends the process at once (a batch is one transaction, so
/// even that leaves no half-written post).
fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            flag.store(true, Ordering::SeqCst);
            eprintln!("quire: stopping after the current batch (Ctrl-C again stops at once)");
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
    stop
}

/// The name of what was imported, for the first line.
fn format_name(format: Format) -> &'static str {
    match format {
        Format::WordPress => "WordPress",
        Format::Ghost => "Ghost",
        Format::WriteFreely => "WriteFreely",
        Format::BearBlog => "Bear Blog",
        Format::MarkdownZip => "Markdown zip",
        Format::QuireArchive => "Quire archive",
    }
}

/// The counts on one line, then every line of the report as `item: message`.
fn print_report(report: &Report) {
    let Report { posts, pages, drafts, scheduled, images, tags, redirects, skipped, .. } = report;
    println!(
        "posts: {posts}, pages: {pages}, drafts: {drafts}, scheduled: {scheduled}, images: {images}, tags: {tags}, \
         redirects: {redirects}, skipped: {skipped}"
    );
    for line in &report.lines {
        println!("{}: {}", line.item, line.message);
    }
    if report.lines_omitted > 0 {
        println!("({} more lines like these were not kept)", report.lines_omitted);
    }
}
