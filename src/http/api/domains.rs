//! A blog's custom domain: see it, set it, remove it, check its DNS now (docs/api.md,
//! docs/custom-domains.md). Writes go through the write path ([`crate::blogs::Blogs`]).

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Response, handler};
use serde::Deserialize;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::db::blogs::Blog;
use crate::db::custom_domains::DomainRow;
use crate::domain::blog::custom_domain::{TXT_PREFIX, display_name};
use crate::domain::blog::domain_verification::DomainState;
use crate::domain::content::schedule::stored;
use crate::error::Result;
use crate::http::api::json::JsonBody;
use crate::http::session::SignedIn;
use crate::http::state::AppState;
use crate::tls::CertificateState;

/// `PUT .../domain`'s body.
#[derive(Deserialize)]
pub struct SetDomain {
    name: String,
}

/// The blog's custom domain, or `null`.
#[handler]
pub async fn show(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let row = state.blogs.domain(&blog).await?;
    Ok(Json(json!({ "domain": row.map(|row| domain_json(&state, &blog, &row)) })))
}

/// Sets the blog's custom domain (replacing an earlier one).
#[handler]
pub async fn set(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(body): JsonBody<SetDomain>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let row = state.blogs.set_domain(&blog, &body.name).await?;
    Ok(Json(json!({ "domain": domain_json(&state, &blog, &row) })))
}

/// Removes the blog's custom domain.
#[handler]
pub async fn remove(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Response> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.remove_domain(&blog).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Checks the blog's TXT record now.
#[handler]
pub async fn check(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let row = state.blogs.check_domain(&blog, &state.fetcher).await?;
    Ok(Json(json!({ "domain": domain_json(&state, &blog, &row) })))
}

/// `<domain>` of docs/api.md.
fn domain_json(state: &AppState, blog: &Blog, row: &DomainRow) -> Value {
    let app_name = state.blogs.served_names().app_name().to_owned();
    // Only a verified name is served, so only its certificate is worth showing.
    let managed = if row.state == DomainState::Verified { state.certificates.state(&row.name) } else { None };
    let certificate = match managed {
        None => json!({ "state": "not_managed" }),
        Some(CertificateState::Pending) => json!({ "state": "pending" }),
        Some(CertificateState::Issued { not_after }) => {
            json!({ "state": "issued", "notAfter": unix_time(not_after) })
        }
        Some(CertificateState::Failed { error, retry_at }) => {
            json!({ "state": "error", "error": error, "retryAt": unix_time(retry_at) })
        }
    };
    json!({
        "name": row.name,
        "displayName": display_name(&row.name),
        "state": row.state.as_str(),
        "error": row.error,
        "records": [
            { "type": "TXT", "name": row.domain().txt_name(), "value": format!("{TXT_PREFIX}{}", row.token) },
            { "type": "CNAME", "name": row.name, "value": format!("{}.{app_name}", blog.subdomain) },
        ],
        "checkedAt": row.checked_at,
        "verifiedAt": row.verified_at,
        "nextCheckAt": row.next_check_at,
        "certificate": certificate,
    })
}

/// Unix seconds in the stored (and API) form.
fn unix_time(seconds: i64) -> Option<String> {
    OffsetDateTime::from_unix_timestamp(seconds).ok().map(stored)
}
