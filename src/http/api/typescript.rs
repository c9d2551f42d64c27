//! The owner app's types of the API's answers, `ui/src/api-types/*.ts`, generated from the answer
//! structs (`#[derive(Serialize, TS)]` beside each handler) by ts-rs, and the check that fails
//! when the committed files drift from the structs (it runs in `cargo test`). The page config the
//! server embeds in `index.html` (`http::ui::AppSettings`, with the rules of `domain::content`) is
//! generated the same way, into `app-settings.ts`.
//!
//! The generated types are the wire's: every key the API sends is camelCase already, so the fetch
//! wrapper's camelCase conversion (`ui/src/lib/api.ts`) leaves them as they are and the types are
//! also what the app sees; the check keeps it so by refusing a generated key with `_` in it.
//! Integers are `number` (ids and counts are far below 2^53).
//!
//! Regenerate after changing an answer: `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

use std::path::{Path, PathBuf};

use ts_rs::{Config, TS};

use crate::http::api::{
    addons, admin, answers, blogs, convert, custom_css, domains, exports, favicons, fediverse, images, imports,
    instance, pages, post_versions, posts, preview, preview_links, replies, responses, revisions, sessions,
    social_accounts, subscribers, tags, themes, time_zones, tokens, trash,
};
use crate::http::ui::AppSettings;

/// The command that rewrites the committed files.
const REGENERATE: &str = "QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types";

/// Where the owner app keeps them.
fn committed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/src/api-types")
}

/// Writes every answer type, and the types they use, into `dir` (one file per resource).
fn generate(dir: &Path) -> Result<(), ts_rs::ExportError> {
    let cfg = Config::new().with_large_int("number").with_out_dir(dir);
    answers::Empty::export_all(&cfg)?;
    posts::OnePost::export_all(&cfg)?;
    posts::ManyPosts::export_all(&cfg)?;
    post_versions::StalePost::export_all(&cfg)?;
    revisions::ManyRevisions::export_all(&cfg)?;
    trash::ManyTrash::export_all(&cfg)?;
    preview::PreviewJson::export_all(&cfg)?;
    convert::ConvertJson::export_all(&cfg)?;
    preview_links::CreatedPreviewLink::export_all(&cfg)?;
    preview_links::PreviewLinkState::export_all(&cfg)?;
    tokens::TokenList::export_all(&cfg)?;
    tokens::CreatedToken::export_all(&cfg)?;
    images::Uploaded::export_all(&cfg)?;
    tags::Tags::export_all(&cfg)?;
    pages::Pages::export_all(&cfg)?;
    sessions::SignInStart::export_all(&cfg)?;
    sessions::OneSession::export_all(&cfg)?;
    sessions::MaybeSession::export_all(&cfg)?;
    social_accounts::Connected::export_all(&cfg)?;
    blogs::BlogAnswer::export_all(&cfg)?;
    themes::Themes::export_all(&cfg)?;
    instance::InstanceAnswer::export_all(&cfg)?;
    custom_css::CustomCssAnswer::export_all(&cfg)?;
    custom_css::CssCheckAnswer::export_all(&cfg)?;
    favicons::Favicons::export_all(&cfg)?;
    time_zones::TimeZones::export_all(&cfg)?;
    addons::Addons::export_all(&cfg)?;
    addons::AddonChanged::export_all(&cfg)?;
    domains::OneDomain::export_all(&cfg)?;
    domains::MaybeDomain::export_all(&cfg)?;
    exports::OneExport::export_all(&cfg)?;
    exports::Exports::export_all(&cfg)?;
    imports::OneImport::export_all(&cfg)?;
    imports::Imports::export_all(&cfg)?;
    fediverse::FediverseAnswer::export_all(&cfg)?;
    fediverse::Followers::export_all(&cfg)?;
    replies::Replies::export_all(&cfg)?;
    responses::CommentsAnswer::export_all(&cfg)?;
    responses::Responses::export_all(&cfg)?;
    responses::OneResponse::export_all(&cfg)?;
    responses::BulkDone::export_all(&cfg)?;
    responses::PostComments::export_all(&cfg)?;
    subscribers::EmailAnswer::export_all(&cfg)?;
    subscribers::Subscribers::export_all(&cfg)?;
    subscribers::ImportAnswer::export_all(&cfg)?;
    replies::OneReply::export_all(&cfg)?;
    admin::AdminBlogs::export_all(&cfg)?;
    admin::OneAdminBlog::export_all(&cfg)?;
    admin::AdminActions::export_all(&cfg)?;
    admin::AdminDone::export_all(&cfg)?;
    admin::AdminReports::export_all(&cfg)?;
    admin::OneReport::export_all(&cfg)?;
    crate::http::indieauth::ConsentJson::export_all(&cfg)?;
    crate::http::indieauth::Answered::export_all(&cfg)?;
    AppSettings::export_all(&cfg)?;
    Ok(())
}

