//! Delivering an activity to an inbox (issue 16): a signed POST through the guarded client's
//! twin that never follows a redirect (a redirect would break the signed `(request-target)` and
//! `host`, turn the POST into a GET, and is a path around the address guard), https only unless
//! the test-only loopback allowance is on, the answer's body read to 64 KB at most and ignored.

use std::time::{Duration, SystemTime};

use bytes::Bytes;
use reqwest::header::{HeaderName, HeaderValue, RETRY_AFTER};

use super::{FetchError, Fetcher};
use crate::domain::federation::activity::ACTIVITY_JSON;
use crate::fetch::signed::SigningKey;

/// Most bytes of an inbox's answer read (the rest is dropped with the connection).
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// Why a delivery failed, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DeliveryError {
    /// What happened, for the owner's given-up list and the log.
    pub message: String,
    /// Trying again will not help (404, 410, other 4xx, a refused or non-https address).
    pub permanent: bool,
    /// The inbox is gone for good (410): its follower goes too.
    pub gone: bool,
    /// When the server said to come back (429, 503 with `Retry-After`).
    pub retry_after: Option<Duration>,
}

impl DeliveryError {
    fn retry(message: String) -> DeliveryError {
        DeliveryError { message, permanent: false, gone: false, retry_after: None }
    }

    fn permanent(message: String) -> DeliveryError {
        DeliveryError { message, permanent: true, gone: false, retry_after: None }
    }

    fn of_status(status: u16, retry_after: Option<Duration>) -> DeliveryError {
        let message = FetchError::Status(status).to_string();
        match status {
            410 => DeliveryError { gone: true, ..DeliveryError::permanent(message) },
            429 | 503 => DeliveryError { retry_after, ..DeliveryError::retry(message) },
            300..=499 => DeliveryError::permanent(message),
            _ => DeliveryError::retry(message),
        }
    }
}

impl Fetcher {
    /// POSTs `body` (an activity) to `inbox`, signed by `key` as `key_id`, within the deadline.
    pub async fn deliver(&self, inbox: &str, body: Bytes, key: &SigningKey, key_id: &str) -> Result<(), DeliveryError> {
        let deadline = self.deadline;
        let timed_out = || DeliveryError::retry(FetchError::TimedOut(deadline).to_string());
        tokio::time::timeout(deadline, self.post_signed(inbox, body, key, key_id))
            .await
            .unwrap_or_else(|_| Err(timed_out()))
    }

    async fn post_signed(&self, inbox: &str, body: Bytes, key: &SigningKey, key_id: &str) -> Result<(), DeliveryError> {
        let url = self.guard.check_url(inbox).map_err(|err| DeliveryError::permanent(err.to_string()))?;
        if url.scheme() != "https" && !self.guard.allow_loopback {
            return Err(DeliveryError::permanent("not an https inbox".to_owned()));
        }
        let host = url.host_str().unwrap_or_default().to_owned();
        let headers = key
            .sign(key_id, "POST", &url, Some((&body, ACTIVITY_JSON)), SystemTime::now())
            .map_err(|err| DeliveryError::retry(format!("signing failed: {err:#}")))?;
        let mut sending = self.post_client.post(url);
        for (name, value) in headers {
            let value = HeaderValue::from_str(&value)
                .map_err(|_| DeliveryError::permanent("an unsendable header".to_owned()))?;
            sending = sending.header(HeaderName::from_static(name), value);
        }
        let mut response = sending.body(body).send().await.map_err(|err| {
            let err = FetchError::from_client(err, &host);
            match err {
                FetchError::Refused { .. } | FetchError::InvalidUrl | FetchError::NotHttp => {
                    DeliveryError::permanent(err.to_string())
                }
                _ => DeliveryError::retry(err.to_string()),
            }
        })?;
        let status = response.status();
        if !status.is_success() {
            let retry_after =
                response.headers().get(RETRY_AFTER).and_then(|value| value.to_str().ok()).and_then(retry_after);
            return Err(DeliveryError::of_status(status.as_u16(), retry_after));
        }
        let mut read = 0;
        while let Ok(Some(chunk)) = response.chunk().await {
            read += chunk.len();
            if read >= MAX_ANSWER_BYTES {
                break;
            }
        }
        Ok(())
    }
}

/// A `Retry-After` value: seconds, or an HTTP date (then the wait until it).
fn retry_after(value: &str) -> Option<Duration> {
    if let Ok(seconds) = value.trim().parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value.trim()).ok()?;
    Some(at.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_sort_into_give_up_retry_and_come_back_later() {
        let gone = DeliveryError::of_status(410, None);
        assert!(gone.permanent && gone.gone);
        assert!(DeliveryError::of_status(404, None).permanent);
        assert!(DeliveryError::of_status(400, None).permanent);
        assert!(DeliveryError::of_status(301, None).permanent, "a signed POST follows no redirect");
        let busy = DeliveryError::of_status(429, Some(Duration::from_secs(30)));
        assert!(!busy.permanent && busy.retry_after == Some(Duration::from_secs(30)));
        assert!(!DeliveryError::of_status(503, None).permanent);
        assert!(!DeliveryError::of_status(500, None).permanent);
        assert_eq!(DeliveryError::of_status(502, None).message, "the server answered 502");
    }

    #[test]
    fn retry_after_is_seconds_or_a_date() {
        assert_eq!(retry_after("120"), Some(Duration::from_secs(120)));
        assert_eq!(retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), Some(Duration::ZERO));
        assert_eq!(retry_after("soon"), None);
    }
}
