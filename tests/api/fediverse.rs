//! The owner's side of federation (issue 16): Settings → Fediverse (followers, approval,
//! blocked domains, given-up deliveries), the Replies screen's API, the post list's counts, the
//! approved replies on the public post page, and `quire federation block|unblock|blocks`. Remote
//! followers, reactions and replies are seeded in the database as the inbox would store them.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, error_field, quire, s, simple_body, stderr, stdout};

/// Seeds a follower of blog `blog_id` from `actor_id`; answers its row id.
fn seed_follower(app: &TestApp, blog_id: i64, actor_id: &str, handle: &str, accepted: bool) -> i64 {
    let follow = json!({"id": format!("{actor_id}/follows/1"), "type": "Follow", "actor": actor_id,
        "object": format!("http://alice.localhost:{}/_quire/ap/actor", app.port)});
    let conn = app.db();
    conn.execute(
        "INSERT INTO followers (blog_id, actor_id, inbox, shared_inbox, handle, follow_id, state, actor_host)
         VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7)",
        rusqlite::params![
            blog_id,
            actor_id,
            format!("{actor_id}/inbox"),
            handle,
            follow["id"].as_str().unwrap(),
            if accepted { "accepted" } else { "pending" },
            url::Url::parse(actor_id).unwrap().host_str().unwrap()
        ],
    )
    .unwrap();
    conn.last_insert_rowid()
}

/// Seeds a held reply to the post `short_id`; answers its row id.
fn seed_reply(app: &TestApp, short_id: &str, note: &str, text: &str) -> i64 {
    let conn = app.db();
    conn.execute(
        "INSERT INTO replies (note_id, post_id, actor_id, author_name, author_handle, author_url, url, text,
             published_at, state, actor_host)
         VALUES (?1, (SELECT id FROM posts WHERE short_id = ?2), 'https://peer.example/users/bob', 'Bob \"B\" <b>',
             '@bob@peer.example', 'https://peer.example/@bob', ?3, ?4, '2026-11-24T10:00:00.000Z', 'held',
             'peer.example')",
        rusqlite::params![
            format!("https://peer.example/notes/{note}"),
            short_id,
            format!("https://peer.example/@bob/{note}"),
            text
        ],
    )
    .unwrap();
    conn.last_insert_rowid()
}

/// The activities queued for delivery, as (inbox, JSON).
fn queued(app: &TestApp) -> Vec<(String, Value)> {
    let conn = app.db();
    let mut stmt = conn
        .prepare(
            "SELECT d.inbox, a.json FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id ORDER BY d.id",
        )
        .unwrap();
    stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)))
        .unwrap()
        .map(|row| {
            let (inbox, json) = row.unwrap();
            (inbox, serde_json::from_str(&json).unwrap())
        })
        .collect()
}

/// The blog's followers as (handle, state), from the first page of `GET .../fediverse/followers`.
async fn followers(app: &TestApp, blog_id: i64) -> Vec<(String, String)> {
    let resp = app.get(&format!("/api/my/blogs/{blog_id}/fediverse/followers")).await;
    assert_eq!(resp.status(), 200);
    let listed = resp.json::<Value>().await.unwrap()["followers"].as_array().unwrap().clone();
    listed.iter().map(|f| (f["handle"].as_str().unwrap().to_owned(), f["state"].as_str().unwrap().to_owned())).collect()
}

async fn fediverse(app: &TestApp, blog_id: i64) -> Value {
    let resp = app.get(&format!("/api/my/blogs/{blog_id}/fediverse")).await;
    assert_eq!(resp.status(), 200);
    resp.json::<Value>().await.unwrap()["fediverse"].clone()
}

