//! Small server-rendered pages that are not part of a blog theme: the 404 and 500 pages, and
//! the operator's terms and privacy policy (`--terms`, `--privacy`; docs/public-instance.md).

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Response, handler};

use crate::config::Config;
use crate::domain::content::markdown::to_html;
use crate::domain::public_instance::OperatorPage;
use crate::http::state::AppState;

pub use crate::domain::content::html::escape;

const NOT_FOUND_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/// A plain 404 page.
pub fn not_found(title: &str, message: &str) -> Response {
    plain_page(StatusCode::NOT_FOUND, title, message)
}

/// The 404 of a blog address nobody holds (or a host this server does not serve): says so,
/// names the address when it is one of ours (`name`, e.g. `ann.example.com`), and links to the
/// instance's landing page, so a reader who mistyped has a way on.
pub fn no_blog(config: &Config, name: Option<&str>) -> Response {
    let said = match name {
        Some(name) => format!("There is no blog at {name}."),
        None => "There is no blog at this address.".to_owned(),
    };
    let app_url = config.app_url();
    let body = format!(
        "<p>{}</p><p>It may have moved, or the address may be mistyped. <a href=\"{}/\">Go to {}</a> to \
         find its blogs or start one.</p>",
        escape(&said),
        escape(&app_url),
        escape(&config.host),
    );
    page(StatusCode::NOT_FOUND, "Blog not found", &body)
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

/// A plain page with `status`, a title and one paragraph (both escaped).
pub fn message_page(status: StatusCode, title: &str, message: &str) -> Response {
    plain_page(status, title, message)
}

fn plain_page(status: StatusCode, title: &str, message: &str) -> Response {
    page(status, title, &format!("<p>{}</p>", escape(message)))
}

/// The style of every plain page (inline: their CSP allows no other source).
const STYLE: &str = "body{font:18px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;\
color:#1f2328}h1{font-size:1.6rem}footer{margin-top:3rem;font-size:.9rem;color:#59636e}a{color:#0550ae}";

/// A plain page of `status` titled `title` (escaped here) around `body_html` (already HTML).
fn page(status: StatusCode, title: &str, body_html: &str) -> Response {
    let body = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"robots\" content=\"noindex\"><title>{title}</title><style>{STYLE}</style>\
</head><body><h1>{title}</h1>{body_html}</body></html>\n",
        title = escape(title),
    );
    Response::builder()
        .status(status)
        .content_type("text/html; charset=utf-8")
        .header("content-security-policy", NOT_FOUND_CSP)
        .header("cache-control", "no-cache")
        .body(body)
}

/// A page of a public form (the report page, the subscribe pages): `html` under `csp`, never
/// stored by a cache, never indexed.
pub fn form_page(status: StatusCode, csp: &'static str, html: String) -> Response {
    Response::builder()
        .status(status)
        .content_type("text/html; charset=utf-8")
        .header("content-security-policy", csp)
        .header("cache-control", "no-store")
        .header("x-robots-tag", "noindex")
        .body(html)
}

/// The operator's pages that exist (`--terms`, `--privacy`), as (label, path on the app host).
pub fn operator_pages(config: &Config) -> Vec<(&'static str, &'static str)> {
    let public = &config.public;
    [("Terms", TERMS_PATH, public.terms.is_some()), ("Privacy", PRIVACY_PATH, public.privacy.is_some())]
        .into_iter()
        .filter(|(_, _, present)| *present)
        .map(|(label, path, _)| (label, path))
        .collect()
}

/// Links to the operator's pages, for a server-rendered page of the app host (the report
/// page): `<a href="/terms">Terms</a> · <a href="/privacy">Privacy</a>`, empty when there are none.
pub fn operator_links(config: &Config) -> String {
    let links: Vec<String> =
        operator_pages(config).into_iter().map(|(label, path)| format!("<a href=\"{path}\">{label}</a>")).collect();
    links.join(" · ")
}

/// Where the operator's terms are served on the app host (`--terms`).
pub const TERMS_PATH: &str = "/terms";
/// Where the operator's privacy policy is served on the app host (`--privacy`).
pub const PRIVACY_PATH: &str = "/privacy";

/// `/terms`, routed only when `--terms` is given.
#[handler]
pub fn terms(state: Data<&AppState>) -> Response {
    match &state.config.public.terms {
        Some(terms) => operator_page(&state.config, "Terms", terms),
        None => not_found("Page not found", "There is no page at this address."),
    }
}

/// `/privacy`, routed only when `--privacy` is given.
#[handler]
pub fn privacy(state: Data<&AppState>) -> Response {
    match &state.config.public.privacy {
        Some(privacy) => operator_page(&state.config, "Privacy", privacy),
        None => not_found("Page not found", "There is no page at this address."),
    }
}

/// An operator's page (`--terms`, `--privacy`): its Markdown through the one renderer (which
/// shows raw HTML as text), with the instance's contact address under it.
fn operator_page(config: &Config, title: &str, operator: &OperatorPage) -> Response {
    let mut body = to_html(&operator.markdown);
    body.push_str("<footer>");
    if let Some(email) = &config.public.contact_email {
        let email = escape(email);
        body.push_str(&format!("Contact: <a href=\"mailto:{email}\">{email}</a> · "));
    }
    body.push_str(&format!("<a href=\"{}/\">{}</a></footer>", config.app_url(), escape(&config.host)));
    page(StatusCode::OK, title, &body)
}

#[cfg(test)]
mod tests {
    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(super::escape(r#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }
}
