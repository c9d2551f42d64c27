//! Signed form tokens for the public forms that need no account (the abuse report): a token
//! says when the form was handed out, signed with a key made at start (HMAC-SHA256), so the
//! server knows the form came from it and how long the sender took to fill it in. A bot that
//! posts straight away, or posts a token of its own making, is refused; a person who leaves the
//! form open across a restart is asked to send it again, with their words kept.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::hmac;

/// The least time a person takes to fill in a form; a faster post is a bot's.
pub const MIN_FILL: Duration = Duration::from_secs(3);
/// How long a form stays good once handed out.
pub const MAX_AGE: Duration = Duration::from_secs(12 * 3600);

/// Why a token is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Not one of ours (forged, mangled, for another form, or from before a restart).
    Invalid,
    /// Sent sooner than [`MIN_FILL`] after the form was handed out.
    TooSoon,
    /// Handed out more than [`MAX_AGE`] ago.
    Expired,
}

/// Issues and checks the tokens of this process.
pub struct FormTokens {
    key: hmac::Key,
}

impl FormTokens {
    /// Tokens signed with a fresh random key.
    pub fn new() -> FormTokens {
        let secret: [u8; 32] = rand::random();
        FormTokens { key: hmac::Key::new(hmac::HMAC_SHA256, &secret) }
    }

    /// A token for the form `purpose` handed out at `now` (seconds since the epoch).
    pub fn issue(&self, purpose: &str, now: u64) -> String {
        let tag = hmac::sign(&self.key, signed_text(purpose, now).as_bytes());
        format!("{now}.{}", URL_SAFE_NO_PAD.encode(tag.as_ref()))
    }

    /// Whether `token` is one of ours for `purpose`, sent at `now` at least [`MIN_FILL`] and at
    /// most [`MAX_AGE`] after it was handed out.
    pub fn check(&self, purpose: &str, token: &str, now: u64) -> Result<(), Refused> {
        let (issued, tag) = token.split_once('.').ok_or(Refused::Invalid)?;
        let issued: u64 = issued.parse().map_err(|_| Refused::Invalid)?;
        let tag = URL_SAFE_NO_PAD.decode(tag).map_err(|_| Refused::Invalid)?;
        hmac::verify(&self.key, signed_text(purpose, issued).as_bytes(), &tag).map_err(|_| Refused::Invalid)?;
        let age = now.checked_sub(issued).ok_or(Refused::TooSoon)?;
        if age < MIN_FILL.as_secs() {
            return Err(Refused::TooSoon);
        }
        if age > MAX_AGE.as_secs() {
            return Err(Refused::Expired);
        }
        Ok(())
    }
}

impl Default for FormTokens {
    fn default() -> Self {
        FormTokens::new()
    }
}

fn signed_text(purpose: &str, issued: u64) -> String {
    format!("quire-form\n{purpose}\n{issued}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_good_from_the_minimum_fill_time_to_its_maximum_age_for_its_form_only() {
        let tokens = FormTokens::new();
        let token = tokens.issue("report", 1_000);
        assert_eq!(tokens.check("report", &token, 1_000), Err(Refused::TooSoon));
        assert_eq!(tokens.check("report", &token, 1_002), Err(Refused::TooSoon));
        assert_eq!(tokens.check("report", &token, 999), Err(Refused::TooSoon));
        assert_eq!(tokens.check("report", &token, 1_003), Ok(()));
        assert_eq!(tokens.check("report", &token, 1_000 + MAX_AGE.as_secs()), Ok(()));
        assert_eq!(tokens.check("report", &token, 1_001 + MAX_AGE.as_secs()), Err(Refused::Expired));
        assert_eq!(tokens.check("comment", &token, 1_010), Err(Refused::Invalid));
    }

    #[test]
    fn forged_mangled_and_other_processes_tokens_are_refused() {
        let tokens = FormTokens::new();
        let token = tokens.issue("report", 1_000);
        let (_, tag) = token.split_once('.').unwrap();
        // An earlier time under the same tag: the time is signed.
        assert_eq!(tokens.check("report", &format!("900.{tag}"), 1_010), Err(Refused::Invalid));
        assert_eq!(FormTokens::new().check("report", &token, 1_010), Err(Refused::Invalid));
        for junk in ["", ".", "1000", "1000.", "x.abc", "1000.!!!", "-5.abc"] {
            assert_eq!(tokens.check("report", junk, 1_010), Err(Refused::Invalid), "{junk:?}");
        }
    }
}
