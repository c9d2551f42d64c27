//! Whom the sign-in limiter counts (the client past trusted proxies, IPv6 clients by /64) and
//! what starting a sign-in costs (no database write).

use serde_json::json;

use quire::domain::net::proxies::TrustedProxies;

use crate::helpers::{Browser, TestApp};

/// More nonce requests than the limiter's burst (20) lets through from one client.
const OVER_THE_BURST: usize = 25;

/// `POST /api/auth/nonce` sent with this `X-Forwarded-For`; returns the status.
async fn nonce_via(browser: &Browser, forwarded_for: &str) -> u16 {
    browser.open_app().await;
    let csrf = browser.cookie("csrf_token").expect("csrf cookie");
    browser
        .client
        .post(format!("{}/api/auth/nonce", browser.url()))
        .header("CSRF-Token", csrf)
        .header("X-Forwarded-For", forwarded_for)
        .send()
        .await
        .expect("request sent")
        .status()
        .as_u16()
}

/// Sends one nonce request per `X-Forwarded-For` value; returns the statuses.
async fn statuses_via(browser: &Browser, forwarded_for: impl IntoIterator<Item = String>) -> Vec<u16> {
    let mut statuses = Vec::new();
    for value in forwarded_for {
        statuses.push(nonce_via(browser, &value).await);
    }
    statuses
}

#[tokio::test]
async fn the_limiter_counts_the_client_past_every_trusted_proxy_hop() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    // A client's own header, then two proxies on this machine (trusted by default) that each
    // added the address they saw: the client is the rightmost untrusted entry.
    let client = |ip: &str| format!("192.0.2.1, {ip}, 127.0.0.1");
    let statuses = statuses_via(&browser, (0..OVER_THE_BURST).map(|_| client("198.51.100.9"))).await;
    assert!(statuses[..20].iter().all(|&s| s == 200), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    assert_eq!(nonce_via(&browser, "198.51.100.9").await, 429, "the same client, through one proxy");
    assert_eq!(nonce_via(&browser, &client("198.51.100.10")).await, 200, "another client has its own allowance");
    assert_eq!(nonce_via(&browser, "192.0.2.1, 198.51.100.11").await, 200, "the forgeable left entry is not the key");
}

#[tokio::test]
async fn ipv6_clients_in_one_64_share_one_allowance() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    // A client rotating through its /64 does not escape the limit.
    let statuses = statuses_via(&browser, (1..=OVER_THE_BURST).map(|i| format!("2001:db8:1:2::{i:x}"))).await;
    assert!(statuses[..20].iter().all(|&s| s == 200), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    assert_eq!(nonce_via(&browser, "2001:db8:1:2:ffff:ffff:ffff:ffff").await, 429);
    assert_eq!(nonce_via(&browser, "2001:db8:1:3::1").await, 200, "the next /64 is another client");
}

#[tokio::test]
async fn starting_a_sign_in_writes_nothing_to_the_database() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.open_app().await;
    // `data_version` changes when any other connection commits to the file.
    let watcher = app.db();
    let version = || -> i64 { watcher.query_row("PRAGMA data_version", [], |r| r.get(0)).unwrap() };
    let before = version();
    let (nonce, _) = browser.start_sign_in().await;
    browser.start_sign_in().await;
    assert_eq!(version(), before, "a nonce request committed a write");
    let tables: i64 =
        watcher.query_row("SELECT count(*) FROM sqlite_master WHERE name = 'auth_nonces'", [], |r| r.get(0)).unwrap();
    assert_eq!(tables, 0, "migration 3 dropped the old nonce table");

    // The observable does see a sign-in's writes (the user and the session).
    let token = browser.local_issuer_token("alice@example.com", &nonce).await;
    let stale = browser.post("/api/sessions", json!({ "id_token": token, "signup": true })).await;
    assert_eq!(stale.status(), 401, "the first nonce was replaced by the second in this browser");
    assert_eq!(version(), before, "a refused sign-in writes nothing either");
    assert_eq!(browser.sign_in_as("alice@example.com", true).await.status(), 200);
    assert_ne!(version(), before);
}

#[tokio::test]
async fn an_untrusted_peers_forwarded_for_is_ignored() {
    // Only 10.0.0.0/8 is a trusted proxy: this test's peer, 127.0.0.1, is the client itself.
    let trusted = TrustedProxies::parse(["10.0.0.0/8"]).unwrap();
    let app = TestApp::spawn_with(|config| config.trusted_proxies = trusted).await;
    let browser = app.new_browser();
    let statuses = statuses_via(&browser, (1..=OVER_THE_BURST).map(|i| format!("203.0.113.{i}"))).await;
    assert!(statuses[..20].iter().all(|&s| s == 200), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "a forged X-Forwarded-For escaped the limit: {statuses:?}");
}
