//! Email subscriptions (issue 30) through the real server: the form on a blog's pages (no script),
//! the double opt-in (a confirmation queued with fixed text, confirmed by a POST only), the same
//! answer whether or not an address is new, unsubscribing by POST only, and the refusals.
//! What the mail queue sends through a real SMTP server is tests/api/mail.rs's.

use std::time::Duration;

use reqwest::header::HOST;
use reqwest::redirect::Policy;

use crate::helpers::{TestApp, simple_body};

/// A server that sends mail, with alice's blog and one post.
async fn spawn() -> TestApp {
    let app = TestApp::spawn_with(|config| config.mail = Some(crate::mail::dead_relay())).await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.create_post(blog, simple_body("Hello <b>readers</b>", "First words"), false).await;
    app
}

fn host(app: &TestApp, subdomain: &str) -> String {
    format!("{subdomain}.localhost:{}", app.port)
}

/// POSTs `form` to `path` on the blog `subdomain`, as a browser without JavaScript does.
async fn post(app: &TestApp, subdomain: &str, path: &str, form: &[(&str, &str)], client: &str) -> (u16, String) {
    let resp = reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap()
        .post(format!("http://127.0.0.1:{}{path}", app.port))
        .header(HOST, host(app, subdomain))
        .header("x-forwarded-for", client)
        .form(form)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.text().await.unwrap())
}

/// The subscribe form's token on the blog's home page.
async fn page_token(app: &TestApp, subdomain: &str) -> String {
    let html = app.get_with_host(&host(app, subdomain), "/").await.text().await.unwrap();
    form_token(&html).expect("the subscribe form")
}

/// The token of the subscribe form on a page, if the page has the form.
fn form_token(html: &str) -> Option<String> {
    let form = &html[html.find("class=\"email-subscribe\"")?..];
    let at = form.find("name=\"token\" value=\"").unwrap() + 20;
    Some(form[at..at + form[at..].find('"').unwrap()].to_owned())
}

