//! Small server-rendered pages that are not part of a blog theme.

use poem::Response;
use poem::http::StatusCode;

pub use crate::domain::content::html::escape;

const NOT_FOUND_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/// A plain 404 page.
pub fn not_found(title: &str, message: &str) -> Response {
    plain_page(StatusCode::NOT_FOUND, title, message)
}

/// A plain 500 page naming the request id, which is in the log beside the cause.
pub fn server_error(request_id: &str) -> Response {
    plain_page(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Something went wrong",
        &format!("Something went wrong on our side (request id {request_id}). Try again in a moment."),
    )
}

/// A plain page with `status`, a title and one paragraph (both escaped).
pub fn page(status: StatusCode, title: &str, message: &str) -> Response {
    plain_page(status, title, message)
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
