//! One error type for the whole server, and its one mapping to an HTTP status and body.

use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use serde_json::Value;

pub use crate::domain::messages::Messages;

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed (bad JSON, bad query parameter).
    #[error("bad request: {0}")]
    BadRequest(Messages),
    /// No valid session.
    #[error("not signed in: {0}")]
    Unauthorized(Messages),
    /// CSRF token or Origin check failed.
    #[error("forbidden: {0}")]
    Forbidden(Messages),
    /// Missing, or not the caller's (never reveals that it exists).
    #[error("not found: {0}")]
    NotFound(Messages),
    /// The body or upload is over its limit.
    #[error("too large: {0}")]
    TooLarge(Messages),
    /// The request is well-formed but breaks a rule.
    #[error("invalid: {0}")]
    Invalid(Messages),
    /// Too many attempts.
    #[error("rate limited: {0}")]
    RateLimited(Messages),
    /// A service we depend on (the sign-in provider) failed; details go to the log.
    #[error("upstream failure: {0}")]
    Upstream(Messages),
    /// The disk holding the database is full: nothing was written (507).
    #[error("disk full: {0}")]
    Full(Messages),
    /// A fault of ours; the cause goes to the log, never to the client.
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

impl Error {
    /// 400 with one message.
    pub fn bad_request(field: &str, message: impl Into<String>) -> Error {
        Error::BadRequest(Messages::one(field, message))
    }

    /// 404 with one message.
    pub fn not_found(field: &str, message: impl Into<String>) -> Error {
        Error::NotFound(Messages::one(field, message))
    }

    /// 422 with one message.
    pub fn invalid(field: &str, message: impl Into<String>) -> Error {
        Error::Invalid(Messages::one(field, message))
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Error::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Error::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            Error::Upstream(_) => StatusCode::BAD_GATEWAY,
            Error::Full(_) => StatusCode::INSUFFICIENT_STORAGE,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The messages the client is told; `None` for a fault of ours, whose cause is never told.
    pub fn messages(&self) -> Option<&Messages> {
        match self {
            Error::BadRequest(m)
            | Error::Unauthorized(m)
            | Error::Forbidden(m)
            | Error::NotFound(m)
            | Error::TooLarge(m)
            | Error::Invalid(m)
            | Error::RateLimited(m)
            | Error::Upstream(m)
            | Error::Full(m) => Some(m),
            Error::Internal(_) => None,
        }
    }

    /// A request body over `limit` bytes (`413`, under `body`).
    pub fn body_too_large(limit: u64) -> Error {
        Error::TooLarge(Messages::one("body", format!("The request body is larger than {} KiB", limit / 1024)))
    }

    /// The JSON body; a 500 names only the request id, which is in the log beside the cause.
    pub fn body(&self, request_id: &str) -> Value {
        match self.messages() {
            Some(m) => m.to_json(),
            None => {
                Messages::one("server", format!("Something went wrong on our side (request id {request_id})")).to_json()
            }
        }
    }

    /// The full JSON response.
    pub fn to_response(&self, request_id: &str) -> Response {
        poem::web::Json(self.body(request_id)).with_status(self.status()).into_response()
    }
}

impl poem::error::ResponseError for Error {
    fn status(&self) -> StatusCode {
        Error::status(self)
    }
}

impl From<rusqlite::Error> for Error {
    fn from(err: rusqlite::Error) -> Error {
        if let rusqlite::Error::SqliteFailure(failure, _) = &err
            && failure.code == rusqlite::ErrorCode::DiskFull
        {
            // SQLite rolled the transaction back: nothing of the write is kept.
            tracing::error!(error = %err, "the disk holding the database is full: a write was refused");
            return Error::Full(Messages::one("server", DISK_FULL));
        }
        Error::Internal(anyhow::Error::new(err).context("database"))
    }
}

/// What a writer is told when the database's disk is full.
pub const DISK_FULL: &str = "The server's disk is full, so nothing was saved. Try again later.";

/// Handler result.
pub type Result<T, E = Error> = std::result::Result<T, E>;
