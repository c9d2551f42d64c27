//! IndieAuth (issue 37) with a real OAuth client library: Authlib (PyPI, in
//! tests/indieauth/.venv, which scripts/test.sh installs) plays the app in tests/indieauth/client.py;
//! the owner approves through the owner API, as the consent screen does. Those are `--ignored`:
//! they need `INDIEAUTH_PYTHON`, the venv's python (scripts/test.sh runs them in their own step).

use std::process::Command;

use poem::{Response, Route, handler};
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp};

fn python() -> String {
    std::env::var("INDIEAUTH_PYTHON").expect("INDIEAUTH_PYTHON: the python of tests/indieauth/.venv")
}

/// Runs client.py; its standard output, trimmed (it fails the test when the client fails).
async fn client(port: u16, args: &[&str]) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/indieauth/client.py");
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    let shown = args.clone();
    // Off this thread: the server under test runs on this test's runtime.
    let output = tokio::task::spawn_blocking(move || {
        Command::new(python()).arg(script).args(&args).env("QUIRE_PORT", port.to_string()).output()
    })
    .await
    .unwrap()
    .expect("python runs");
    let args = shown;
    assert!(output.status.success(), "client.py {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

/// The app's own page: its name, as a client id's page says it.
async fn app_page() -> u16 {
    #[handler]
    fn home() -> Response {
        Response::builder()
            .content_type("text/html")
            .body("<!doctype html><title>Pocket Notes</title><h1 class=\"h-app\">Pocket Notes</h1>")
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    crate::helpers::serve_peer(Route::new().at("/", poem::get(home)), port).await;
    port
}

struct Flow {
    app: TestApp,
    owner: Browser,
    blog_id: i64,
    client_id: String,
    redirect_uri: String,
    state_file: tempfile::NamedTempFile,
}

impl Flow {
    async fn new() -> Flow {
        let app = TestApp::spawn_with(|config| config.fetch_allow_loopback = true).await;
        let owner = app.new_browser();
        let blog_id = owner.sign_up_with_blog("alice@example.com", "alice").await;
        let port = app_page().await;
        Flow {
            app,
            owner,
            blog_id,
            client_id: format!("http://127.0.0.1:{port}/"),
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
            state_file: tempfile::NamedTempFile::new().unwrap(),
        }
    }

    fn profile(&self) -> String {
        format!("http://alice.localhost:{}/", self.app.port)
    }

    /// The app starts: its authorization URL.
    async fn start(&self, scope: &str) -> String {
        let state = self.state_file.path().to_str().unwrap();
        client(self.app.port, &["start", state, &self.profile(), &self.client_id, &self.redirect_uri, scope]).await
    }

    /// The owner's browser at the authorization URL: sent to the consent screen, whose address
    /// holds the request.
    async fn consent_query(&self, authorization_url: &str) -> String {
        let resp = self.owner.client.get(authorization_url).send().await.unwrap();
        assert_eq!(resp.status(), 303);
        let location = resp.headers()["location"].to_str().unwrap().to_owned();
        let query = location.strip_prefix("/d/indieauth?").expect("to the consent screen");
        query.to_owned()
    }
}

#[tokio::test]
#[ignore = "needs INDIEAUTH_PYTHON (tests/indieauth/.venv, installed by scripts/test.sh)"]
async fn an_app_signs_in_with_pkce_gets_a_token_publishes_and_is_revoked() {
    let flow = Flow::new().await;
    let url = flow.start("profile create media").await;
    let query = flow.consent_query(&url).await;

    // The consent screen shows the app by its page's name, the scopes it asked for.
    let check = flow.owner.post("/api/my/indieauth/check", json!({ "query": query })).await;
    assert_eq!(check.status(), 200);
    let shown: Value = check.json().await.unwrap();
    assert_eq!(shown["app"]["clientName"], "Pocket Notes");
    assert_eq!(shown["app"]["scopes"], json!(["create", "media"]));
    assert_eq!(shown["app"]["profileUrl"], flow.profile());

    // Approved with create only: the app's library redeems the code with its verifier.
    let approved = flow.owner.post("/api/my/indieauth/approve", json!({ "query": query, "scopes": ["create"] })).await;
    assert_eq!(approved.status(), 200);
    let redirect = approved.json::<Value>().await.unwrap()["redirectTo"].as_str().unwrap().to_owned();
    assert!(redirect.starts_with(&flow.redirect_uri), "{redirect}");
    let token: Value = serde_json::from_str(
        &client(flow.app.port, &["finish", flow.state_file.path().to_str().unwrap(), &redirect]).await,
    )
    .unwrap();
    assert_eq!(token["me"], flow.profile());
    assert_eq!(token["scope"], "create");
    let access = token["access_token"].as_str().unwrap().to_owned();

    // It publishes, and Settings lists it under the app's name.
    let resp = flow
        .app
        .client
        .post(format!("{}/micropub", flow.app.url))
        .bearer_auth(&access)
        .form(&[("h", "entry"), ("content", "From Pocket Notes")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    let list: Value = flow.owner.get(&format!("/api/my/blogs/{}/tokens", flow.blog_id)).await.json().await.unwrap();
    assert_eq!(list["tokens"][0]["name"], "Pocket Notes");
    assert_eq!(list["tokens"][0]["clientId"], flow.client_id);

    // Introspection, authorized by the token itself.
    let introspected: Value = flow
        .app
        .client
        .post(format!("{}/indieauth/introspect", flow.app.url))
        .bearer_auth(&access)
        .form(&[("token", access.as_str())])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(introspected["active"], true);
    assert_eq!(introspected["me"], flow.profile());
    assert_eq!(introspected["client_id"], flow.client_id);

    // The library revokes it: Micropub refuses it at once.
    assert_eq!(client(flow.app.port, &["revoke", flow.state_file.path().to_str().unwrap(), &access]).await, "200");
    let resp = flow
        .app
        .client
        .post(format!("{}/micropub", flow.app.url))
        .bearer_auth(&access)
        .form(&[("content", "Too late")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 401);
}

#[tokio::test]
#[ignore = "needs INDIEAUTH_PYTHON (tests/indieauth/.venv, installed by scripts/test.sh)"]
async fn a_reused_code_a_wrong_verifier_and_a_foreign_redirect_are_refused() {
    let flow = Flow::new().await;
    let url = flow.start("create").await;
    let query = flow.consent_query(&url).await;
    let approved = flow.owner.post("/api/my/indieauth/approve", json!({ "query": query, "scopes": ["create"] })).await;
    let redirect = approved.json::<Value>().await.unwrap()["redirectTo"].as_str().unwrap().to_owned();
    let code = url::Url::parse(&redirect).unwrap().query_pairs().find(|(k, _)| k == "code").unwrap().1.into_owned();
    let token_url = format!("{}/indieauth/token", flow.app.url);
    let exchange = |verifier: &str| {
        flow.app.client.post(&token_url).form(&[
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("client_id", flow.client_id.as_str()),
            ("redirect_uri", flow.redirect_uri.as_str()),
            ("code_verifier", verifier),
        ])
    };
    // A verifier that is not the challenge's: refused, and the code is spent.
    let resp = exchange(&"x".repeat(50)).send().await.unwrap();
    assert_eq!(resp.status(), 400);
    assert_eq!(resp.json::<Value>().await.unwrap()["error"], "invalid_grant");
    // The right one now finds the code used: refused, and nothing was issued.
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(flow.state_file.path()).unwrap()).unwrap();
    let resp = exchange(kept["verifier"].as_str().unwrap()).send().await.unwrap();
    assert_eq!(resp.json::<Value>().await.unwrap()["error"], "invalid_grant");
    assert_eq!(flow.app.count("api_tokens"), 0);

    // A redirect_uri on another host that the app does not publish: no code is ever sent there.
    let foreign = query.replace(&urlencode(&flow.redirect_uri), &urlencode("https://evil.example/steal"));
    let resp = flow.owner.post("/api/my/indieauth/approve", json!({ "query": foreign, "scopes": ["create"] })).await;
    assert_eq!(resp.status(), 422);
    // Without PKCE: back to the app with invalid_request.
    let plain = query.replace("code_challenge_method=S256", "code_challenge_method=plain");
    let resp: Value = flow.owner.post("/api/my/indieauth/check", json!({ "query": plain })).await.json().await.unwrap();
    assert!(resp["redirectTo"].as_str().unwrap().contains("error=invalid_request"), "{resp}");
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// PKCE's S256 challenge of `verifier`.
fn s256(verifier: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()))
}

#[tokio::test]
async fn a_blog_holding_its_50_tokens_gets_no_other_by_signing_in() {
    let flow = Flow::new().await;
    let tokens = format!("/api/my/blogs/{}/tokens", flow.blog_id);
    for n in 0..49 {
        let resp = flow.owner.post(&tokens, json!({ "name": format!("Script {n}"), "scopes": ["create"] })).await;
        assert_eq!(resp.status(), 201);
    }
    let verifier = "v".repeat(64);
    let query = format!(
        "response_type=code&client_id={}&redirect_uri={}&state=s&code_challenge={}&code_challenge_method=S256&scope=create",
        urlencode(&flow.client_id),
        urlencode(&flow.redirect_uri),
        s256(&verifier)
    );
    let approve = || flow.owner.post("/api/my/indieauth/approve", json!({ "query": query, "scopes": ["create"] }));

    // The 50th place is free: the owner approves; a token made in Settings then takes it, so the
    // app's redemption is refused and nothing is issued.
    let approved = approve().await;
    assert_eq!(approved.status(), 200);
    let redirect = approved.json::<Value>().await.unwrap()["redirectTo"].as_str().unwrap().to_owned();
    let code = url::Url::parse(&redirect).unwrap().query_pairs().find(|(k, _)| k == "code").unwrap().1.into_owned();
    assert_eq!(flow.owner.post(&tokens, json!({ "name": "The 50th", "scopes": ["create"] })).await.status(), 201);
    let resp = flow
        .app
        .client
        .post(format!("{}/indieauth/token", flow.app.url))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("client_id", flow.client_id.as_str()),
            ("redirect_uri", flow.redirect_uri.as_str()),
            ("code_verifier", verifier.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    let refusal: Value = resp.json().await.unwrap();
    assert_eq!(refusal["error"], "invalid_grant");
    assert!(refusal["error_description"].as_str().unwrap().contains("at most 50 tokens"), "{refusal}");
    assert_eq!(flow.app.count("api_tokens"), 50);

    // Full: the consent screen says so when the owner approves, and no code is sent.
    let resp = approve().await;
    assert_eq!(resp.status(), 422);
    let body: Value = resp.json().await.unwrap();
    assert!(body["errors"][0]["scopes"].as_str().unwrap().contains("revoke one in Settings"), "{body}");
    // An app that only asks who signs in still can.
    let profile_only = query.replace("&scope=create", "");
    let resp = flow.owner.post("/api/my/indieauth/approve", json!({ "query": profile_only, "scopes": [] })).await;
    assert_eq!(resp.status(), 200);
}
