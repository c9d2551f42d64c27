//! The ACME protocol side: the account (loaded or created per directory URL), one HTTP-01 order
//! per name, and the HTTP client instant-acme sends its requests through.
//!
//! That client is reqwest (already Quire's) with the admin's CA root added when given. It goes
//! to the CA the admin chose, like `auth`'s OIDC discovery, so it is not `fetch::Fetcher`: no
//! proxy, https only, 10 s to connect and 30 s per request. It sees every answer, so a 429 or
//! 503 sets a CA-wide pause until its `Retry-After` (which instant-acme's `Problem` does not
//! carry), and it counts the requests it sends (tests read the count).

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use anyhow::{Context, anyhow, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use instant_acme::{
    Account, AccountCredentials, AuthorizationStatus, BodyWrapper, BytesResponse, ChallengeType, HttpClient,
    Identifier, NewAccount, NewOrder, OrderStatus, RetryPolicy,
};

use super::store::{create_private_dir, write_private};

/// The longest and shortest CA-wide pause a `Retry-After` can set, and the pause without one.
const MAX_CA_PAUSE: Duration = Duration::from_secs(7 * 86400);
const MIN_CA_PAUSE: Duration = Duration::from_secs(60);
const DEFAULT_CA_PAUSE: Duration = Duration::from_secs(3600);

/// HTTP-01 tokens being validated: token -> key authorization. Read by the port-80 endpoint.
#[derive(Debug, Default)]
pub struct Challenges(Mutex<HashMap<String, String>>);

impl Challenges {
    /// The key authorization to answer for `token`.
    pub fn get(&self, token: &str) -> Option<String> {
        self.0.lock().expect("challenges lock").get(token).cloned()
    }

    fn insert(&self, token: &str, key_authorization: String) {
        self.0.lock().expect("challenges lock").insert(token.to_owned(), key_authorization);
    }

    fn remove(&self, token: &str) {
        self.0.lock().expect("challenges lock").remove(token);
    }
}

tokio::task_local! {
    /// The name whose order the current task runs, so a 429 can be told to name its domain.
    pub static ORDERING: String;
}

/// What the CA has told us about talking to it: a pause it asked for (of every new order, or of
/// one registered domain's), and how many requests we sent.
#[derive(Debug, Default)]
pub struct CaState {
    paused: Mutex<Option<(SystemTime, String)>>,
    paused_domains: Mutex<HashMap<String, SystemTime>>,
    /// Requests sent to the CA, for tests and the log.
    pub requests: AtomicU64,
}

impl CaState {
    /// The end of the pause of every order, while it lasts.
    pub fn paused_until(&self) -> Option<SystemTime> {
        self.pause_reason().map(|(until, _)| until)
    }

    /// The end of the pause and why, for people.
    pub fn pause_reason(&self) -> Option<(SystemTime, String)> {
        self.paused.lock().expect("pause lock").clone().filter(|(until, _)| SystemTime::now() < *until)
    }

    /// The pause a 429 naming `registered_domain` asked for, taken (the manager stores it).
    pub fn take_domain_pause(&self, registered_domain: &str) -> Option<SystemTime> {
        self.paused_domains.lock().expect("pause lock").remove(registered_domain)
    }

    fn pause_domain(&self, registered_domain: String, for_: Duration) {
        let until = SystemTime::now() + for_;
        let mut paused = self.paused_domains.lock().expect("pause lock");
        let entry = paused.entry(registered_domain).or_insert(until);
        *entry = (*entry).max(until);
    }

    fn pause(&self, for_: Duration, why: String) {
        let until = SystemTime::now() + for_;
        let mut paused = self.paused.lock().expect("pause lock");
        if paused.as_ref().is_none_or(|(current, _)| *current < until) {
            *paused = Some((until, why));
        }
    }
}

/// The pause of every order after the CA could not be reached at all (down, a network
/// problem): short, but it keeps a server with many names from trying each one in turn.
const UNREACHABLE_PAUSE: Duration = Duration::from_secs(60);

/// The pause a 429/503 with this `Retry-After` (seconds, or an HTTP date) sets.
pub fn pause_for(retry_after: Option<&str>, now: SystemTime) -> Duration {
    let asked = retry_after.and_then(|value| {
        let value = value.trim();
        match value.parse::<u64>() {
            Ok(secs) => Some(Duration::from_secs(secs)),
            Err(_) => httpdate_parse(value).map(|at| at.duration_since(now).unwrap_or_default()),
        }
    });
    asked.unwrap_or(DEFAULT_CA_PAUSE).clamp(MIN_CA_PAUSE, MAX_CA_PAUSE)
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form `Retry-After` dates take.
fn httpdate_parse(value: &str) -> Option<SystemTime> {
    let format = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    let parsed = time::PrimitiveDateTime::parse(value, &format).ok()?.assume_utc();
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(parsed.unix_timestamp()).ok()?))
}