#[tokio::test]
async fn the_owner_approves_rejects_and_removes_followers_and_each_answer_is_queued() {
    let app = TestApp::spawn().await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let actor = format!("http://alice.localhost:{}/_quire/ap/actor", app.port);
    let settings = fediverse(&app, blog).await;
    assert_eq!(settings["handle"], format!("@alice@localhost:{}", app.port));
    assert_eq!(settings["actorUrl"], actor);
    assert_eq!(settings["approveFollowers"], false);
    assert_eq!(settings["followerCount"], 0);
    assert_eq!(followers(&app, blog).await, []);

    let path = format!("/api/my/blogs/{blog}/fediverse");
    let resp = app.browser.send(Method::PUT, &path, json!({ "approveFollowers": true })).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["fediverse"]["approveFollowers"], true);

    let carol = seed_follower(&app, blog, "https://peer.example/users/carol", "@carol@peer.example", true);
    let dave = seed_follower(&app, blog, "https://peer.example/users/dave", "@dave@peer.example", false);
    let erin = seed_follower(&app, blog, "https://other.example/users/erin", "@erin@other.example", false);
    let settings = fediverse(&app, blog).await;
    assert_eq!(settings["followerCount"], 1, "pending followers are not counted");
    assert_eq!(settings["pendingCount"], 2);
    let listed = followers(&app, blog).await;
    let listed: Vec<(&str, &str)> = listed.iter().map(|(handle, state)| (handle.as_str(), state.as_str())).collect();
    assert_eq!(
        listed,
        [("@carol@peer.example", "accepted"), ("@dave@peer.example", "pending"), ("@erin@other.example", "pending")]
    );
    let first = app.get(&format!("/api/my/blogs/{blog}/fediverse/followers")).await.json::<Value>().await.unwrap();
    assert_eq!(first["followers"][0]["actorUrl"], "https://peer.example/users/carol");

    // Turning approval off accepts nobody waiting.
    let resp = app.browser.send(Method::PUT, &path, json!({ "approveFollowers": false })).await;
    assert_eq!(resp.json::<Value>().await.unwrap()["fediverse"]["followerCount"], 1);

    // Approving: accepted, and an Accept of the Follow as received queued to its inbox.
    let resp = app.browser.post(&format!("{path}/followers/{dave}/approve"), json!({})).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["fediverse"]["followerCount"], 2);
    let sent = queued(&app);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].0, "https://peer.example/users/dave/inbox");
    assert_eq!(sent[0].1["type"], "Accept");
    assert_eq!(sent[0].1["actor"], actor);
    assert_eq!(sent[0].1["object"]["id"], "https://peer.example/users/dave/follows/1");
    let again = app.browser.post(&format!("{path}/followers/{dave}/approve"), json!({})).await;
    assert_eq!(error_field(again, 404).await.0, "follower", "an accepted follower is not pending");

    // Rejecting a pending one and removing an accepted one: gone, and each told with a Reject.
    let resp = app.browser.send(Method::DELETE, &format!("{path}/followers/{erin}"), json!({})).await;
    assert_eq!(resp.status(), 200);
    let resp = app.browser.send(Method::DELETE, &format!("{path}/followers/{carol}"), json!({})).await;
    let settings = resp.json::<Value>().await.unwrap()["fediverse"].clone();
    assert_eq!(settings["followerCount"], 1);
    assert_eq!(followers(&app, blog).await.len(), 1);
    let sent = queued(&app);
    assert_eq!(sent.len(), 3);
    assert_eq!(
        (sent[1].0.as_str(), sent[1].1["type"].as_str()),
        ("https://other.example/users/erin/inbox", Some("Reject"))
    );
    assert_eq!(
        (sent[2].0.as_str(), sent[2].1["type"].as_str()),
        ("https://peer.example/users/carol/inbox", Some("Reject"))
    );
    assert_eq!(sent[2].1["object"]["actor"], "https://peer.example/users/carol");
    assert_ne!(sent[1].1["id"], sent[2].1["id"]);

    // Another owner's blog, follower or unknown ids: the same 404.
    let bob = app.new_browser();
    let bobs_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let resp = bob.get(&format!("/api/my/blogs/{blog}/fediverse")).await;
    assert_eq!(error_field(resp, 404).await.0, "blog");
    let resp = bob.post(&format!("/api/my/blogs/{bobs_blog}/fediverse/followers/{dave}/approve"), json!({})).await;
    assert_eq!(error_field(resp, 404).await.0, "follower");
    let resp =
        bob.send(Method::DELETE, &format!("/api/my/blogs/{bobs_blog}/fediverse/followers/{dave}"), json!({})).await;
    assert_eq!(error_field(resp, 404).await.0, "follower");
    let resp = app.browser.send(Method::DELETE, &format!("{path}/followers/nope"), json!({})).await;
    assert_eq!(error_field(resp, 404).await.0, "follower");
    assert_eq!(fediverse(&app, blog).await["followerCount"], 1, "bob changed nothing");

    // Without the CSRF header, nothing changes.
    let resp =
        app.client.put(format!("{}{path}", app.url)).json(&json!({ "approveFollowers": true })).send().await.unwrap();
    assert_eq!(resp.status(), 403);
}

