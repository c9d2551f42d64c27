//! A blog's custom domain: see it, set it, remove it, check its DNS now (docs/api.md,
//! docs/custom-domains.md). Writes go through the write path ([`crate::blogs::Blogs`]).

use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{IntoResponse, Response, handler};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use ts_rs::TS;

use crate::db::blogs::Blog;
use crate::db::custom_domains::DomainRow;
use crate::domain::blog::custom_domain::{TXT_PREFIX, display_name};
use crate::domain::blog::domain_verification::DomainState;
use crate::domain::content::schedule::stored;
use crate::error::Result;
use crate::http::api::json::JsonBody;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;
use crate::tls::CertificateState;

/// `PUT .../domain`'s body.
#[derive(Deserialize)]
pub struct SetDomain {
    name: String,
}

/// The blog's custom domain, or `null`.
#[handler]
pub async fn show(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<MaybeDomain>> {
    let row = state.blogs.domain(&blog).await?;
    Ok(Json(MaybeDomain { domain: row.map(|row| domain_json(&state, &blog, &row)) }))
}

/// Sets the blog's custom domain (replacing an earlier one).
#[handler]
pub async fn set(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<SetDomain>>,
    state: Data<&AppState>,
) -> Result<Json<OneDomain>> {
    let row = state.blogs.set_domain(&blog, &body.name).await?;
    Ok(Json(OneDomain { domain: domain_json(&state, &blog, &row) }))
}

/// Removes the blog's custom domain.
#[handler]
pub async fn remove(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    state.blogs.remove_domain(&blog).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Checks the blog's TXT record now.
#[handler]
pub async fn check(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<OneDomain>> {
    let row = state.blogs.check_domain(&blog, &state.fetcher).await?;
    Ok(Json(OneDomain { domain: domain_json(&state, &blog, &row) }))
}

/// `{domain}`: the domain as it is after a change or a check.
#[derive(Serialize, TS)]
#[ts(export_to = "domains.ts")]
pub struct OneDomain {
    domain: DomainJson,
}

/// `{domain}`: the blog's custom domain, or null.
#[derive(Serialize, TS)]
#[ts(export_to = "domains.ts")]
pub struct MaybeDomain {
    domain: Option<DomainJson>,
}

/// `<domain>` of docs/api.md.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "domains.ts", rename = "Domain")]
pub struct DomainJson {
    /// The A-label form, for DNS.
    name: String,
    /// The Unicode form, for people.
    display_name: String,
    /// `waiting_for_dns`, `verified` or `error`.
    #[ts(type = r#""waiting_for_dns" | "verified" | "error""#)]
    state: &'static str,
    error: Option<String>,
    /// The records to add at the DNS provider: the TXT proof, then the CNAME.
    records: [DnsRecord; 2],
    checked_at: Option<String>,
    verified_at: Option<String>,
    next_check_at: Option<String>,
    certificate: Certificate,
}

/// A DNS record's type.
#[derive(Serialize, TS)]
#[serde(rename_all = "UPPERCASE")]
#[ts(export_to = "domains.ts")]
pub enum DnsRecordType {
    /// The proof of control, at `_quire.{name}`.
    Txt,
    /// The name pointed at the blog's subdomain.
    Cname,
}

/// A DNS record the owner adds.
#[derive(Serialize, TS)]
#[ts(export_to = "domains.ts")]
pub struct DnsRecord {
    #[serde(rename = "type")]
    kind: DnsRecordType,
    name: String,
    value: String,
}

/// The HTTPS certificate of a verified domain, when Quire manages it.
#[derive(Serialize, TS)]
#[serde(tag = "state", rename_all = "snake_case")]
#[ts(export_to = "domains.ts")]
pub enum Certificate {
    /// Not a verified domain, or HTTPS is not served by Quire.
    NotManaged,
    /// Being issued.
    Pending,
    /// Issued, valid until `notAfter`.
    Issued {
        #[serde(rename = "notAfter")]
        not_after: Option<String>,
    },
    /// The last attempt failed; the next starts at `retryAt`.
    Error {
        error: String,
        #[serde(rename = "retryAt")]
        retry_at: Option<String>,
    },
}

fn domain_json(state: &AppState, blog: &Blog, row: &DomainRow) -> DomainJson {
    let app_name = state.blogs.served_names().app_name().to_owned();
    // Only a verified name is served, so only its certificate is worth showing.
    let managed = if row.state == DomainState::Verified { state.certificates.state(&row.name) } else { None };
    let certificate = match managed {
        None => Certificate::NotManaged,
        Some(CertificateState::Pending) => Certificate::Pending,
        Some(CertificateState::Issued { not_after }) => Certificate::Issued { not_after: unix_time(not_after) },
        Some(CertificateState::Failed { error, retry_at }) => {
            Certificate::Error { error, retry_at: unix_time(retry_at) }
        }
    };
    DomainJson {
        name: row.name.clone(),
        display_name: display_name(&row.name),
        state: row.state.as_str(),
        error: row.error.clone(),
        records: [
            DnsRecord {
                kind: DnsRecordType::Txt,
                name: row.domain().txt_name(),
                value: format!("{TXT_PREFIX}{}", row.token),
            },
            DnsRecord {
                kind: DnsRecordType::Cname,
                name: row.name.clone(),
                value: format!("{}.{app_name}", blog.subdomain),
            },
        ],
        checked_at: row.checked_at.clone(),
        verified_at: row.verified_at.clone(),
        next_check_at: row.next_check_at.clone(),
        certificate,
    }
}

/// Unix seconds in the stored (and API) form.
fn unix_time(seconds: i64) -> Option<String> {
    OffsetDateTime::from_unix_timestamp(seconds).ok().map(stored)
}
