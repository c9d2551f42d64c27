//! Creating the one blog, reading it, and never reaching someone else's.

use serde_json::{Value, json};

use crate::helpers::{TestApp, error_field};

#[tokio::test]
async fn creating_a_blog_answers_it_and_sets_the_blog_id_cookie() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.sign_up("alice@example.com").await;
    let resp = browser.post("/api/my/blogs", json!({ "subdomain": " Alice " })).await;
    assert_eq!(resp.status(), 201);
    let body: Value = resp.json().await.unwrap();
    let blog = &body["blog"];
    assert_eq!(blog["subdomain"], "alice");
    assert_eq!(blog["name"], "alice");
    assert_eq!(blog["url"], format!("http://alice.localhost:{}", app.port));
    assert_eq!(blog["theme"]["name"], "Default");
    assert_eq!(blog["favicon"]["code"], "1f4dd");
    assert_eq!(blog["socialAccounts"][0]["provider"], "Local");
    assert_eq!(blog["socialAccounts"][0]["email"], "alice@example.com");
    assert_eq!(browser.cookie("blog_id"), Some(blog["id"].to_string()));

    let again: Value = browser.get(&format!("/api/my/blogs/{}", blog["id"])).await.json().await.unwrap();
    assert_eq!(&again["blog"], blog);
    let me: Value = browser.get("/api/my/session").await.json().await.unwrap();
    assert_eq!(me["session"]["blogId"], blog["id"]);
}

#[tokio::test]
async fn each_subdomain_rule_is_named_in_its_refusal_and_nothing_is_created() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.sign_up("alice@example.com").await;
    let cases = [
        ("", "Can't be blank"),
        ("ab", "3 to 63"),
        (&"a".repeat(64), "3 to 63"),
        (&"a".repeat(5000), "3 to 63"),
        ("ålice", "lowercase letters"),
        ("al ice", "lowercase letters"),
        ("alice.bob", "lowercase letters"),
        ("日本語ブログ", "lowercase letters"),
        ("-alice", "hyphen"),
        ("alice-", "hyphen"),
        ("www", "reserved"),
        ("api", "reserved"),
        ("dev-idp", "reserved"),
    ];
    for (subdomain, expected) in cases {
        let (field, message) =
            error_field(browser.post("/api/my/blogs", json!({ "subdomain": subdomain })).await, 422).await;
        assert_eq!(field, "subdomain");
        assert!(message.contains(expected), "{subdomain:?}: {message:?}");
    }
    let (field, _) = error_field(browser.post("/api/my/blogs", json!({ "subdomain": 42 })).await, 400).await;
    assert_eq!(field, "body");
    assert_eq!(app.count("blogs"), 0);
    assert!(browser.cookie("blog_id").is_none());
}

#[tokio::test]
async fn a_subdomain_in_use_or_retired_is_never_handed_out_again() {
    let app = TestApp::spawn().await;
    app.new_browser().sign_up_with_blog("alice@example.com", "alice").await;
    app.db().execute("INSERT INTO retired_subdomains (subdomain) VALUES ('gone')", []).unwrap();
    let bob = app.new_browser();
    bob.sign_up("bob@example.com").await;
    for taken in ["alice", "ALICE", "gone"] {
        let (_, message) = error_field(bob.post("/api/my/blogs", json!({ "subdomain": taken })).await, 422).await;
        assert!(message.contains("taken"), "{taken}: {message}");
    }
    assert_eq!(app.count("blogs"), 1);
}

#[tokio::test]
async fn a_user_gets_one_blog_only() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.sign_up_with_blog("alice@example.com", "alice").await;
    let (_, message) = error_field(browser.post("/api/my/blogs", json!({ "subdomain": "alice-two" })).await, 422).await;
    assert!(message.contains("already have a blog"), "{message}");
    assert_eq!(app.count("blogs"), 1);
}

#[tokio::test]
async fn another_users_blog_is_a_404_exactly_like_a_missing_one() {
    let app = TestApp::spawn().await;
    let alice_blog = app.new_browser().sign_up_with_blog("alice@example.com", "alice").await;
    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    assert_eq!(bob.get(&format!("/api/my/blogs/{bob_blog}")).await.status(), 200);
    let theirs = bob.get(&format!("/api/my/blogs/{alice_blog}")).await;
    let theirs = error_field(theirs, 404).await;
    let missing = error_field(bob.get("/api/my/blogs/999999").await, 404).await;
    assert_eq!(theirs, missing, "no hint that the blog exists");
    for odd in ["abc", "-1", "1e3", "99999999999999999999999"] {
        assert_eq!(bob.get(&format!("/api/my/blogs/{odd}")).await.status(), 404, "{odd}");
    }
}

#[tokio::test]
async fn the_owner_area_needs_a_session() {
    let app = TestApp::spawn().await;
    let blog = app.new_browser().sign_up_with_blog("alice@example.com", "alice").await;
    let stranger = app.new_browser();
    for path in ["/api/my/session".to_owned(), format!("/api/my/blogs/{blog}")] {
        let (field, _) = error_field(stranger.get(&path).await, 401).await;
        assert_eq!(field, "session", "{path}");
    }
    let (field, _) = error_field(stranger.post("/api/my/blogs", json!({ "subdomain": "mallory" })).await, 401).await;
    assert_eq!(field, "session");
    let forged = stranger
        .client
        .get(format!("{}/api/my/session", app.url))
        .header("Cookie", format!("session={}", "ab".repeat(32)))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401);
}

#[tokio::test]
async fn connecting_a_social_account_is_idempotent_and_refused_for_someone_elses() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    alice.sign_up("alice@example.com").await;
    app.new_browser().sign_up("bob@example.com").await;

    let connect = |email: &'static str| {
        let alice = alice.clone();
        async move {
            let (nonce, _) = alice.start_sign_in().await;
            let token = alice.local_issuer_token(email, &nonce).await;
            alice.post("/api/my/social_accounts", json!({ "id_token": token })).await
        }
    };
    let mine = connect("alice@example.com").await;
    assert_eq!(mine.status(), 201);
    let body: Value = mine.json().await.unwrap();
    assert_eq!(body["socialAccount"]["provider"], "Local");
    let (field, message) = error_field(connect("bob@example.com").await, 422).await;
    assert_eq!(field, "idToken");
    assert!(message.contains("another Quire user"), "{message}");
    assert_eq!(app.count("social_accounts"), 2);
    let stranger = app.new_browser();
    let resp = stranger.post("/api/my/social_accounts", json!({ "id_token": "x" })).await;
    assert_eq!(resp.status(), 401);
}
