//! Abuse reports (issue 29): the "Report" link on every blog page, the report page that works
//! without JavaScript, and its defences (honeypot, signed token with a minimum fill time,
//! per-address allowance, a cap on open reports).

use std::time::{Duration, Instant};

use reqwest::redirect::Policy;

use crate::helpers::{TestApp, simple_body};

/// A client that shows redirects instead of following them, as a test must see a 303.
fn client() -> reqwest::Client {
    reqwest::Client::builder().redirect(Policy::none()).build().unwrap()
}

/// The value of the hidden `name` field of the form in `html`.
fn field(html: &str, name: &str) -> String {
    let at = html.find(&format!("name=\"{name}\" value=\"")).unwrap_or_else(|| panic!("no {name} in {html}"));
    let rest = &html[at + name.len() + 15..];
    rest[..rest.find('"').unwrap()].to_owned()
}

/// The report form for `query` (`blog=alice`), with its token.
async fn form(app: &TestApp, query: &str) -> (String, String) {
    let resp = client().get(format!("{}/report?{query}", app.url)).send().await.unwrap();
    assert_eq!(resp.status(), 200, "{query}");
    let csp = resp.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains("default-src 'none'") && !csp.contains("script-src"), "no script may run: {csp}");
    let html = resp.text().await.unwrap();
    assert!(!html.contains("<script"), "the form needs no script");
    let token = field(&html, "token");
    (html, token)
}

/// POSTs the form as a browser without JavaScript does, from `client_address` (a trusted
/// loopback proxy forwards it).
async fn send(app: &TestApp, fields: &[(&str, &str)], client_address: &str) -> reqwest::Response {
    client()
        .post(format!("{}/report", app.url))
        .header("x-forwarded-for", client_address)
        .form(fields)
        .send()
        .await
        .unwrap()
}

fn open_reports(app: &TestApp) -> Vec<(String, String, String, String, String)> {
    let db = app.db();
    let mut stmt =
        db.prepare("SELECT subdomain, post_url, reason, details, contact_email FROM reports ORDER BY id").unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test]
async fn a_reader_reports_a_post_from_its_report_link_and_script_in_every_field_stays_text() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Cheap pills", "Buy now"), false).await;
    let permalink = post["permalink"].as_str().unwrap().to_owned();
    let host = format!("alice.localhost:{}", app.port);

    // Every page's footer links to the report page: the blog's for the index, the post's for a post.
    let index = app.get_with_host(&host, "/").await.text().await.unwrap();
    assert!(index.contains(&format!("href=\"{}/report?blog=alice\"", app.url)), "{index}");
    let path = format!("/{}", permalink.rsplit('/').next().unwrap());
    let page = app.get_with_host(&host, &path).await.text().await.unwrap();
    let link_start = page.find(&format!("{}/report?post=", app.url)).expect("the post's report link");
    let link = &page[link_start..link_start + page[link_start..].find('"').unwrap()];
    let query = link.split_once('?').unwrap().1.replace("&amp;", "&");

    let (html, token) = form(&app, &query).await;
    assert!(html.contains("Report a post of alice"), "{html}");
    assert_eq!(field(&html, "post"), permalink);

    // Too soon: a person takes a few seconds. The form comes back with what was typed, escaped.
    let script = "<script>alert(1)</script>";
    let fields = [
        ("post", permalink.as_str()),
        ("token", token.as_str()),
        ("website", ""),
        ("reason", "spam"),
        ("details", script),
        ("email", ""),
    ];
    let resp = send(&app, &fields, "203.0.113.1").await;
    assert_eq!(resp.status(), 422);
    let again = resp.text().await.unwrap();
    assert!(again.contains("That was quick"), "{again}");
    assert!(again.contains("&#60;script&#62;alert(1)") && !again.contains("<script"), "{again}");
    assert!(open_reports(&app).is_empty());

    tokio::time::sleep(Duration::from_millis(3100)).await;
    let fields = [
        ("post", permalink.as_str()),
        ("token", token.as_str()),
        ("website", ""),
        ("reason", "phishing"),
        ("details", script),
        ("email", "reader@example.org"),
    ];
    let resp = send(&app, &fields, "203.0.113.1").await;
    assert_eq!(resp.status(), 303);
    assert_eq!(resp.headers()["location"], "/report/sent");
    let thanks = client().get(format!("{}/report/sent", app.url)).send().await.unwrap();
    assert_eq!(thanks.status(), 200);
    assert!(thanks.text().await.unwrap().contains("Thank you"));
    assert_eq!(
        open_reports(&app),
        [("alice".into(), permalink.clone(), "phishing".into(), script.into(), "reader@example.org".into())],
        "stored as sent; every page escapes it"
    );

    // A bad reason and a bad address are named beside their fields, script in them escaped.
    let fields = [("blog", "alice"), ("token", token.as_str()), ("reason", script), ("email", script)];
    let resp = send(&app, &fields, "203.0.113.1").await;
    assert_eq!(resp.status(), 422);
    let again = resp.text().await.unwrap();
    assert!(again.contains("Choose a reason") && again.contains("This is not an email address"), "{again}");
    assert!(!again.contains(script));
    assert_eq!(open_reports(&app).len(), 1);
}

