//! A blog's addons: the installed and uninstalled lists, install and uninstall.

use poem::handler;
use poem::web::{Data, Json, Path};
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::session::SignedIn;
use crate::db::addons;
use crate::error::{Error, Result};
use crate::http::api::blogs::owned_blog;

/// Addons installed on the blog.
#[handler]
pub async fn installed(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    list(&state, &signed_in, &blog_id, true).await
}

/// Addons the blog can install.
#[handler]
pub async fn uninstalled(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    list(&state, &signed_in, &blog_id, false).await
}

async fn list(state: &AppState, signed_in: &SignedIn, blog_id: &str, want_installed: bool) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(state, signed_in, blog_id).await?;
    let addons = state.db.read(move |conn| addons::list(conn, blog.id, want_installed)).await?;
    Ok(Json(json!({ "addons": addons })))
}

/// Installs an addon (again: no change).
#[handler]
pub async fn install(signed_in: SignedIn, state: Data<&AppState>, Path((blog_id, addon_id)): Path<(String, String)>) -> Result<Json<Value>> {
    change(&state, &signed_in, &blog_id, &addon_id, true).await
}

/// Uninstalls an addon (not installed: no change).
#[handler]
pub async fn uninstall(signed_in: SignedIn, state: Data<&AppState>, Path((blog_id, addon_id)): Path<(String, String)>) -> Result<Json<Value>> {
    change(&state, &signed_in, &blog_id, &addon_id, false).await
}

async fn change(state: &AppState, signed_in: &SignedIn, blog_id: &str, addon_id: &str, installing: bool) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(state, signed_in, blog_id).await?;
    let subdomain = blog.subdomain.clone();
    let not_found = || Error::not_found("addon", "Addon not found");
    let addon_id: i64 = addon_id.parse().map_err(|_| not_found())?;
    let addon = state
        .db
        .write(move |conn| {
            let addon = addons::get(conn, addon_id)?.ok_or_else(not_found)?;
            if installing {
                addons::install(conn, blog.id, addon.id)?;
            } else {
                addons::uninstall(conn, blog.id, addon.id)?;
            }
            Ok(addon)
        })
        .await?;
    state.public.cache.invalidate(&subdomain);
    Ok(Json(json!({ "addon": addon, "installed": installing })))
}