#[tokio::test]
async fn a_blocked_domain_is_normalized_removes_its_followers_and_bad_names_are_422() {
    let app = TestApp::spawn().await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let path = format!("/api/my/blogs/{blog}/fediverse/blocked_domains");
    seed_follower(&app, blog, "https://a.spam.example/users/x", "@x@a.spam.example", true);
    seed_follower(&app, blog, "https://spam.example/users/y", "@y@spam.example", false);
    seed_follower(&app, blog, "https://notspam.example/users/z", "@z@notspam.example", true);

    let resp = app.browser.post(&path, json!({ "domain": " Spam.Example. " })).await;
    assert_eq!(resp.status(), 200);
    let settings = resp.json::<Value>().await.unwrap()["fediverse"].clone();
    assert_eq!(settings["blockedDomains"], json!(["spam.example"]));
    let handles: Vec<String> = followers(&app, blog).await.into_iter().map(|(handle, _)| handle).collect();
    assert_eq!(handles, ["@z@notspam.example"], "the domain's and its subdomains' followers are gone");
    assert_eq!(queued(&app), [], "a blocked domain is told nothing");
    let resp = app.browser.post(&path, json!({ "domain": "bücher.example" })).await;
    assert_eq!(
        resp.json::<Value>().await.unwrap()["fediverse"]["blockedDomains"],
        json!(["spam.example", "xn--bcher-kva.example"])
    );

    for bad in ["127.0.0.1", "https://spam.example/", "spam.example:443", "", "bad_name.example"] {
        let resp = app.browser.post(&path, json!({ "domain": bad })).await;
        let (field, message) = error_field(resp, 422).await;
        assert_eq!(field, "domain", "{bad:?}");
        assert!(!message.is_empty());
    }

    let resp = app.browser.send(Method::DELETE, &format!("{path}/spam.example"), json!({})).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["fediverse"]["blockedDomains"], json!(["xn--bcher-kva.example"]));
    let resp = app.browser.send(Method::DELETE, &format!("{path}/spam.example"), json!({})).await;
    assert_eq!(error_field(resp, 404).await.0, "domain");

    // The instance's blocks are the CLI's, not a blog's.
    assert_eq!(app.count("blocked_domains WHERE blog_id IS NULL"), 0);
}

#[tokio::test]
async fn given_up_deliveries_are_summed_by_inbox_host() {
    let app = TestApp::spawn().await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let conn = app.db();
    conn.execute_batch(&format!(
        "INSERT INTO outgoing_activities (id, blog_id, object_id, json) VALUES (1, {blog}, 'y', '{{}}');
         INSERT INTO deliveries (activity_id, inbox, host, last_error) VALUES
             (1, 'https://live.example/inbox', 'live.example', 'timed out');
         INSERT INTO given_up_hosts (blog_id, host, deliveries, last_error) VALUES
             ({blog}, 'dead.example', 2, 'timed out'), ({blog}, 'gone.example', 1, 'the server answered 410'),
             ({blog} + 1, 'other.example', 1, 'timed out');"
    ))
    .unwrap();
    let given_up = &fediverse(&app, blog).await["givenUp"];
    assert_eq!(
        *given_up,
        json!([
            { "inboxHost": "dead.example", "count": 2, "lastError": "timed out" },
            { "inboxHost": "gone.example", "count": 1, "lastError": "the server answered 410" },
        ]),
        "a delivery still being retried is not given up; another blog's are its own"
    );
}