/// Where and as whom to order certificates.
#[derive(Debug, Clone)]
pub struct AcmeSettings {
    /// The CA's directory URL (https).
    pub directory: String,
    /// A root to trust for the directory's own HTTPS (a private CA, pebble in tests).
    pub ca_root: Option<PathBuf>,
    /// The account's contact address.
    pub email: String,
    /// `acme/account.json` of the data directory.
    pub account_file: PathBuf,
}

/// The reqwest client for the CA.
pub fn ca_http_client(ca_root: Option<&Path>) -> anyhow::Result<reqwest::Client> {
    let mut http = reqwest::Client::builder()
        .https_only(true)
        .no_proxy()
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(30))
        .user_agent(concat!("Quire/", env!("CARGO_PKG_VERSION")));
    if let Some(root) = ca_root {
        let pem = std::fs::read(root).with_context(|| format!("reading --acme-ca-root {}", root.display()))?;
        let cert = reqwest::Certificate::from_pem(&pem)
            .with_context(|| format!("--acme-ca-root {} is not a PEM certificate", root.display()))?;
        http = http.add_root_certificate(cert);
    }
    Ok(http.build()?)
}

/// The account for `settings.directory`: the stored one when it was made for that directory,
/// else a new one (stored 0600, replacing one for another directory, say after staging).
pub async fn load_or_create_account(
    settings: &AcmeSettings,
    http: &reqwest::Client,
    ca: &Arc<CaState>,
) -> anyhow::Result<Account> {
    let builder = || Account::builder_with_http(Box::new(CaClient { client: http.clone(), ca: ca.clone() }));
    if let Ok(bytes) = std::fs::read(&settings.account_file) {
        let saved: serde_json::Value = serde_json::from_slice(&bytes).context("reading acme/account.json")?;
        if saved["directory"] == settings.directory.as_str() {
            let credentials: AccountCredentials =
                serde_json::from_value(saved["credentials"].clone()).context("reading acme/account.json")?;
            return Ok(builder().from_credentials(credentials).await?);
        }
        tracing::info!(directory = settings.directory, "the stored ACME account is for another CA; creating a new one");
    }
    let contact = format!("mailto:{}", settings.email);
    let new = NewAccount { contact: &[&contact], terms_of_service_agreed: true, only_return_existing: false };
    let (account, credentials) = builder().create(&new, settings.directory.clone(), None).await?;
    let saved = serde_json::json!({ "directory": settings.directory, "credentials": credentials });
    if let Some(folder) = settings.account_file.parent() {
        create_private_dir(folder)?;
    }
    write_private(&settings.account_file, serde_json::to_string_pretty(&saved)?.as_bytes())?;
    tracing::info!(id = account.id(), directory = settings.directory, "ACME account created");
    Ok(account)
}

/// Orders a certificate for `name` over HTTP-01; returns the chain and the key (PEM).
pub async fn order(account: &Account, name: &str, challenges: &Challenges) -> anyhow::Result<(String, String)> {
    let identifiers = [Identifier::Dns(name.to_owned())];
    let mut order = account.new_order(&NewOrder::new(&identifiers)).await?;
    let mut tokens = Vec::new();
    let result = async {
        let mut authorizations = order.authorizations();
        while let Some(authz) = authorizations.next().await {
            let mut authz = authz?;
            match authz.status {
                AuthorizationStatus::Pending => {}
                AuthorizationStatus::Valid => continue,
                status => bail!("the authorization is {status:?}"),
            }
            let mut challenge =
                authz.challenge(ChallengeType::Http01).ok_or_else(|| anyhow!("the CA offers no http-01 challenge"))?;
            let token = challenge.token.clone();
            challenges.insert(&token, challenge.key_authorization().as_str().to_owned());
            tokens.push(token);
            challenge.set_ready().await?;
        }
        let policy = RetryPolicy::new().initial_delay(Duration::from_millis(250)).timeout(Duration::from_secs(90));
        let status = order.poll_ready(&policy).await?;
        if status != OrderStatus::Ready {
            let detail = order.state().error.as_ref().map(|p| p.to_string()).unwrap_or_default();
            bail!("the order is {status:?}: {detail}");
        }
        let key_pem = order.finalize().await?;
        let chain_pem = order.poll_certificate(&policy).await?;
        Ok((chain_pem, key_pem))
    }
    .await;
    for token in &tokens {
        challenges.remove(token);
    }
    result
}

