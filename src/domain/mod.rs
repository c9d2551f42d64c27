//! Rules with no SQL and no HTTP.

pub mod blocks;
pub mod dates;
pub mod embed;
pub mod image;
pub mod paging;
pub mod post;
pub mod subdomain;
