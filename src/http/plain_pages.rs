//! Small server-rendered pages that are not part of a blog theme.

use poem::Response;
use poem::http::StatusCode;

pub use crate::domain::content::html::escape;

const NOT_FOUND_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/// A plain 404 page.
pub fn not_found(title: &str, message: &str) -> Response {
    plain_page(StatusCode::NOT_FOUND, title, message)
}

/// The 410 every public surface of a suspended blog answers with (issue 29): a short page that
/// shows nothing of the blog, never cached by anyone.
pub fn suspended() -> Response {
    let mut page = plain_page(
        StatusCode::GONE,
        "This blog has been suspended.",
        "The operator of this instance has suspended it.",
    );
    page.headers_mut().insert("cache-control", poem::http::HeaderValue::from_static("no-store"));
    page.headers_mut().insert("x-robots-tag", poem::http::HeaderValue::from_static("noindex"));
    page
}

/// A plain 500 page naming the request id, which is in the log beside the cause.
pub fn server_error(request_id: &str) -> Response {
    plain_page(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Something went wrong",
        &format!("Something went wrong on our side (request id {request_id}). Try again in a moment."),
    )
}

fn plain_page(status: StatusCode, title: &str, message: &str) -> Response {
    let body = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"robots\" content=\"noindex\"><title>{title}</title>\
<style>body{{font:18px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#1f2328}}h1{{font-size:1.6rem}}</style>\
</head><body><h1>{title}</h1><p>{message}</p></body></html>\n",
        title = escape(title),
        message = escape(message),
    );
    Response::builder()
        .status(status)
        .content_type("text/html; charset=utf-8")
        .header("content-security-policy", NOT_FOUND_CSP)
        .header("cache-control", "no-cache")
        .body(body)
}

#[cfg(test)]
mod tests {
    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(super::escape(r#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }
}
