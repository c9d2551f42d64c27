#![forbid(unsafe_code)]

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use quire::blogs::exports::ExportFormat;
use quire::cli::{Cli, Command};
use quire::config::AccessLogTarget;
use quire::{App, Config, backup, db};

// jemalloc instead of glibc's malloc: under the server's many worker and blocking threads glibc
// keeps a heap arena per thread and rarely returns their free pages, so a long mixed load grew
// the resident size by about 170 % in 30 minutes with no leak (bench/README.md, the soak).
// Unprefixed (Cargo.toml), it is the C code's malloc too: the bundled SQLite's.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("quire: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => {
            let mut config = Config::from_serve_args(&args)?;
            // On stderr, the access log follows RUST_LOG like the rest (RUST_LOG=warn turns it off).
            if config.access_log.target == AccessLogTarget::Stderr
                && !tracing::enabled!(target: "quire::access", tracing::Level::INFO)
            {
                config.access_log.target = AccessLogTarget::Off;
            }
            // A bounded blocking pool: SQLite and tantivy calls queue instead of growing threads.
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().max_blocking_threads(16).build()?;
            runtime.block_on(async {
                let app = App::build(config).await?;
                let shutdown = shutdown_signal()?;
                println!("Quire is running at {}/", app.url());
                app.run(shutdown).await
            })
        }
        Command::Migrate(args) => {
            let dir = args.data_dir.dir();
            db::migrate::run_command(&dir, args.status, |from, to| backup::before_migration(&dir, from, to).map(drop))
        }
        Command::Backup(args) => backup::backup(&args.data_dir.dir(), &args.out, &args.uploads),
        Command::Restore(args) => backup::restore(&args.data_dir.dir(), &args.backup, args.force),
        Command::Reindex(args) => quire::reindex::run_command(&args.dir()),
        Command::Export(args) => {
            let format = ExportFormat::parse(&args.format)
                .ok_or_else(|| anyhow::anyhow!("--format {}", ExportFormat::unknown()))?;
            let config = Config::offline(&args.data_dir.data_dir, &args.address)?;
            quire::export::run_command(&args.data_dir.dir(), &args.blog, format, &args.out, config)
        }
        Command::Import(args) => {
            let mut config = Config::offline(&args.data_dir.data_dir, &args.address)?;
            config.fetch_allow_loopback = args.fetch_loopback.given();
            config.imgur_client_id = args.imgur_client_id.filter(|id| !id.trim().is_empty());
            quire::import::run_command(&args.data_dir.dir(), &args.blog, args.site_url.as_deref(), &args.file, config)
        }
        Command::Federation(args) => quire::admin::run_command(&args.action.data_dir(), &args.action),
        Command::Blogs(args) => quire::blogs_command::run_command(&args.action),
        Command::Invites(args) => quire::invites::run_command(&args.action.data_dir(), &args.action),
        Command::Doctor(args) => quire::doctor::run_command(&args),
        Command::Replication(args) => match &args.action {
            quire::cli::ReplicationAction::Config(config) => quire::replication::run_config_command(config),
        },
        Command::Uploads(args) => match &args.action {
            quire::cli::UploadsAction::Migrate(migrate) => quire::media_store::run_migrate_command(migrate),
        },
        Command::Generate(args) => quire::cli::run_generate(&args),
        Command::Mail(args) => match &args.action {
            quire::cli::MailAction::Test(test) => quire::mail::run_test_command(test),
        },
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,poem=warn,tantivy=warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .init();
}

/// Registers Ctrl-C and SIGTERM handlers now (so a signal that comes right after the URL is
/// printed is caught) and resolves when either arrives.
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {},
                _ = interrupt.recv() => {},
            }
            tracing::info!("shutting down");
        })
    }
    #[cfg(not(unix))]
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
    })
}
