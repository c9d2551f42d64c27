//! Sign-in through the local issuer, and every token attack refused.

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field};

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

/// Signs tokens with the local issuer's own key, read from the data directory.
struct Forger {
    key: EncodingKey,
    kid: String,
    issuer: String,
}

impl Forger {
    async fn of(app: &TestApp) -> Forger {
        let pem = std::fs::read(app.dir.path().join("dev-idp-key.pem")).unwrap();
        let jwks: Value = app.get("/dev-idp/jwks").await.json().await.unwrap();
        Forger {
            key: EncodingKey::from_ec_pem(&pem).unwrap(),
            kid: jwks["keys"][0]["kid"].as_str().unwrap().to_owned(),
            issuer: format!("{}/dev-idp", app.url),
        }
    }

    fn claims(&self, nonce: &str) -> Value {
        json!({
            "iss": self.issuer, "sub": "forged-subject", "aud": "quire-local",
            "iat": now(), "exp": now() + 300, "nonce": nonce,
            "email": "mallory@example.com", "name": "Mallory",
        })
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.key).unwrap()
    }
}

/// Posts `token` for a sign-up and checks it is refused with 401 and changes nothing.
async fn assert_refused(app: &TestApp, browser: &Browser, token: &str, expect_in_message: &str) {
    let users_before = app.count("users");
    let resp = browser.post("/api/sessions", json!({ "id_token": token, "signup": true })).await;
    assert!(resp.headers().get_all("set-cookie").iter().all(|c| !c.to_str().unwrap().starts_with("session=")));
    let (field, message) = error_field(resp, 401).await;
    assert_eq!(field, "idToken");
    assert!(message.contains(expect_in_message), "{message:?} should mention {expect_in_message:?}");
    assert_eq!(app.count("users"), users_before);
    assert_eq!(app.count("sessions"), 0);
    assert_eq!(browser.get("/api/my/session").await.status(), 401);
}

#[tokio::test]
async fn signing_up_with_the_local_issuer_creates_the_user_and_a_session() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let resp = browser.sign_in_as("alice@example.com", true).await;
    assert_eq!(resp.status(), 200);
    let cookies: Vec<String> =
        resp.headers().get_all("set-cookie").iter().map(|c| c.to_str().unwrap().to_owned()).collect();
    let session = cookies.iter().find(|c| c.starts_with("session=")).expect("session cookie");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax") && !session.contains("Domain"),
        "{session}"
    );
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["session"]["user"]["email"], "alice@example.com");
    assert_eq!(body["session"]["blogId"], Value::Null);

    let me: Value = browser.get("/api/my/session").await.json().await.unwrap();
    assert_eq!(me["session"]["user"]["email"], "alice@example.com");
    let stored: Vec<u8> = app.db().query_row("SELECT token_hash FROM sessions", [], |r| r.get(0)).unwrap();
    let token = browser.cookie("session").unwrap();
    assert_ne!(stored, token.as_bytes(), "only a hash of the session token is stored");
    assert_eq!(stored.len(), 32);
}

#[tokio::test]
async fn logging_in_again_finds_the_same_user_and_signup_for_a_known_user_signs_in() {
    let app = TestApp::spawn().await;
    let first = app.new_browser().sign_up("alice@example.com").await;
    let resp = app.new_browser().sign_in_as("Alice@Example.com", false).await;
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["session"]["user"]["id"], first);
    assert_eq!(app.new_browser().sign_up("alice@example.com").await, first);
    assert_eq!(app.count("users"), 1);
}

#[tokio::test]
async fn logging_in_with_an_unknown_account_makes_it_as_signing_up_would() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let resp = browser.sign_in_as("newcomer@example.com", false).await;
    assert_eq!(resp.status(), 200, "a new person's 'Login with' gets them in");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["session"]["user"]["email"], "newcomer@example.com");
    assert_eq!(body["session"]["blogId"], Value::Null, "no blog yet: the app shows Welcome");
    assert_eq!(app.count("users"), 1);
    assert_eq!(app.count("sessions"), 1);
    let again = app.new_browser().sign_in_as("newcomer@example.com", true).await.json::<Value>().await.unwrap();
    assert_eq!(again["session"]["user"]["id"], body["session"]["user"]["id"], "one account, found again");
    assert_eq!(app.count("users"), 1);
}

#[tokio::test]
async fn a_signed_in_user_with_a_blog_gets_the_blog_id_cookie_on_login() {
    let app = TestApp::spawn().await;
    let blog_id = app.new_browser().sign_up_with_blog("alice@example.com", "alice").await;
    let later = app.new_browser();
    let resp = later.sign_in_as("alice@example.com", false).await;
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["session"]["blogId"], blog_id);
    assert_eq!(later.cookie("blog_id").as_deref(), Some(blog_id.to_string().as_str()));
}