/// The queued mail of `kind`: (to, subject, text), in queue order.
fn queued(app: &TestApp, kind: &str) -> Vec<(String, String, String)> {
    let db = app.db();
    let mut stmt = db
        .prepare(
            "SELECT q.to_addr, c.subject, c.text_body FROM mail_queue q JOIN mail_contents c ON c.id = q.content_id
             WHERE c.kind = ?1 ORDER BY q.id",
        )
        .unwrap();
    stmt.query_map([kind], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
}

/// The queued confirmations: (to, subject, text).
fn confirmations(app: &TestApp) -> Vec<(String, String, String)> {
    queued(app, "confirm")
}

fn subscriber_state(app: &TestApp, email: &str) -> Option<String> {
    app.db().query_row("SELECT state FROM subscribers WHERE email = ?1", [email], |r| r.get(0)).ok()
}

#[tokio::test]
async fn a_reader_subscribes_confirms_by_post_and_unsubscribes_by_post_and_nobody_can_probe() {
    let app = spawn().await;
    let token = page_token(&app, "alice").await;
    tokio::time::sleep(Duration::from_millis(3100)).await;

    let form = [("email", " Reader@Example.ORG "), ("token", token.as_str()), ("website", "")];
    let (status, page) = post(&app, "alice", "/subscribe", &form, "203.0.113.5").await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Check your inbox"), "{page}");
    let mail = confirmations(&app);
    assert_eq!(mail.len(), 1);
    let (to, subject, text) = &mail[0];
    assert_eq!(to, "reader@example.org", "stored and mailed normalized");
    assert_eq!(subject, "Confirm your subscription to alice");
    let prefix = format!("http://{}/subscribe/confirm/", host(&app, "alice"));
    let link = text.lines().find(|l| l.starts_with(&prefix)).expect("the confirmation link").to_owned();
    assert_eq!(subscriber_state(&app, "reader@example.org").as_deref(), Some("pending"));

    // Asked again (by anyone): the same answer, no second mail.
    let (status, again) = post(&app, "alice", "/subscribe", &form, "198.51.100.7").await;
    assert_eq!((status, again.contains("Check your inbox")), (200, true));
    assert_eq!(confirmations(&app).len(), 1);

    // Following the link (as a mail scanner does) confirms nothing; the button's POST does, once.
    let path = link.strip_prefix(&format!("http://{}", host(&app, "alice"))).unwrap();
    let shown = app.get_with_host(&host(&app, "alice"), path).await;
    assert_eq!(shown.status(), 200);
    let shown = shown.text().await.unwrap();
    assert!(shown.contains("Confirm my subscription") && shown.contains(&format!("action=\"{path}\"")), "{shown}");
    assert_eq!(subscriber_state(&app, "reader@example.org").as_deref(), Some("pending"));
    let (status, done) = post(&app, "alice", path, &[], "203.0.113.5").await;
    assert_eq!((status, done.contains("You are subscribed")), (200, true), "{done}");
    assert_eq!(subscriber_state(&app, "reader@example.org").as_deref(), Some("confirmed"));
    let (status, _) = post(&app, "alice", path, &[], "203.0.113.5").await;
    assert_eq!(status, 404, "a link works once");

    // Subscribed already: still "check your inbox", still no mail.
    let (status, _) = post(&app, "alice", "/subscribe", &form, "192.0.2.1").await;
    assert_eq!((status, confirmations(&app).len()), (200, 1));

    // Unsubscribing: a GET shows a button only; another blog's token removes nothing; the
    // one-click POST (RFC 8058) needs no session or CSRF token, and is idempotent.
    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    let unsubscribe: String = app
        .db()
        .query_row("SELECT unsubscribe_token FROM subscribers WHERE email = 'reader@example.org'", [], |r| r.get(0))
        .unwrap();
    let unsubscribe_path = format!("/unsubscribe/{unsubscribe}");
    let shown = app.get_with_host(&host(&app, "alice"), &unsubscribe_path).await.text().await.unwrap();
    assert!(shown.contains("<button type=\"submit\">Unsubscribe</button>"), "{shown}");
    let one_click = [("List-Unsubscribe", "One-Click")];
    let (status, _) = post(&app, "bob", &unsubscribe_path, &one_click, "192.0.2.9").await;
    assert_eq!(status, 200);
    assert_eq!(subscriber_state(&app, "reader@example.org").as_deref(), Some("confirmed"));
    for _ in 0..2 {
        let (status, page) = post(&app, "alice", &unsubscribe_path, &one_click, "192.0.2.9").await;
        assert_eq!((status, page.contains("You are unsubscribed")), (200, true));
    }
    assert_eq!(subscriber_state(&app, "reader@example.org"), None);
    let (status, _) = post(&app, "alice", "/unsubscribe/not-a-token", &one_click, "192.0.2.9").await;
    assert_eq!(status, 200, "an unknown token says the same");
}

#[tokio::test]
async fn bad_addresses_bots_and_forged_tokens_are_refused_and_store_nothing() {
    let app = spawn().await;
    let token = page_token(&app, "alice").await;
    // Too quick: the form comes back with the address kept, escaped.
    let hostile = "<script>alert(1)</script>@example.org";
    let (status, page) =
        post(&app, "alice", "/subscribe", &[("email", hostile), ("token", &token)], "203.0.113.1").await;
    assert_eq!(status, 422);
    assert!(page.contains("That was quick") && !page.contains("<script>alert"), "{page}");
    tokio::time::sleep(Duration::from_millis(3100)).await;

    let long = format!("{}@example.org", "a".repeat(1000));
    for (email, message) in [
        ("victim@example.org\r\nBcc: all@example.org", "This is not an email address."),
        (long.as_str(), "This address is too long."),
        ("\"quoted local\"@example.org", "Quoted addresses are not accepted; use a plain one."),
        (hostile, "This is not an email address."),
        ("", "Enter your email address."),
    ] {
        let (status, page) =
            post(&app, "alice", "/subscribe", &[("email", email), ("token", &token)], "203.0.113.1").await;
        assert_eq!(status, 422, "{email:?}");
        assert!(page.contains(message), "{email:?}: {page}");
    }
    // A forged token, none at all: the form again, nothing stored.
    for forged in ["1.AAAA", ""] {
        let form = [("email", "reader@example.org"), ("token", forged)];
        let (status, page) = post(&app, "alice", "/subscribe", &form, "203.0.113.1").await;
        assert_eq!(status, 422);
        assert!(page.contains("This form has expired"), "{page}");
    }
    // The honeypot: answered as anyone is, nothing stored.
    let form = [("email", "reader@example.org"), ("token", token.as_str()), ("website", "http://spam.example")];
    let (status, page) = post(&app, "alice", "/subscribe", &form, "203.0.113.1").await;
    assert_eq!((status, page.contains("Check your inbox")), (200, true));
    // A body that is not a form.
    let (status, _) = post(&app, "alice", "/subscribe", &[("email", "%ZZ\u{0}")], "203.0.113.1").await;
    assert_eq!(status, 422);
    assert_eq!(app.count("subscribers"), 0);
    assert_eq!(app.count("mail_queue"), 0);
}

#[tokio::test]
async fn one_address_asked_a_thousand_times_gets_one_mail_and_one_client_its_allowance() {
    let app = TestApp::spawn_with(|config| {
        config.mail = Some(crate::mail::dead_relay());
        config.public.subscribe_limits.per_address = 5;
    })
    .await;
    app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let token = page_token(&app, "alice").await;
    tokio::time::sleep(Duration::from_millis(3100)).await;
    // The same address 1,000 times, each from another client: one confirmation mail.
    for i in 0..1000u32 {
        let client = format!("2001:db8:{:x}:{:x}::1", i / 256, i % 256);
        let (status, _) =
            post(&app, "alice", "/subscribe", &[("email", "victim@example.org"), ("token", &token)], &client).await;
        assert_eq!(status, 200);
    }
    assert_eq!(confirmations(&app).len(), 1);
    // Many addresses from one client: its allowance, then 429.
    let mut statuses = Vec::new();
    for i in 0..8 {
        let email = format!("reader{i}@example.org");
        statuses
            .push(post(&app, "alice", "/subscribe", &[("email", &email), ("token", &token)], "198.51.100.1").await.0);
    }
    assert_eq!(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    assert_eq!(confirmations(&app).len(), 6);
}

#[tokio::test]
async fn only_an_approved_blog_of_an_instance_that_sends_mail_takes_subscribers() {
    // No --smtp-url: no form, and the POST finds nothing to subscribe to.
    let app = TestApp::spawn().await;
    app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let html = app.get_with_host(&host(&app, "alice"), "/").await.text().await.unwrap();
    assert!(!html.contains("email-subscribe"), "{html}");
    let (status, _) = post(&app, "alice", "/subscribe", &[("email", "a@example.org")], "203.0.113.1").await;
    assert_eq!(status, 404);

    // A blog waiting for review: no form either; a suspended one answers 410.
    let app = TestApp::spawn_with(|config| {
        config.mail = Some(crate::mail::dead_relay());
        config.public.review_new_blogs = true;
    })
    .await;
    app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let html = app.get_with_host(&host(&app, "alice"), "/").await.text().await.unwrap();
    assert!(!html.contains("email-subscribe"));
    let (status, page) = post(&app, "alice", "/subscribe", &[("email", "a@example.org")], "203.0.113.1").await;
    assert_eq!(status, 404);
    assert!(page.contains("does not send its posts by email"), "{page}");
    crate::trust_states::moderate(&app, quire::domain::blog::trust_state::Moderation::Suspend, "Spam").await;
    let (status, _) = post(&app, "alice", "/subscribe", &[("email", "a@example.org")], "203.0.113.1").await;
    assert_eq!(status, 410);
    assert_eq!(app.count("subscribers"), 0);
}

#[tokio::test]
async fn the_form_shows_on_the_home_page_posts_tag_pages_and_search_and_its_cached_token_works_for_anyone() {
    let app = TestApp::spawn_with(|config| config.mail = Some(crate::mail::dead_relay())).await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.post(&format!("/api/my/blogs/{blog}/addons/7/installation"), serde_json::json!({})).await;
    let input =
        serde_json::json!({ "body": simple_body("Tagged post", "Some words"), "draft": false, "tags": ["rust"] });
    let resp = alice.post(&format!("/api/my/blogs/{blog}/posts"), input).await;
    assert_eq!(resp.status(), 201);
    let created: serde_json::Value = resp.json().await.unwrap();
    let permalink = created["post"]["permalink"].as_str().unwrap();
    let post_path = format!("/{}", permalink.splitn(4, '/').nth(3).unwrap());

    let paths = ["/", post_path.as_str(), "/tags/rust", "/search?q=words", "/search?q=words&tag=rust", "/search"];
    let mut csp = None;
    let mut tokens = Vec::new();
    for path in paths {
        let resp = app.get_with_host(&host(&app, "alice"), path).await;
        assert_eq!(resp.status(), 200, "{path}");
        let policy = resp.headers()["content-security-policy"].to_str().unwrap().to_owned();
        assert!(policy.contains("script-src 'none'") && policy.contains("form-action 'self'"), "{path}: {policy}");
        assert_eq!(csp.get_or_insert_with(|| policy.clone()), &policy, "{path}: the same policy as the home page");
        let html = resp.text().await.unwrap();
        assert_eq!(html.matches("class=\"email-subscribe\"").count(), 1, "{path}: one form");
        assert!(!html.contains("<script"), "{path}: no script");
        tokens.push((path, form_token(&html).unwrap()));
    }
    assert!(tokens.iter().any(|(path, _)| path.starts_with("/search?q=")), "a search with results");

    // The tag page is cached: a second reader gets the same page, and its token is good for
    // anyone once the fill time has passed (it holds no reader's state).
    let again = app.get_with_host(&host(&app, "alice"), "/tags/rust").await.text().await.unwrap();
    let tag_token = &tokens[2].1;
    assert_eq!(form_token(&again).as_ref(), Some(tag_token), "served from the cache");
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let search_token = &tokens[3].1;
    for (i, token) in [tag_token, search_token].into_iter().enumerate() {
        let email = format!("reader{i}@example.org");
        let client = format!("198.51.100.{}", i + 1);
        let (status, page) = post(&app, "alice", "/subscribe", &[("email", &email), ("token", token)], &client).await;
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("Check your inbox"), "{page}");
    }
    assert_eq!(confirmations(&app).len(), 2);

    // Once the blog takes no subscribers, no page shows the form, cached or not.
    crate::trust_states::moderate(&app, quire::domain::blog::trust_state::Moderation::Silence, "Spam").await;
    for path in paths {
        let resp = app.get_with_host(&host(&app, "alice"), path).await;
        assert_eq!(resp.status(), 200, "{path}: still served");
        let html = resp.text().await.unwrap();
        assert!(!html.contains("email-subscribe"), "{path}: {html}");
    }
}

/// A server that sends posts' mail `grace` after they are published, with alice's blog and the
/// confirmed subscribers `emails`.
async fn mailing_blog(grace: Duration, emails: &[&str]) -> (TestApp, crate::helpers::Browser, i64) {
    let app = TestApp::spawn_with(|config| {
        config.mail = Some(crate::mail::dead_relay());
        config.public.mail_grace = grace;
    })
    .await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    confirmed_subscribers(&app, emails).await;
    (app, alice, blog)
}

/// Subscribes and confirms each of `emails` to alice's blog through the form and the links.
pub(crate) async fn confirmed_subscribers(app: &TestApp, emails: &[&str]) {
    let token = page_token(app, "alice").await;
    tokio::time::sleep(Duration::from_millis(3100)).await;
    for (i, email) in emails.iter().enumerate() {
        let client = format!("192.0.2.{}", i + 1);
        let (status, _) = post(app, "alice", "/subscribe", &[("email", email), ("token", &token)], &client).await;
        assert_eq!(status, 200);
    }
    let prefix = format!("http://{}", host(app, "alice"));
    for (_, _, text) in confirmations(app) {
        let link = text.lines().find(|l| l.starts_with(&prefix)).unwrap();
        let (status, _) = post(app, "alice", link.strip_prefix(&prefix).unwrap(), &[], "192.0.2.200").await;
        assert_eq!(status, 200);
    }
}

/// The queued mail of posts: (to, subject, unsubscribe link, text, html), in queue order.
pub(crate) fn post_mail(app: &TestApp) -> Vec<(String, String, String, String, String)> {
    let db = app.db();
    let mut stmt = db
        .prepare(
            "SELECT q.to_addr, c.subject, q.unsubscribe_url, c.text_body, c.html_body
             FROM mail_queue q JOIN mail_contents c ON c.id = q.content_id WHERE c.kind = 'post' ORDER BY q.id",
        )
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Makes every waiting mailing due, then queues what is due, as the server's timer does.
pub(crate) async fn grace_over(app: &TestApp) {
    app.db().execute("UPDATE post_mailings SET due_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
    app.state.blogs.mail_due_posts().await.unwrap();
}

#[tokio::test]
async fn a_published_post_is_mailed_once_in_its_final_form_after_the_grace_period_and_never_for_edits_drafts_or_pages()
{
    let (app, alice, blog) = mailing_blog(Duration::from_secs(3600), &["ann@example.org", "bo@example.org"]).await;
    let posts = format!("/api/my/blogs/{blog}/posts");

    // Published with a typo, fixed within the grace period: the fixed form goes, once per reader.
    let typo = alice.create_post(blog, simple_body("Tpyo <b>here</b>", "First *words*"), false).await;
    let short_id = typo["shortId"].as_str().unwrap().to_owned();
    app.state.blogs.mail_due_posts().await.unwrap();
    assert!(post_mail(&app).is_empty(), "nothing before the grace period is over");
    let fixed = serde_json::json!({ "body": simple_body("Fixed <b>here</b>", "First *words*"), "draft": false });
    assert_eq!(alice.send(reqwest::Method::PUT, &format!("{posts}/{short_id}"), fixed.clone()).await.status(), 200);
    grace_over(&app).await;
    let mail = post_mail(&app);
    assert_eq!(mail.len(), 2, "{mail:?}");
    let (to, subject, unsubscribe, text, html) = &mail[0];
    assert_eq!((to.as_str(), subject.as_str()), ("ann@example.org", "Fixed <b>here</b>"));
    let ann_token: String = app
        .db()
        .query_row("SELECT unsubscribe_token FROM subscribers WHERE email = 'ann@example.org'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(unsubscribe, &format!("http://{}/unsubscribe/{ann_token}", host(&app, "alice")));
    let permalink = format!("http://{}/fixed-b-here-b-{short_id}", host(&app, "alice"));
    assert!(text.contains("First *words*") && text.contains(&permalink), "{text}");
    assert!(html.contains("<em>words</em>") && html.contains("Fixed &lt;b&gt;here&lt;/b&gt;"), "{html}");
    assert_ne!(mail[1].2, *unsubscribe, "each reader has their own link");

    // Edited again (a published post stays published): never a second mail.
    assert_eq!(alice.send(reqwest::Method::PUT, &format!("{posts}/{short_id}"), fixed).await.status(), 200);
    grace_over(&app).await;
    assert_eq!(post_mail(&app).len(), 2);

    // A draft sends nothing until it is published; a post deleted within its grace period
    // (Quire's way to unpublish) sends nothing; a page sends nothing.
    let draft = alice.create_post(blog, simple_body("Draft", "x"), true).await;
    grace_over(&app).await;
    assert_eq!(post_mail(&app).len(), 2);
    let draft_path = format!("{posts}/{}", draft["shortId"].as_str().unwrap());
    let publish = serde_json::json!({ "body": simple_body("Draft", "now out"), "draft": false });
    let deleted = alice.create_post(blog, simple_body("Deleted", "x"), false).await;
    let path = format!("{posts}/{}", deleted["shortId"].as_str().unwrap());
    assert_eq!(alice.send(reqwest::Method::DELETE, &path, serde_json::json!({})).await.status(), 200);
    let page = serde_json::json!({ "body": simple_body("About", "Me"), "draft": false, "page": true });
    assert_eq!(alice.post(&posts, page).await.status(), 201);
    grace_over(&app).await;
    assert_eq!(post_mail(&app).len(), 2);
    assert_eq!(app.count("post_mailings"), 0);
    assert_eq!(alice.send(reqwest::Method::PUT, &draft_path, publish).await.status(), 200);
    grace_over(&app).await;
    let subjects: Vec<String> = post_mail(&app).into_iter().skip(2).map(|m| m.1).collect();
    assert_eq!(subjects, ["Draft", "Draft"], "published at last: mailed to both readers");

    // An unsubscribed reader gets the next post no more.
    let (status, _) =
        post(&app, "alice", &format!("/unsubscribe/{ann_token}"), &[("List-Unsubscribe", "One-Click")], "192.0.2.9")
            .await;
    assert_eq!(status, 200);
    alice.create_post(blog, simple_body("Second", "More"), false).await;
    grace_over(&app).await;
    let mail = post_mail(&app);
    let tos: Vec<&str> = mail.iter().filter(|m| m.1 == "Second").map(|m| m.0.as_str()).collect();
    assert_eq!(tos, ["bo@example.org"]);
    assert!(mail.iter().all(|m| m.0 != "ann@example.org"), "what was still queued for her went with her");

    // Silenced, the blog mails nothing of what it publishes, then or later.
    crate::trust_states::moderate(&app, quire::domain::blog::trust_state::Moderation::Silence, "Spam").await;
    alice.create_post(blog, simple_body("While silenced", "x"), false).await;
    grace_over(&app).await;
    crate::trust_states::moderate(&app, quire::domain::blog::trust_state::Moderation::Approve, "").await;
    grace_over(&app).await;
    assert!(post_mail(&app).iter().all(|m| m.1 != "While silenced"));
    assert_eq!(app.count("post_mailings"), 0);
}

#[tokio::test]
async fn a_scheduled_post_is_mailed_when_its_time_comes_by_the_servers_own_timers() {
    let (app, alice, blog) = mailing_blog(Duration::ZERO, &["ann@example.org"]).await;
    let at = time::OffsetDateTime::now_utc() + time::Duration::seconds(2);
    let at = at.format(&time::format_description::well_known::Rfc3339).unwrap();
    let body = serde_json::json!({ "body": simple_body("Later", "Soon"), "draft": false, "publish_at": at });
    assert_eq!(alice.post(&format!("/api/my/blogs/{blog}/posts"), body).await.status(), 201);
    assert!(post_mail(&app).is_empty());
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while post_mail(&app).is_empty() {
        assert!(std::time::Instant::now() < deadline, "the scheduled post's mail was not queued in 20 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(post_mail(&app)[0].1, "Later");
}

#[tokio::test]
async fn deleting_the_account_deletes_its_subscribers_and_the_mail_still_queued() {
    let (app, alice, blog) = mailing_blog(Duration::from_secs(3600), &["ann@example.org"]).await;
    alice.create_post(blog, simple_body("Out", "x"), false).await;
    grace_over(&app).await;
    alice.create_post(blog, simple_body("Waiting", "x"), false).await;
    assert_eq!((app.count("subscribers"), app.count("post_mailings")), (1, 1));
    assert!(app.count("mail_queue") >= 2, "the confirmation and the post");
    let resp = alice.send(reqwest::Method::DELETE, &format!("/api/my/blogs/{blog}"), serde_json::json!({})).await;
    assert_eq!(resp.status(), 200, "Delete Account");
    for table in ["subscribers", "post_mailings", "mail_queue", "mail_contents"] {
        assert_eq!(app.count(table), 0, "{table}");
    }
}

/// Holds a fediverse reply to the blog's first post for the owner's approval, as the inbox does.
fn held_reply(app: &TestApp, note: &str) {
    app.db()
        .execute(
            "INSERT INTO replies (note_id, post_id, actor_id, author_name, author_handle, author_url, text, published_at, state)
             SELECT ?1, min(id), 'https://m.example/users/x', '<b>X</b>', '@x@m.example', 'https://m.example/@x', 'hi',
                    '2026-11-28T00:00:00.000Z', 'held' FROM posts",
            [note],
        )
        .unwrap();
}

fn digests(app: &TestApp) -> Vec<(String, String, String)> {
    queued(app, "digest")
}

#[tokio::test]
async fn the_owner_gets_at_most_one_digest_an_hour_of_what_waits_and_none_when_turned_off() {
    let app = spawn().await;
    app.state.blogs.send_digests().await.unwrap();
    assert!(digests(&app).is_empty(), "nothing waits");
    held_reply(&app, "https://m.example/notes/1");
    held_reply(&app, "https://m.example/notes/2");
    app.db()
        .execute(
            "INSERT INTO given_up_hosts (blog_id, host, deliveries, last_error) VALUES (1, 'dead.example', 3, '503')",
            [],
        )
        .unwrap();
    app.db()
        .execute(
            "INSERT INTO responses (blog_id, post_id, kind, state, author_name, text)
             SELECT 1, min(id), 'comment', 'held', '<i>Y</i>', 'a comment' FROM posts",
            [],
        )
        .unwrap();
    app.state.blogs.send_digests().await.unwrap();
    let sent = digests(&app);
    assert_eq!(sent.len(), 1);
    let (to, subject, text) = &sent[0];
    assert_eq!((to.as_str(), subject.as_str()), ("alice@example.com", "What waits for you on alice"));
    assert!(text.contains("2 replies from the fediverse wait for your approval."), "{text}");
    assert!(text.contains(&format!("{}/d/responses", app.url)), "{text}");
    assert!(text.contains("gave up delivering your posts to 1 server"), "{text}");
    assert!(text.contains("1 comment waits for your approval."), "{text}");
    assert!(!text.contains("<b>X</b>") && !text.contains("<i>Y</i>"), "nothing a stranger wrote");

    // Within the hour: nothing more, whatever comes.
    held_reply(&app, "https://m.example/notes/3");
    app.state.blogs.send_digests().await.unwrap();
    assert_eq!(digests(&app).len(), 1);
    // An hour later: only what came since.
    app.db().execute("UPDATE blogs SET digest_sent_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
    app.db().execute("UPDATE replies SET received_at = '1999-01-01T00:00:00.000Z' WHERE note_id LIKE '%/1' OR note_id LIKE '%/2'", []).unwrap();
    app.db().execute("UPDATE given_up_hosts SET given_up_at = '1999-01-01T00:00:00.000Z'", []).unwrap();
    app.db().execute("UPDATE responses SET created_at = '1999-01-01T00:00:00.000Z'", []).unwrap();
    app.state.blogs.send_digests().await.unwrap();
    let sent = digests(&app);
    assert_eq!(sent.len(), 2);
    assert!(sent[1].2.contains("1 reply from the fediverse waits"), "{}", sent[1].2);
    assert!(!sent[1].2.contains("gave up") && !sent[1].2.contains("comment"), "{}", sent[1].2);
    // Turned off: none.
    app.db().execute("UPDATE blogs SET notify_owner = 0, digest_sent_at = NULL", []).unwrap();
    held_reply(&app, "https://m.example/notes/4");
    app.state.blogs.send_digests().await.unwrap();
    assert_eq!(digests(&app).len(), 2);
}

#[tokio::test]
async fn an_admin_sees_what_a_blog_sends_by_email() {
    let app = TestApp::spawn_with(|config| {
        config.mail = Some(crate::mail::dead_relay());
        config.public.admins = vec!["admin@example.com".to_owned()];
    })
    .await;
    app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    confirmed_subscribers(&app, &["ann@example.org", "bo@example.org"]).await;
    app.db()
        .execute_batch(
            "INSERT INTO mail_sent_daily (blog_id, day, sent) VALUES (1, strftime('%Y-%m-%d', 'now'), 7);
             UPDATE blogs SET mail_paused_at = '2026-11-28T10:00:00.000Z';",
        )
        .unwrap();
    let admin = app.new_browser();
    admin.sign_up("admin@example.com").await;
    let answer: serde_json::Value = admin.get("/api/admin/blogs/alice").await.json().await.unwrap();
    assert_eq!(
        answer["blog"]["mail"],
        serde_json::json!({ "subscribers": 2, "sentToday": 7, "bounced": 0, "pausedAt": "2026-11-28T10:00:00.000Z" })
    );
}