/// The generated files by name, each with this project's header in place of ts-rs's.
fn generated_files() -> Vec<(String, String)> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    generate(dir.path()).expect("ts-rs writes the types");
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir.path())
        .expect("the generated files")
        .map(|entry| {
            let path = entry.expect("a generated file").path();
            let text = std::fs::read_to_string(&path).expect("a generated file");
            let body = text.split_once('\n').map_or("", |(_note, rest)| rest);
            let name = path.file_name().expect("a file name").to_string_lossy().into_owned();
            (name, format!("{}{body}", header()))
        })
        .collect();
    files.sort();
    files
}

fn header() -> String {
    format!(
        "// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.\n\
         // Regenerate with `{REGENERATE}`.\n"
    )
}

/// The object keys of generated TypeScript (comments left out): `shortId` of `{ shortId: string }`.
fn keys(text: &str) -> Vec<String> {
    let mut code = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        rest = rest[start..].find("*/").map_or("", |end| &rest[start + end + 2..]);
    }
    code.push_str(rest);
    let code: String = code.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    code.split(['{', ',', ';'])
        .filter_map(|piece| piece.split_once(':').map(|(key, _)| key.trim().trim_end_matches('?').trim_matches('"')))
        .filter(|key| !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_types_in_ui_src_api_types_match_the_answer_structs() {
        let generated = generated_files();
        let dir = committed_dir();
        if std::env::var_os("QUIRE_WRITE_API_TYPES").is_some() {
            std::fs::create_dir_all(&dir).expect("ui/src/api-types");
            for entry in std::fs::read_dir(&dir).expect("ui/src/api-types") {
                let path = entry.expect("a file").path();
                if path.extension().is_some_and(|ext| ext == "ts") {
                    std::fs::remove_file(&path).expect("an old generated file");
                }
            }
            for (name, text) in &generated {
                std::fs::write(dir.join(name), text).expect("a generated file");
            }
            return;
        }
        let mut committed: Vec<String> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                    .filter(|name| name.ends_with(".ts"))
                    .collect()
            })
            .unwrap_or_default();
        committed.sort();
        let names: Vec<String> = generated.iter().map(|(name, _)| name.clone()).collect();
        assert_eq!(
            committed, names,
            "ui/src/api-types/ holds other files than the answer structs make: run `{REGENERATE}`"
        );
        for (name, text) in &generated {
            let on_disk = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
            assert!(
                on_disk == *text,
                "ui/src/api-types/{name} differs from the answer structs it is generated from: run `{REGENERATE}`"
            );
        }
    }

    #[test]
    fn every_generated_key_is_camel_case_so_the_app_sees_the_types_as_generated() {
        for (name, text) in generated_files() {
            let snake: Vec<String> = keys(&text).into_iter().filter(|key| key.contains('_')).collect();
            assert!(
                snake.is_empty(),
                "ui/src/api-types/{name} has snake_case keys {snake:?}: the app would see them camelCased"
            );
        }
    }

    #[test]
    fn keys_are_read_around_comments() {
        let text = "export type A = { /** the `b_c`: d */ shortId: string, \"type\": \"not_managed\", x?: number };";
        assert_eq!(keys(text), ["shortId", "type", "x"]);
    }
}
