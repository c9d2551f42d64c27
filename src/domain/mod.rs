//! Rules with no SQL and no HTTP.

pub mod paging;
pub mod subdomain;
