//! API tokens and Micropub (issue 37), against the real server: the token API, then the
//! Micropub Rocks server tests (micropub.rocks: 100-107 form-encoded creates, 200-206 JSON
//! creates, 300-301 multipart, 400-405 updates, 500-503 delete and undelete, 600-603 queries,
//! 700-702 the media endpoint, 800-804 authentication), each test named with its numbers, and
//! the refusals of the issue's "bad input and abuse" list.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use poem::http::StatusCode;
use poem::web::Path;
use poem::{Response, Route, handler};
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::fetch::PNG;
use crate::helpers::{Browser, TestApp, simple_body};

const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";
/// The start of a JPEG (SOI, APP0 "JFIF"): what tells a JPEG by its bytes.
const JPEG: &[u8] = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9";

/// A blog with its owner signed in, and a token of the given scopes.
struct Setup {
    app: TestApp,
    owner: Browser,
    blog_id: i64,
    token: String,
}

impl Setup {
    async fn new(scopes: &[&str]) -> Setup {
        Setup::with(scopes, |_| {}).await
    }

    async fn with(scopes: &[&str], adjust: impl FnOnce(&mut quire::Config)) -> Setup {
        let app = TestApp::spawn_with(adjust).await;
        let owner = app.new_browser();
        let blog_id = owner.sign_up_with_blog("alice@example.com", "alice").await;
        let token = make_token(&owner, blog_id, "iA Writer", scopes).await;
        Setup { app, owner, blog_id, token }
    }

    fn endpoint(&self) -> String {
        format!("{}/micropub", self.app.url)
    }

    fn blog_origin(&self) -> String {
        format!("http://alice.localhost:{}", self.app.port)
    }

    /// A form-encoded create with the header token.
    async fn form(&self, pairs: &[(&str, &str)]) -> reqwest::Response {
        self.app.client.post(self.endpoint()).bearer_auth(&self.token).form(pairs).send().await.unwrap()
    }

    /// A JSON request with the header token.
    async fn json(&self, body: Value) -> reqwest::Response {
        self.app.client.post(self.endpoint()).bearer_auth(&self.token).json(&body).send().await.unwrap()
    }

    async fn query(&self, query: &str) -> reqwest::Response {
        let url = format!("{}?{query}", self.endpoint());
        self.app.client.get(url).bearer_auth(&self.token).send().await.unwrap()
    }

    /// `q=source` of a post.
    async fn source(&self, url: &str) -> Value {
        let query = format!("q=source&url={}", urlencode(url));
        let resp = self.query(&query).await;
        assert_eq!(resp.status(), 200, "q=source of {url}");
        resp.json().await.unwrap()
    }

    /// The public page at `url` (on the blog's host).
    async fn page(&self, url: &str) -> (u16, String) {
        let path = url.strip_prefix(&self.blog_origin()).expect("a URL of the blog");
        let resp = self.app.get_with_host(&format!("alice.localhost:{}", self.app.port), path).await;
        (resp.status().as_u16(), resp.text().await.unwrap())
    }

