//! `quire generate man|env-file`: the files the release packages carry, made from the same clap
//! definitions as `--help` (scripts/release.sh runs it). Hidden from `--help`: it is for
//! packagers.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{ArgAction, Args, CommandFactory, ValueEnum};

use super::Cli;

/// Flags of `quire generate`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// What to write: the man pages (quire.1 and one a subcommand, into OUT, a folder) or the
    /// environment file with every setting of `quire serve` commented out (to OUT, a file).
    #[arg(value_enum)]
    pub what: Generated,

    /// Where to write it.
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
}

/// What `quire generate` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Generated {
    /// Man pages, roff.
    Man,
    /// `/etc/quire/quire.env`.
    EnvFile,
}

/// Runs `quire generate`.
pub fn run_command(args: &GenerateArgs) -> anyhow::Result<()> {
    match args.what {
        Generated::Man => man_pages(&args.out),
        Generated::EnvFile => {
            std::fs::write(&args.out, env_file()).with_context(|| format!("cannot write {}", args.out.display()))
        }
    }
}

/// Writes quire.1 and quire-SUBCOMMAND.1 (for each subcommand but this hidden one) into `dir`.
fn man_pages(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    clap_mangen::generate_to(Cli::command(), dir).with_context(|| format!("cannot write in {}", dir.display()))?;
    let hidden = dir.join("quire-generate.1");
    if hidden.exists() {
        std::fs::remove_file(&hidden)?;
    }
    Ok(())
}

/// The environment file of the Debian package: every setting of `quire serve` (its environment
/// variable), each commented out with its help and default, so uncommenting a line sets it.
pub fn env_file() -> String {
    let mut out = String::from(
        "# Settings of `quire serve` (quire.service reads this file; `quire doctor --env-file` checks it).\n\
         # Each line is commented out with the default; uncomment and change the ones you need, then\n\
         # `sudo systemctl restart quire`. `quire serve --help` and `man quire-serve` say more.\n\
         #\n\
         # To go live, set at least QUIRE_HOST, QUIRE_OIDC_CLIENT_ID and, for HTTPS from Quire itself,\n\
         # QUIRE_ACME_EMAIL (README.md, \"Going live\"). Keep secrets such as the SMTP password in files\n\
         # (QUIRE_SMTP_PASSWORD_FILE) readable by root only: this file is world-readable.\n",
    );
    let command = Cli::command();
    let serve = command.find_subcommand("serve").expect("quire has a serve subcommand");
    for arg in serve.get_arguments() {
        let (Some(env), false) = (arg.get_env(), arg.is_hide_set()) else { continue };
        let env = env.to_string_lossy();
        let help = arg.get_long_help().or(arg.get_help()).map(ToString::to_string).unwrap_or_default();
        out.push('\n');
        for line in wrap(&help, 96) {
            let _ = writeln!(out, "# {line}");
        }
        let defaults: Vec<String> =
            arg.get_default_values().iter().map(|value| value.to_string_lossy().into_owned()).collect();
        let value = match (arg.get_action(), defaults.is_empty()) {
            (ArgAction::SetTrue, _) => "false".to_owned(),
            (_, false) => defaults.join(","),
            (_, true) => String::new(),
        };
        let _ = writeln!(out, "#{env}={value}");
    }
    out
}

/// `text`'s paragraphs wrapped at `width` columns.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split("\n\n") {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_env_file_names_every_setting_of_serve_commented_out_with_its_default() {
        let file = env_file();
        assert!(file.contains("\n#QUIRE_LISTEN=\n"), "{file}");
        assert!(file.contains("\n#QUIRE_HOST=localhost:8080\n"), "{file}");
        assert!(file.contains("\n#QUIRE_HTTPS=false\n"), "{file}");
        assert!(file.contains("\n#QUIRE_INBOX_PER_MINUTE=300\n"), "{file}");
        assert!(file.lines().all(|line| line.is_empty() || line.starts_with('#')), "nothing is set by default");
        let command = Cli::command();
        let serve = command.find_subcommand("serve").unwrap();
        for arg in serve.get_arguments().filter(|arg| !arg.is_hide_set()) {
            if let Some(env) = arg.get_env() {
                assert!(file.contains(&format!("\n#{}=", env.to_string_lossy())), "{env:?} is missing");
            }
        }
    }
}