#[tokio::test]
async fn bots_are_thanked_or_refused_and_nothing_they_send_is_stored() {
    let app = TestApp::spawn().await;
    app.new_browser().sign_up_with_blog("alice@example.com", "alice").await;
    let (_, token) = form(&app, "blog=alice").await;
    tokio::time::sleep(Duration::from_millis(3100)).await;

    // The honeypot: a field no person sees. Thanked, dropped.
    let resp = send(
        &app,
        &[("blog", "alice"), ("token", &token), ("website", "http://spam.example"), ("reason", "spam")],
        "203.0.113.2",
    )
    .await;
    assert_eq!(resp.status(), 303);
    // A token of its own making, one for a later time, none at all.
    let forged = format!("{}.AAAA", token.split_once('.').unwrap().0);
    for bad in [forged.as_str(), "1.abc", ""] {
        let resp = send(&app, &[("blog", "alice"), ("token", bad), ("reason", "spam")], "203.0.113.2").await;
        assert_eq!(resp.status(), 422, "{bad:?}");
        assert!(resp.text().await.unwrap().contains("This form has expired"));
    }
    // Nothing to report: an unknown blog, another site's address, no target, a body that is not a form.
    for query in ["blog=nobody", "post=https%3A%2F%2Fevil.example%2Fx", "post=javascript%3Aalert(1)", ""] {
        let resp = client().get(format!("{}/report?{query}", app.url)).send().await.unwrap();
        assert_eq!(resp.status(), 404, "{query}");
    }
    let resp = client()
        .post(format!("{}/report", app.url))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("blog=%ZZ&&&=\u{0}")
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_client_error(), "{}", resp.status());
    assert!(open_reports(&app).is_empty(), "nothing a bot sent was stored");
}

#[tokio::test]
async fn a_flood_of_ten_thousand_reports_stores_one_addresss_allowance_and_at_most_the_queues_cap() {
    let app = TestApp::spawn_with(|config| {
        config.public.reports_per_address = 10;
        config.public.max_open_reports = 50;
    })
    .await;
    app.new_browser().sign_up_with_blog("alice@example.com", "alice").await;
    let (_, token) = form(&app, "blog=alice").await;
    tokio::time::sleep(Duration::from_millis(3100)).await;

    let started = Instant::now();
    let deadline = Duration::from_secs(120);
    let mut statuses = std::collections::BTreeMap::<u16, u32>::new();
    // 5,000 from one address, then 5,000 from as many IPv6 /64s; 16 at a time.
    let addresses: Vec<String> =
        (0..10_000u32)
            .map(|i| {
                if i < 5_000 {
                    "198.51.100.9".to_owned()
                } else {
                    format!("2001:db8:{:x}:{:x}::1", i / 65536, i % 65536)
                }
            })
            .collect();
    for chunk in addresses.chunks(16) {
        assert!(started.elapsed() < deadline, "the flood took over {deadline:?}");
        let sends = chunk.iter().map(|address| {
            let token = token.clone();
            let app = &app;
            async move {
                let fields = [("blog", "alice"), ("token", token.as_str()), ("reason", "spam"), ("details", "flood")];
                send(app, &fields, address).await.status().as_u16()
            }
        });
        for status in futures_util::future::join_all(sends).await {
            *statuses.entry(status).or_default() += 1;
        }
    }
    let stored = open_reports(&app).len();
    assert_eq!(stored, 50, "the queue's cap; statuses {statuses:?}");
    assert!(statuses.keys().all(|status| [303, 429, 503].contains(status)), "never a 500: {statuses:?}");
    assert_eq!(statuses[&429], 4_990, "one address sent its 10: {statuses:?}");
    let db = app.db();
    let from_one: i64 =
        db.query_row("SELECT count(*) FROM reports WHERE client_key = '198.51.100.9'", [], |r| r.get(0)).unwrap();
    assert_eq!(from_one, 10);
}

