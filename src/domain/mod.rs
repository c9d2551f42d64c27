//! The bottom layer: Quire's rules and value types, with no SQL, no HTTP and no I/O.
//! Everything else may use it; it uses nothing else of Quire's.

pub mod activity;
pub mod addresses;
pub mod ap_signature;
pub mod blocks;
pub mod blog_name;
pub mod custom_domain;
pub mod dates;
pub mod dns_message;
pub mod embed;
pub mod emoji;
pub mod html;
pub mod identity;
pub mod image;
pub mod inbound;
pub mod limits;
pub mod markdown;
pub mod messages;
pub mod old_paths;
pub mod paging;
pub mod paths;
pub mod post;
pub mod preview_token;
pub mod proxies;
pub mod remote_html;
pub mod schedule;
pub mod subdomain;
pub mod tags;
pub mod time_zone;
