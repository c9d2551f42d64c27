//! What an import reads out of an export file, before anything is written: the blog's
//! settings and its posts and pages, each already converted to Quire's blocks.
//!
//! Readers fill these values from a source's own data and convert markup to blocks, but they
//! do not apply Quire's limits: the importer normalizes every value with the `domain` rules
//! (tags, slugs, lengths, block counts) and lists each change in the report, so that one
//! place decides what "changed" means. A reader records here only what it could not carry over
//! at all (a comment, a gallery it could not read, an unknown embed), in [`Post::notes`] or
//! [`Read::notes`].

use time::OffsetDateTime;

use crate::domain::content::blocks::Block;

/// The systems an import reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// WordPress eXtended RSS (`.xml`, from Tools → Export).
    WordPress,
    /// Ghost's JSON export (Settings → Labs → Export), with lexical, mobiledoc or HTML bodies.
    Ghost,
    /// WriteFreely's JSON export.
    WriteFreely,
    /// Bear Blog's CSV export.
    BearBlog,
    /// A zip of Markdown files with front matter (Hugo, Jekyll, Zola, Obsidian).
    MarkdownZip,
    /// Quire's own archive.
    QuireArchive,
}

impl Format {
    /// Its name in keys and in the API: `wordpress`, `ghost`, `writefreely`, `bearblog`,
    /// `markdown`, `quire`.
    pub fn key(self) -> &'static str {
        match self {
            Format::WordPress => "wordpress",
            Format::Ghost => "ghost",
            Format::WriteFreely => "writefreely",
            Format::BearBlog => "bearblog",
            Format::MarkdownZip => "markdown",
            Format::QuireArchive => "quire",
        }
    }
}

/// A post or a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A dated post.
    Post,
    /// A page (About, Now, ...) shown in the blog's navigation.
    Page,
}

/// Where a post stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Not public.
    Draft,
    /// Public since [`Post::published_at`].
    Published,
    /// To be published at [`Post::published_at`] (a time still to come when exported; the
    /// importer publishes it at once when that time has passed).
    Scheduled,
}

/// One post or page of the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Post {
    /// Identifies the item within its source and stays the same across two reads of the same
    /// export (WordPress `wp:post_id`, Ghost `id`, a path inside a zip, a Quire short id):
    /// importing a file twice skips what the first import brought in.
    pub source_id: String,
    /// Post or page.
    pub kind: Kind,
    /// Its title, as plain text (entities decoded, no markup).
    pub title: String,
    /// The slug the source gave it (empty when it had none: the importer derives one).
    pub slug: String,
    /// Its body. Paragraph text is CommonMark, as Quire stores it. An image block's `url` says
    /// where the image is: an absolute `http(s)` URL on the old site or elsewhere (downloaded
    /// by the importer), or `file:<path>` for a file inside the export itself (a zip). The
    /// importer replaces it with the uploaded image's URL, or turns the block into a link
    /// block when the image cannot be had.
    pub blocks: Vec<Block>,
    /// Draft, published or scheduled.
    pub state: State,
    /// When it was written (the source's creation date), if known.
    pub created_at: Option<OffsetDateTime>,
    /// When it was (or is to be) published; `None` for drafts and when unknown.
    pub published_at: Option<OffsetDateTime>,
    /// When it was last changed, if known.
    pub updated_at: Option<OffsetDateTime>,
    /// Tags and categories as the source names them ("Road Trip", "rust"), in its order.
    pub tags: Vec<String>,
    /// Paths (with their query, if any) under which the old site served it, for 301s to the
    /// new permalink: `/2015/01/slug/`, `/?p=123`, `/slug`. Relative to the old site's root,
    /// each starting with `/`.
    pub old_paths: Vec<String>,
    /// A page's place among the blog's pages (lower first), when the source orders them.
    pub page_position: Option<i64>,
    /// Whether its comments are closed (a Quire archive's `commentsClosed`; false elsewhere).
    pub comments_closed: bool,
    /// Whether it is unlisted (a Quire archive's `unlisted`; false elsewhere: docs/unlisted.md).
    pub unlisted: bool,
    /// Its revisions, oldest first (a Quire archive's; none elsewhere: docs/revisions.md).
    pub revisions: Vec<crate::domain::content::revisions::Kept>,
    /// What of this item could not be carried over, one line each, for the report.
    pub notes: Vec<String>,
}