    /// The owner API's view of the post at `url`.
    async fn post(&self, url: &str) -> Value {
        let short_id = url.rsplit('-').next().unwrap();
        let resp = self.owner.get(&format!("/api/my/blogs/{}/posts/{short_id}", self.blog_id)).await;
        assert_eq!(resp.status(), 200, "the post at {url}");
        resp.json::<Value>().await.unwrap()["post"].clone()
    }
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// Makes a token in Settings' API; returns it.
async fn make_token(owner: &Browser, blog_id: i64, name: &str, scopes: &[&str]) -> String {
    let resp = owner.post(&format!("/api/my/blogs/{blog_id}/tokens"), json!({ "name": name, "scopes": scopes })).await;
    assert_eq!(resp.status(), 201, "token created");
    let body: Value = resp.json().await.unwrap();
    body["token"].as_str().unwrap().to_owned()
}

fn location(resp: &reqwest::Response) -> String {
    resp.headers().get("location").expect("a Location header").to_str().unwrap().to_owned()
}

/// A Micropub error body: `(error, error_description)`.
async fn refusal(resp: reqwest::Response, status: u16) -> (String, String) {
    assert_eq!(resp.status(), status, "status");
    let body: Value = resp.json().await.expect("a JSON error body");
    (body["error"].as_str().unwrap().to_owned(), body["error_description"].as_str().unwrap_or_default().to_owned())
}

/// The blocks of a post as (type, value) pairs.
fn blocks(post: &Value) -> Vec<(String, Value)> {
    crate::helpers::block_pairs(&post["body"]["children"])
}

#[tokio::test]
async fn tokens_are_shown_once_kept_as_a_hash_listed_and_revoked() {
    let app = TestApp::spawn().await;
    let owner = app.new_browser();
    let blog_id = owner.sign_up_with_blog("alice@example.com", "alice").await;
    let path = format!("/api/my/blogs/{blog_id}/tokens");

    let resp = owner
        .post(
            &path,
            json!({ "name": " Drafts app ", "scopes": ["create", "media"], "expiresAt": "2099-01-01T00:00:00Z" }),
        )
        .await;
    assert_eq!(resp.status(), 201);
    let created: Value = resp.json().await.unwrap();
    let token = created["token"].as_str().unwrap();
    assert!(token.starts_with("quire_") && token.len() == 70, "{token}");
    assert_eq!(created["apiToken"]["name"], "Drafts app");
    assert_eq!(created["apiToken"]["scopes"], json!(["create", "media"]));
    assert_eq!(created["apiToken"]["last4"], &token[66..]);
    assert_eq!(created["apiToken"]["expiresAt"], "2099-01-01T00:00:00.000Z");
    assert_eq!(created["apiToken"]["lastUsedAt"], Value::Null);

    // Stored as a hash: the token itself is nowhere in the database.
    let db = app.db();
    let stored: Vec<u8> = db.query_row("SELECT token_hash FROM api_tokens", [], |r| r.get(0)).unwrap();
    assert_eq!(stored.len(), 32);
    let dump: String = db
        .query_row("SELECT name || scopes || last4 || coalesce(expires_at, '') FROM api_tokens", [], |r| r.get(0))
        .unwrap();
    assert!(!dump.contains(&token[6..]), "the token is not stored");

    // Listed without the token; its use recorded.
    let list: Value = owner.get(&path).await.json().await.unwrap();
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1);
    assert!(list.to_string().find(&token[6..]).is_none());
    let config = app.client.get(format!("{}/micropub?q=config", app.url)).bearer_auth(token).send().await.unwrap();
    assert_eq!(config.status(), 200);
    let list: Value = owner.get(&path).await.json().await.unwrap();
    assert!(list["tokens"][0]["lastUsedAt"].is_string(), "{list}");

    // Refused inputs, each on its field; nothing stored.
    for (body, field) in [
        (json!({ "name": "", "scopes": ["create"] }), "name"),
        (json!({ "name": "x", "scopes": [] }), "scopes"),
        (json!({ "name": "x", "scopes": ["del"] }), "scopes"),
        (json!({ "name": "x", "scopes": ["Delete"] }), "scopes"),
        (json!({ "name": "x", "scopes": ["create", "create"] }), "scopes"),
        (json!({ "name": "x", "scopes": ["create"], "expiresAt": "2001-01-01T00:00:00Z" }), "expiresAt"),
        (json!({ "name": "x", "scopes": ["create"], "expiresAt": "soon" }), "expiresAt"),
    ] {
        let resp = owner.post(&path, body.clone()).await;
        assert_eq!(resp.status(), 422, "{body}");
        let errors = crate::helpers::errors_of(resp).await;
        assert_eq!(errors[0].0, field, "{body}");
    }
    assert_eq!(app.count("api_tokens"), 1);

    // Another user sees nothing of it and cannot revoke it; a write without the CSRF header is refused.
    let id = list["tokens"][0]["id"].as_i64().unwrap();
    let mallory = app.new_browser();
    mallory.sign_up_with_blog("mallory@example.com", "mallory").await;
    assert_eq!(mallory.get(&path).await.status(), 404);
    assert_eq!(mallory.send(reqwest::Method::DELETE, &format!("{path}/{id}"), json!({})).await.status(), 404);
    let no_csrf = owner.client.post(format!("{}{path}", app.url)).json(&json!({"name": "x", "scopes": ["create"]}));
    assert_eq!(no_csrf.send().await.unwrap().status(), 403);

    // Revoked: it stops working at once.
    assert_eq!(owner.send(reqwest::Method::DELETE, &format!("{path}/{id}"), json!({})).await.status(), 200);
    assert_eq!(owner.send(reqwest::Method::DELETE, &format!("{path}/{id}"), json!({})).await.status(), 404);
    let resp = app.client.get(format!("{}/micropub?q=config", app.url)).bearer_auth(token).send().await.unwrap();
    assert_eq!(refusal(resp, 401).await.0, "unauthorized");
}

