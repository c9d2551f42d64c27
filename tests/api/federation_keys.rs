//! A blog's federation key (issue 28, finding 6; docs/federation.md "Keys"): made in the
//! background when the blog is created, once, off the threads SQLite's queries use, so a crowd
//! of first fetches of a new blog's actor neither makes one key each nor holds up the owner.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::helpers::TestApp;

async fn actor_pem(app: &TestApp, subdomain: &str) -> String {
    let resp = app
        .client
        .get(format!("http://127.0.0.1:{}/_quire/ap/actor", app.port))
        .header("host", format!("{subdomain}.localhost:{}", app.port))
        .header("accept", "application/activity+json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let doc: Value = resp.json().await.unwrap();
    doc["publicKey"]["publicKeyPem"].as_str().unwrap().to_owned()
}

fn keys_of(app: &TestApp, subdomain: &str) -> Vec<String> {
    let conn = app.db();
    let mut stmt = conn
        .prepare("SELECT k.public_pem FROM blog_keys k JOIN blogs b ON b.id = k.blog_id WHERE b.subdomain = ?1")
        .unwrap();
    stmt.query_map([subdomain], |row| row.get(0)).unwrap().map(Result::unwrap).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_blogs_key_is_made_once_in_the_background_and_every_first_fetch_sees_it() {
    let app = TestApp::spawn().await;
    let blog_id = app.browser.sign_up_with_blog("alice@example.com", "alice").await;

    // 32 concurrent first fetches of the new blog's actor, and the owner's own call meanwhile.
    let fetches = futures_util::future::join_all((0..32).map(|_| actor_pem(&app, "alice")));
    let owner = async {
        let started = Instant::now();
        let resp = app.browser.get(&format!("/api/my/blogs/{blog_id}")).await;
        assert_eq!(resp.status(), 200);
        started.elapsed()
    };
    let (pems, owner_took) = tokio::join!(fetches, owner);
    assert!(pems.iter().all(|pem| *pem == pems[0]), "every fetch sees the same key");
    assert_eq!(keys_of(&app, "alice"), [pems[0].clone()], "one key row, the one served");
    assert!(owner_took < Duration::from_secs(10), "the owner's call took {owner_took:?}");

    // A blog nobody has fetched yet has its key all the same, made after its creation.
    app.new_browser().sign_up_with_blog("bertha@example.com", "bertha").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while keys_of(&app, "bertha").is_empty() {
        assert!(Instant::now() < deadline, "no key was made for the new blog without a fetch");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let made = keys_of(&app, "bertha");
    assert_eq!(actor_pem(&app, "bertha").await, made[0], "the actor publishes the key made in the background");
}
