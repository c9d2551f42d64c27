//! Quire: a free blogging platform that runs as one binary.
#![forbid(unsafe_code)]

pub mod admin;
pub mod app;
pub mod auth;
pub mod backup;
pub mod blogs;
pub mod blogs_command;
pub mod cli;
pub mod config;
pub mod data_dir;
pub mod db;
pub mod doctor;
pub mod domain;
pub mod error;
pub mod export;
pub mod fetch;
pub mod http;
pub mod import;
pub mod invites;
#[cfg(test)]
mod layering;
pub mod mail;
pub mod media_store;
pub mod portable;
pub mod progress;
pub mod reindex;
pub mod replication;
pub mod search;
pub mod tls;

pub use app::App;
pub use config::Config;
pub use error::Error;