#[tokio::test]
async fn micropub_is_advertised_on_every_blog_page() {
    let setup = Setup::new(&["create"]).await;
    let post = setup.owner.create_post(setup.blog_id, simple_body("Hello", "World"), false).await;
    let endpoint = setup.endpoint();
    for path in ["/".to_owned(), format!("/hello-{}", post["shortId"].as_str().unwrap())] {
        let resp = setup.app.get_with_host(&format!("alice.localhost:{}", setup.app.port), &path).await;
        assert_eq!(resp.status(), 200, "{path}");
        let link = resp.headers().get("link").expect("a Link header").to_str().unwrap().to_owned();
        assert!(link.contains(&format!("<{endpoint}>; rel=\"micropub\"")), "{path}: {link}");
        let html = resp.text().await.unwrap();
        assert!(html.contains(&format!("<link rel=\"micropub\" href=\"{endpoint}\">")), "{path}");
    }
}

/// A peer serving images (and not-images) on loopback, for photos by URL; counts its requests.
async fn photo_server() -> (u16, Arc<AtomicUsize>) {
    #[handler]
    fn file(Path(name): Path<String>, hits: poem::web::Data<&Arc<AtomicUsize>>) -> Response {
        hits.fetch_add(1, Ordering::SeqCst);
        let (kind, bytes): (&str, &[u8]) = match name.as_str() {
            "a.png" => ("image/png", PNG),
            "b.gif" => ("image/gif", GIF),
            "c.jpg" => ("image/jpeg", JPEG),
            "fake.png" => ("image/png", b"<html><script>alert(1)</script></html>"),
            "moved.png" => {
                return Response::builder()
                    .status(StatusCode::FOUND)
                    .header("location", "http://169.254.169.254/latest/meta-data/photo.png")
                    .finish();
            }
            "huge.png" => {
                let mut huge = PNG.to_vec();
                huge.resize(11 * 1024 * 1024, 0);
                return Response::builder().content_type("image/png").body(huge);
            }
            _ => return Response::builder().status(StatusCode::NOT_FOUND).finish(),
        };
        Response::builder().content_type(kind).body(bytes.to_vec())
    }
    let port = portpicker();
    let hits = Arc::new(AtomicUsize::new(0));
    let app = poem::EndpointExt::data(Route::new().at("/:name", poem::get(file)), hits.clone());
    crate::helpers::serve_peer(app, port).await;
    (port, hits)
}

fn portpicker() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test]
async fn micropub_rocks_100_101_104_107_form_encoded_creates() {
    let setup = Setup::with(&["create"], |config| config.fetch_allow_loopback = true).await;
    let (port, _) = photo_server().await;

    // 100: an h-entry with content.
    let resp = setup.form(&[("h", "entry"), ("content", "Hello World from **Micropub**")]).await;
    assert_eq!(resp.status(), 201);
    let url = location(&resp);
    assert!(url.starts_with(&setup.blog_origin()), "{url}");
    let (status, html) = setup.page(&url).await;
    assert_eq!(status, 200);
    assert!(html.contains("Hello World from <strong>Micropub</strong>"), "the content is Markdown");

    // 101: categories as category[] (and repeated).
    let resp =
        setup.form(&[("h", "entry"), ("content", "Tagged"), ("category[]", "travel"), ("category[]", "food")]).await;
    assert_eq!(resp.status(), 201);
    let post = setup.post(&location(&resp)).await;
    assert_eq!(post["tags"], json!(["travel", "food"]));

    // 107: one category.
    let resp = setup.form(&[("h", "entry"), ("content", "One tag"), ("category", "travel")]).await;
    assert_eq!(setup.post(&location(&resp)).await["tags"], json!(["travel"]));

    // 104: a photo by URL, downloaded and stored as this server's upload.
    let photo = format!("http://127.0.0.1:{port}/a.png");
    let resp = setup.form(&[("h", "entry"), ("content", "A photo"), ("photo", &photo)]).await;
    assert_eq!(resp.status(), 201);
    let post = setup.post(&location(&resp)).await;
    let image = blocks(&post).into_iter().find(|(kind, _)| kind == "image").expect("an image block").1;
    let media = image["url"].as_str().unwrap();
    assert!(media.starts_with(&format!("{}/media/", setup.app.url)), "{media}");
    let served = setup.app.client.get(media).send().await.unwrap();
    assert_eq!(served.bytes().await.unwrap().as_ref(), PNG);

    // A photo that is not one, one past the image limit, a redirect to a private address: each
    // refused with what went wrong, and no post made.
    let posts = setup.app.count("posts");
    for (name, why) in [("fake.png", "image"), ("huge.png", "large"), ("moved.png", "169.254.169.254")] {
        let photo = format!("http://127.0.0.1:{port}/{name}");
        let resp = setup.form(&[("h", "entry"), ("content", "Bad photo"), ("photo", &photo)]).await;
        let (error, description) = refusal(resp, 400).await;
        assert_eq!(error, "invalid_request", "{name}");
        assert!(description.to_lowercase().contains(why), "{name}: {description}");
    }
    assert_eq!(setup.app.count("posts"), posts);

    // Everything went through the write path: the posts are found by search.
    assert!(setup.owner.search_titles(setup.blog_id, "Tagged").await.contains(&"Tagged".to_owned()));
}

