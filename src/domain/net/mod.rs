//! Addresses on the network: which IP addresses are public, who the client is behind trusted proxies, DNS names and messages, email addresses.

pub mod addresses;
pub mod dns_message;
pub mod dns_name;
pub mod email_address;
pub mod proxies;
