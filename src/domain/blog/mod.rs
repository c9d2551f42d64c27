//! A blog's names and addresses: its subdomain, display name, custom domain (name rules and verification), time zone, and the addresses of its posts.

pub mod address;
pub mod blog_name;
pub mod custom_domain;
pub mod domain_verification;
pub mod old_paths;
pub mod post_address;
pub mod preview_token;
pub mod subdomain;
pub mod time_zone;
