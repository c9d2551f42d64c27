//! IndieAuth (issue 37, docs/api.md "IndieAuth"): an app signs in to a blog, whose address is
//! the owner's profile URL, and gets an API token (`blogs/api_tokens.rs`) for Micropub. The
//! authorization request travels in the consent screen's address, checked here each time
//! ([`Blogs::check_app_request`]); nothing is stored until the signed-in owner approves, which
//! stores a code ([`Blogs::approve_app`]); the app redeems it once, with its PKCE verifier, at the
//! token endpoint ([`Blogs::redeem_code`]). A code presented twice revokes what it gave.

use url::Url;

use super::Blogs;
use crate::auth::token_hash;
use crate::db::api_tokens::{self, NewToken};
use crate::db::blogs::{self, Blog};
use crate::db::indieauth::{self, NewCode, Redemption};
use crate::domain::access::{self, Scope, Scopes};
use crate::domain::blog::trust_state::TrustState;
use crate::domain::federation::webmention::{page_title, rel_links};
use crate::domain::indieauth::{self as rules, MAX_STATE_CHARS};
use crate::error::{Error, Result};
use crate::fetch::{Fetcher, Request};

/// The query of an authorization request, as the app sent it.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct AuthParams {
    /// `code` (or `id`, the older profile-only form).
    pub response_type: Option<String>,
    /// The app's URL.
    pub client_id: Option<String>,
    /// Where to send the answer.
    pub redirect_uri: Option<String>,
    /// The app's value, sent back as it is.
    pub state: Option<String>,
    /// PKCE's challenge.
    pub code_challenge: Option<String>,
    /// PKCE's method: only `S256`.
    pub code_challenge_method: Option<String>,
    /// The scopes asked for, space-separated.
    pub scope: Option<String>,
    /// The profile URL the person typed into the app (a hint).
    pub me: Option<String>,
}

/// Why a request is refused. `Unsafe` ones cannot be sent back to the app (its redirect URI is
/// not known to be its own); the others go back to it as OAuth errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthRefusal {
    /// Shown to the person, never redirected.
    Unsafe(String),
    /// Sent back to the app: its redirect URI with `error=invalid_request`, the description, its
    /// state and the issuer.
    Invalid(Url),
}

/// A request that passed every check: what the consent screen shows and the approval stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppRequest {
    /// The app's URL.
    pub client_id: Url,
    /// Its name: its metadata's `client_name`, its page's title, or its host.
    pub client_name: String,
    /// Where the answer goes.
    pub redirect_uri: Url,
    /// The app's state.
    pub state: String,
    /// PKCE's S256 challenge.
    pub code_challenge: String,
    /// The scopes asked for that Quire grants.
    pub scopes: Vec<Scope>,
}

/// What redeeming a code gives.
pub enum Redeemed {
    /// A token for Micropub, with its scopes, for the profile URL.
    Token { token: String, scopes: Scopes, me: String },
    /// Only who signed in (no scope was granted).
    Profile { me: String },
}

/// An OAuth error of the token endpoint: `invalid_grant` (a bad, used or expired code, a
/// verifier that does not match) or `invalid_request`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantRefusal {
    /// OAuth's error code.
    pub error: &'static str,
    /// What went wrong.
    pub description: String,
}

fn grant_refusal(error: &'static str, description: impl Into<String>) -> GrantRefusal {
    GrantRefusal { error, description: description.into() }
}

/// The largest client page read for its name and redirect URIs.
const MAX_CLIENT_PAGE: usize = 512 * 1024;

impl Blogs {
    /// Checks an authorization request: the client id and redirect URI (on the client's origin,
    /// or published by the client at its URL, read through the guarded fetcher), PKCE with S256,
    /// the state's length; reads the app's name.
    pub async fn check_app_request(
        &self,
        params: &AuthParams,
        fetcher: &Fetcher,
    ) -> std::result::Result<AppRequest, AuthRefusal> {
        let unsafe_refusal = |message: String| AuthRefusal::Unsafe(message);
        let client_id = rules::client_id(params.client_id.as_deref().unwrap_or_default()).map_err(unsafe_refusal)?;
        let redirect_uri =
            rules::redirect_uri(params.redirect_uri.as_deref().unwrap_or_default()).map_err(unsafe_refusal)?;
        let client = read_client(fetcher, &client_id).await;
        if !rules::same_origin(&redirect_uri, &client_id) && !client.redirect_uris.contains(&redirect_uri) {
            return Err(AuthRefusal::Unsafe(format!(
                "The app's redirect_uri {redirect_uri} is not on {client_id}'s host, and the app does not publish it"
            )));
        }
        let state = params.state.clone().unwrap_or_default();
        let invalid = |description: &str| {
            let state: String = state.chars().take(MAX_STATE_CHARS).collect();
            let pairs = [("error", "invalid_request"), ("error_description", description)];
            AuthRefusal::Invalid(self.answer(&redirect_uri, &state, &pairs))
        };
        if state.chars().count() > MAX_STATE_CHARS {
            return Err(invalid("state is too long"));
        }
        match params.response_type.as_deref() {
            Some("code") | Some("id") | None => {}
            Some(_) => return Err(invalid("response_type must be code")),
        }
        let code_challenge = params.code_challenge.clone().unwrap_or_default();
        if params.code_challenge_method.as_deref() != Some("S256") || !rules::is_challenge(&code_challenge) {
            return Err(invalid("PKCE is required: send code_challenge with code_challenge_method=S256"));
        }
        let (scopes, _profile) = rules::asked_scopes(params.scope.as_deref().unwrap_or_default());
        Ok(AppRequest { client_id, client_name: client.name, redirect_uri, state, code_challenge, scopes })
    }

