//! A blog's names and addresses: its subdomain, display name and description, custom domain (name rules and verification), time zone, the addresses of its posts, and its standing on the instance (trust state).

pub mod abuse_report;
pub mod address;
pub mod ai_crawlers;
pub mod blog_description;
pub mod blog_name;
pub mod custom_domain;
pub mod domain_verification;
pub mod old_paths;
pub mod post_address;
pub mod preview_token;
pub mod subdomain;
pub mod time_zone;
pub mod trust_state;