#[tokio::test]
async fn a_report_lands_in_the_admins_queue_with_the_blogs_state_and_is_resolved_or_dismissed_once() {
    const ADMIN: &str = "admin@example.com";
    let app = TestApp::spawn_with(|config| config.public.admins = vec![ADMIN.to_owned()]).await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Cheap pills", "Buy now"), false).await;
    let permalink = post["permalink"].as_str().unwrap().to_owned();
    let admin = app.new_browser();
    admin.sign_up(ADMIN).await;

    let (_, token) = form(&app, "blog=alice").await;
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let script = "<img src=x onerror=alert(1)>";
    for (target, value, reason) in [("blog", "alice", "harassment"), ("post", permalink.as_str(), "phishing")] {
        let fields = [(target, value), ("token", &token), ("reason", reason), ("details", script), ("email", "")];
        assert_eq!(send(&app, &fields, "203.0.113.7").await.status(), 303);
    }

    // Newest first, each with the blog's state now; the reader's words as they typed them (the
    // screen shows them as text).
    let resp = admin.get("/api/admin/reports").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["total"], "2");
    let answer: serde_json::Value = resp.json().await.unwrap();
    let reports = answer["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2);
    let (post_report, blog_report) = (&reports[0], &reports[1]);
    assert_eq!(post_report["postUrl"], permalink.as_str());
    assert_eq!(post_report["reasonLabel"], "Phishing or malware");
    assert_eq!(post_report["blogState"], "approved");
    assert_eq!(post_report["details"], script);
    assert_eq!(post_report["state"], "open");
    assert_eq!(blog_report["postUrl"], "");
    assert_eq!(blog_report["reason"], "harassment");
    let (post_id, blog_id) = (post_report["id"].as_i64().unwrap(), blog_report["id"].as_i64().unwrap());

    // Resolved once; a second settlement says who settled it; an unknown report and action are 404s.
    let resp = admin.post(&format!("/api/admin/reports/{post_id}/resolve"), serde_json::json!({})).await;
    assert_eq!(resp.status(), 200);
    let answer: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(answer["report"]["state"], "resolved");
    assert_eq!(answer["report"]["handledBy"], ADMIN);
    let resp = admin.post(&format!("/api/admin/reports/{post_id}/dismiss"), serde_json::json!({})).await;
    let (field, message) = crate::helpers::error_field(resp, 422).await;
    assert_eq!(
        (field.as_str(), message.as_str()),
        ("report", format!("Report #{post_id} was resolved already by {ADMIN}").as_str())
    );
    for path in ["/api/admin/reports/99999/resolve", "/api/admin/reports/abc/resolve", "/api/admin/reports/1/archive"] {
        let resp = admin.post(path, serde_json::json!({})).await;
        assert_eq!(resp.status(), 404, "{path}");
    }
    let resp = admin.post(&format!("/api/admin/reports/{blog_id}/dismiss"), serde_json::json!({})).await;
    assert_eq!(resp.status(), 200);

    // The open queue is empty; each settled list holds its one; a bad state is a 400.
    for (state, expected) in [("open", vec![]), ("resolved", vec![post_id]), ("dismissed", vec![blog_id])] {
        let answer: serde_json::Value =
            admin.get(&format!("/api/admin/reports?state={state}")).await.json().await.unwrap();
        let ids: Vec<i64> = answer["reports"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, expected, "{state}");
    }
    let resp = admin.get("/api/admin/reports?state=closed").await;
    let (field, _) = crate::helpers::error_field(resp, 400).await;
    assert_eq!(field, "state");

    // Both are in the record of admin actions.
    let answer: serde_json::Value = admin.get("/api/admin/actions").await.json().await.unwrap();
    let actions: Vec<(&str, &str, &str)> = answer["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["action"].as_str().unwrap(), a["subdomain"].as_str().unwrap(), a["reason"].as_str().unwrap()))
        .collect();
    let (resolved, dismissed) =
        (format!("Report #{post_id} (Phishing or malware)"), format!("Report #{blog_id} (Harassment)"));
    assert_eq!(
        actions,
        [("dismiss-report", "alice", dismissed.as_str()), ("resolve-report", "alice", resolved.as_str())]
    );
}
