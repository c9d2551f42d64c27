//! The owner's side of email subscriptions (issue 30, docs/api.md 6.12) through the real server:
//! the switches, resuming after a pause, the list, removing, the CSV export, importing other
//! services' exports, and each post's email in the post list.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, simple_body};

/// A server that sends mail (to a relay nobody listens on: nothing here needs it delivered),
/// with alice's approved blog; `tune` changes the config further.
async fn spawn(tune: impl FnOnce(&mut quire::config::Config)) -> (TestApp, Browser, i64) {
    let app = TestApp::spawn_with(|config| {
        config.mail = Some(crate::mail::dead_relay());
        tune(config);
    })
    .await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    (app, alice, blog)
}

async fn json_of(resp: reqwest::Response, status: u16) -> Value {
    let got = resp.status().as_u16();
    let body = resp.text().await.unwrap();
    assert_eq!(got, status, "{body}");
    serde_json::from_str(&body).unwrap()
}

async fn import(alice: &Browser, blog: i64, csv: &str, consented: bool) -> reqwest::Response {
    alice.post(&format!("/api/my/blogs/{blog}/subscribers/import"), json!({ "csv": csv, "consented": consented })).await
}

fn stored(app: &TestApp) -> Vec<(String, String, String)> {
    let db = app.db();
    let mut stmt = db.prepare("SELECT email, state, source FROM subscribers ORDER BY id").unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
}

/// Ghost's members export: two who get the newsletter, one who does not, one bad address.
const GHOST: &str = "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers\n\
    1,ann@example.org,Ann,\"a note, with a comma\nand a line\",true,,,2024-03-01T10:00:00.000Z,,,\n\
    2,bo@example.org,Bo,,false,,,2024-03-02T10:00:00.000Z,,,\n\
    3,not-an-address,Cy,,true,,,2024-03-03T10:00:00.000Z,,,\n\
    4,Dee@Example.ORG,Dee,,true,,,2024-03-04T10:00:00.000Z,,,\n";