#[tokio::test]
async fn expired_tokens_are_refused() {
    let app = TestApp::spawn().await;
    let forger = Forger::of(&app).await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let mut claims = forger.claims(&nonce);
    claims["iat"] = json!(now() - 900);
    claims["exp"] = json!(now() - 120);
    assert_refused(&app, &browser, &forger.sign(&claims), "expired").await;
}

#[tokio::test]
async fn tokens_issued_in_the_future_are_refused() {
    let app = TestApp::spawn().await;
    let forger = Forger::of(&app).await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let mut claims = forger.claims(&nonce);
    claims["iat"] = json!(now() + 600);
    claims["exp"] = json!(now() + 900);
    assert_refused(&app, &browser, &forger.sign(&claims), "future").await;
}

#[tokio::test]
async fn tampered_tokens_are_refused() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let token = browser.local_issuer_token("alice@example.com", &nonce).await;
    let parts: Vec<&str> = token.split('.').collect();
    let mut payload: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
    payload["email"] = json!("admin@example.com");
    payload["sub"] = json!("someone-else");
    let forged = format!("{}.{}.{}", parts[0], URL_SAFE_NO_PAD.encode(payload.to_string()), parts[2]);
    assert_refused(&app, &browser, &forged, "signature").await;
}

#[tokio::test]
async fn tokens_for_another_audience_or_from_another_issuer_are_refused() {
    let app = TestApp::spawn().await;
    let forger = Forger::of(&app).await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let mut claims = forger.claims(&nonce);
    claims["aud"] = json!("some-other-app");
    assert_refused(&app, &browser, &forger.sign(&claims), "another application").await;

    let (nonce, _) = browser.start_sign_in().await;
    let mut claims = forger.claims(&nonce);
    claims["iss"] = json!("https://evil.example/dev-idp");
    assert_refused(&app, &browser, &forger.sign(&claims), "another issuer").await;
}

#[tokio::test]
async fn unsigned_alg_none_tokens_are_refused() {
    let app = TestApp::spawn().await;
    let forger = Forger::of(&app).await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let header = URL_SAFE_NO_PAD.encode(json!({ "alg": "none", "typ": "JWT", "kid": forger.kid }).to_string());
    let payload = URL_SAFE_NO_PAD.encode(forger.claims(&nonce).to_string());
    assert_refused(&app, &browser, &format!("{header}.{payload}."), "malformed").await;
}

#[tokio::test]
async fn hmac_tokens_keyed_with_the_public_key_are_refused() {
    let app = TestApp::spawn().await;
    let forger = Forger::of(&app).await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let public_jwks = app.get("/dev-idp/jwks").await.text().await.unwrap();
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some(forger.kid.clone());
    let token =
        jsonwebtoken::encode(&header, &forger.claims(&nonce), &EncodingKey::from_secret(public_jwks.as_bytes()))
            .unwrap();
    assert_refused(&app, &browser, &token, "algorithm").await;
}

#[tokio::test]
async fn tokens_signed_by_an_unknown_key_are_refused() {
    let app = TestApp::spawn().await;
    let forger = Forger::of(&app).await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    // A second, unrelated issuer's key, announced under a kid the server does not know.
    let other = TestApp::spawn().await;
    let other_forger = Forger::of(&other).await;
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("unknown-kid".to_owned());
    let token = jsonwebtoken::encode(&header, &forger.claims(&nonce), &other_forger.key).unwrap();
    assert_refused(&app, &browser, &token, "unknown key").await;
    // The same foreign key under the real kid fails on the signature.
    let (nonce, _) = browser.start_sign_in().await;
    header.kid = Some(forger.kid.clone());
    let token = jsonwebtoken::encode(&header, &forger.claims(&nonce), &other_forger.key).unwrap();
    assert_refused(&app, &browser, &token, "signature").await;
}

