//! Sign-in with a third-party OpenID issuer: discovery, RS256 tokens, JWKS caching and
//! refetching after a key rotation. The issuer is a real HTTP server started by the test.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use poem::web::{Data, Json};
use poem::{EndpointExt, IntoResponse, Response, Route, get, handler};
use rsa::pkcs1::EncodeRsaPrivateKey;
use rsa::traits::PublicKeyParts;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field};

struct IssuerState {
    url: String,
    issuer_claim: String,
    keys: Mutex<Vec<(String, EncodingKey, Value)>>,
    jwks_fetches: AtomicUsize,
    jwks_cache_control: Mutex<String>,
}

/// A minimal OpenID issuer signing RS256 tokens.
struct TestIssuer {
    state: Arc<IssuerState>,
}

fn rsa_key(kid: &str) -> (String, EncodingKey, Value) {
    let key = rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    let pem = key.to_pkcs1_pem(rsa::pkcs8::LineEnding::LF).unwrap();
    let jwk = json!({
        "kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
        "n": URL_SAFE_NO_PAD.encode(key.n().to_bytes_be()),
        "e": URL_SAFE_NO_PAD.encode(key.e().to_bytes_be()),
    });
    (kid.to_owned(), EncodingKey::from_rsa_pem(pem.as_bytes()).unwrap(), jwk)
}

#[handler]
fn discovery(state: Data<&Arc<IssuerState>>) -> Json<Value> {
    Json(json!({
        "issuer": state.issuer_claim,
        "authorization_endpoint": format!("{}/authorize", state.url),
        "jwks_uri": format!("{}/jwks", state.url),
    }))
}

#[handler]
fn jwks(state: Data<&Arc<IssuerState>>) -> Response {
    state.jwks_fetches.fetch_add(1, Ordering::SeqCst);
    let keys: Vec<Value> = state.keys.lock().unwrap().iter().map(|(_, _, jwk)| jwk.clone()).collect();
    let cache_control = state.jwks_cache_control.lock().unwrap().clone();
    Json(json!({ "keys": keys })).with_header("cache-control", cache_control).into_response()
}

impl TestIssuer {
    async fn start(issuer_claim_override: Option<&str>) -> TestIssuer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        let url = format!("http://127.0.0.1:{}", addr.port());
        let state = Arc::new(IssuerState {
            issuer_claim: issuer_claim_override.unwrap_or(&url).to_owned(),
            url,
            keys: Mutex::new(vec![rsa_key("key-1")]),
            jwks_fetches: AtomicUsize::new(0),
            jwks_cache_control: Mutex::new("public, max-age=3600".to_owned()),
        });
        let routes = Route::new()
            .at("/.well-known/openid-configuration", get(discovery))
            .at("/jwks", get(jwks))
            .data(state.clone());
        let acceptor = poem::listener::TcpAcceptor::from_std(listener).unwrap();
        tokio::spawn(poem::Server::new_with_acceptor(acceptor).run(routes));
        TestIssuer { state }
    }

    fn token(&self, kid: &str, nonce: &str, subject: &str) -> String {
        let keys = self.state.keys.lock().unwrap();
        let (_, key, _) = keys.iter().find(|(k, _, _)| k == kid).expect("known kid");
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
        let claims = json!({
            "iss": self.state.url, "aud": ["test-client", "another-client"], "sub": subject,
            "iat": now, "exp": now + 300, "nonce": nonce, "email": format!("{subject}@idp.example"),
        });
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, &claims, key).unwrap()
    }

    fn fetches(&self) -> usize {
        self.state.jwks_fetches.load(Ordering::SeqCst)
    }
}

async fn app_for(issuer: &TestIssuer) -> TestApp {
    let url = issuer.state.url.clone();
    TestApp::spawn_with(move |config| {
        config.oidc_issuer = url;
        config.oidc_client_id = Some("test-client".to_owned());
        config.provider_name = "TestID".to_owned();
    })
    .await
}

async fn sign_in(browser: &Browser, issuer: &TestIssuer, kid: &str, subject: &str) -> reqwest::Response {
    let (nonce, _) = browser.start_sign_in().await;
    let token = issuer.token(kid, &nonce, subject);
    browser.post("/api/sessions", json!({ "id_token": token, "signup": true })).await
}

