use serde_json::json;

use super::*;

const BOB: &str = "https://peer.example/users/bob";
const ALICE: &str = "http://alice.localhost:8080/_quire/ap/actor";

#[test]
fn a_follow_names_its_actor_as_a_string_or_an_object() {
    let follow = json!({"id": "https://peer.example/f/1", "type": "Follow", "actor": BOB, "object": ALICE});
    let expected = Inbound::Follow { id: "https://peer.example/f/1".into(), actor: BOB.into(), object: ALICE.into() };
    assert_eq!(parse(&follow).unwrap(), expected);
    let follow = json!({"id": "https://peer.example/f/1", "type": "Follow", "actor": {"id": BOB, "type": "Person"},
        "object": {"id": ALICE}});
    assert_eq!(parse(&follow).unwrap(), expected);
}

#[test]
fn an_undo_takes_back_an_embedded_activity_or_one_named_by_its_id() {
    let undo = json!({"id": "https://peer.example/u/1", "type": "Undo", "actor": BOB,
        "object": {"id": "https://peer.example/f/1", "type": "Follow", "actor": BOB, "object": ALICE}});
    let Inbound::Undo { undone, .. } = parse(&undo).unwrap() else { panic!("an Undo") };
    assert_eq!(
        undone,
        Undone { kind: Some(UndoneKind::Follow), id: "https://peer.example/f/1".into(), object: Some(ALICE.into()) }
    );
    let undo =
        json!({"id": "https://peer.example/u/2", "type": "Undo", "actor": BOB, "object": "https://peer.example/l/1"});
    let Inbound::Undo { undone, .. } = parse(&undo).unwrap() else { panic!("an Undo") };
    assert_eq!(undone, Undone { kind: None, id: "https://peer.example/l/1".into(), object: None });
}

#[test]
fn an_undo_of_someone_elses_activity_or_of_another_type_is_refused() {
    let undo = json!({"id": "https://peer.example/u/1", "type": "Undo", "actor": BOB,
        "object": {"id": "https://peer.example/f/1", "type": "Follow", "actor": "https://peer.example/users/eve"}});
    assert!(parse(&undo).unwrap_err().0.contains("its own actor"));
    let undo = json!({"id": "https://peer.example/u/1", "type": "Undo", "actor": BOB,
        "object": {"id": "https://peer.example/b/1", "type": "Block"}});
    assert!(parse(&undo).is_err());
}

#[test]
fn a_note_keeps_its_reply_target_content_page_and_time_in_the_stored_form() {
    let create = json!({"id": "https://peer.example/n/1/activity", "type": "Create", "actor": BOB,
        "object": {"id": "https://peer.example/n/1", "type": "Note", "attributedTo": BOB,
            "inReplyTo": "http://alice.localhost:8080/_quire/ap/posts/abcd1234", "content": "<p>Hi</p>",
            "url": {"type": "Link", "href": "https://peer.example/@bob/1"}, "published": "2026-11-24T12:00:00+01:00"}});
    let Inbound::Create { note, .. } = parse(&create).unwrap() else { panic!("a Create") };
    assert_eq!(note.in_reply_to.as_deref(), Some("http://alice.localhost:8080/_quire/ap/posts/abcd1234"));
    assert_eq!(note.content, "<p>Hi</p>");
    assert_eq!(note.url.as_deref(), Some("https://peer.example/@bob/1"));
    assert_eq!(note.published.as_deref(), Some("2026-11-24T11:00:00.000Z"));
}

#[test]
fn a_create_of_anything_but_a_note_and_unknown_types_are_ignored() {
    let create = json!({"id": "https://peer.example/q/1", "type": "Create", "actor": BOB,
        "object": {"id": "https://peer.example/q", "type": "Question"}});
    assert!(matches!(parse(&create).unwrap(), Inbound::Ignored { .. }));
    assert_eq!(parse(&json!({"type": "Move"})).unwrap(), Inbound::Ignored { kind: "Move".into() });
    assert_eq!(parse(&json!({"type": ["Add", "x"]})).unwrap(), Inbound::Ignored { kind: "Add".into() });
}

