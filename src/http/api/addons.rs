//! A blog's addons: the installed and uninstalled lists, install and uninstall (through the
//! write path).

use poem::handler;
use poem::web::{Data, Json, Path};
use serde_json::{Value, json};

use crate::db::addons;
use crate::error::Result;
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// Addons installed on the blog.
#[handler]
pub async fn installed(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
) -> Result<Json<Value>> {
    list(&state, &signed_in, &blog_id, true).await
}

/// Addons the blog can install.
#[handler]
pub async fn uninstalled(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
) -> Result<Json<Value>> {
    list(&state, &signed_in, &blog_id, false).await
}

async fn list(state: &AppState, signed_in: &SignedIn, blog_id: &str, want_installed: bool) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, blog_id).await?;
    let addons = state.db.read(move |conn| addons::list(conn, blog.id, want_installed)).await?;
    Ok(Json(json!({ "addons": addons })))
}

/// Installs an addon (again: no change).
#[handler]
pub async fn install(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, addon_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    change(&state, &signed_in, &blog_id, &addon_id, true).await
}

/// Uninstalls an addon (not installed: no change).
#[handler]
pub async fn uninstall(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, addon_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    change(&state, &signed_in, &blog_id, &addon_id, false).await
}

async fn change(
    state: &AppState,
    signed_in: &SignedIn,
    blog_id: &str,
    addon_id: &str,
    installing: bool,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, blog_id).await?;
    let addon = state.blogs.set_addon(&blog, addon_id, installing).await?;
    Ok(Json(json!({ "addon": addon, "installed": installing })))
}
