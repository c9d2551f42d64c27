//! The inbox's rate limits (issue 28, findings 1 and 5; docs/federation-inbox.md step 3): a
//! request that is not verified counts against the address it came from, a verified one against
//! the registrable domain of its key's host. So garbage naming another server's key cannot use
//! up that server's allowance, and a server cannot multiply its allowance with subdomains.

use std::time::SystemTime;

use quire::fetch::signed::{SigningKey, generate_key};
use serde_json::{Value, json};

use crate::helpers::error_field;
use crate::inbox::{Setup, client_from_another_address};

/// Posts `activity` to the shared inbox, signed by `key` under `key_id`, from `client`.
async fn send_as(s: &Setup, client: &reqwest::Client, key: &SigningKey, key_id: &str, activity: &Value) -> u16 {
    let body = activity.to_string().into_bytes();
    let url = url::Url::parse(&format!("http://{}/_quire/ap/inbox", s.shared())).unwrap();
    let signed = key.sign(key_id, "POST", &url, Some((&body, "application/activity+json")), SystemTime::now());
    let mut request = client.post(format!("http://127.0.0.1:{}/_quire/ap/inbox", s.app.port)).body(body);
    for (name, value) in signed.unwrap() {
        request = request.header(name, value);
    }
    request.send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn garbage_naming_another_servers_key_does_not_keep_that_servers_activities_out() {
    let s = Setup::start().await;
    let bob = s.peer.bob();
    let attacker = client_from_another_address();
    let mallory = tokio::task::spawn_blocking(generate_key).await.unwrap().unwrap();
    let garbage = format!(r#"keyId="{}",algorithm="rsa-sha256",headers="date",signature="AAAA""#, s.peer.key_id());
    let mut refused_at = None;
    let mut refused_when = std::time::Instant::now();
    for n in 0..150 {
        // Half unreadable, half well formed but signed with another key than the one named.
        let status = if n % 2 == 0 {
            let request = attacker
                .post(format!("http://127.0.0.1:{}/_quire/ap/inbox", s.app.port))
                .header("host", s.shared())
                .header("signature", &garbage)
                .body("{}");
            request.send().await.unwrap().status().as_u16()
        } else {
            let like = json!({"id": format!("{bob}/likes/x{n}"), "type": "Like", "actor": bob, "object": s.post_id});
            send_as(&s, &attacker, &mallory, &s.peer.key_id(), &like).await
        };
        if status == 429 {
            refused_at = Some(n);
            refused_when = std::time::Instant::now();
            break;
        }
        assert_eq!(status, 401, "request {n}");
    }
    assert!(refused_at.is_some(), "the garbage's own address is limited within 150 requests");

    // Bob's server, from its own address, is not held back by what was sent in its name.
    let like = json!({"id": format!("{bob}/likes/1"), "type": "Like", "actor": bob, "object": s.post_id});
    assert_eq!(s.send(&s.shared(), &like).await.status(), 202, "Bob's genuine Like");
    assert_eq!(s.app.count("reactions"), 1);
    // The attacker's address is still waiting: refused again at once, but for the requests its
    // allowance earned back meanwhile (300 a minute, one every 0.2 s: Bob's signing takes a while
    // on a busy machine).
    let mut let_through = 0;
    loop {
        let resp = attacker
            .post(format!("http://127.0.0.1:{}/_quire/ap/inbox", s.app.port))
            .header("host", s.shared())
            .body("{}")
            .send()
            .await
            .unwrap();
        if resp.status() == 429 {
            let (field, _) = error_field(resp, 429).await;
            assert_eq!(field, "inbox", "the attacker's address is still waiting");
            return;
        }
        assert_eq!(resp.status(), 401, "request {let_through} after Bob's");
        let_through += 1;
        let earned = (refused_when.elapsed().as_secs_f64() * 5.0).ceil() as usize + 1;
        assert!(let_through <= earned, "{let_through} requests let through, more than the {earned} earned back");
        assert!(let_through < 200, "still let through after 200 requests");
    }
}

#[tokio::test]
async fn signed_activities_from_hosts_of_one_registrable_domain_share_one_allowance() {
    let s = Setup::start().await;
    // Keys on a1.evil.example, a2.evil.example, ... (known, so no fetch is needed), all one domain's.
    let key = &s.peer.key;
    let hosts: Vec<String> = (1..=150).map(|n| format!("a{n}.evil.example")).collect();
    let conn = s.app.db();
    for host in &hosts {
        let actor = format!("https://{host}/users/mallory");
        conn.execute(
            "INSERT INTO remote_actors (actor_id, key_id, public_pem, inbox, handle, name, fetched_at)
             VALUES (?1, ?1 || '#main-key', ?2, ?1 || '/inbox', '@mallory@' || ?3, 'Mallory',
                     strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
            rusqlite::params![actor, key.public_pem(), host],
        )
        .unwrap();
    }
    let client = reqwest::Client::new();
    let mut limited = None;
    for (n, host) in hosts.iter().enumerate() {
        let actor = format!("https://{host}/users/mallory");
        let like =
            json!({"id": format!("https://{host}/likes/1"), "type": "Like", "actor": actor, "object": s.post_id});
        let status = send_as(&s, &client, key, &format!("{actor}#main-key"), &like).await;
        if status == 429 {
            limited = Some(n);
            break;
        }
        assert_eq!(status, 202, "activity {n} from {host}");
    }
    let limited = limited.expect("one allowance for evil.example, used up within 150 activities");
    assert!(limited >= 50, "a burst is allowed first ({limited})");

    // Another server is not held back by evil.example's flood, from the same address.
    let bob = s.peer.bob();
    let like = json!({"id": format!("{bob}/likes/1"), "type": "Like", "actor": bob, "object": s.post_id});
    assert_eq!(s.send(&s.shared(), &like).await.status(), 202);
}
