//! Comments (issue 31, docs/responses.md) through the real server: the form under a post (no
//! script), its defences, the owner's settings and queue, and what a reader then sees.

use std::time::Duration;

use reqwest::Method;
use reqwest::header::HOST;
use reqwest::redirect::Policy;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, simple_body};

/// alice's approved blog with one post, comments in `mode`; answers the post's path.
async fn blog_with_post(app: &TestApp, mode: &str) -> (Browser, i64, String) {
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Hello readers", "First words"), false).await;
    let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/comments"), json!({ "mode": mode })).await;
    assert_eq!(resp.status(), 200);
    let link = post["permalink"].as_str().unwrap();
    let path = format!("/{}", link.splitn(4, '/').nth(3).unwrap());
    (alice, blog, path)
}

fn host(app: &TestApp) -> String {
    format!("alice.localhost:{}", app.port)
}

async fn page(app: &TestApp, path: &str) -> String {
    app.get_with_host(&host(app), path).await.text().await.unwrap()
}

/// The comment form's post id and token on the post's page.
async fn form_of(app: &TestApp, path: &str) -> (String, String) {
    let html = page(app, path).await;
    let form = &html[html.find("class=\"comment-form\"").expect("the comment form")..];
    let value = |name: &str| {
        let at = form.find(&format!("name=\"{name}\" value=\"")).unwrap() + name.len() + 15;
        form[at..at + form[at..].find('"').unwrap()].to_owned()
    };
    (value("post"), value("token"))
}

/// POSTs the comment form as a browser without JavaScript, from `client`, with `cookie`.
async fn send(
    app: &TestApp,
    form: &[(&str, &str)],
    client: &str,
    cookie: Option<&str>,
) -> (u16, String, Option<String>) {
    let mut request = reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap()
        .post(format!("http://127.0.0.1:{}/comments", app.port))
        .header(HOST, host(app))
        .header("x-forwarded-for", client)
        .form(form);
    if let Some(cookie) = cookie {
        request = request.header("cookie", format!("quire_commenter={cookie}"));
    }
    let resp = request.send().await.unwrap();
    let status = resp.status().as_u16();
    let set = resp.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_owned());
    (status, resp.text().await.unwrap(), set)
}

fn stored(app: &TestApp) -> Vec<(String, String)> {
    let db = app.db();
    let mut stmt = db.prepare("SELECT author_name, state FROM responses ORDER BY id").unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
}