/// instant-acme's HTTP client through reqwest, noting the CA's pauses and counting requests.
struct CaClient {
    client: reqwest::Client,
    ca: Arc<CaState>,
}

impl HttpClient for CaClient {
    fn request(
        &self,
        req: http::Request<BodyWrapper<Bytes>>,
    ) -> Pin<Box<dyn Future<Output = Result<BytesResponse, instant_acme::Error>> + Send>> {
        let client = self.client.clone();
        let ca = self.ca.clone();
        Box::pin(async move {
            let other = |e: Box<dyn std::error::Error + Send + Sync>| instant_acme::Error::Other(e);
            let (parts, body) = req.into_parts();
            let body = body.collect().await.map_err(|e| other(Box::new(e)))?.to_bytes();
            let req =
                reqwest::Request::try_from(http::Request::from_parts(parts, body)).map_err(|e| other(Box::new(e)))?;
            ca.requests.fetch_add(1, Ordering::Relaxed);
            let rsp = match client.execute(req).await {
                Ok(rsp) => rsp,
                Err(e) => {
                    let why = format!("The certificate authority could not be reached: {e}");
                    tracing::warn!(error = %e, pause_s = UNREACHABLE_PAUSE.as_secs(), "the certificate authority could not be reached");
                    ca.pause(UNREACHABLE_PAUSE, why);
                    return Err(other(Box::new(e)));
                }
            };
            let status = rsp.status();
            let (version, headers) = (rsp.version(), rsp.headers().clone());
            let bytes = rsp.bytes().await.map_err(|e| other(Box::new(e)))?;
            if status == http::StatusCode::TOO_MANY_REQUESTS || status == http::StatusCode::SERVICE_UNAVAILABLE {
                let retry_after = headers.get(http::header::RETRY_AFTER).and_then(|v| v.to_str().ok());
                let pause = pause_for(retry_after, SystemTime::now());
                // A rate limit whose problem names the domain being ordered (Let's Encrypt's
                // certificates per registered domain, duplicate certificates, failed
                // validations) holds back that registered domain only.
                let named =
                    ORDERING.try_with(|name| super::new_orders::registered_domain(name)).ok().filter(|domain| {
                        status == http::StatusCode::TOO_MANY_REQUESTS
                            && String::from_utf8_lossy(&bytes).to_ascii_lowercase().contains(domain.as_str())
                    });
                tracing::warn!(%status, pause_s = pause.as_secs(), domain = ?named, "the certificate authority asks us to wait");
                match named {
                    Some(domain) => ca.pause_domain(domain, pause),
                    None => ca.pause(
                        pause,
                        format!("The certificate authority asked Quire to wait (HTTP {})", status.as_u16()),
                    ),
                }
            }
            let mut builder = http::Response::builder().status(status).version(version);
            for (name, value) in &headers {
                builder = builder.header(name, value);
            }
            let rsp = builder.body(Full::new(bytes)).map_err(|e| other(Box::new(e)))?;
            Ok(BytesResponse::from(rsp))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cas_pause_follows_retry_after_within_bounds() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784111777);
        assert_eq!(pause_for(Some("120"), now), Duration::from_secs(120));
        assert_eq!(pause_for(Some("1"), now), MIN_CA_PAUSE);
        assert_eq!(pause_for(Some("99999999"), now), MAX_CA_PAUSE);
        assert_eq!(pause_for(None, now), DEFAULT_CA_PAUSE);
        assert_eq!(pause_for(Some("soon"), now), DEFAULT_CA_PAUSE);
        // 784111777 is Sun, 06 Nov 1994 08:49:37 GMT.
        assert_eq!(pause_for(Some("Sun, 06 Nov 1994 08:59:37 GMT"), now), Duration::from_secs(600));
        assert_eq!(pause_for(Some("Sun, 06 Nov 1994 08:00:00 GMT"), now), MIN_CA_PAUSE, "a date past");
    }
}
