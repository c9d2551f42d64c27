//! ActivityPub: the documents Quire sends, what an inbox receives, HTTP signatures, remote HTML made
//! plain text, the limits on what other servers may make a blog store; and Webmention's reading of
//! other sites' pages.

pub mod activity;
pub mod ap_signature;
pub mod domain_blocklist;
pub mod inbound;
pub mod remote_html;
pub mod remote_limits;
pub mod webmention;
