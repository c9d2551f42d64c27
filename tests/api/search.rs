//! Search: found right after saving, only in one's own blog, never an error for any query,
//! and never out of step with the database, even after a crash.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, quire, s, simple_body, stderr, stdout};

#[tokio::test]
async fn a_saved_post_is_found_at_once_by_its_words_drafts_included() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.create_post(blog, simple_body("Sourdough diary", "The starter bubbled overnight."), false).await;
    alice.create_post(blog, simple_body("Secret plans", "A draft about bubbles."), true).await;
    let started = Instant::now();
    assert_eq!(alice.search_titles(blog, "starter").await, ["Sourdough diary"]);
    assert!(started.elapsed() < Duration::from_secs(1));
    let mut both = alice.search_titles(blog, "bubbles").await;
    both.sort();
    assert_eq!(both, ["Secret plans", "Sourdough diary"], "stemming finds bubbled and bubbles");
    assert_eq!(alice.search_titles(blog, "SOURDOUGH").await, ["Sourdough diary"]);
    assert!(alice.search_titles(blog, "croissant").await.is_empty());
}

#[tokio::test]
async fn an_edit_is_searchable_at_once_and_old_words_are_gone() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Tomatoes", "red"), false).await;
    let path = format!("/api/my/blogs/{blog}/posts/{}", post["shortId"].as_str().unwrap());
    alice.send(reqwest::Method::PUT, &path, json!({ "body": simple_body("Cucumbers", "green"), "draft": false })).await;
    assert_eq!(alice.search_titles(blog, "cucumbers").await, ["Cucumbers"]);
    assert!(alice.search_titles(blog, "tomatoes").await.is_empty());
}

#[tokio::test]
async fn a_search_only_ever_sees_its_own_blog() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let alice_blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    alice.create_post(alice_blog, simple_body("Alice on gardening", "compost"), false).await;
    bob.create_post(bob_blog, simple_body("Bob on gardening", "compost"), true).await;
    assert_eq!(alice.search_titles(alice_blog, "gardening").await, ["Alice on gardening"]);
    assert_eq!(bob.search_titles(bob_blog, "compost").await, ["Bob on gardening"]);
    // Field prefixes are plain words: no query reaches another blog's posts.
    let sneaky = format!("compost OR blog_id:{bob_blog}");
    assert!(alice.search_titles(alice_blog, &sneaky).await.is_empty());
    assert!(bob.search_titles(bob_blog, "gardening").await == ["Bob on gardening"]);
}

#[tokio::test]
async fn any_query_a_user_can_type_is_answered_never_an_error() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.create_post(blog, simple_body("Quotes \"and\" colons: [brackets]", "AND OR NOT *"), false).await;
    for query in [
        "\"",
        "\"unclosed phrase",
        "title:",
        ":",
        "[",
        "]",
        "[1 TO",
        "{",
        "AND",
        "OR",
        "NOT",
        "AND OR",
        "*",
        "**",
        "?",
        "(",
        ")",
        "((((",
        "-",
        "+",
        "^2",
        "~",
        "\\",
        "foo:bar:baz",
        "title:\"x",
        "日本語",
        "emoji 🎉",
        "a\u{0}b",
        "published:1",
        "post_id:1",
        "\"and\"",
        "colons:",
        "IN [a b]",
    ] {
        let resp = alice.post(&format!("/api/my/blogs/{blog}/posts/search"), json!({ "query": query })).await;
        assert_eq!(resp.status(), 200, "query {query:?}");
        let body: Value = resp.json().await.unwrap();
        assert!(body["posts"].is_array(), "{query:?}");
    }
    let (field, _) =
        error_field(alice.post(&format!("/api/my/blogs/{blog}/posts/search"), json!({ "query": "   " })).await, 422)
            .await;
    assert_eq!(field, "query");
    let (field, _) = error_field(
        alice.post(&format!("/api/my/blogs/{blog}/posts/search"), json!({ "query": "x".repeat(501) })).await,
        422,
    )
    .await;
    assert_eq!(field, "query");
}

#[tokio::test]
async fn a_deleted_index_is_rebuilt_from_the_database_at_start() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.create_post(blog, simple_body("Persisted", "survives"), false).await;
    std::fs::remove_dir_all(app.dir.path().join("index")).unwrap();
    let app = app.restart().await;
    let alice = app.new_browser();
    alice.sign_in_as("alice@example.com", false).await;
    assert_eq!(alice.search_titles(blog, "survives").await, ["Persisted"]);
}

