//! The instance actor (issue 28, finding 8; docs/federation.md "The instance actor"): the shared
//! inbox signs its key fetches with the instance actor's key, so a server that answers only
//! signed fetches of its actors (authorized fetch: GoToSocial, Mastodon's secure mode) can
//! deliver there. The strict peer here is a real HTTP server on 127.0.0.1 that answers 401 to an
//! unsigned GET and verifies a signed one with the key the signer's document publishes, which
//! it fetches from Quire.

use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use poem::listener::{Acceptor, Listener};
use poem::web::Data;
use poem::{EndpointExt, Request, Response, Route, get, handler};
use quire::domain::federation::ap_signature;
use quire::fetch::signed::{self, SigningKey, generate_key};
use serde_json::{Value, json};

use crate::helpers::TestApp;

#[derive(Clone)]
struct StrictPeer {
    actor: Arc<Value>,
    /// Quire's app, for fetching the signer's key document.
    quire: reqwest::Client,
    /// The keyIds of the fetches that verified; `None` for each refused one.
    fetches: Arc<Mutex<Vec<Option<String>>>>,
}

/// Bob's actor document, for signed fetches only.
#[handler]
async fn strict_actor(req: &Request, peer: Data<&StrictPeer>) -> Response {
    let path = req.uri().path_and_query().map_or("/", |p| p.as_str());
    let verified = match ap_signature::check_request("GET", path, req.headers(), b"", SystemTime::now()) {
        Ok(checked) => {
            let doc: Value =
                peer.quire.get(&checked.signature.key_id).send().await.unwrap().json().await.unwrap_or_default();
            let published = doc["publicKey"]["id"] == checked.signature.key_id.as_str();
            let pem = doc["publicKey"]["publicKeyPem"].as_str().unwrap_or_default();
            (published && signed::verify_checked(&checked, pem).is_ok()).then_some(checked.signature.key_id)
        }
        Err(_) => None,
    };
    peer.fetches.lock().unwrap().push(verified.clone());
    match verified {
        Some(_) => Response::builder().content_type("application/activity+json").body(peer.actor.to_string()),
        None => Response::builder().status(poem::http::StatusCode::UNAUTHORIZED).finish(),
    }
}

async fn start_strict_peer(quire: reqwest::Client) -> (String, SigningKey, StrictPeer) {
    let acceptor = poem::listener::TcpListener::bind("127.0.0.1:0").into_acceptor().await.unwrap();
    let address = acceptor.local_addr().remove(0);
    let bob = format!("http://{}/users/bob", address.as_socket_addr().unwrap());
    let key = tokio::task::spawn_blocking(generate_key).await.unwrap().unwrap();
    let actor = json!({
        "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
        "id": bob, "type": "Person", "preferredUsername": "bob", "inbox": format!("{bob}/inbox"),
        "publicKey": {"id": format!("{bob}#main-key"), "owner": bob, "publicKeyPem": key.public_pem()},
    });
    let peer = StrictPeer { actor: Arc::new(actor), quire, fetches: Arc::default() };
    let app = Route::new().at("/users/bob", get(strict_actor)).data(peer.clone());
    // Listening already: the acceptor is bound.
    tokio::spawn(poem::Server::new_with_acceptor(acceptor).run(app));
    (bob, key, peer)
}

#[tokio::test]
async fn a_server_that_answers_only_signed_fetches_can_deliver_to_the_shared_inbox() {
    let app = TestApp::spawn_with(|config| config.fetch_allow_loopback = true).await;
    app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let (bob, key, peer) = start_strict_peer(app.client.clone()).await;

    // The instance actor, on the app host, publishes the key it signs with.
    let instance = format!("{}/_quire/ap/instance", app.url);
    let resp = app.client.get(&instance).header("accept", "application/activity+json").send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("application/activity+json"));
    let doc: Value = resp.json().await.unwrap();
    assert_eq!((doc["id"].as_str(), doc["type"].as_str()), (Some(instance.as_str()), Some("Application")));
    assert_eq!(doc["publicKey"]["id"], format!("{instance}#main-key"));
    assert_eq!(doc["publicKey"]["owner"], instance);

    // Bob follows Alice through the shared inbox; Quire fetches his key, signed as the instance.
    let alice = format!("http://alice.localhost:{}/_quire/ap/actor", app.port);
    let follow = json!({"id": format!("{bob}/follows/1"), "type": "Follow", "actor": bob, "object": alice});
    let body = follow.to_string().into_bytes();
    let url = url::Url::parse(&format!("http://localhost:{}/_quire/ap/inbox", app.port)).unwrap();
    let headers = key.sign(
        &format!("{bob}#main-key"),
        "POST",
        &url,
        Some((&body, "application/activity+json")),
        SystemTime::now(),
    );
    let mut request = app.client.post(format!("http://127.0.0.1:{}/_quire/ap/inbox", app.port)).body(body);
    for (name, value) in headers.unwrap() {
        request = request.header(name, value);
    }
    let resp = request.send().await.unwrap();
    let status = resp.status();
    assert_eq!(status, 202, "{}", resp.text().await.unwrap());
    assert_eq!(
        *peer.fetches.lock().unwrap(),
        [Some(format!("{instance}#main-key"))],
        "one fetch, signed as the instance"
    );
    assert_eq!(app.count("followers"), 1);
}
