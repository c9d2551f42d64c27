//! What a post is made of and how it reads: blocks and their rules, Markdown, tags, dates, images, emoji, escaping, scheduling, the email of a post, its visibility, its version and its revisions; a blog's checked custom CSS.

pub mod blocks;
pub mod comment;
pub mod custom_css;
pub mod dates;
pub mod email_body;
pub mod emoji;
pub mod html;
pub mod image;
pub mod markdown;
pub mod micropub;
pub mod post_version;
pub mod reader_view;
pub mod revisions;
pub mod risk;
pub mod schedule;
pub mod tags;
pub mod visibility;