#[tokio::test]
async fn an_index_behind_the_database_is_caught_up_at_start() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.create_post(blog, simple_body("Indexed", "known words"), false).await;
    let port = app.port;
    let dir = app.stop().await;
    // A write the index never saw, as if the server died between the two commits.
    let conn = rusqlite::Connection::open(dir.path().join("quire.db")).unwrap();
    conn.execute_batch(
        "UPDATE posts SET title = 'Changed offline', body = '{\"type\":\"root\",\"children\":[{\"type\":\"paragraph\",\"value\":{\"text\":\"fresh words\"}}]}';
         UPDATE search_state SET posts_seq = posts_seq + 1;",
    )
    .unwrap();
    drop(conn);
    let app = TestApp::spawn_at(dir, port, |_| {}).await;
    let alice = app.new_browser();
    alice.sign_in_as("alice@example.com", false).await;
    assert_eq!(alice.search_titles(blog, "fresh").await, ["Changed offline"]);
    assert!(alice.search_titles(blog, "known").await.is_empty());
}

#[tokio::test]
async fn an_index_update_that_failed_is_not_hidden_by_a_later_write_and_is_repaired_at_start() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let doomed = alice.create_post(blog, simple_body("Octopus", "eight arms"), false).await;
    // A restarted server has no index writer open; holding the writer's lock (tantivy's flock
    // on .tantivy-writer.lock) from here means its next index updates cannot open one.
    let app = app.restart().await;
    let alice = app.new_browser();
    alice.sign_in_as("alice@example.com", false).await;
    let lock = std::fs::File::options()
        .write(true)
        .create(true)
        .truncate(false)
        .open(app.dir.path().join("index/.tantivy-writer.lock"))
        .unwrap();
    lock.try_lock().expect("the server's writer is closed");
    alice.create_post(blog, simple_body("Walrus", "tusks and whiskers"), false).await;
    let path = format!("/api/my/blogs/{blog}/posts/{}", doomed["shortId"].as_str().unwrap());
    assert_eq!(alice.send(reqwest::Method::DELETE, &path, json!({})).await.status(), 200);
    drop(lock);
    // A later write that succeeds must not record the index as caught up.
    alice.create_post(blog, simple_body("Narwhal", "one long tooth"), false).await;
    assert_eq!(alice.search_titles(blog, "tooth").await, ["Narwhal"]);

    let app = app.restart().await;
    let alice = app.new_browser();
    alice.sign_in_as("alice@example.com", false).await;
    assert_eq!(alice.search_titles(blog, "whiskers").await, ["Walrus"], "the failed upsert is repaired");
    assert!(alice.search_titles(blog, "arms").await.is_empty(), "the failed removal is repaired");
    assert_eq!(alice.search_titles(blog, "tooth").await, ["Narwhal"]);
}