#[tokio::test]
async fn a_token_cannot_be_replayed_and_its_nonce_must_be_this_browsers() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let token = browser.local_issuer_token("alice@example.com", &nonce).await;
    let ok = browser.post("/api/sessions", json!({ "id_token": token, "signup": true })).await;
    assert_eq!(ok.status(), 200);
    let again = browser.post("/api/sessions", json!({ "id_token": token, "signup": true })).await;
    assert_eq!(again.status(), 401, "the nonce cookie is gone after sign-in");
    // Even with the nonce cookie put back, the server has used the nonce up.
    let csrf = browser.cookie("csrf_token").unwrap();
    let replay = app
        .new_browser()
        .client
        .post(format!("{}/api/sessions", app.url))
        .header("Cookie", format!("csrf_token={csrf}; oidc_nonce={nonce}"))
        .header("CSRF-Token", &csrf)
        .json(&json!({ "id_token": token, "signup": true }))
        .send()
        .await
        .unwrap();
    let (_, message) = error_field(replay, 401).await;
    assert!(message.contains("already used"), "{message}");
    assert_eq!(app.count("sessions"), 1);

    // A token minted for one browser's nonce is useless in another browser.
    let victim = app.new_browser();
    let (victim_nonce, _) = victim.start_sign_in().await;
    let stolen = victim.local_issuer_token("victim@example.com", &victim_nonce).await;
    let thief = app.new_browser();
    let (_thief_nonce, _) = thief.start_sign_in().await;
    let resp = thief.post("/api/sessions", json!({ "id_token": stolen, "signup": true })).await;
    let (_, message) = error_field(resp, 401).await;
    assert!(message.contains("not requested by this browser") || message.contains("already used"), "{message}");
    let no_nonce = app.new_browser();
    let resp = no_nonce.post("/api/sessions", json!({ "id_token": stolen, "signup": true })).await;
    assert_eq!(resp.status(), 401);
    assert_eq!(app.count("users"), 1);
}

#[tokio::test]
async fn a_blank_or_malformed_session_request_is_refused_in_the_error_shape() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let (field, _) =
        error_field(browser.post("/api/sessions", json!({ "id_token": "", "signup": true })).await, 422).await;
    assert_eq!(field, "idToken");
    let (field, message) = error_field(browser.post("/api/sessions", json!({ "signup": true })).await, 400).await;
    assert_eq!((field.as_str(), message.as_str()), ("id_token", "Is required"));
    let (field, _) = error_field(browser.post("/api/sessions", json!({ "id_token": 5 })).await, 400).await;
    assert_eq!(field, "body");
    let csrf = browser.cookie("csrf_token").unwrap();
    let resp = browser
        .client
        .post(format!("{}/api/sessions", app.url))
        .header("CSRF-Token", csrf)
        .header("Content-Type", "application/json")
        .body("{\"id_token\": ")
        .send()
        .await
        .unwrap();
    let (field, message) = error_field(resp, 400).await;
    assert_eq!((field.as_str(), message.as_str()), ("body", "The request body is not valid JSON"));
    let (_, message) =
        error_field(browser.post("/api/sessions", json!({ "id_token": "x".repeat(20_000) })).await, 422).await;
    assert!(message.contains("too long"));
}

#[tokio::test]
async fn sign_in_attempts_are_rate_limited_per_address() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let mut statuses = Vec::new();
    for _ in 0..30 {
        statuses.push(browser.post("/api/auth/nonce", json!({})).await.status().as_u16());
    }
    assert!(statuses[..10].iter().all(|&s| s == 200), "{statuses:?}");
    assert!(statuses.contains(&429), "{statuses:?}");
    let (field, _) = error_field(browser.post("/api/auth/nonce", json!({})).await, 429).await;
    assert_eq!(field, "signIn");
}

#[tokio::test]
async fn the_nonce_endpoint_binds_the_nonce_in_an_httponly_cookie_and_builds_the_popup_url() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.open_app().await;
    let csrf = browser.cookie("csrf_token").unwrap();
    let resp =
        browser.client.post(format!("{}/api/auth/nonce", app.url)).header("CSRF-Token", csrf).send().await.unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        cookie.starts_with("oidc_nonce=") && cookie.contains("HttpOnly") && cookie.contains("Max-Age=600"),
        "{cookie}"
    );
    let body: Value = resp.json().await.unwrap();
    let url = body["authorizationUrl"].as_str().unwrap();
    assert!(url.starts_with(&format!("{}/dev-idp/authorize?", app.url)), "{url}");
    assert!(url.contains("response_type=id_token") && url.contains("client_id=quire-local"), "{url}");
    assert!(url.contains(&format!("nonce={}", body["nonce"].as_str().unwrap())));
    assert!(url.contains(&format!("redirect_uri={}", urlencode(&format!("{}/auth/callback", app.url)))), "{url}");
    let discovery: Value = app.get("/dev-idp/.well-known/openid-configuration").await.json().await.unwrap();
    assert_eq!(discovery["issuer"], format!("{}/dev-idp", app.url));
}

fn urlencode(text: &str) -> String {
    serde_urlencoded::to_string([("x", text)]).unwrap().trim_start_matches("x=").to_owned()
}

