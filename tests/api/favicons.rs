use crate::helpers::{TestApp, errors_of};

fn header(resp: &reqwest::Response, name: &str) -> String {
    resp.headers().get(name).unwrap_or_else(|| panic!("header {name} missing")).to_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_second_page_of_100_favicons_has_100_icons_and_paging_headers() {
    let app = TestApp::spawn().await;
    let resp = app.get("/api/favicons?page=2&page_size=100").await;
    assert_eq!(resp.status(), 200);
    let total: u64 = header(&resp, "total").parse().unwrap();
    assert!(total > 3000, "the full emoji set has thousands of icons, got {total}");
    assert_eq!(header(&resp, "totalPages"), total.div_ceil(100).to_string());
    assert_eq!(header(&resp, "pageNumber"), "2");
    assert_eq!(header(&resp, "perPage"), "100");
    let body: serde_json::Value = resp.json().await.unwrap();
    let favicons = body["favicons"].as_array().unwrap();
    assert_eq!(favicons.len(), 100);
    assert!(favicons.iter().all(|f| f["id"].is_i64() && f["code"].is_string()));
}

#[tokio::test]
async fn favicons_start_with_smileys_in_unicode_order_using_twemoji_codes() {
    let app = TestApp::spawn().await;
    let body: serde_json::Value = app.get("/api/favicons").await.json().await.unwrap();
    let codes: Vec<&str> = body["favicons"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert_eq!(codes.len(), 100, "default page size is 100");
    assert_eq!(&codes[..3], &["1f600", "1f603", "1f604"]);
}

#[tokio::test]
async fn the_last_page_holds_the_remainder() {
    let app = TestApp::spawn().await;
    let first = app.get("/api/favicons?page_size=500").await;
    let total: u64 = header(&first, "total").parse().unwrap();
    let last_page = total.div_ceil(500);
    let resp = app.get(&format!("/api/favicons?page={last_page}&page_size=500")).await;
    assert_eq!(resp.status(), 200);
    let body: serde_json::Value = resp.json().await.unwrap();
    let expected = total - (last_page - 1) * 500;
    assert_eq!(body["favicons"].as_array().unwrap().len() as u64, expected);
}

#[tokio::test]
async fn bad_or_out_of_range_pages_are_a_400_in_the_error_shape() {
    let app = TestApp::spawn().await;
    let cases = [
        ("page=0", "page"),
        ("page=-1", "page"),
        ("page=two", "page"),
        ("page=1e3", "page"),
        ("page=99999", "page"),
        ("page=18446744073709551616", "page"),
        ("page_size=0", "page_size"),
        ("page_size=100000", "page_size"),
        ("page_size=%FF", "page_size"),
    ];
    for (query, field) in cases {
        let resp = app.get(&format!("/api/favicons?{query}")).await;
        assert_eq!(resp.status(), 400, "{query}");
        let errors = errors_of(resp).await;
        assert_eq!(errors.len(), 1, "{query}: {errors:?}");
        assert_eq!(errors[0].0, field, "{query}");
        assert!(!errors[0].1.is_empty());
    }
}