    /// The owner approves `request` for `blog` with the scopes `granted` (those asked for, or
    /// fewer): a code is stored; answers the URL the owner's browser goes to, the app's redirect
    /// URI with the code, the state and the issuer.
    pub async fn approve_app(&self, blog: &Blog, request: &AppRequest, granted: &[Scope]) -> Result<Url> {
        if let Some(extra) = granted.iter().find(|scope| !request.scopes.contains(scope)) {
            return Err(Error::invalid("scopes", format!("The app did not ask for {extra}")));
        }
        let scopes = granted.iter().map(|scope| scope.name()).collect::<Vec<_>>().join(" ");
        let code = rules::new_secret();
        let hash = token_hash(&code);
        let (blog_id, request_copy) = (blog.id, request.clone());
        let gives_token = !granted.is_empty();
        self.db
            .write(move |conn| {
                // Said here, where the owner can act on it, rather than to the app at redemption.
                if gives_token && api_tokens::count(conn, blog_id)? >= access::MAX_TOKENS_PER_BLOG {
                    return Err(Error::invalid("scopes", too_many_tokens()));
                }
                let new = NewCode {
                    hash: &hash,
                    blog_id,
                    client_id: request_copy.client_id.as_str(),
                    client_name: &request_copy.client_name,
                    redirect_uri: request_copy.redirect_uri.as_str(),
                    code_challenge: &request_copy.code_challenge,
                    scopes: &scopes,
                };
                indieauth::insert(conn, &new).map(|_| ())
            })
            .await?;
        Ok(self.answer_url(request, &[("code", &code)]))
    }

    /// The owner refuses: the app's redirect URI with `error=access_denied`.
    pub fn refuse_app(&self, request: &AppRequest) -> Url {
        self.answer_url(request, &[("error", "access_denied")])
    }

    /// `request`'s redirect URI with `pairs`, the state and the issuer added to its query.
    fn answer_url(&self, request: &AppRequest, pairs: &[(&str, &str)]) -> Url {
        self.answer(&request.redirect_uri, &request.state, pairs)
    }

    /// `redirect` with `pairs`, `state` (unless empty) and the issuer added to its query.
    fn answer(&self, redirect: &Url, state: &str, pairs: &[(&str, &str)]) -> Url {
        let mut url = redirect.clone();
        let issuer = self.indieauth_issuer();
        {
            let mut query = url.query_pairs_mut();
            for (key, value) in pairs {
                query.append_pair(key, value);
            }
            if !state.is_empty() {
                query.append_pair("state", state);
            }
            query.append_pair("iss", &issuer);
        }
        url
    }

    /// The issuer IndieAuth names: the app's URL with a slash.
    pub fn indieauth_issuer(&self) -> String {
        format!("{}/", self.urls.app_url())
    }

    /// The profile URL of `blog`: its address with a slash.
    pub fn profile_url(&self, blog: &Blog) -> String {
        format!("{}/", self.urls.blog_origin(&blog.address()))
    }