#[tokio::test]
async fn the_local_issuer_refuses_foreign_redirects_and_bad_addresses() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let evil = app
        .get("/dev-idp/authorize?client_id=quire-local&response_type=id_token&nonce=n&redirect_uri=https%3A%2F%2Fevil.example%2Fcb")
        .await;
    assert_eq!(evil.status(), 400);
    assert!(evil.text().await.unwrap().contains("redirect_uri"));
    let form = [
        ("client_id", "quire-local"),
        ("response_type", "id_token"),
        ("redirect_uri", &format!("{}/auth/callback", app.url)),
        ("nonce", "n"),
        ("email", "<script>alert(1)</script>"),
    ];
    let resp = browser.client.post(format!("{}/dev-idp/authorize", app.url)).form(&form).send().await.unwrap();
    assert_eq!(resp.status(), 422);
    let html = resp.text().await.unwrap();
    assert!(!html.contains("<script>alert(1)</script>") && html.contains("&lt;script&gt;"), "escaped");
}

/// Defence in depth: even on a loopback listen address, a request that a proxy on this
/// machine forwards from elsewhere must not reach the local issuer, which signs any e-mail.
#[tokio::test]
async fn the_local_issuer_answers_only_requests_from_this_machine() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let (nonce, _) = browser.start_sign_in().await;
    let form = [
        ("client_id", "quire-local"),
        ("response_type", "id_token"),
        ("redirect_uri", &format!("{}/auth/callback", app.url)),
        ("nonce", &nonce),
        ("email", "victim@example.com"),
    ];
    let authorize = format!("{}/dev-idp/authorize", app.url);
    for forwarded_for in ["203.0.113.7", "127.0.0.1, 203.0.113.7", "2001:db8::1", "unknown"] {
        let sign = browser.client.post(&authorize).header("x-forwarded-for", forwarded_for).form(&form);
        let resp = sign.send().await.unwrap();
        assert_eq!(resp.status(), 403, "X-Forwarded-For: {forwarded_for}");
        assert!(resp.headers().get("location").is_none());
        assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        assert!(resp.text().await.unwrap().contains("only from this machine"));
        for path in ["/dev-idp/jwks", "/dev-idp/.well-known/openid-configuration", "/dev-idp/authorize"] {
            let get = browser.client.get(format!("{}{path}", app.url)).header("x-forwarded-for", forwarded_for);
            assert_eq!(get.send().await.unwrap().status(), 403, "{path} for {forwarded_for}");
        }
    }
    for forwarded_for in ["127.0.0.1", "::1"] {
        let local_proxy = browser.client.post(&authorize).header("x-forwarded-for", forwarded_for).form(&form);
        assert_eq!(local_proxy.send().await.unwrap().status(), 303, "a proxy forwarding this machine's own browser");
    }
    assert_eq!(browser.client.post(&authorize).form(&form).send().await.unwrap().status(), 303);
}

#[tokio::test]
async fn signing_out_ends_the_session_for_good_and_clears_the_cookies() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.sign_up_with_blog("alice@example.com", "alice").await;
    let old_session = browser.cookie("session").unwrap();
    let resp = browser.post("/d/signout", json!({})).await;
    assert_eq!(resp.status(), 200);
    assert!(browser.cookie("session").is_none() && browser.cookie("blog_id").is_none());
    assert_eq!(browser.get("/api/my/session").await.status(), 401);
    let replay = app
        .new_browser()
        .client
        .get(format!("{}/api/my/session", app.url))
        .header("Cookie", format!("session={old_session}"))
        .send()
        .await
        .unwrap();
    assert_eq!(replay.status(), 401, "the old token is dead on the server too");
    assert_eq!(app.count("sessions"), 0);
}

#[tokio::test]
async fn an_expired_session_is_not_signed_in() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.sign_up("alice@example.com").await;
    app.db().execute("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
    let (field, _) = error_field(browser.get("/api/my/session").await, 401).await;
    assert_eq!(field, "session");
}

#[tokio::test]
async fn the_public_session_check_answers_null_for_visitors_and_the_session_when_signed_in() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    let visitor = browser.get("/api/session").await;
    assert_eq!(visitor.status(), 200, "a visitor is a normal answer, not an error");
    assert_eq!(visitor.json::<Value>().await.unwrap(), json!({ "session": null }));
    browser.sign_up_with_blog("alice@example.com", "alice").await;
    let signed_in: Value = browser.get("/api/session").await.json().await.unwrap();
    assert_eq!(signed_in["session"]["user"]["email"], "alice@example.com");
    assert!(signed_in["session"]["blogId"].is_i64());
    browser.post("/d/signout", json!({})).await;
    let after: Value = browser.get("/api/session").await.json().await.unwrap();
    assert_eq!(after["session"], Value::Null);
    assert_eq!(browser.get("/api/my/session").await.status(), 401, "/api/my still needs a session");
}