#[test]
fn deletes_and_actor_updates() {
    let delete = json!({"id": "https://peer.example/d/1", "type": "Delete", "actor": BOB,
        "object": {"id": "https://peer.example/n/1", "type": "Tombstone"}});
    assert_eq!(
        parse(&delete).unwrap(),
        Inbound::Delete {
            id: "https://peer.example/d/1".into(),
            actor: BOB.into(),
            object: "https://peer.example/n/1".into()
        }
    );
    let update = json!({"id": "https://peer.example/up/1", "type": "Update", "actor": BOB, "object": {"id": BOB, "type": "Person"}});
    assert!(matches!(parse(&update).unwrap(), Inbound::UpdateActor { .. }));
    let update = json!({"id": "https://peer.example/up/1", "type": "Update", "actor": BOB,
        "object": {"id": "https://peer.example/users/eve", "type": "Person"}});
    assert!(matches!(parse(&update).unwrap(), Inbound::Ignored { .. }));
}

#[test]
fn hostile_fields_are_refused_with_a_reason() {
    let cases = [
        (json!([1, 2]), "not a JSON object"),
        (json!({"id": "x"}), "no type"),
        (json!({"type": "Follow", "id": 5, "actor": BOB, "object": ALICE}), "id is not a string"),
        (json!({"type": "Follow", "id": "/f/1", "actor": BOB, "object": ALICE}), "absolute http(s) URL"),
        (
            json!({"type": "Follow", "id": "ftp://peer.example/f", "actor": BOB, "object": ALICE}),
            "absolute http(s) URL",
        ),
        (
            json!({"type": "Follow", "id": "https://peer.example/f", "actor": [BOB], "object": ALICE}),
            "actor is neither",
        ),
        (
            json!({"type": "Follow", "id": "https://peer.example/f", "actor": {"name": "x"}, "object": ALICE}),
            "without an id",
        ),
        (json!({"type": "Follow", "id": "https://peer.example/f", "actor": BOB}), "no object"),
        (
            json!({"type": "Like", "id": format!("https://peer.example/{}", "a".repeat(3000)), "actor": BOB, "object": ALICE}),
            "longer",
        ),
    ];
    for (activity, reason) in cases {
        let err = parse(&activity).unwrap_err();
        assert!(err.0.contains(reason), "{activity}: {err}");
    }
}

#[test]
fn an_actor_document_gives_its_handle_inboxes_and_keys() {
    let doc = json!({"id": "http://127.0.0.1:4000/users/bob", "type": "Person", "preferredUsername": "bob", "name": "Bob B",
        "inbox": "http://127.0.0.1:4000/users/bob/inbox", "endpoints": {"sharedInbox": "http://127.0.0.1:4000/inbox"},
        "url": "http://127.0.0.1:4000/@bob",
        "publicKey": [{"id": "http://127.0.0.1:4000/users/bob#main-key", "owner": "http://127.0.0.1:4000/users/bob",
            "publicKeyPem": "PEM"}, {"id": 7}]});
    let KeyDocument::Actor(actor) = key_document(&doc, "http://127.0.0.1:4000/users/bob#main-key").unwrap() else {
        panic!("an actor")
    };
    assert_eq!(actor.handle, "@bob@127.0.0.1:4000");
    assert_eq!(actor.name, "Bob B");
    assert_eq!(actor.shared_inbox.as_deref(), Some("http://127.0.0.1:4000/inbox"));
    assert_eq!(actor.keys.len(), 1);
    assert!(key_document(&doc, "http://127.0.0.1:4000/users/bob#other-key").is_err());
    let key = json!({"id": "https://peer.example/keys/1", "owner": BOB, "publicKeyPem": "PEM"});
    assert_eq!(
        key_document(&key, "https://peer.example/keys/1").unwrap(),
        KeyDocument::Key(PublicKey { id: "https://peer.example/keys/1".into(), owner: BOB.into(), pem: "PEM".into() })
    );
    assert!(key_document(&key, "https://peer.example/keys/2").is_err());
}