#[tokio::test]
async fn a_reader_comments_without_script_the_owner_approves_and_it_shows_escaped() {
    let app = TestApp::spawn().await;
    let (alice, blog, path) = blog_with_post(&app, "off").await;
    assert!(!page(&app, &path).await.contains("comment-form"), "off by default: no form");
    let (status, answer, _) =
        send(&app, &[("post", "whatever"), ("name", "Ann"), ("text", "Hi")], "203.0.113.9", None).await;
    assert_eq!((status, answer.contains("Comments are closed")), (404, true));

    let settings = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/comments"), json!({ "mode": "held" })).await;
    assert_eq!(settings.json::<Value>().await.unwrap()["comments"], json!({ "mode": "held", "blockedWords": [] }));
    let (post, token) = form_of(&app, &path).await;
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let hostile =
        "Some *kind* words <script>alert(1)</script> [click](javascript:alert(1)) and [mine](https://ann.example)";
    let form = [
        ("post", post.as_str()),
        ("token", token.as_str()),
        ("name", "Ann <b>Lee</b>\u{202e}"),
        ("website", "https://ann.example/"),
        ("text", hostile),
        ("homepage", ""),
    ];
    let (status, answer, cookie) = send(&app, &form, "203.0.113.9", None).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("waiting for approval"), "{answer}");
    assert!(cookie.unwrap().contains("quire_commenter="), "the commenter's cookie, on this host");
    assert!(!page(&app, &path).await.contains("kind"), "held: not on the page");

    // The owner's queue holds it; approving shows it, escaped.
    let held: Value = alice.get(&format!("/api/my/blogs/{blog}/responses")).await.json().await.unwrap();
    let comment = &held["responses"][0];
    assert_eq!((comment["kind"].clone(), comment["state"].clone()), (json!("comment"), json!("held")));
    assert_eq!(comment["authorName"], "Ann <b>Lee</b>", "the right-to-left override left out");
    assert_eq!(comment["postId"], post);
    let id = comment["id"].as_i64().unwrap();
    let approved = alice.post(&format!("/api/my/blogs/{blog}/responses/{id}/approve"), json!({})).await;
    assert_eq!(approved.json::<Value>().await.unwrap()["response"]["state"], "approved");
    let html = page(&app, &path).await;
    let shown = &html[html.find("class=\"responses\"").expect("the responses")..];
    assert!(shown.contains("Ann &#60;b&#62;Lee&#60;/b&#62;") && !shown.contains("<b>"), "{shown}");
    assert!(shown.contains("<em>kind</em>"), "{shown}");
    assert!(shown.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !shown.contains("<script>"), "{shown}");
    assert!(!shown.contains("javascript:"), "{shown}");
    assert!(shown.contains("<a href=\"https://ann.example\" rel=\"nofollow ugc noopener\">mine</a>"), "{shown}");
    assert!(shown.contains("href=\"https://ann.example/\" rel=\"nofollow ugc\""), "{shown}");

    // Spam takes it off the page; delete removes it; another owner reaches nothing.
    let spam = alice.post(&format!("/api/my/blogs/{blog}/responses/{id}/spam"), json!({})).await;
    assert_eq!(spam.status(), 200);
    assert!(!page(&app, &path).await.contains("class=\"responses\""));
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let (field, _) =
        error_field(bob.post(&format!("/api/my/blogs/{bobs}/responses/{id}/approve"), json!({})).await, 404).await;
    assert_eq!(field, "response");
    let (field, _) = error_field(bob.get(&format!("/api/my/blogs/{blog}/responses")).await, 404).await;
    assert_eq!(field, "blog");
    let gone = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/responses/{id}"), json!({})).await;
    assert_eq!(gone.status(), 204);
    assert!(stored(&app).is_empty());
}