#[tokio::test]
async fn after_a_kill_mid_write_the_restarted_server_searches_exactly_what_was_saved() {
    let dir = tempfile::tempdir().unwrap();
    let start = |port: u16| {
        Command::new(env!("CARGO_BIN_EXE_quire"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--host", &format!("localhost:{port}")])
            .args(["--data-dir", s(dir.path())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let port = free_port();
    let mut server = start(port);
    let browser = Browser::new(&format!("http://localhost:{port}"), port);
    wait_until_up(&browser).await;
    let blog = browser.sign_up_with_blog("alice@example.com", "alice").await;
    let writer = {
        let browser = browser.clone();
        tokio::spawn(async move {
            for i in 0..400 {
                let post = json!({ "body": simple_body(&format!("Crash test {i}"), "needle"), "draft": false });
                if browser
                    .client
                    .post(format!("http://localhost:{port}/api/my/blogs/{blog}/posts"))
                    .header("CSRF-Token", browser.cookie("csrf_token").unwrap())
                    .json(&post)
                    .send()
                    .await
                    .is_err()
                {
                    break;
                }
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(700)).await;
    server.kill().unwrap(); // SIGKILL: no shutdown, no flush
    server.wait().unwrap();
    writer.await.unwrap();

    let mut server = start(port);
    let browser = Browser::new(&format!("http://localhost:{port}"), port);
    wait_until_up(&browser).await;
    assert_eq!(browser.sign_in_as("alice@example.com", false).await.status(), 200);
    let listed: Value = browser.get(&format!("/api/my/blogs/{blog}/posts?page_size=100")).await.json().await.unwrap();
    let mut saved: Vec<String> = Vec::new();
    let total: u64 = {
        let resp = browser.get(&format!("/api/my/blogs/{blog}/posts?page_size=1")).await;
        resp.headers()["total"].to_str().unwrap().parse().unwrap()
    };
    assert!(total > 0, "some posts were written before the kill");
    for page in 1..=total.div_ceil(100) {
        let body: Value =
            browser.get(&format!("/api/my/blogs/{blog}/posts?page={page}&page_size=100")).await.json().await.unwrap();
        saved.extend(body["posts"].as_array().unwrap().iter().map(|p| p["title"].as_str().unwrap().to_owned()));
    }
    assert!(listed["posts"].is_array());
    let mut found = browser.search_titles(blog, "needle").await;
    if total <= 50 {
        saved.sort();
        found.sort();
        assert_eq!(found, saved, "the index holds exactly the saved posts");
    } else {
        assert_eq!(found.len(), 50, "search returns its top 50 of {total}");
        assert!(found.iter().all(|t| saved.contains(t)), "no post the database lacks");
    }
    server.kill().unwrap();
    server.wait().unwrap();
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn wait_until_up(browser: &Browser) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let probe = browser.client.get(format!("{}/healthz", browser.url())).send();
        if let Ok(Ok(resp)) = tokio::time::timeout(Duration::from_secs(2), probe).await
            && resp.status() == 200
        {
            return;
        }
        assert!(Instant::now() < deadline, "server did not come up");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn quire_reindex_rebuilds_a_stopped_servers_index_and_refuses_a_running_one() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    for i in 0..3 {
        alice.create_post(blog, simple_body(&format!("Post {i}"), "words"), false).await;
    }
    let out = quire(&["reindex", "--data-dir", s(app.dir.path())]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("another quire process"), "{}", stderr(&out));
    let dir = app.stop().await;
    let out = quire(&["reindex", "--data-dir", s(dir.path())]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Indexed 3 posts"), "{}", stdout(&out));
    assert!(stderr(&out).contains("reindex: done (3 posts)"), "{}", stderr(&out));
}

#[tokio::test]
async fn query_syntax_is_read_as_plain_words_so_ranges_and_fields_never_run() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.create_post(blog, simple_body("Apples and bananas", "fruit salad"), false).await;
    alice.create_post(blog, simple_body("From title a to z", "an index"), false).await;
    // A range over every title term would match both posts; as words, only the post that has them all.
    assert_eq!(alice.search_titles(blog, "title:[a TO z]").await, ["From title a to z"]);
    assert_eq!(alice.search_titles(blog, "title:>a").await, ["From title a to z"]);
    assert!(alice.search_titles(blog, "bana*").await.is_empty(), "no wildcard: bana* is the word bana");
    assert!(
        alice.search_titles(blog, "apples^9 OR nothing").await.is_empty(),
        "OR is a word too: all words must match"
    );
    assert_eq!(alice.search_titles(blog, "+apples -bananas").await, ["Apples and bananas"], "no operators");
    assert_eq!(alice.search_titles(blog, "title:apples").await, Vec::<String>::new(), "title is a word");
    assert_eq!(alice.search_titles(blog, "apples salad").await, ["Apples and bananas"], "title and body words");
    assert!(alice.search_titles(blog, "*").await.is_empty(), "no words, nothing found");
}

#[tokio::test]
async fn a_quoted_phrase_matches_only_those_words_in_that_order() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.create_post(blog, simple_body("In order", "the quick brown fox jumps"), false).await;
    alice.create_post(blog, simple_body("Out of order", "the brown quick fox jumps"), false).await;
    assert_eq!(alice.search_titles(blog, "\"quick brown\"").await, ["In order"]);
    assert_eq!(alice.search_titles(blog, "jumps \"brown quick\"").await, ["Out of order"]);
    let mut both = alice.search_titles(blog, "quick brown").await;
    both.sort();
    assert_eq!(both, ["In order", "Out of order"], "unquoted words in any order");
    assert_eq!(
        alice.search_titles(blog, "\"quick brown\" \"unclosed").await,
        Vec::<String>::new(),
        "the unclosed quote's words still count"
    );
}

#[tokio::test]
async fn a_hostile_query_of_many_clauses_is_answered_as_its_first_sixteen_words() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.post(&format!("/api/my/blogs/{blog}/addons/7/installation"), json!({})).await;
    let words: Vec<String> = (0..16).map(|i| format!("w{i}")).collect();
    alice.create_post(blog, simple_body("Sixteen words", &words.join(" ")), false).await;
    alice.create_post(blog, simple_body("Other", "a b c"), false).await;
    // 25 clauses of field ranges, wildcards and boosts: read as words, only the first 16 count.
    let hostile: String = (0..25).map(|i| format!("body:>{i} w{i}* ")).collect();
    let started = Instant::now();
    let found = alice.search_titles(blog, &hostile).await;
    assert!(found.is_empty(), "body, to, z are words no post has: {found:?}");
    let many: String = (0..25).map(|i| format!("w{i} ")).collect();
    assert_eq!(alice.search_titles(blog, &many).await, ["Sixteen words"], "words past the 16th are ignored");
    let page = app
        .get_with_host(
            &format!("alice.localhost:{}", app.port),
            &format!("/search?q={}", many.trim().replace(' ', "+")),
        )
        .await;
    assert!(page.text().await.unwrap().contains("Sixteen words"), "public search too");
    let page = app.get_with_host(&format!("alice.localhost:{}", app.port), "/search?q=title%3A%5Ba+TO+z%5D").await;
    let html = page.text().await.unwrap();
    assert!(!html.contains("Sixteen words") && !html.contains("Other"), "public search reads no range");
    assert!(started.elapsed() < Duration::from_secs(5));
}