#[test]
fn our_actor_and_posts_are_matched_by_object_id_and_permalink() {
    let domain = |name: &str| (name == "blog.example").then(|| "alice".to_owned());
    let ours = |id: &str| ours(id, "http", "localhost:8080", domain);
    assert_eq!(ours(ALICE), Some(Ours::Actor { subdomain: "alice".into() }));
    let post = Some(Ours::Post { subdomain: "alice".into(), short_id: "abcd1234".into() });
    assert_eq!(ours("http://alice.localhost:8080/_quire/ap/posts/abcd1234"), post);
    assert_eq!(ours("http://alice.localhost:8080/hello-world-abcd1234"), post);
    assert_eq!(ours("http://blog.example:8080/hello-world-abcd1234"), post);
    assert_eq!(ours("https://alice.localhost:8080/_quire/ap/actor"), None);
    assert_eq!(ours("http://alice.localhost:9999/_quire/ap/actor"), None);
    assert_eq!(ours("http://alice.evil.example:8080/_quire/ap/actor"), None);
    assert_eq!(ours("http://alice.localhost:8080/_quire/ap/posts/nope"), None);
    assert_eq!(ours("http://localhost:8080/_quire/ap/actor"), None);
}

#[test]
fn a_like_an_announce_or_a_note_whose_id_is_on_another_server_is_refused() {
    let post = "http://alice.localhost:8080/_quire/ap/posts/abcd1234";
    let like = json!({"id": "https://victim.example/likes/1", "type": "Like", "actor": BOB, "object": post});
    assert!(parse(&like).unwrap_err().0.contains("actor's server"), "{:?}", parse(&like));
    let announce = json!({"id": "https://victim.example/boosts/1", "type": "Announce", "actor": BOB, "object": post});
    assert!(parse(&announce).unwrap_err().0.contains("actor's server"), "{:?}", parse(&announce));
    let create = json!({"id": "https://peer.example/n/1/activity", "type": "Create", "actor": BOB,
        "object": {"id": "https://victim.example/n/1", "type": "Note", "attributedTo": BOB, "content": "Hi"}});
    assert!(parse(&create).unwrap_err().0.contains("actor's server"), "{:?}", parse(&create));
    let create = json!({"id": "https://victim.example/n/1/activity", "type": "Create", "actor": BOB,
        "object": {"id": "https://peer.example/n/1", "type": "Note", "attributedTo": BOB, "content": "Hi"}});
    assert!(parse(&create).unwrap_err().0.contains("actor's server"), "{:?}", parse(&create));
    // The same on the actor's own server (another port or letter case of its host is the same host).
    let like = json!({"id": "https://PEER.example/likes/1", "type": "Like", "actor": BOB, "object": post});
    assert!(matches!(parse(&like).unwrap(), Inbound::Like { .. }));
    let announce = json!({"id": "https://peer.example/boosts/1", "type": "Announce", "actor": BOB, "object": post});
    assert!(matches!(parse(&announce).unwrap(), Inbound::Announce { .. }));
}

#[test]
fn the_registrable_domain_of_an_id_follows_the_public_suffix_list() {
    let domain = |id: &str| registrable_domain_of(id).unwrap();
    assert_eq!(domain("https://a1.evil.example/users/m#main-key"), "evil.example");
    assert_eq!(domain("https://A2.Evil.Example./users/m"), "evil.example");
    assert_eq!(domain("https://social.example.co.uk/u"), "example.co.uk");
    assert_eq!(
        domain("https://alice.github.io/actor"),
        "alice.github.io",
        "a public suffix's own customers stay apart"
    );
    assert_eq!(domain("https://bob.github.io/actor"), "bob.github.io");
    assert_eq!(domain("http://127.0.0.1:9/users/bob"), "127.0.0.1");
    assert_eq!(domain("http://[::1]:9/users/bob"), "::1");
    assert_eq!(domain("https://co.uk/u"), "co.uk", "a bare suffix is itself");
    assert_eq!(registrable_domain_of("not a url"), None);
}

/// Found by fuzzing (scripts/fuzz.sh inbound): the URL parser repairs these into http(s) URLs,
/// but they are not written as one, and the id would be kept as written.
#[test]
fn an_id_that_is_a_url_only_once_repaired_is_refused() {
    for actor in [
        "https:/+peer.example/users/bob",
        "https:peer.example/users/bob",
        "HTTPS://peer.example/users/bob",
        " https://peer.example/users/bob",
    ] {
        let follow = json!({"id": "https://peer.example/f/1", "type": "Follow", "actor": actor, "object": ALICE});
        assert!(parse(&follow).is_err(), "{actor:?}");
    }
}