#[tokio::test]
async fn bots_bad_fields_floods_and_blocked_words_are_refused_or_kept_out_of_sight() {
    let app = TestApp::spawn_with(|config| {
        config.public.comment_limits.per_address = 4;
        config.public.comment_limits.max_links = 2;
    })
    .await;
    let (alice, blog, path) = blog_with_post(&app, "held").await;
    let (post, token) = form_of(&app, &path).await;
    let words = |name: &'static str, text: &'static str| -> Vec<(&'static str, String)> {
        vec![("post", post.clone()), ("token", token.clone()), ("name", name.to_owned()), ("text", text.to_owned())]
    };
    let as_pairs = |form: &[(&'static str, String)]| -> Vec<(&'static str, String)> { form.to_vec() };
    let send_owned = |form: Vec<(&'static str, String)>, client: &'static str| {
        let app = &app;
        async move {
            let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            send(app, &pairs, client, None).await
        }
    };

    // Sent at once (a bot): the form again, the words kept, nothing stored.
    let (status, answer, _) = send_owned(words("Ann", "Too quick"), "198.51.100.1").await;
    assert_eq!(status, 422);
    assert!(answer.contains("That was quick") && answer.contains("Too quick"), "{answer}");
    tokio::time::sleep(Duration::from_millis(3100)).await;

    // A filled honeypot: answered as held, nothing stored.
    let mut trap = as_pairs(&words("Bot", "Buy now"));
    trap.push(("homepage", "https://spam.example".to_owned()));
    let (status, answer, _) = send_owned(trap, "198.51.100.1").await;
    assert_eq!((status, answer.contains("waiting for approval")), (200, true));
    assert!(stored(&app).is_empty());

    // Another post's token, a forged one: refused.
    let other = alice.create_post(blog, simple_body("Second", "More"), false).await;
    let mut forged = as_pairs(&words("Ann", "Wrong post"));
    forged[0].1 = other["shortId"].as_str().unwrap().to_owned();
    let (status, answer, _) = send_owned(forged, "198.51.100.1").await;
    assert_eq!((status, answer.contains("This form has expired")), (422, true), "{answer}");

    // Bad fields: named, words kept.
    let mut bad = as_pairs(&words("", "x"));
    bad.push(("website", "javascript:alert(1)".to_owned()));
    let (status, answer, _) = send_owned(bad, "198.51.100.1").await;
    assert_eq!(status, 422);
    assert!(answer.contains("Enter your name.") && answer.contains("https:// or http://"), "{answer}");
    let (status, answer, _) =
        send_owned(words("Ann", "https://a.example https://b.example https://c.example"), "198.51.100.1").await;
    assert_eq!((status, answer.contains("at most 2 links")), (422, true), "{answer}");
    let long: &'static str = Box::leak("x".repeat(5_001).into_boxed_str());
    let (status, _, _) = send_owned(words("Ann", long), "198.51.100.1").await;
    assert_eq!(status, 422);
    assert!(stored(&app).is_empty(), "nothing refused is stored");

    // The same comment twice: stored once, answered the same.
    for _ in 0..2 {
        let (status, _, _) = send_owned(words("Ann", "Same words"), "198.51.100.2").await;
        assert_eq!(status, 200);
    }
    assert_eq!(stored(&app).len(), 1);

    // Blocked words: to Spam, the sender told the same.
    alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/comments"), json!({ "blockedWords": [" CASINO "] })).await;
    let (status, _, _) = send_owned(words("Ann", "Best casino online"), "198.51.100.3").await;
    assert_eq!(status, 200);
    assert_eq!(stored(&app).last().unwrap().1, "spam");

    // One address's allowance (4 a day here), then 429; others still get through.
    for n in 0..3 {
        let text: &'static str = Box::leak(format!("Comment number {n}").into_boxed_str());
        assert_eq!(send_owned(words("Flood", text), "192.0.2.50").await.0, 200);
    }
    let (status, answer, _) = send_owned(words("Flood", "one more"), "192.0.2.50").await;
    assert_eq!(status, 200, "{answer}");
    let (status, answer, _) = send_owned(words("Flood", "and more"), "192.0.2.50").await;
    assert_eq!((status, answer.contains("many comments today")), (429, true), "{answer}");
    assert_eq!(send_owned(words("Other", "fresh address"), "192.0.2.51").await.0, 200);
    let (field, _) = error_field(
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/comments"), json!({ "mode": "all" })).await,
        422,
    )
    .await;
    assert_eq!(field, "mode");
}

#[tokio::test]
async fn in_trusted_mode_a_commenter_approved_once_shows_at_once_after() {
    let app = TestApp::spawn().await;
    let (alice, blog, path) = blog_with_post(&app, "trusted").await;
    let (post, token) = form_of(&app, &path).await;
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let form = |text: &'static str| {
        vec![("post", post.clone()), ("token", token.clone()), ("name", "Ann".to_owned()), ("text", text.to_owned())]
    };
    let pairs = |form: &[(&'static str, String)]| form.iter().map(|(k, v)| (*k, v.clone())).collect::<Vec<_>>();
    let first = pairs(&form("First time"));
    let first: Vec<(&str, &str)> = first.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (_, _, cookie) = send(&app, &first, "203.0.113.20", None).await;
    let cookie = cookie.unwrap();
    let id = cookie.split(';').next().unwrap().split_once('=').unwrap().1.to_owned();
    let held: Value = alice.get(&format!("/api/my/blogs/{blog}/responses")).await.json().await.unwrap();
    let first_id = held["responses"][0]["id"].as_i64().unwrap();
    alice.post(&format!("/api/my/blogs/{blog}/responses/{first_id}/approve"), json!({})).await;

    let second = pairs(&form("Second time"));
    let second: Vec<(&str, &str)> = second.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, answer, _) = send(&app, &second, "203.0.113.20", Some(&id)).await;
    assert_eq!((status, answer.contains("Your comment is under the post")), (200, true), "{answer}");
    assert!(page(&app, &path).await.contains("Second time"), "shown at once, the cached page renewed");
    // Without the cookie, the same name is a stranger's: held.
    let third = pairs(&form("Third time"));
    let third: Vec<(&str, &str)> = third.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (_, answer, _) = send(&app, &third, "203.0.113.20", None).await;
    assert!(answer.contains("waiting for approval"));
}

#[tokio::test]
async fn the_owner_replies_blocks_an_address_acts_in_bulk_and_sees_counts_per_post() {
    let app = TestApp::spawn().await;
    let (alice, blog, path) = blog_with_post(&app, "held").await;
    let (post, token) = form_of(&app, &path).await;
    tokio::time::sleep(Duration::from_millis(3100)).await;
    for (name, client) in
        [("Ann", "203.0.113.1"), ("Bo", "203.0.113.2"), ("Cy", "203.0.113.3"), ("Spammer", "192.0.2.66")]
    {
        let text = format!("A comment from {name}");
        let form = [("post", post.as_str()), ("token", token.as_str()), ("name", name), ("text", text.as_str())];
        assert_eq!(send(&app, &form, client, None).await.0, 200);
    }
    let responses = format!("/api/my/blogs/{blog}/responses");
    let held: Value = alice.get(&responses).await.json().await.unwrap();
    let id_of = |name: &str| {
        held["responses"].as_array().unwrap().iter().find(|r| r["authorName"] == name).unwrap()["id"].as_i64().unwrap()
    };
    let posts: Value = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json().await.unwrap();
    assert_eq!(posts["posts"][0]["responses"], 4, "held comments count on the post list");

    // Block: the comment to Spam, and that address's next comment too.
    let blocked = alice.post(&format!("{responses}/{}/block", id_of("Spammer")), json!({})).await;
    assert_eq!(blocked.json::<Value>().await.unwrap()["response"]["state"], "spam");
    let form =
        [("post", post.as_str()), ("token", token.as_str()), ("name", "Spammer"), ("text", "Again, differently")];
    assert_eq!(send(&app, &form, "192.0.2.66", None).await.0, 200);
    let spam: Value = alice.get(&format!("{responses}?state=spam")).await.json().await.unwrap();
    assert_eq!(spam["responses"].as_array().unwrap().len(), 2);

    // Bulk: approve two at once (another blog's id is skipped); then delete one.
    let (ann, bo, cy) = (id_of("Ann"), id_of("Bo"), id_of("Cy"));
    let done =
        alice.post(&format!("{responses}/bulk"), json!({ "ids": [ann, bo, 999_999], "action": "approve" })).await;
    assert_eq!(done.json::<Value>().await.unwrap(), json!({ "done": 2 }));
    let (field, _) =
        error_field(alice.post(&format!("{responses}/bulk"), json!({ "ids": [cy], "action": "publish" })).await, 422)
            .await;
    assert_eq!(field, "action");
    let done = alice.post(&format!("{responses}/bulk"), json!({ "ids": [cy], "action": "delete" })).await;
    assert_eq!(done.json::<Value>().await.unwrap(), json!({ "done": 1 }));

    // The owner's reply shows under the comment, through the one renderer.
    let replied = alice
        .send(Method::PUT, &format!("{responses}/{ann}/reply"), json!({ "text": "Thanks, *Ann* <script>x</script>" }))
        .await;
    assert_eq!(replied.json::<Value>().await.unwrap()["response"]["ownerReply"], "Thanks, *Ann* <script>x</script>");
    let html = page(&app, &path).await;
    let shown = &html[html.find("class=\"responses\"").unwrap()..];
    assert!(shown.contains("A comment from Ann") && shown.contains("A comment from Bo"), "{shown}");
    assert!(shown.contains("The author replied") && shown.contains("<em>Ann</em>"), "{shown}");
    assert!(!shown.contains("<script>x"), "{shown}");
    let (field, _) = error_field(
        alice.send(Method::PUT, &format!("{responses}/{ann}/reply"), json!({ "text": "x".repeat(5_001) })).await,
        422,
    )
    .await;
    assert_eq!(field, "text");
    let posts: Value = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json().await.unwrap();
    assert_eq!(posts["posts"][0]["responses"], 2, "spam and deleted ones are not counted");
}

#[tokio::test]
async fn a_commenters_secret_link_changes_or_deletes_the_comment_for_fifteen_minutes() {
    let app = TestApp::spawn().await;
    let (alice, blog, path) = blog_with_post(&app, "held").await;
    let (post, token) = form_of(&app, &path).await;
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let form = [("post", post.as_str()), ("token", token.as_str()), ("name", "Ann"), ("text", "Frist!")];
    let (_, answer, _) = send(&app, &form, "203.0.113.1", None).await;
    let prefix = format!("http://{}/comments/edit/", host(&app));
    let at = answer.find(&format!("href=\"{prefix}")).expect("the secret link, shown once") + 6;
    let link = &answer[at..at + answer[at..].find('"').unwrap()];
    let edit_path = link.strip_prefix(&format!("http://{}", host(&app))).unwrap().to_owned();

    let shown = page(&app, &edit_path).await;
    assert!(shown.contains("Frist!") && shown.contains("Delete my comment"), "{shown}");
    let save = |pairs: Vec<(&'static str, &'static str)>| {
        let (app, edit_path) = (&app, edit_path.clone());
        async move {
            let resp = reqwest::Client::new()
                .post(format!("http://127.0.0.1:{}{edit_path}", app.port))
                .header(HOST, host(app))
                .form(&pairs)
                .send()
                .await
                .unwrap();
            (resp.status().as_u16(), resp.text().await.unwrap())
        }
    };
    let (status, answer) = save(vec![("name", "Ann"), ("text", ""), ("action", "save")]).await;
    assert_eq!((status, answer.contains("Write your comment.")), (422, true), "{answer}");
    let (status, answer) = save(vec![("name", "Ann"), ("text", "First!"), ("action", "save")]).await;
    assert_eq!((status, answer.contains("Your comment is changed")), (200, true), "{answer}");
    let held: Value = alice.get(&format!("/api/my/blogs/{blog}/responses")).await.json().await.unwrap();
    assert_eq!(
        (held["responses"][0]["text"].clone(), held["responses"][0]["state"].clone()),
        (json!("First!"), json!("held"))
    );

    // A forged link, and the real one past its 15 minutes: nothing changes.
    let (status, _) = {
        let resp = reqwest::Client::new()
            .post(format!("http://127.0.0.1:{}/comments/edit/{}", app.port, "0".repeat(32)))
            .header(HOST, host(&app))
            .form(&[("action", "delete")])
            .send()
            .await
            .unwrap();
        (resp.status().as_u16(), ())
    };
    assert_eq!(status, 404);
    app.db().execute("UPDATE responses SET created_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
    let (status, answer) = save(vec![("action", "delete")]).await;
    assert_eq!((status, answer.contains("This link has expired")), (404, true), "{answer}");
    assert_eq!(stored(&app).len(), 1);
    app.db().execute("UPDATE responses SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')", []).unwrap();
    let (status, answer) = save(vec![("action", "delete")]).await;
    assert_eq!((status, answer.contains("Your comment is deleted")), (200, true), "{answer}");
    assert!(stored(&app).is_empty());
}

#[tokio::test]
async fn a_post_whose_comments_are_closed_shows_no_form_and_takes_none() {
    let app = TestApp::spawn().await;
    let (alice, blog, path) = blog_with_post(&app, "held").await;
    let (post, token) = form_of(&app, &path).await;
    let close = format!("/api/my/blogs/{blog}/posts/{post}/comments");
    let closed = alice.send(Method::PUT, &close, json!({ "closed": true })).await;
    assert_eq!(closed.json::<Value>().await.unwrap(), json!({ "commentsClosed": true }));
    let posts: Value = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json().await.unwrap();
    assert_eq!(posts["posts"][0]["commentsClosed"], true);
    assert!(!page(&app, &path).await.contains("comment-form"), "the form is gone at once");
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let form = [("post", post.as_str()), ("token", token.as_str()), ("name", "Ann"), ("text", "Late")];
    let (status, answer, _) = send(&app, &form, "203.0.113.1", None).await;
    assert_eq!((status, answer.contains("Comments are closed")), (404, true), "{answer}");
    assert!(stored(&app).is_empty());
    let (field, _) = error_field(
        alice
            .send(Method::PUT, &format!("/api/my/blogs/{blog}/posts/nosuchid/comments"), json!({ "closed": true }))
            .await,
        404,
    )
    .await;
    assert_eq!(field, "post");
    alice.send(Method::PUT, &close, json!({ "closed": false })).await;
    assert!(page(&app, &path).await.contains("comment-form"));
}