#[tokio::test]
async fn micropub_rocks_200_to_206_json_creates() {
    let setup = Setup::with(&["create"], |config| config.fetch_allow_loopback = true).await;
    let (port, _) = photo_server().await;
    let png = format!("http://127.0.0.1:{port}/a.png");
    let gif = format!("http://127.0.0.1:{port}/b.gif");

    // 200 and 201: content, a name, categories.
    let resp = setup
        .json(json!({"type": ["h-entry"], "properties": {"name": ["A title"], "content": ["Some *words*"], "category": ["one", "two"]}}))
        .await;
    assert_eq!(resp.status(), 201);
    let post = setup.post(&location(&resp)).await;
    assert_eq!(post["title"], "A title");
    assert_eq!(post["tags"], json!(["one", "two"]));
    assert_eq!(blocks(&post)[0], ("heading".to_owned(), json!({"text": "A title"})));

    // 202: HTML content, converted as an import's, its script, frame and handlers gone.
    let html = r#"<p>Hello <b>bold</b> <a href="https://example.com/" onclick="steal()">link</a></p><script>alert(1)</script><iframe src="https://evil.example/"></iframe><img src="x" onerror="alert(2)">"#;
    let resp = setup.json(json!({"type": ["h-entry"], "properties": {"content": [{"html": html}]}})).await;
    assert_eq!(resp.status(), 201);
    let url = location(&resp);
    let stored = setup.post(&url).await["body"].to_string();
    for bad in ["<script", "alert(1)", "onclick", "onerror", "<iframe", "<img"] {
        assert!(!stored.contains(bad), "{bad} stored: {stored}");
    }
    // The frame is kept as a plain link to its address, as an import keeps it.
    assert!(
        stored.contains(r#"{"type":"link","value":{"title":"https://evil.example/","url":"https://evil.example/"}}"#)
    );
    assert!(stored.contains("**bold**"), "{stored}");
    let (_, page) = setup.page(&url).await;
    assert!(page.contains("<strong>bold</strong>") && !page.contains("<script>alert(1)"));

    // 203 and 206: photos by URL; 205: with alt text.
    let resp = setup
        .json(json!({"type": ["h-entry"], "properties": {
            "content": ["Two photos"],
            "photo": [{"value": png, "alt": "A red dot"}, gif]
        }}))
        .await;
    assert_eq!(resp.status(), 201);
    let images: Vec<Value> =
        blocks(&setup.post(&location(&resp)).await).into_iter().filter(|(k, _)| k == "image").map(|(_, v)| v).collect();
    assert_eq!(images.len(), 2);
    assert_eq!(images[0]["alt"], "A red dot");
    assert!(images[1]["url"].as_str().unwrap().ends_with(".gif"));

    // 204: a nested object (a check-in's venue) is kept as a link to it.
    let resp = setup
        .json(json!({"type": ["h-entry"], "properties": {
            "content": ["Coffee"],
            "checkin": [{"type": ["h-card"], "properties": {"name": ["Café Nero"], "url": ["https://cafe.example/"]}}]
        }}))
        .await;
    assert_eq!(resp.status(), 201);
    let post = setup.post(&location(&resp)).await;
    assert!(
        blocks(&post).contains(&("link".to_owned(), json!({"url": "https://cafe.example/", "title": "Café Nero"})))
    );
}

#[tokio::test]
async fn micropub_rocks_300_301_multipart_photos() {
    let setup = Setup::new(&["create"]).await;
    let form = Form::new()
        .text("h", "entry")
        .text("content", "One photo")
        .part("photo", Part::bytes(PNG.to_vec()).file_name("dot.png").mime_str("image/png").unwrap());
    let resp = setup.app.client.post(setup.endpoint()).bearer_auth(&setup.token).multipart(form).send().await.unwrap();
    assert_eq!(resp.status(), 201);
    let post = setup.post(&location(&resp)).await;
    assert_eq!(blocks(&post).iter().filter(|(k, _)| k == "image").count(), 1);

    let form = Form::new()
        .text("h", "entry")
        .text("content", "Two photos")
        .part("photo[]", Part::bytes(PNG.to_vec()).file_name("dot.png"))
        .part("photo[]", Part::bytes(GIF.to_vec()).file_name("dot.gif"));
    let resp = setup.app.client.post(setup.endpoint()).bearer_auth(&setup.token).multipart(form).send().await.unwrap();
    assert_eq!(resp.status(), 201);
    let post = setup.post(&location(&resp)).await;
    let urls: Vec<String> = blocks(&post)
        .into_iter()
        .filter(|(k, _)| k == "image")
        .map(|(_, v)| v["url"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(urls.len(), 2);
    assert!(urls[0].ends_with(".png") && urls[1].ends_with(".gif"), "{urls:?}");

    // A "PNG" that is really HTML is refused by its bytes, and nothing is created.
    let posts_before = setup.app.count("posts");
    let form = Form::new().text("h", "entry").text("content", "Fake").part(
        "photo",
        Part::bytes(b"<html><script>x</script>".to_vec()).file_name("dot.png").mime_str("image/png").unwrap(),
    );
    let resp = setup.app.client.post(setup.endpoint()).bearer_auth(&setup.token).multipart(form).send().await.unwrap();
    let (error, description) = refusal(resp, 400).await;
    assert_eq!(error, "invalid_request");
    assert!(description.contains("JPEG, PNG and GIF"), "{description}");
    assert_eq!(setup.app.count("posts"), posts_before);
}

#[tokio::test]
async fn micropub_rocks_400_to_405_updates() {
    let setup = Setup::new(&["create", "update"]).await;
    let resp = setup
        .json(json!({"type": ["h-entry"], "properties": {"name": ["Walk"], "content": ["Original words"], "category": ["a", "b", "c"]}}))
        .await;
    let url = location(&resp);

    // 400: replace a property.
    let resp = setup.json(json!({"action": "update", "url": url, "replace": {"content": ["New words"]}})).await;
    assert_eq!(resp.status(), 204, "{}", resp.text().await.unwrap());
    let (_, page) = setup.page(&url).await;
    assert!(page.contains("New words") && !page.contains("Original words"));
    assert_eq!(setup.source(&url).await["properties"]["name"], json!(["Walk"]), "the name stays");

    // 401: add a value to an existing property; 402: to a property it does not have.
    let resp = setup.json(json!({"action": "update", "url": url, "add": {"category": ["d"]}})).await;
    assert_eq!(resp.status(), 204);
    assert_eq!(setup.post(&url).await["tags"], json!(["a", "b", "c", "d"]));
    let untagged = location(&setup.form(&[("content", "No tags yet")]).await);
    let resp = setup.json(json!({"action": "update", "url": untagged, "add": {"category": ["new"]}})).await;
    assert_eq!(resp.status(), 204);
    assert_eq!(setup.post(&untagged).await["tags"], json!(["new"]));
    // A single-valued property is replaced, not added to.
    let resp = setup.json(json!({"action": "update", "url": url, "replace": {"visibility": ["unlisted"]}})).await;
    assert_eq!(resp.status(), 204);
    assert_eq!(setup.post(&url).await["visibility"], "unlisted");
    let resp = setup.json(json!({"action": "update", "url": url, "add": {"visibility": ["public"]}})).await;
    assert_eq!(refusal(resp, 400).await.1, "visibility takes one value");

    // 403: remove a value; 404: remove a property.
    let resp = setup.json(json!({"action": "update", "url": url, "delete": {"category": ["b"]}})).await;
    assert_eq!(resp.status(), 204);
    assert_eq!(setup.post(&url).await["tags"], json!(["a", "c", "d"]));
    let resp = setup.json(json!({"action": "update", "url": url, "delete": ["category"]})).await;
    assert_eq!(resp.status(), 204);
    assert_eq!(setup.post(&url).await["tags"], json!([]));

    // 405: an operation whose values are not arrays is refused, and nothing changes.
    let before = setup.post(&url).await;
    let resp = setup.json(json!({"action": "update", "url": url, "replace": {"content": "Not a list"}})).await;
    assert_eq!(refusal(resp, 400).await.0, "invalid_request");
    assert_eq!(setup.post(&url).await["version"], before["version"]);

    // A new name moves the post's address: 201 with the new one; the old one still leads there.
    let resp = setup.json(json!({"action": "update", "url": url, "replace": {"mp-slug": ["a-long-walk"]}})).await;
    assert_eq!(resp.status(), 201);
    let moved = location(&resp);
    assert!(moved.contains("/a-long-walk-"), "{moved}");
}

#[tokio::test]
async fn micropub_rocks_500_to_503_delete_and_undelete() {
    let setup = Setup::new(&["create", "delete", "undelete"]).await;
    for syntax in ["form", "json"] {
        let resp = setup.form(&[("h", "entry"), ("content", &format!("Doomed {syntax}"))]).await;
        let url = location(&resp);
        // 500 / 501: delete.
        let resp = match syntax {
            "form" => setup.form(&[("action", "delete"), ("url", &url)]).await,
            _ => setup.json(json!({"action": "delete", "url": url})).await,
        };
        assert_eq!(resp.status(), 204, "{syntax} delete");
        assert_eq!(setup.page(&url).await.0, 404);
        // 502 / 503: undelete, back at its address.
        let resp = match syntax {
            "form" => setup.form(&[("action", "undelete"), ("url", &url)]).await,
            _ => setup.json(json!({"action": "undelete", "url": url})).await,
        };
        assert!(resp.status().is_success(), "{syntax} undelete: {}", resp.status());
        let (status, page) = setup.page(&url).await;
        assert_eq!(status, 200, "{syntax}");
        assert!(page.contains(&format!("Doomed {syntax}")));
    }
}

#[tokio::test]
async fn micropub_rocks_600_to_603_queries() {
    let setup = Setup::new(&["create"]).await;
    // 600: configuration, naming the media endpoint.
    let config: Value = setup.query("q=config").await.json().await.unwrap();
    assert_eq!(config["media-endpoint"], format!("{}/micropub/media", setup.app.url));
    assert_eq!(config["syndicate-to"], json!([]));
    // 601: syndication targets (none).
    let targets: Value = setup.query("q=syndicate-to").await.json().await.unwrap();
    assert_eq!(targets, json!({"syndicate-to": []}));

    let resp = setup
        .json(json!({"type": ["h-entry"], "properties": {"name": ["Source"], "content": ["Hello *there*"], "category": ["x"]}}))
        .await;
    let url = location(&resp);
    // 602: all properties.
    let source = setup.source(&url).await;
    assert_eq!(source["type"], json!(["h-entry"]));
    let properties = &source["properties"];
    assert_eq!(properties["name"], json!(["Source"]));
    assert_eq!(properties["content"], json!(["Hello *there*"]));
    assert_eq!(properties["category"], json!(["x"]));
    assert_eq!(properties["post-status"], json!(["published"]));
    assert_eq!(properties["url"], json!([url]));
    // 603: the properties asked for.
    let query = format!("q=source&properties[]=name&properties[]=category&url={}", urlencode(&url));
    let some: Value = setup.query(&query).await.json().await.unwrap();
    assert_eq!(some, json!({"properties": {"name": ["Source"], "category": ["x"]}}));

    let (error, _) = refusal(setup.query("q=everything").await, 400).await;
    assert_eq!(error, "invalid_request");
}

#[tokio::test]
async fn micropub_rocks_700_to_702_media_endpoint() {
    let setup = Setup::new(&["media"]).await;
    let media = format!("{}/micropub/media", setup.app.url);
    for (file, bytes, extension) in [("photo.jpg", JPEG, "jpg"), ("photo.png", PNG, "png"), ("photo.gif", GIF, "gif")] {
        let form = Form::new().part("file", Part::bytes(bytes.to_vec()).file_name(file));
        let resp = setup.app.client.post(&media).bearer_auth(&setup.token).multipart(form).send().await.unwrap();
        assert_eq!(resp.status(), 201, "{file}");
        let url = location(&resp);
        assert!(url.starts_with(&format!("{}/media/", setup.app.url)) && url.ends_with(extension), "{url}");
        assert_eq!(setup.app.client.get(&url).send().await.unwrap().bytes().await.unwrap().as_ref(), bytes);
    }
    // The type is told by the bytes, never by the name.
    let form = Form::new().part("file", Part::bytes(b"<html>hi</html>".to_vec()).file_name("photo.png"));
    let resp = setup.app.client.post(&media).bearer_auth(&setup.token).multipart(form).send().await.unwrap();
    assert_eq!(refusal(resp, 400).await.0, "invalid_request");
    // A token without `media` may not upload.
    let create_only = make_token(&setup.owner, setup.blog_id, "notes", &["create"]).await;
    let form = Form::new().part("file", Part::bytes(PNG.to_vec()).file_name("dot.png"));
    let resp = setup.app.client.post(&media).bearer_auth(&create_only).multipart(form).send().await.unwrap();
    assert_eq!(refusal(resp, 401).await.0, "insufficient_scope");
}

#[tokio::test]
async fn micropub_rocks_800_to_804_authentication() {
    let setup = Setup::new(&["create"]).await;
    // 800: the token in the header (every test above); 801: in the body.
    let resp = setup
        .app
        .client
        .post(setup.endpoint())
        .form(&[("h", "entry"), ("content", "Body token"), ("access_token", &setup.token)])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    let url = location(&resp);
    // 802: the token is no property of the post.
    let source = setup.source(&url).await.to_string();
    assert!(!source.contains("access_token") && !source.contains(&setup.token));
    let (_, page) = setup.page(&url).await;
    assert!(!page.contains(&setup.token));

    let posts = setup.app.count("posts");
    // 803: no token.
    let resp = setup.app.client.post(setup.endpoint()).form(&[("h", "entry"), ("content", "x")]).send().await.unwrap();
    assert!(resp.headers().get("www-authenticate").is_some());
    assert_eq!(refusal(resp, 401).await.0, "unauthorized");
    // Malformed, unknown, expired tokens; both header and body.
    for bad in ["nonsense", "quire_0000000000000000000000000000000000000000000000000000000000000000"] {
        let resp =
            setup.app.client.post(setup.endpoint()).bearer_auth(bad).form(&[("content", "x")]).send().await.unwrap();
        assert_eq!(refusal(resp, 401).await.0, "unauthorized", "{bad}");
    }
    let expiring = make_token(&setup.owner, setup.blog_id, "short", &["create"]).await;
    setup
        .app
        .db()
        .execute("UPDATE api_tokens SET expires_at = '2020-01-01T00:00:00.000Z' WHERE name = 'short'", [])
        .unwrap();
    let resp =
        setup.app.client.post(setup.endpoint()).bearer_auth(&expiring).form(&[("content", "x")]).send().await.unwrap();
    assert_eq!(refusal(resp, 401).await.0, "unauthorized");
    let resp = setup
        .app
        .client
        .post(setup.endpoint())
        .bearer_auth(&setup.token)
        .form(&[("content", "x"), ("access_token", &setup.token)])
        .send()
        .await
        .unwrap();
    assert_eq!(refusal(resp, 400).await.0, "invalid_request");
    // 804: a token without the scope asked for; `undelete` is not `delete`.
    let undelete_only = make_token(&setup.owner, setup.blog_id, "undelete", &["undelete"]).await;
    let resp = setup
        .app
        .client
        .post(setup.endpoint())
        .bearer_auth(&undelete_only)
        .form(&[("action", "delete"), ("url", &url)])
        .send()
        .await
        .unwrap();
    let body: Value = {
        assert_eq!(resp.status(), 401);
        resp.json().await.unwrap()
    };
    assert_eq!(body["error"], "insufficient_scope");
    assert_eq!(body["scope"], "delete");
    let resp = setup
        .app
        .client
        .post(setup.endpoint())
        .bearer_auth(&undelete_only)
        .form(&[("content", "x")])
        .send()
        .await
        .unwrap();
    assert_eq!(refusal(resp, 401).await.0, "insufficient_scope");
    assert_eq!(setup.app.count("posts"), posts, "nothing was written");
    assert_eq!(setup.page(&url).await.0, 200, "the post is still there");
}

#[tokio::test]
async fn a_draft_token_makes_drafts_only() {
    let setup = Setup::new(&["draft"]).await;
    let resp = setup.form(&[("h", "entry"), ("content", "Not yet"), ("post-status", "published")]).await;
    assert_eq!(resp.status(), 201);
    let url = location(&resp);
    assert_eq!(setup.post(&url).await["publishedAt"], Value::Null);
    assert_eq!(setup.page(&url).await.0, 404);

    // With `create`: post-status draft, and a future `published` schedules it.
    let token = make_token(&setup.owner, setup.blog_id, "full", &["create"]).await;
    let send = |pairs: Vec<(&'static str, String)>| {
        setup.app.client.post(setup.endpoint()).bearer_auth(&token).form(&pairs).send()
    };
    let resp = send(vec![("content", "Draft".into()), ("post-status", "draft".into())]).await.unwrap();
    assert_eq!(setup.post(&location(&resp)).await["publishedAt"], Value::Null);
    let resp = send(vec![("content", "Later".into()), ("published", "2030-06-01T09:00:00Z".into())]).await.unwrap();
    assert_eq!(resp.status(), 201);
    let post = setup.post(&location(&resp)).await;
    assert_eq!(post["scheduledAt"], "2030-06-01T09:00:00.000Z");
    let resp = send(vec![("content", "Slugged".into()), ("mp-slug", "my own slug".into())]).await.unwrap();
    assert!(location(&resp).contains("/my-own-slug-"), "{}", location(&resp));
}

#[tokio::test]
async fn another_blogs_urls_private_photos_and_huge_bodies_are_refused() {
    let setup = Setup::new(&["create", "update", "delete"]).await;
    let bob = setup.app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let bobs = bob.create_post(bob_blog, simple_body("Bob's", "Mine"), false).await;
    let bobs_url = format!("http://bob.localhost:{}/bobs-{}", setup.app.port, bobs["shortId"].as_str().unwrap());

    // Alice's token on Bob's post: refused, his post untouched.
    let resp = setup.json(json!({"action": "update", "url": bobs_url, "replace": {"content": ["Hacked"]}})).await;
    assert_eq!(refusal(resp, 403).await.0, "forbidden");
    let resp = setup.form(&[("action", "delete"), ("url", &bobs_url)]).await;
    assert_eq!(refusal(resp, 403).await.0, "forbidden");
    let resp = setup.query(&format!("q=source&url={}", urlencode(&bobs_url))).await;
    assert_eq!(refusal(resp, 403).await.0, "forbidden");
    let resp = bob.get(&format!("/api/my/blogs/{bob_blog}/posts/{}", bobs["shortId"].as_str().unwrap())).await;
    assert!(resp.text().await.unwrap().contains("Mine"));

    // A photo on a private address (the fetcher is not told to allow loopback here), or a redirect to one.
    let posts = setup.app.count("posts");
    let resp = setup.form(&[("content", "x"), ("photo", "http://127.0.0.1:9/a.png")]).await;
    let (error, description) = refusal(resp, 400).await;
    assert_eq!(error, "invalid_request");
    assert!(description.contains("127.0.0.1:9"), "{description}");
    let resp = setup.form(&[("content", "x"), ("photo", "http://169.254.169.254/latest/meta-data")]).await;
    assert_eq!(refusal(resp, 400).await.0, "invalid_request");
    assert_eq!(setup.app.count("posts"), posts);

    // A 100 MB body is refused by its declared length, in Micropub's shape.
    let huge = vec![b'a'; 100 * 1024 * 1024];
    let resp = setup
        .app
        .client
        .post(setup.endpoint())
        .bearer_auth(&setup.token)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(huge)
        .send()
        .await;
    if let Ok(resp) = resp {
        // The server may answer before the whole body is sent, or close the connection.
        assert_eq!(resp.status(), 413);
        let body: Value = resp.json().await.unwrap();
        assert_eq!(body["error"], "invalid_request");
    }
    assert_eq!(setup.app.count("posts"), posts);
}

#[tokio::test]
async fn a_token_past_its_allowance_gets_429_and_nothing_half_written() {
    let setup = Setup::with(&["create"], |config| {
        config.public.token_limits.writes_per_minute = 5;
        config.public.token_limits.reads_per_minute = 20;
    })
    .await;
    let posts = setup.app.count("posts");
    let started = std::time::Instant::now();
    let mut statuses = Vec::new();
    for i in 0..40 {
        let resp = setup.form(&[("content", &format!("Burst {i}"))]).await;
        if resp.status() == 429 {
            assert!(resp.headers().get("retry-after").is_some());
            let body: Value = resp.json().await.unwrap();
            assert_eq!(body["error"], "rate_limited");
            statuses.push(429);
        } else {
            statuses.push(resp.status().as_u16());
        }
    }
    // The allowance is 5 at once, then one every 12 s: a slow machine may earn one or two more
    // while the burst is sent, never more than the time allows.
    let earned = (started.elapsed().as_secs() / 12) as usize;
    let created = statuses.iter().filter(|s| **s == 201).count();
    assert_eq!(statuses[..5], [201; 5], "{statuses:?}");
    assert!((5..=5 + earned).contains(&created), "{created} created in {:?}: {statuses:?}", started.elapsed());
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 40 - created, "{statuses:?}");
    assert_eq!(setup.app.count("posts"), posts + created as i64, "each refused request wrote nothing");
    // Another token of the same blog has its own allowance.
    let other = make_token(&setup.owner, setup.blog_id, "other", &["create"]).await;
    let resp =
        setup.app.client.post(setup.endpoint()).bearer_auth(&other).form(&[("content", "Other")]).send().await.unwrap();
    assert_eq!(resp.status(), 201);
}

#[tokio::test]
async fn a_suspended_blogs_tokens_are_refused_until_it_is_unsuspended() {
    use quire::domain::blog::trust_state::Moderation;
    let setup = Setup::new(&["create"]).await;
    crate::trust_states::moderate(&setup.app, Moderation::Suspend, "Spam").await;
    let posts = setup.app.count("posts");
    let (error, description) = refusal(setup.form(&[("content", "Spam")]).await, 403).await;
    assert_eq!(error, "forbidden");
    assert_eq!(description, "This blog is suspended: its tokens cannot be used");
    assert_eq!(setup.app.count("posts"), posts);
    crate::trust_states::moderate(&setup.app, Moderation::Unsuspend, "").await;
    assert_eq!(setup.form(&[("content", "Back")]).await.status(), 201);
}
