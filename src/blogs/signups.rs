//! The signup rules [`Blogs::create_blog`] applies (docs/public-instance.md, "Who may sign
//! up"): the mode, the email domains, the daily limits on new blogs (counted in the signup log,
//! so a restart does not reset them) and invite codes, spent in the creation's transaction.

use std::net::IpAddr;

use rusqlite::Connection;

use crate::auth::rate_limit::client_key;
use crate::auth::token_hash;
use crate::config::{PublicInstance, SignupMode};
use crate::db::signups;
use crate::domain::duration;
use crate::domain::invite_code;
use crate::error::{Error, Messages, Result};

/// Who asks for a new blog, beyond the signed-in user: what the blog-creation call carries.
#[derive(Debug, Clone, Default)]
pub struct Signup {
    /// The invite code typed or carried by an invite link (`--signups invite`).
    pub invite: Option<String>,
    /// The client's address (as the sign-in limits compute it); unknown: no per-address limit.
    pub client: Option<IpAddr>,
}

/// What a creation needs once the mode let it through: the invite's hash (invite mode) and
/// the address key the limits count.
pub(super) struct Admission {
    /// The SHA-256 of the invite code given, when the mode needs one.
    pub invite_hash: Option<Vec<u8>>,
    /// The client's limit key (an IPv4 address or an IPv6 /64).
    pub address: Option<String>,
}

/// The message of every refused invite code: no hint whether it was used up, revoked,
/// expired or never existed.
pub(super) const INVITE_REFUSED: &str =
    "This invite code cannot be used: it may be used up, revoked or expired. Ask for a new one.";

/// A refused creation: 403 under `field`.
fn refused(field: &str, message: &str) -> Error {
    Error::Forbidden(Messages::one(field, message))
}

/// What the mode says before anything is read: closed refuses, invite needs a code.
pub(super) fn admission(public: &PublicInstance, signup: Signup) -> Result<Admission> {
    let address = signup.client.map(|ip| client_key(ip).to_string());
    let invite_hash = match public.signups {
        SignupMode::Closed => return Err(refused("subdomain", "Signups are closed on this instance.")),
        SignupMode::Open | SignupMode::Approval => None,
        SignupMode::Invite => {
            let given = signup.invite.as_deref().map(str::trim).filter(|code| !code.is_empty());
            let Some(given) = given else {
                return Err(refused("invite", "Signups are by invitation: enter your invite code."));
            };
            // A code of the wrong shape is looked up as its hash anyway: it matches nothing, and
            // is refused (and counted) like any other guess.
            let code = invite_code::normalize(given).unwrap_or_else(|| given.to_owned());
            Some(token_hash(&code))
        }
    };
    Ok(Admission { invite_hash, address })
}

/// The checks made on the writer before the blog is inserted: the email domain, then the
/// limits on new blogs in the last day.
pub(super) fn check_before(
    conn: &Connection,
    public: &PublicInstance,
    user_id: i64,
    address: Option<&str>,
) -> Result<()> {
    if !public.email_domains.is_empty() {
        let email: String =
            conn.prepare_cached("SELECT email FROM users WHERE id = ?1")?.query_row([user_id], |row| row.get(0))?;
        if !email_domain_allowed(&public.email_domains, &email) {
            return Err(refused(
                "signups",
                "New blogs on this instance are only for some email addresses, and the one you signed in with is not \
                 one of them.",
            ));
        }
    }
    let recent = signups::recent(conn, address)?;
    if address.is_some() && recent.address >= public.new_blogs_per_address {
        return Err(Error::RateLimited(Messages::one(
            "signups",
            format!("Too many new blogs from your network today; try again {}.", duration::about(recent.address_wait)),
        )));
    }
    if recent.instance >= public.new_blogs_per_day {
        return Err(Error::RateLimited(Messages::one(
            "signups",
            format!(
                "This instance has taken as many new blogs as it takes in a day; try again {}.",
                duration::about(recent.instance_wait)
            ),
        )));
    }
    Ok(())
}

/// The checks made in the creation's transaction, on the new blog: the invite's use is
/// spent (a refusal undoes the creation), and the creation is logged.
pub(super) fn admit(conn: &Connection, admission: &Admission, blog_id: i64, subdomain: &str) -> Result<()> {
    if let Some(hash) = &admission.invite_hash
        && !signups::spend_invite(conn, hash, blog_id, subdomain)?
    {
        return Err(refused("invite", INVITE_REFUSED));
    }
    signups::log(conn, admission.address.as_deref(), true)
}

/// Whether `email` is at one of `domains` (lowercase), exactly: `a@example.com` is at
/// `example.com`, `a@mail.example.com` is not.
pub fn email_domain_allowed(domains: &[String], email: &str) -> bool {
    let Some((_, domain)) = email.trim().rsplit_once('@') else { return false };
    let domain = domain.trim_end_matches('.').to_ascii_lowercase();
    domains.contains(&domain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_email_is_allowed_at_a_listed_domain_only() {
        let domains = vec!["example.com".to_owned(), "uni.example".to_owned()];
        assert!(email_domain_allowed(&domains, "Ann@Example.COM"));
        assert!(email_domain_allowed(&domains, "bob@uni.example"));
        assert!(!email_domain_allowed(&domains, "eve@mail.example.com"), "a subdomain is another domain");
        assert!(!email_domain_allowed(&domains, "eve@example.com.evil.test"));
        assert!(!email_domain_allowed(&domains, "example.com"), "no @");
        assert!(!email_domain_allowed(&domains, "eve@example.org"));
    }

    #[test]
    fn the_mode_decides_whether_a_code_is_needed() {
        let mut public = PublicInstance::default();
        assert!(admission(&public, Signup::default()).unwrap().invite_hash.is_none());
        public.signups = SignupMode::Closed;
        let code = "a".repeat(32);
        let closed = admission(&public, Signup { invite: Some(code.clone()), client: None });
        assert!(matches!(closed, Err(Error::Forbidden(_))), "closed refuses even with a code");
        public.signups = SignupMode::Invite;
        for missing in [None, Some(String::new()), Some("  ".to_owned())] {
            let refused = admission(&public, Signup { invite: missing, client: None });
            assert!(matches!(refused, Err(Error::Forbidden(m)) if m.0[0].0 == "invite"));
        }
        let typed = admission(&public, Signup { invite: Some(format!(" {} ", code.to_uppercase())), client: None });
        assert_eq!(typed.unwrap().invite_hash, Some(token_hash(&code)), "pasted in any case");
        let client = Some("2001:db8:1:2::7".parse().unwrap());
        assert_eq!(
            admission(&public, Signup { invite: Some(code), client }).unwrap().address.as_deref(),
            Some("2001:db8:1:2::")
        );
    }
}