#[tokio::test]
async fn replies_are_held_then_approved_shown_escaped_on_the_post_page_and_counted_in_the_post_list() {
    let app = TestApp::spawn().await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let post = app.browser.create_post(blog, simple_body("Hello fediverse", "A post."), false).await;
    let short_id = post["shortId"].as_str().unwrap();
    let page_path = format!("/{}", post["permalink"].as_str().unwrap().rsplit('/').next().unwrap());
    let host = format!("alice.localhost:{}", app.port);
    let page = app.get_with_host(&host, &page_path).await.text().await.unwrap();
    assert!(!page.contains("Replies from the fediverse"), "nothing at all without replies");

    let hostile = "<script>alert(1)</script> \"quoted\" & 'single'\nsecond line\n\nSecond paragraph";
    let first = seed_reply(&app, short_id, "1", hostile);
    let second = seed_reply(&app, short_id, "2", "Held for now");
    let conn = app.db();
    conn.execute(
        "INSERT INTO reactions (activity_id, post_id, actor_id, kind)
         SELECT 'https://peer.example/likes/' || n, id, 'https://peer.example/users/' || n, k FROM posts,
             (SELECT 1 AS n, 'like' AS k UNION ALL SELECT 2, 'like' UNION ALL SELECT 3, 'announce') WHERE short_id = ?1",
        [short_id],
    )
    .unwrap();

    let list = app.get(&format!("/api/my/blogs/{blog}/posts")).await.json::<Value>().await.unwrap();
    let listed = &list["posts"][0];
    assert_eq!(
        (listed["likes"].as_i64(), listed["boosts"].as_i64(), listed["replies"].as_i64()),
        (Some(2), Some(1), Some(2))
    );
    let one = app.get(&format!("/api/my/blogs/{blog}/posts/{short_id}")).await.json::<Value>().await.unwrap();
    assert_eq!((one["post"]["likes"].as_i64(), one["post"]["replies"].as_i64()), (Some(2), Some(2)));

    let replies_path = format!("/api/my/blogs/{blog}/replies");
    let held = app.get(&format!("{replies_path}?state=held")).await.json::<Value>().await.unwrap();
    let held = held["replies"].as_array().unwrap();
    assert_eq!(held.len(), 2);
    assert_eq!(held[0]["id"], second, "newest first");
    assert_eq!(held[1]["postId"], short_id);
    assert_eq!(held[1]["postTitle"], "Hello fediverse");
    assert_eq!(held[1]["authorHandle"], "@bob@peer.example");
    assert_eq!(held[1]["text"], hostile);
    assert_eq!(held[1]["state"], "held");
    assert_eq!(app.get(&format!("{replies_path}?state=sideways")).await.status(), 400);
    // The page was cached before the approval; approving must show it anyway.
    assert!(!app.get_with_host(&host, &page_path).await.text().await.unwrap().contains("Replies from the fediverse"));

    let resp = app.browser.post(&format!("{replies_path}/{first}/approve"), json!({})).await;
    assert_eq!(resp.status(), 200);
    let approved = resp.json::<Value>().await.unwrap();
    assert_eq!(approved["reply"]["state"], "approved");
    assert_eq!(approved["reply"]["postTitle"], "Hello fediverse");
    let listed = app.get(&format!("{replies_path}?state=approved")).await.json::<Value>().await.unwrap();
    assert_eq!(listed["replies"].as_array().unwrap().len(), 1);

    let page = app.get_with_host(&host, &page_path).await.text().await.unwrap();
    assert!(page.contains("Replies from the fediverse"));
    assert!(!page.contains("<script>alert"), "the reply's text is escaped");
    assert!(
        page.contains(
            "<p>&#60;script&#62;alert(1)&#60;/script&#62; &#34;quoted&#34; &#38; &#39;single&#39;<br>second line</p>"
        ),
        "{page}"
    );
    assert!(page.contains("<p>Second paragraph</p>"), "paragraphs kept");
    assert!(
        page.contains(r#"<a href="https://peer.example/@bob" rel="nofollow ugc">Bob &#34;B&#34; &#60;b&#62;</a>"#),
        "{page}"
    );
    assert!(page.contains("24 November 2026"));
    assert!(page.contains("</span> replied on the fediverse · "), "each response says its kind: {page}");
    assert!(!page.contains("Held for now"), "held replies are not shown");

    // Another owner cannot approve or delete it.
    let bob = app.new_browser();
    let bobs_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let resp = bob.post(&format!("/api/my/blogs/{bobs_blog}/replies/{second}/approve"), json!({})).await;
    assert_eq!(error_field(resp, 404).await.0, "reply");
    let resp = bob.send(Method::DELETE, &format!("/api/my/blogs/{bobs_blog}/replies/{first}"), json!({})).await;
    assert_eq!(error_field(resp, 404).await.0, "reply");

    // Deleting the shown reply takes it off the page; deleting the held one leaves the count at 0.
    let resp = app.browser.send(Method::DELETE, &format!("{replies_path}/{first}"), json!({})).await;
    assert_eq!(resp.status(), 204);
    assert!(!app.get_with_host(&host, &page_path).await.text().await.unwrap().contains("Replies from the fediverse"));
    assert_eq!(app.browser.send(Method::DELETE, &format!("{replies_path}/{second}"), json!({})).await.status(), 204);
    let resp = app.browser.send(Method::DELETE, &format!("{replies_path}/{second}"), json!({})).await;
    assert_eq!(error_field(resp, 404).await.0, "reply");
    let list = app.get(&format!("/api/my/blogs/{blog}/posts")).await.json::<Value>().await.unwrap();
    assert_eq!(list["posts"][0]["replies"], 0);
}

#[tokio::test]
async fn the_federation_command_blocks_and_unblocks_a_domain_for_the_whole_instance() {
    let app = TestApp::spawn().await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    seed_follower(&app, blog, "https://m.spam.example/users/x", "@x@m.spam.example", true);
    let data = s(app.dir.path()).to_owned();

    let out = quire(&["federation", "block", "Spam.Example", "--data-dir", &data]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Blocked spam.example"), "{}", stdout(&out));
    assert!(stdout(&out).contains("removed 1"), "{}", stdout(&out));
    assert_eq!(followers(&app, blog).await, [], "the running server sees it at once");
    let again = quire(&["federation", "block", "spam.example", "--data-dir", &data]);
    assert!(again.status.success());
    assert!(stdout(&again).contains("already blocked"));

    let out = quire(&["federation", "blocks", "--data-dir", &data]);
    assert_eq!(stdout(&out), "spam.example\n");

    for bad in ["10.0.0.1", "https://spam.example/", "spam.example:80"] {
        let out = quire(&["federation", "block", bad, "--data-dir", &data]);
        assert!(!out.status.success(), "{bad}");
        let err = stderr(&out);
        let line = err.lines().last().unwrap();
        assert!(line.starts_with("quire: cannot block"), "{err}");
    }
    assert_eq!(app.count("blocked_domains"), 1);

    let out = quire(&["federation", "unblock", "spam.example", "--data-dir", &data]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = quire(&["federation", "unblock", "spam.example", "--data-dir", &data]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("is not blocked"));
    let out = quire(&["federation", "blocks", "--data-dir", &data]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "");

    let empty = tempfile::tempdir().unwrap();
    let out = quire(&["federation", "blocks", "--data-dir", s(empty.path())]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no database"), "{}", stderr(&out));
}
