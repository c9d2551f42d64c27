//! Why a request to another server failed, in words an import report can show.

use std::net::IpAddr;
use std::time::Duration;

use crate::domain::net::addresses::{NonPublic, embedded_ipv4};

/// A failed request; its `Display` is the plain sentence for the user ("refused: 127.0.0.1 is
/// a loopback address"), never a cause from inside the HTTP client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// Not a URL at all.
    #[error("not a valid URL")]
    InvalidUrl,
    /// A scheme other than http and https (ftp:, file:, data:, ...).
    #[error("not an http or https URL")]
    NotHttp,
    /// A URL naming a user or password.
    #[error("a URL with a user name or password is not fetched")]
    Credentials,
    /// The target is not a public address (an IP literal, or every address a name resolves to).
    #[error("{}", refused(host.as_deref(), *address, *kind))]
    Refused {
        /// The host name that resolved to `address`; `None` when the URL named the address.
        host: Option<String>,
        /// The refused address.
        address: IpAddr,
        /// Why it is refused.
        kind: NonPublic,
    },
    /// The host name has no address.
    #[error("{0} was not found")]
    UnknownHost(String),
    /// No connection could be made (refused, unreachable, TLS failed).
    #[error("could not connect to {0}")]
    Connect(String),
    /// The whole exchange took longer than the deadline.
    #[error("timed out after {}", seconds(*.0))]
    TimedOut(Duration),
    /// The body is larger than the cap (said by Content-Length, or found while streaming).
    #[error("larger than {}", size(*.0))]
    TooLarge(usize),
    /// The server answered with a status other than 2xx (after redirects).
    #[error("the server answered {0}")]
    Status(u16),
    /// More redirects than allowed.
    #[error("too many redirects")]
    TooManyRedirects,
    /// The bytes are not an image Quire accepts; carries the Content-Type the server gave.
    #[error("{}", not_an_image(.0.as_deref()))]
    NotAnImage(Option<String>),
    /// The Content-Type is not one the caller accepts.
    #[error("unexpected content type ({0})")]
    UnexpectedType(String),
    /// The exchange broke off for another reason; the cause is for the log.
    #[error("the download failed")]
    Failed(String),
}

fn refused(host: Option<&str>, address: IpAddr, kind: NonPublic) -> String {
    let carried = match address {
        IpAddr::V6(v6) => embedded_ipv4(v6).into_iter().find(|v4| !address.to_string().contains(&v4.to_string())),
        IpAddr::V4(_) => None,
    };
    let carried = carried.map(|v4| format!(" (it carries {v4})")).unwrap_or_default();
    match host {
        Some(host) => format!("refused: {host} resolves to {address}{carried}, {kind}"),
        None => format!("refused: {address}{carried} is {kind}"),
    }
}

fn seconds(duration: Duration) -> String {
    match duration.as_millis() {
        ms if ms % 1000 == 0 => format!("{} s", ms / 1000),
        ms => format!("{:.1} s", ms as f64 / 1000.0),
    }
}

fn size(bytes: usize) -> String {
    const MB: usize = 1024 * 1024;
    match bytes {
        b if b >= MB && b % MB == 0 => format!("{} MB", b / MB),
        b if b >= 1024 && b % 1024 == 0 => format!("{} KB", b / 1024),
        b => format!("{b} bytes"),
    }
}

fn not_an_image(content_type: Option<&str>) -> String {
    match content_type {
        Some(declared) if !declared.starts_with("image/") => format!("not an image ({declared})"),
        _ => "not an image Quire accepts (JPEG, PNG or GIF)".to_owned(),
    }
}

impl FetchError {
    /// The error a failed `reqwest` call stands for: the guard's own refusal when the resolver
    /// or the redirect policy raised one (it travels inside reqwest's error), else its kind.
    pub(super) fn from_client(err: reqwest::Error, host: &str) -> FetchError {
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&err);
        while let Some(current) = cause {
            if let Some(ours) = current.downcast_ref::<FetchError>() {
                return ours.clone();
            }
            cause = current.source();
        }
        if err.is_connect() { FetchError::Connect(host.to_owned()) } else { FetchError::Failed(format!("{err:#}")) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_plain_sentences() {
        let refused_ip = |ip: &str, kind| FetchError::Refused { host: None, address: ip.parse().unwrap(), kind };
        let cases = [
            (refused_ip("127.0.0.1", NonPublic::Loopback), "refused: 127.0.0.1 is a loopback address"),
            (refused_ip("169.254.169.254", NonPublic::LinkLocal), "refused: 169.254.169.254 is a link-local address"),
            (refused_ip("::ffff:127.0.0.1", NonPublic::Loopback), "refused: ::ffff:127.0.0.1 is a loopback address"),
            (
                refused_ip("64:ff9b::a9fe:a9fe", NonPublic::LinkLocal),
                "refused: 64:ff9b::a9fe:a9fe (it carries 169.254.169.254) is a link-local address",
            ),
            (
                FetchError::Refused {
                    host: Some("localhost".into()),
                    address: "127.0.0.1".parse().unwrap(),
                    kind: NonPublic::Loopback,
                },
                "refused: localhost resolves to 127.0.0.1, a loopback address",
            ),
            (FetchError::TimedOut(Duration::from_secs(20)), "timed out after 20 s"),
            (FetchError::TimedOut(Duration::from_millis(1500)), "timed out after 1.5 s"),
            (FetchError::TooLarge(10 * 1024 * 1024), "larger than 10 MB"),
            (FetchError::TooLarge(64 * 1024), "larger than 64 KB"),
            (FetchError::TooLarge(1000), "larger than 1000 bytes"),
            (FetchError::NotAnImage(Some("text/html".into())), "not an image (text/html)"),
            (FetchError::NotAnImage(Some("image/png".into())), "not an image Quire accepts (JPEG, PNG or GIF)"),
            (FetchError::NotAnImage(None), "not an image Quire accepts (JPEG, PNG or GIF)"),
            (FetchError::Status(404), "the server answered 404"),
            (FetchError::TooManyRedirects, "too many redirects"),
            (FetchError::NotHttp, "not an http or https URL"),
            (FetchError::Failed("hyper: connection reset".into()), "the download failed"),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
    }
}
