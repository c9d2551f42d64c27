//! A blog's addons: the installed and uninstalled lists, install and uninstall (through the
//! write path).

use poem::handler;
use poem::web::{Data, Json, Path};
use serde::Serialize;
use ts_rs::TS;

use crate::db::addons::{self, Addon};
use crate::error::Result;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// `{addons}`: the installed or the uninstalled ones.
#[derive(Serialize, TS)]
#[ts(export_to = "addons.ts")]
pub struct Addons {
    addons: Vec<Addon>,
}

/// `{addon, installed}`: an addon after it was installed or uninstalled.
#[derive(Serialize, TS)]
#[ts(export_to = "addons.ts")]
pub struct AddonChanged {
    addon: Addon,
    installed: bool,
}

/// Addons installed on the blog.
#[handler]
pub async fn installed(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<Addons>> {
    list(&state, blog.id, true).await
}

/// Addons the blog can install.
#[handler]
pub async fn uninstalled(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<Addons>> {
    list(&state, blog.id, false).await
}

async fn list(state: &AppState, blog_id: i64, want_installed: bool) -> Result<Json<Addons>> {
    let addons = state.db.read(move |conn| addons::list(conn, blog_id, want_installed)).await?;
    Ok(Json(Addons { addons }))
}

/// Installs an addon (again: no change).
#[handler]
pub async fn install(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, addon_id)): Path<(String, String)>,
) -> Result<Json<AddonChanged>> {
    let addon = state.blogs.set_addon(&blog, &addon_id, true).await?;
    Ok(Json(AddonChanged { addon, installed: true }))
}

/// Uninstalls an addon (not installed: no change).
#[handler]
pub async fn uninstall(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, addon_id)): Path<(String, String)>,
) -> Result<Json<AddonChanged>> {
    let addon = state.blogs.set_addon(&blog, &addon_id, false).await?;
    Ok(Json(AddonChanged { addon, installed: false }))
}
