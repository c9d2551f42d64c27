//! Tests of the ActivityPub documents Quire sends: their shapes and ids.

use super::*;

const ACTOR: &str = "http://alice.localhost/_quire/ap/actor";

#[test]
fn an_accept_names_the_follow_by_its_id_type_and_actors_only() {
    let follow = follow_named("https://b.example/f/1", "https://b.example/u/bob", ACTOR);
    assert_eq!(
        follow,
        json!({"id": "https://b.example/f/1", "type": "Follow", "actor": "https://b.example/u/bob", "object": ACTOR})
    );
    let accept = accept("http://alice.localhost/_quire/ap/actor", &follow, 3);
    assert_eq!(accept["type"], "Accept");
    assert_eq!(accept["id"], "http://alice.localhost/_quire/ap/actor#accepts/3");
    assert_eq!(accept["object"], follow);
    let reject = reject("http://alice.localhost/_quire/ap/actor", &follow, 3, 1700000000000);
    assert_eq!(reject["type"], "Reject");
    assert_eq!(reject["id"], "http://alice.localhost/_quire/ap/actor#rejects/3-1700000000000");
    assert_eq!(reject["object"], follow);
}

#[test]
fn the_actor_is_a_person_with_its_key_and_inboxes_under_its_id() {
    let doc = actor(&ActorFacts {
        actor_id: ACTOR,
        subdomain: "alice",
        name: "Alice's <blog>",
        description: "Tea & <script>cake</script>",
        blog_url: "https://alice.example.org/",
        shared_inbox: "http://localhost/_quire/ap/inbox",
        public_pem: "-----BEGIN PUBLIC KEY-----\n...",
        approve_followers: true,
    });
    assert_eq!(doc["type"], "Person");
    assert_eq!(doc["preferredUsername"], "alice");
    assert_eq!(doc["name"], "Alice's <blog>");
    assert_eq!(doc["summary"], "<p>Tea &amp; &lt;script&gt;cake&lt;/script&gt;</p>");
    assert_eq!(doc["url"], "https://alice.example.org/");
    assert_eq!(doc["inbox"], "http://alice.localhost/_quire/ap/inbox");
    assert_eq!(doc["outbox"], "http://alice.localhost/_quire/ap/outbox");
    assert_eq!(doc["followers"], "http://alice.localhost/_quire/ap/followers");
    assert_eq!(doc["endpoints"]["sharedInbox"], "http://localhost/_quire/ap/inbox");
    assert_eq!(doc["manuallyApprovesFollowers"], true);
    assert_eq!(doc["publicKey"]["id"], format!("{ACTOR}#main-key"));
    assert_eq!(doc["publicKey"]["owner"], ACTOR);
    assert_eq!(doc["@context"], json!([AS_CONTEXT, SECURITY_CONTEXT]));
}

fn body() -> Body {
    Body::from_json(
        r#"{"type":"root","children":[
            {"type":"heading","value":{"text":"Hello <world>"}},
            {"type":"paragraph","value":{"text":"Some *text* <script>alert(1)</script>"}},
            {"type":"image","value":{"url":"http://localhost/media/abc.png","alt":"A \"cat\"","caption":"Our cat"}},
            {"type":"heading","value":{"text":"More & more"}},
            {"type":"link","value":{"url":"https://example.com/?a=1&b=2","title":""}},
            {"type":"tweet","value":{"url":"https://x.com/a/status/1"}}
        ]}"#,
    )
    .unwrap()
}

