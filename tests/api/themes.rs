use crate::helpers::TestApp;

#[tokio::test]
async fn themes_list_offers_at_least_the_four_designed_themes() {
    let app = TestApp::spawn().await;
    let resp = app.get("/api/themes").await;
    assert_eq!(resp.status(), 200);
    let body: serde_json::Value = resp.json().await.unwrap();
    let names: Vec<&str> = body["themes"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    for expected in ["Default", "Serif", "Mono", "Dark"] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    assert!(body["themes"][0]["id"].is_i64());
}