#[tokio::test]
async fn other_services_exports_are_imported_as_confirmed_only_with_consent_all_or_nothing_within_the_days_cap() {
    let (app, alice, blog) = spawn(|config| config.public.quotas.imported_subscribers_per_day = 4).await;

    // Without the owner's word that these readers consented: nothing.
    let (field, message) = error_field(import(&alice, blog, GHOST, false).await, 422).await;
    assert_eq!(field, "consented");
    assert!(message.contains("agreed to receive your posts by email"), "{message}");
    assert!(stored(&app).is_empty());

    // Ghost: the two who get the newsletter, the bad row named by its line (the quoted note
    // spans two lines), the unsubscribed one left out.
    let answer = json_of(import(&alice, blog, GHOST, true).await, 200).await;
    assert_eq!(
        answer["import"],
        json!({ "added": 2, "already": 0, "unsubscribed": 1, "invalidCount": 1,
                "invalid": [{ "line": 5, "reason": "This is not an email address." }] })
    );
    assert_eq!(
        (answer["email"]["confirmed"].clone(), answer["email"]["importsLeftToday"].clone()),
        (json!(2), json!(2))
    );
    assert_eq!(
        stored(&app),
        [
            ("ann@example.org".into(), "confirmed".into(), "import".into()),
            ("dee@example.org".into(), "confirmed".into(), "import".into())
        ]
    );
    let kept: String = app
        .db()
        .query_row("SELECT created_at FROM subscribers WHERE email = 'ann@example.org'", [], |r| r.get(0))
        .unwrap();
    assert!(kept.starts_with("2024-03-01T10:00:00"), "the date of the subscription there is kept: {kept}");

    // Buttondown: three new readers, two left today: refused whole, nobody added.
    let buttondown = "email_address,notes,metadata,tags,creation_date,subscriber_type\n\
        eve@example.org,,{},[],2022-07-01,regular\nfay@example.org,,{},[],2022-07-02,premium\n\
        gus@example.org,,{},[],2022-07-03,regular\nhal@example.org,,{},[],2022-07-04,unsubscribed\n";
    let (field, message) = error_field(import(&alice, blog, buttondown, true).await, 422).await;
    assert_eq!(field, "csv");
    assert!(message.contains("adds 3 new subscribers") && message.contains("import 2 more today"), "{message}");
    assert_eq!(stored(&app).len(), 2);

    // Substack: one new reader, one already there, one who turned mail off.
    let substack = "\u{feff}email,active_subscription,expiry,plan,email_disabled,created_at\n\
        ann@example.org,false,,other,false,2023-01-05 08:00:00\nivy@example.org,false,,other,false,2023-01-06 08:00:00\n\
        jo@example.org,false,,other,true,2023-01-07 08:00:00\n";
    let answer = json_of(import(&alice, blog, substack, true).await, 200).await;
    assert_eq!((answer["import"]["added"].clone(), answer["import"]["already"].clone()), (json!(1), json!(1)));
    assert_eq!(answer["import"]["unsubscribed"], 1);

    // A file that is no list of subscribers.
    let (field, message) = error_field(import(&alice, blog, "name,age\nAnn,3\n", true).await, 422).await;
    assert_eq!(field, "csv");
    assert!(message.starts_with("No column of email addresses was found"), "{message}");

    // The imported readers get the next post without confirming again.
    alice.create_post(blog, simple_body("For the imported", "Hello"), false).await;
    app.db().execute("UPDATE post_mailings SET due_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
    app.state.blogs.mail_due_posts().await.unwrap();
    let mut to: Vec<String> = {
        let db = app.db();
        let mut stmt = db.prepare("SELECT to_addr FROM mail_queue").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    to.sort();
    assert_eq!(to, ["ann@example.org", "dee@example.org", "ivy@example.org"]);

    // A blog waiting for review may not import.
    app.db().execute("UPDATE blogs SET state = 'new'", []).unwrap();
    let (field, message) = error_field(import(&alice, blog, GHOST, true).await, 403).await;
    assert_eq!((field.as_str(), message.as_str()), ("subscribers", "Only an approved blog may import subscribers."));
    let email = json_of(alice.get(&format!("/api/my/blogs/{blog}/email")).await, 200).await;
    assert_eq!(email["email"]["canImport"], false);
}

#[tokio::test]
async fn the_list_is_paged_searched_and_filtered_a_subscriber_removed_and_the_export_safe_for_a_spreadsheet() {
    let (app, alice, blog) = spawn(|_| {}).await;
    let csv = "email\nann@example.org\n=cmd@example.org\n+1@example.com\nbo@example.com\ncy@example.com\n";
    json_of(import(&alice, blog, csv, true).await, 200).await;
    app.db().execute("UPDATE subscribers SET state = 'bounced' WHERE email = 'bo@example.com'", []).unwrap();
    let list = format!("/api/my/blogs/{blog}/subscribers");

    let resp = alice.get(&format!("{list}?page_size=2")).await;
    assert_eq!(resp.headers()["total"], "5");
    assert_eq!(resp.headers()["totalPages"], "3");
    let page = json_of(resp, 200).await;
    let emails = |page: &Value| -> Vec<String> {
        page["subscribers"].as_array().unwrap().iter().map(|s| s["email"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(emails(&page), ["cy@example.com", "bo@example.com"], "newest first");
    let first = &page["subscribers"][0];
    assert_eq!((first["state"].clone(), first["source"].clone()), (json!("confirmed"), json!("import")));
    assert!(first["confirmedAt"].is_string() && first["lastSentAt"].is_null(), "{first}");

    let found = json_of(alice.get(&format!("{list}?q=EXAMPLE.ORG")).await, 200).await;
    assert_eq!(emails(&found), ["=cmd@example.org", "ann@example.org"]);
    let bounced = json_of(alice.get(&format!("{list}?state=bounced")).await, 200).await;
    assert_eq!(emails(&bounced), ["bo@example.com"]);
    let (field, _) = error_field(alice.get(&format!("{list}?state=gone")).await, 400).await;
    assert_eq!(field, "state");
    let (field, _) = error_field(alice.get(&format!("{list}?q={}", "a".repeat(255))).await, 400).await;
    assert_eq!(field, "q");
    let (field, _) = error_field(alice.get(&format!("{list}?page=9")).await, 400).await;
    assert_eq!(field, "page");

    // Removing: the owner's own subscriber, once; nobody else's.
    let bob = app.new_browser();
    let bobs_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let id = bounced["subscribers"][0]["id"].as_i64().unwrap();
    let (field, _) = error_field(
        bob.send(Method::DELETE, &format!("/api/my/blogs/{bobs_blog}/subscribers/{id}"), json!({})).await,
        404,
    )
    .await;
    assert_eq!(field, "subscriber");
    let (field, _) = error_field(bob.get(&list).await, 404).await;
    assert_eq!(field, "blog", "another owner's list is not found");
    let answer = json_of(alice.send(Method::DELETE, &format!("{list}/{id}"), json!({})).await, 200).await;
    assert_eq!((answer["email"]["confirmed"].clone(), answer["email"]["bounced"].clone()), (json!(4), json!(0)));
    let (field, _) = error_field(alice.send(Method::DELETE, &format!("{list}/{id}"), json!({})).await, 404).await;
    assert_eq!(field, "subscriber");
    let (field, _) = error_field(alice.send(Method::DELETE, &format!("{list}/abc"), json!({})).await, 404).await;
    assert_eq!(field, "subscriber");

    // Without the CSRF header, a write is refused and nothing goes.
    let forged = alice.client.delete(format!("{}{list}/1", app.url)).send().await.unwrap();
    assert_eq!(forged.status(), 403);
    assert_eq!(stored(&app).len(), 4);

    // The export: every subscriber, a formula-looking address defused.
    let resp = alice.get(&format!("{list}/export")).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(resp.headers()["content-disposition"], "attachment; filename=\"alice-subscribers.csv\"");
    let csv = resp.text().await.unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "email,state,source,subscribed_at,confirmed_at,last_sent_at");
    assert_eq!(lines.len(), 5);
    assert!(lines[1].starts_with("ann@example.org,confirmed,import,"), "{csv}");
    assert!(lines[2].starts_with("'=cmd@example.org,") && lines[3].starts_with("'+1@example.com,"), "{csv}");
    let (field, _) = error_field(bob.get(&format!("{list}/export")).await, 404).await;
    assert_eq!(field, "blog");

    // A file past the body limit is refused before it is read.
    let huge = "a".repeat(9 * 1024 * 1024);
    let (field, _) = error_field(import(&alice, blog, &huge, true).await, 413).await;
    assert_eq!(field, "body");
}

#[tokio::test]
async fn the_owners_switches_the_pause_and_each_posts_mail_in_the_post_list() {
    let (app, alice, blog) = spawn(|config| config.public.mail_grace = Duration::from_secs(3600)).await;
    let email = format!("/api/my/blogs/{blog}/email");
    let shown = json_of(alice.get(&email).await, 200).await;
    assert_eq!(
        shown["email"],
        json!({ "enabled": true, "replyToOwner": false, "notifyOwner": true, "pausedAt": null,
                "confirmed": 0, "pending": 0, "bounced": 0, "canImport": true, "importsLeftToday": 5000 })
    );
    let changed = json_of(alice.send(Method::PUT, &email, json!({ "notifyOwner": false })).await, 200).await;
    assert_eq!(
        (changed["email"]["notifyOwner"].clone(), changed["email"]["enabled"].clone()),
        (json!(false), json!(true))
    );
    let (field, _) = error_field(alice.send(Method::PUT, &email, json!({ "enabled": "yes" })).await, 400).await;
    assert_eq!(field, "body");
    let changed = json_of(alice.send(Method::PUT, &email, json!({ "replyToOwner": true })).await, 200).await;
    assert_eq!(
        (changed["email"]["replyToOwner"].clone(), changed["email"]["notifyOwner"].clone()),
        (json!(true), json!(false))
    );

    // A subscriber, a published post waiting for its grace period, a draft never mailed.
    json_of(import(&alice, blog, "email\nann@example.org\n", true).await, 200).await;
    alice.create_post(blog, simple_body("Waiting", "Soon in your inbox"), false).await;
    alice.create_post(blog, simple_body("A draft", "Not yet"), true).await;
    let posts = format!("/api/my/blogs/{blog}/posts");
    let list = json_of(alice.get(&posts).await, 200).await;
    let mail_of = |list: &Value, title: &str| -> Value {
        list["posts"].as_array().unwrap().iter().find(|p| p["title"] == title).unwrap()["mail"].clone()
    };
    assert!(mail_of(&list, "Waiting")["dueAt"].is_string(), "{list}");
    assert_eq!(mail_of(&list, "A draft"), Value::Null);

    // Its grace over, the message waits in the queue (nobody listens at the relay).
    app.db().execute("UPDATE post_mailings SET due_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
    app.state.blogs.mail_due_posts().await.unwrap();
    let list = json_of(alice.get(&posts).await, 200).await;
    assert_eq!(mail_of(&list, "Waiting"), json!({ "dueAt": null, "sent": 0, "waiting": 1, "failed": 0 }));

    // Paused for bounces: the owner sees it and resumes.
    app.db().execute("UPDATE blogs SET mail_paused_at = '2026-11-28T10:00:00.000Z'", []).unwrap();
    assert_eq!(json_of(alice.get(&email).await, 200).await["email"]["pausedAt"], "2026-11-28T10:00:00.000Z");
    let resumed = json_of(alice.post(&format!("{email}/resume"), json!({})).await, 200).await;
    assert_eq!(resumed["email"]["pausedAt"], Value::Null);

    // Sending off: the form leaves the blog's pages and the mail not yet sent is dropped, so
    // switching it on again sends nothing old.
    assert!(home(&app).await.contains("class=\"email-subscribe\""));
    alice.create_post(blog, simple_body("Second", "In its grace period"), false).await;
    let off = json_of(alice.send(Method::PUT, &email, json!({ "enabled": false })).await, 200).await;
    assert_eq!(off["email"]["enabled"], false);
    assert!(!home(&app).await.contains("email-subscribe"), "the form is gone");
    let left: i64 = app.db().query_row("SELECT count(*) FROM mail_queue", [], |r| r.get(0)).unwrap();
    let waiting: i64 = app.db().query_row("SELECT count(*) FROM post_mailings", [], |r| r.get(0)).unwrap();
    assert_eq!((left, waiting), (0, 0));
    json_of(alice.send(Method::PUT, &email, json!({ "enabled": true })).await, 200).await;
    app.state.blogs.mail_due_posts().await.unwrap();
    let left: i64 = app.db().query_row("SELECT count(*) FROM mail_queue", [], |r| r.get(0)).unwrap();
    assert_eq!(left, 0, "nothing old goes out");
}

async fn home(app: &TestApp) -> String {
    app.get_with_host(&format!("alice.localhost:{}", app.port), "/").await.text().await.unwrap()
}

#[tokio::test]
async fn an_instance_that_sends_no_mail_has_no_email_settings() {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    for resp in [
        alice.get(&format!("/api/my/blogs/{blog}/email")).await,
        alice.get(&format!("/api/my/blogs/{blog}/subscribers")).await,
        alice.get(&format!("/api/my/blogs/{blog}/subscribers/export")).await,
        import(&alice, blog, "email\nann@example.org\n", true).await,
    ] {
        let (field, message) = error_field(resp, 404).await;
        assert_eq!((field.as_str(), message.as_str()), ("email", "This instance does not send email."));
    }
    let list: Value = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json().await.unwrap();
    assert!(list["posts"].as_array().unwrap().iter().all(|p| p.get("mail").is_none()));
    let app_page = alice.get("/").await.text().await.unwrap();
    assert!(app_page.contains("\"email\":false"), "the page config tells the app");
}