#[test]
fn an_article_carries_the_title_safe_html_images_tags_and_the_permalink() {
    let body = body();
    let tags = vec!["rust".to_owned()];
    let doc = article(&ArticleFacts {
        id: "http://alice.localhost/_quire/ap/posts/abc",
        actor_id: ACTOR,
        blog_origin: "https://alice.example.org",
        path: "/hello-world-abc",
        title: "Hello <world>",
        body: &body,
        tags: &tags,
        published: "2026-11-24T10:00:00.000Z",
        updated: Some("2026-11-24T11:00:00.500Z"),
    });
    assert_eq!(doc["type"], "Article");
    assert_eq!(doc["name"], "Hello <world>");
    assert_eq!(doc["url"], "https://alice.example.org/hello-world-abc");
    assert_eq!(doc["attributedTo"], ACTOR);
    assert_eq!(doc["published"], "2026-11-24T10:00:00Z");
    assert_eq!(doc["updated"], "2026-11-24T11:00:00Z");
    assert_eq!(doc["to"], json!([PUBLIC]));
    assert_eq!(doc["cc"], json!(["http://alice.localhost/_quire/ap/followers"]));
    let content = doc["content"].as_str().unwrap();
    assert!(content.starts_with("<p>Some <em>text</em>"), "{content}");
    assert!(!content.contains("<script>") && !content.contains("Hello"), "{content}");
    assert!(content.contains("<h2>More &amp; more</h2>"), "{content}");
    assert!(content.contains("<a href=\"https://example.com/?a=1&amp;b=2\">"), "{content}");
    assert!(content.contains("<p>Our cat</p>"), "{content}");
    assert_eq!(
        doc["attachment"],
        json!([{"type": "Image", "url": "http://localhost/media/abc.png", "name": "A \"cat\"", "mediaType": "image/png"}])
    );
    assert_eq!(
        doc["tag"],
        json!([{"type": "Hashtag", "name": "#rust", "href": "https://alice.example.org/tags/rust"}])
    );
}

#[test]
fn create_update_and_delete_have_their_ids_under_the_object() {
    let object = json!({"@context": [AS_CONTEXT], "id": "http://a/_quire/ap/posts/x", "to": [PUBLIC], "cc": ["f"],
        "published": "2026-11-24T10:00:00Z"});
    let create = create(ACTOR, object.clone());
    assert_eq!(create["id"], "http://a/_quire/ap/posts/x/activity");
    assert_eq!(create["type"], "Create");
    assert_eq!(create["@context"], json!([AS_CONTEXT]));
    assert_eq!(create["object"].get("@context"), None);
    assert_eq!((&create["to"], &create["cc"]), (&json!([PUBLIC]), &json!(["f"])));
    let update = update(ACTOR, object, 1_700_000_000_000);
    assert_eq!(update["id"], "http://a/_quire/ap/posts/x/updates/1700000000000");
    let delete = delete_post(ACTOR, "http://a/_quire/ap/posts/x");
    assert_eq!(delete["id"], "http://a/_quire/ap/posts/x/delete");
    assert_eq!(delete["object"]["type"], "Tombstone");
    assert_eq!(delete_actor(ACTOR)["object"], ACTOR);
}

#[test]
fn collections_page_newest_first_and_count_followers() {
    assert_eq!(outbox(ACTOR, 41)["last"], "http://alice.localhost/_quire/ap/outbox?page=3");
    assert_eq!(outbox(ACTOR, 0)["first"], "http://alice.localhost/_quire/ap/outbox?page=1");
    let page = outbox_page(ACTOR, 2, vec![json!(1)], true);
    assert_eq!(page["next"], "http://alice.localhost/_quire/ap/outbox?page=3");
    assert_eq!(page["prev"], "http://alice.localhost/_quire/ap/outbox?page=1");
    assert_eq!(outbox_page(ACTOR, 1, vec![], false).get("next"), None);
    assert_eq!(followers(ACTOR, 3)["totalItems"], 3);
    let jrd = webfinger("alice", "localhost:8080", ACTOR, "http://alice.localhost:8080/");
    assert_eq!(jrd["subject"], "acct:alice@localhost:8080");
    assert_eq!(jrd["links"][0], json!({"rel": "self", "type": ACTIVITY_JSON, "href": ACTOR}));
    assert_eq!(nodeinfo_links("http://localhost")["links"][0]["href"], "http://localhost/nodeinfo/2.1");
    assert_eq!(nodeinfo("1.0", 2, 5, false)["usage"]["localPosts"], 5);
}
