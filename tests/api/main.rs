//! Quire's integration tests: one binary, each test with its own server, port and data dir.

mod helpers;

mod backup;
mod acme_pebble;
mod blog_pages;
mod blogs;
mod cli;
mod csrf;
mod domains;
mod exports;
mod emoji;
mod favicons;
mod fedify;
mod fediverse;
mod fetch;
mod http;
mod import_uploads;
mod imports;
mod images;
mod markdown;
mod posts;
mod previews;
mod quire_import;
mod remote_issuer;
mod round_trip;
mod schedule;
mod search;
mod settings;
mod sign_in;
mod sign_in_limits;
mod storage;
mod tags_pages;
mod themes;
mod time_zones;
mod tls;
mod upload_props;