#[tokio::test]
async fn a_third_party_issuer_is_found_by_discovery_and_its_rs256_tokens_sign_users_in() {
    let issuer = TestIssuer::start(None).await;
    let app = app_for(&issuer).await;
    let browser = app.new_browser();
    let (nonce, url) = browser.start_sign_in().await;
    assert!(url.starts_with(&format!("{}/authorize?", issuer.state.url)), "{url}");
    assert!(url.contains("client_id=test-client") && url.contains(&nonce));
    assert_eq!(app.get("/dev-idp/jwks").await.status(), 404, "no local issuer beside a real one");

    let token = issuer.token("key-1", &nonce, "person-1");
    let resp = browser.post("/api/sessions", json!({ "id_token": token, "signup": true })).await;
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["session"]["user"]["email"], "person-1@idp.example");
    let provider: String = app.db().query_row("SELECT provider FROM social_accounts", [], |r| r.get(0)).unwrap();
    assert_eq!(provider, "TestID");

    assert_eq!(sign_in(&app.new_browser(), &issuer, "key-1", "person-2").await.status(), 200);
    assert_eq!(issuer.fetches(), 1, "the JWKS is cached per its Cache-Control");
}

#[tokio::test]
async fn a_rotated_key_is_fetched_on_first_sight_but_made_up_kids_cannot_flood_the_issuer() {
    let issuer = TestIssuer::start(None).await;
    let app = app_for(&issuer).await;
    assert_eq!(sign_in(&app.new_browser(), &issuer, "key-1", "person-1").await.status(), 200);
    assert_eq!(issuer.fetches(), 1);

    issuer.state.keys.lock().unwrap().push(rsa_key("key-2"));
    assert_eq!(sign_in(&app.new_browser(), &issuer, "key-2", "person-2").await.status(), 200);
    assert_eq!(issuer.fetches(), 2, "an unknown kid refetched the key set");

    issuer.state.keys.lock().unwrap().push(rsa_key("key-3"));
    let browser = app.new_browser();
    for i in 0..8 {
        let (nonce, _) = browser.start_sign_in().await;
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(format!("made-up-{i}"));
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
        let claims = json!({ "iss": issuer.state.url, "aud": "test-client", "sub": "x", "iat": now, "exp": now + 60, "nonce": nonce });
        let token = jsonwebtoken::encode(&header, &claims, &issuer.state.keys.lock().unwrap()[2].1).unwrap();
        let resp = browser.post("/api/sessions", json!({ "id_token": token, "signup": true })).await;
        assert_eq!(resp.status(), 401);
    }
    assert!(issuer.fetches() <= 2 + 3, "at most a few refetches a minute: {}", issuer.fetches());
}

#[tokio::test]
async fn a_jwks_max_age_near_u64_max_is_capped_and_signs_in() {
    let issuer = TestIssuer::start(None).await;
    *issuer.state.jwks_cache_control.lock().unwrap() = "public, max-age=18446744073709551615".to_owned();
    let app = app_for(&issuer).await;
    assert_eq!(sign_in(&app.new_browser(), &issuer, "key-1", "person-1").await.status(), 200);
    assert_eq!(sign_in(&app.new_browser(), &issuer, "key-1", "person-2").await.status(), 200);
    assert_eq!(issuer.fetches(), 1, "the key set is still cached");
}

#[tokio::test]
async fn tokens_of_the_local_issuer_are_refused_when_a_real_provider_is_configured() {
    let issuer = TestIssuer::start(None).await;
    let app = app_for(&issuer).await;
    let local = TestApp::spawn().await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let foreign = local.new_browser().local_issuer_token("mallory@example.com", &nonce).await;
    let resp = browser.post("/api/sessions", json!({ "id_token": foreign, "signup": true })).await;
    assert_eq!(resp.status(), 401);
    assert_eq!(app.count("users"), 0);
}

#[tokio::test]
async fn an_issuer_whose_discovery_names_someone_else_is_not_trusted() {
    let issuer = TestIssuer::start(Some("https://accounts.evil.example")).await;
    let app = app_for(&issuer).await;
    let browser = app.new_browser();
    let resp = browser.post("/api/auth/nonce", json!({})).await;
    let (field, message) = error_field(resp, 502).await;
    assert_eq!(field, "signIn");
    assert!(message.contains("cannot be reached"), "{message}");
}