    /// Redeems a code: the same client and redirect URI as approved, the PKCE verifier of its
    /// challenge, within 10 minutes, once. With scopes granted, an API token for the blog
    /// (listed in its Settings under the app's name); without, only the profile URL.
    pub async fn redeem_code(
        &self,
        code: &str,
        client_id: &str,
        redirect_uri: &str,
        verifier: &str,
        issue_token: bool,
    ) -> Result<std::result::Result<Redeemed, GrantRefusal>> {
        if !rules::is_secret(code) {
            return Ok(Err(grant_refusal("invalid_grant", "The code is not valid")));
        }
        let hash = token_hash(code);
        let (client_id, redirect_uri, verifier) = (client_id.to_owned(), redirect_uri.to_owned(), verifier.to_owned());
        let token = access::new_token();
        let (token_hash_, last4) = (token_hash(&token), access::last4(&token));
        let outcome = self
            .db
            .write(move |conn| {
                let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                let code = match indieauth::redeem(&tx, &hash)? {
                    Redemption::Fresh(code) => code,
                    Redemption::Reused => {
                        tx.commit()?;
                        return Ok(Err(grant_refusal(
                            "invalid_grant",
                            "The code was used already: the tokens it gave are revoked",
                        )));
                    }
                    Redemption::Unknown => {
                        return Ok(Err(grant_refusal("invalid_grant", "The code is unknown or expired")));
                    }
                };
                // The code is spent whatever follows: a wrong verifier cannot be tried again.
                let refusal = if code.client_id != client_id {
                    Some("client_id is not the one the code was given to")
                } else if code.redirect_uri != redirect_uri {
                    Some("redirect_uri is not the one the code was sent to")
                } else if !rules::s256_matches(&verifier, &code.code_challenge) {
                    Some("The code_verifier does not match the code_challenge")
                } else {
                    None
                };
                if let Some(description) = refusal {
                    tx.commit()?;
                    return Ok(Err(grant_refusal("invalid_grant", description)));
                }
                let Some(blog) = blogs::by_id(&tx, code.blog_id)?.filter(|b| b.state != TrustState::Suspended) else {
                    tx.commit()?;
                    return Ok(Err(grant_refusal("invalid_grant", "The blog is gone or suspended")));
                };
                let scopes = Scopes::from_stored(&code.scopes);
                let issued = if issue_token && !scopes.names().is_empty() {
                    // Counted again by the one writer: tokens may have been made since the approval.
                    if api_tokens::count(&tx, blog.id)? >= access::MAX_TOKENS_PER_BLOG {
                        tx.commit()?;
                        return Ok(Err(grant_refusal("invalid_grant", too_many_tokens())));
                    }
                    let new = NewToken {
                        blog_id: blog.id,
                        name: &code.client_name,
                        scopes: &scopes,
                        hash: &token_hash_,
                        last4: &last4,
                        client_id: Some(&code.client_id),
                        expires_at: None,
                        code_id: Some(code.id),
                    };
                    api_tokens::insert(&tx, &new)?;
                    Some(scopes)
                } else {
                    None
                };
                tx.commit()?;
                Ok(Ok((blog, issued)))
            })
            .await?;
        Ok(outcome.map(|(blog, issued)| {
            let me = self.profile_url(&blog);
            match issued {
                Some(scopes) => Redeemed::Token { token, scopes, me },
                None => Redeemed::Profile { me },
            }
        }))
    }
}

/// Why a blog holding as many tokens as it may gets no other.
fn too_many_tokens() -> String {
    format!("A blog can have at most {} tokens: revoke one in Settings → API tokens first", access::MAX_TOKENS_PER_BLOG)
}

/// What a client's URL says of it.
struct Client {
    name: String,
    redirect_uris: Vec<Url>,
}

/// Reads the app's page at its client id through the guarded fetcher: a client metadata
/// document (JSON: `client_name`, `redirect_uris`) or an HTML page (`<title>`,
/// `rel="redirect_uri"` links and headers). An app whose page cannot be read is named by its
/// host and publishes no redirect URI.
async fn read_client(fetcher: &Fetcher, client_id: &Url) -> Client {
    let fallback = || Client { name: client_id.host_str().unwrap_or_default().to_owned(), redirect_uris: Vec::new() };
    let request =
        Request::get(client_id.as_str()).accept(&["application/json", "text/html"]).max_bytes(MAX_CLIENT_PAGE);
    let Ok(response) = fetcher.request(request).await else { return fallback() };
    let body = String::from_utf8_lossy(&response.body).into_owned();
    let is_json = response.content_type.as_deref().is_some_and(|t| t.contains("json"));
    let mut client = fallback();
    if is_json {
        let Ok(document) = serde_json::from_str::<serde_json::Value>(&body) else { return client };
        // A metadata document names the client it describes; another's is not believed.
        if document.get("client_id").and_then(|v| v.as_str()) != Some(client_id.as_str()) {
            return client;
        }
        if let Some(name) =
            document.get("client_name").and_then(|v| v.as_str()).map(clean_name).filter(|n| !n.is_empty())
        {
            client.name = name;
        }
        client.redirect_uris = document
            .get("redirect_uris")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str())
            .filter_map(|raw| rules::redirect_uri(raw).ok())
            .collect();
    } else {
        let headers: Vec<&str> =
            response.headers.get_all(http::header::LINK).iter().filter_map(|value| value.to_str().ok()).collect();
        client.redirect_uris = rel_links(client_id, &headers, &body, "redirect_uri");
        let title = clean_name(&page_title(&body));
        if !title.is_empty() {
            client.name = title;
        }
    }
    client
}

/// An app's name as shown: one line, at most 100 characters.
fn clean_name(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(access::MAX_NAME_CHARS).collect()
}