/// The blog's settings, where the source has them. Other platforms' exports carry a name at
/// most; a Quire archive carries them all.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// The blog's name.
    pub name: Option<String>,
    /// Its theme's slug (`default`, `serif`, ...).
    pub theme: Option<String>,
    /// Its tab icon: the emoji's code as Quire names it.
    pub icon: Option<String>,
    /// Slugs of the installed addons.
    pub addons: Option<Vec<String>>,
    /// Its IANA time zone.
    pub time_zone: Option<String>,
    /// The old site's address (`https://old.example.com`), against which relative links and
    /// image URLs were resolved.
    pub site_url: Option<String>,
    /// The blog's confirmed email subscribers (a Quire archive's `subscribers.json`): they
    /// consented to this blog's mail, so a move keeps them.
    pub subscribers: Option<Vec<MovedSubscriber>>,
    /// The blog's comment settings (a Quire archive's `commentsMode` and `blockedWords`).
    pub comments: Option<MovedComments>,
    /// Its comments and webmentions (a Quire archive's `responses.json`), each checked.
    pub responses: Option<Vec<MovedResponse>>,
    /// Its custom stylesheet (a Quire archive's `customCss`), checked again when applied.
    pub custom_css: Option<String>,
    /// Its description (a Quire archive's `description`), checked again when applied.
    pub description: Option<String>,
    /// Whether it is listed on the instance's landing page (a Quire archive's `listed`).
    pub listed: Option<bool>,
    /// Its answer to AI crawlers, `allow` or `disallow` (a Quire archive's `aiCrawlers`), checked
    /// when applied.
    pub ai_crawlers: Option<String>,
    /// Its trash's deleted posts (a Quire archive's `trash.json`: docs/revisions.md).
    pub trash: Option<Vec<crate::domain::content::revisions::Trashed>>,
}

/// A blog's comment settings an export carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovedComments {
    /// Who may comment: `off`, `held` or `trusted`.
    pub mode: String,
    /// Words that send a comment to Spam.
    pub blocked_words: Vec<String>,
}

/// A comment, webmention or fediverse reply an export carries, tied to its post by the post's id
/// in the export.
/// The commenter's cookie id, the secret edit link and the sender's address stay behind: they
/// are private, or mean something only on the old server for a short while.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MovedResponse {
    /// The short id of its post in the archive.
    pub post: String,
    /// `comment`, `webmention` or `reply` (from the fediverse).
    pub kind: String,
    /// `held`, `approved` or `spam`.
    pub state: String,
    /// Its author's name.
    pub author_name: String,
    /// Its author's website ('' when none).
    #[serde(default)]
    pub author_url: String,
    /// A webmention's source page; null for a comment.
    #[serde(default)]
    pub source_url: Option<String>,
    /// A webmention's source title ('' for a comment).
    #[serde(default)]
    pub title: String,
    /// A comment's Markdown, or a webmention's plain excerpt.
    pub text: String,
    /// The owner's reply ('' when none).
    #[serde(default)]
    pub owner_reply: String,
    /// When it came (stored form).
    pub received_at: String,
    /// A fediverse reply's author's handle (`@bob@peer.example`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_handle: Option<String>,
    /// A fediverse reply's Note id (its author may still delete it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_id: Option<String>,
    /// A fediverse reply's author's actor id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor_id: Option<String>,
    /// When a fediverse reply was written (stored form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_at: Option<String>,
}

/// A confirmed email subscriber an export carries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MovedSubscriber {
    /// The address.
    pub email: String,
    /// When they asked to subscribe.
    pub created_at: String,
    /// When they confirmed.
    pub confirmed_at: String,
}

/// What a reader found in an export, before the items themselves.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The system that wrote it.
    pub format: Format,
    /// The blog's settings found in it.
    pub settings: Settings,
    /// How many items the reader expects to yield, when it knows (for progress).
    pub expected_items: Option<u64>,
    /// What of the whole export is not imported (comments, users, other post types), one
    /// line each, for the report.
    pub notes: Vec<String>,
}
