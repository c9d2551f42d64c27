//! Bundles the owner app (`ui/`) with esbuild so a plain `cargo build` yields a complete binary.
//! `SKIP_UI_BUILD=1` skips it (for editors and `cargo check`).

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=SKIP_UI_BUILD");
    for input in ["ui/src", "ui/public", "ui/package.json", "ui/package-lock.json", "ui/build.mjs", "ui/tsconfig.json"] {
        println!("cargo:rerun-if-changed={input}");
    }
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui");
    let index = ui.join("dist/index.html");

    if std::env::var("SKIP_UI_BUILD").as_deref() == Ok("1") {
        if !index.exists() {
            std::fs::create_dir_all(ui.join("dist/assets")).expect("create ui/dist");
            std::fs::write(
                &index,
                "<!doctype html><title>Quire</title><!--QUIRE_CONFIG--><p>This binary was built with \
                 SKIP_UI_BUILD=1, so it has no owner app. Build it without that variable.</p>\n",
            )
            .expect("write ui/dist/index.html");
        }
        return;
    }

    let installed = ui.join("node_modules/.package-lock.json");
    if is_older(&installed, &ui.join("package-lock.json")) {
        run(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&ui), "npm ci");
    }
    run(Command::new("node").arg("build.mjs").current_dir(&ui), "node build.mjs");
}

/// Whether `target` is missing or older than `source`.
fn is_older(target: &Path, source: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (modified(target), modified(source)) {
        (Some(t), Some(s)) => t < s,
        _ => true,
    }
}

fn run(command: &mut Command, what: &str) {
    command.env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    match command.status() {
        Ok(status) if status.success() => {}
        Ok(status) => panic!("building the owner app failed: `{what}` exited with {status}"),
        Err(err) => panic!(
            "building the owner app needs Node.js 20+ and npm on PATH (`{what}`: {err}); \
             set SKIP_UI_BUILD=1 to build without it"
        ),
    }
}
