//! Quire's integration tests: one binary, each test with its own server, port and data dir.
//!
//! Beside these: property tests (proptest) of the parsers an attacker reaches, in a `proptests`
//! module beside each (`domain/content/blocks`, `domain/blog/subdomain`,
//! `domain/federation/ap_signature`, `domain/federation/inbound`, `http/hosts`, `search`, `backup`),
//! and `upload_props.rs` here for uploads over real HTTP; `fuzz/` holds cargo-fuzz targets for the
//! same parsers (`scripts/fuzz.sh`), outside the normal build. `tests/fixtures/*_rules.json` are
//! cases the Rust tests and the owner app's Vitest tests share; `tests/conformance/` checks every
//! public page type with the Nu HTML Checker and the feeds with feedparser; the owner app runs
//! Playwright in Debian's Chromium against the real binary (`ui/README.md`).

mod helpers;

mod access_log;
mod acme_pebble;
mod admin;
mod admin_cli;
mod ai_crawlers;
mod backup;
mod blog_description;
mod blog_pages;
mod blogs;
mod cli;
mod comments;
mod csrf;
mod custom_css;
mod doctor;
mod domains;
mod edit_conflicts;
mod emoji;
mod exports;
mod favicons;
mod federation;
mod federation_keys;
mod federation_queue;
mod fedify;
mod fediverse;
mod fetch;
mod front_page;
mod http;
mod images;
mod import_limits;
mod import_uploads;
mod imports;
mod inbox;
mod inbox_limits;
mod indieauth;
mod instance_actor;
mod mail;
mod mail_tls;
mod markdown;
mod micropub;
mod paste;
mod post_preview;
mod posts;
mod previews;
mod quire_import;
mod quotas;
mod remote_issuer;
mod remote_limits;
mod replication;
mod reports;
mod response_abuse;
mod response_queue;
mod revisions;
mod round_trip;
mod schedule;
mod search;
mod settings;
mod sign_in;
mod sign_in_limits;
mod signups;
mod storage;
mod subscribers;
mod subscriptions;
mod tags_pages;
mod themes;
mod time_zones;
mod tls;
mod trash;
mod trust_states;
mod trust_states_federation;
mod unlisted;
mod unpublish;
mod upload_props;
mod uploads_store;
mod webmention_rocks;
mod webmentions;
