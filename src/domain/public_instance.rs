//! What an operator who opens Quire to the public decides (issue 29, docs/public-instance.md):
//! who may sign up, who reviews, what one blog may use, and the instance's own pages.

use std::path::PathBuf;

/// Who may create a blog (`--signups`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SignupMode {
    /// Anyone may.
    #[default]
    Open,
    /// Anyone may, and the blog waits for an admin's review (`new`).
    Approval,
    /// Only with an invite code (`quire invites create`).
    Invite,
    /// Nobody; existing owners sign in as before.
    Closed,
}

impl SignupMode {
    /// The mode named `raw` (`open`, `approval`, `invite`, `closed`).
    pub fn parse(raw: &str) -> Option<SignupMode> {
        match raw {
            "open" => Some(SignupMode::Open),
            "approval" => Some(SignupMode::Approval),
            "invite" => Some(SignupMode::Invite),
            "closed" => Some(SignupMode::Closed),
            _ => None,
        }
    }

    /// Whether anyone may sign up without being given a code (NodeInfo's `openRegistrations`;
    /// under `approval` they may, and wait for review, as Mastodon's approval mode counts it).
    pub fn is_open_to_anyone(self) -> bool {
        matches!(self, SignupMode::Open | SignupMode::Approval)
    }

    /// Its name, as `--signups` takes it and the app config tells the owner app.
    pub fn as_str(self) -> &'static str {
        match self {
            SignupMode::Open => "open",
            SignupMode::Approval => "approval",
            SignupMode::Invite => "invite",
            SignupMode::Closed => "closed",
        }
    }
}

/// What one blog may use (`--upload-quota-mb`, `--max-posts-per-day`, `--max-imports-per-day`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quotas {
    /// Bytes of uploads one blog may store in all.
    pub upload_bytes: u64,
    /// Posts one blog may create in 24 hours.
    pub posts_per_day: u32,
    /// Imports one blog may start in 24 hours.
    pub imports_per_day: u32,
    /// Email subscribers one blog may import from another service's CSV in 24 hours.
    pub imported_subscribers_per_day: u32,
}

/// What one API token may do in a minute (issue 37): past it Micropub answers 429.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenLimits {
    /// Writes (creates, updates, deletes, uploads) a minute (`--max-token-writes-per-minute`).
    pub writes_per_minute: u32,
    /// Reads (`q=config`, `q=source`, ...) a minute (`--max-token-reads-per-minute`).
    pub reads_per_minute: u32,
}

/// `--max-token-writes-per-minute`'s default.
pub const DEFAULT_TOKEN_WRITES_PER_MINUTE: u32 = 60;
/// `--max-token-reads-per-minute`'s default.
pub const DEFAULT_TOKEN_READS_PER_MINUTE: u32 = 600;

impl Default for TokenLimits {
    fn default() -> TokenLimits {
        TokenLimits {
            writes_per_minute: DEFAULT_TOKEN_WRITES_PER_MINUTE,
            reads_per_minute: DEFAULT_TOKEN_READS_PER_MINUTE,
        }
    }
}

/// `--upload-quota-mb`'s default.
pub const DEFAULT_UPLOAD_QUOTA_MB: u64 = 1024;
/// `--max-posts-per-day`'s default.
pub const DEFAULT_POSTS_PER_DAY: u32 = 100;
/// `--max-imports-per-day`'s default.
pub const DEFAULT_IMPORTS_PER_DAY: u32 = 5;
/// `--max-imported-subscribers-per-day`'s default.
pub const DEFAULT_IMPORTED_SUBSCRIBERS_PER_DAY: u32 = 5_000;
/// `--max-new-blogs-per-day`'s default.
pub const DEFAULT_NEW_BLOGS_PER_DAY: u32 = 100;
/// `--max-new-blogs-per-address`'s default.
pub const DEFAULT_NEW_BLOGS_PER_ADDRESS: u32 = 3;
/// `--max-reports-per-address`'s default.
pub const DEFAULT_REPORTS_PER_ADDRESS: u32 = 10;
/// `--max-open-reports`'s default.
pub const DEFAULT_MAX_OPEN_REPORTS: u32 = 10_000;
/// `--max-subscribes-per-address`'s default.
pub const DEFAULT_SUBSCRIBES_PER_ADDRESS: u32 = 10;
/// `--max-subscribes-per-blog`'s default.
pub const DEFAULT_SUBSCRIBES_PER_BLOG: u32 = 500;
/// `--mail-grace`'s default: a post is mailed this long after it is published.
pub const DEFAULT_MAIL_GRACE: std::time::Duration = std::time::Duration::from_secs(600);
/// `--max-confirmation-mails-per-hour`'s default.
pub const DEFAULT_CONFIRMATIONS_PER_HOUR: u32 = 100;

/// `--max-comments-per-address`'s default.
pub const DEFAULT_COMMENTS_PER_ADDRESS: u32 = 20;
/// `--max-comments-per-blog`'s default.
pub const DEFAULT_COMMENTS_PER_BLOG: u32 = 500;
/// `--max-comment-links`'s default.
pub const DEFAULT_COMMENT_LINKS: u32 = 3;

/// What the comment form takes (issue 31, docs/responses.md "Comments"), counted over the last
/// 24 hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommentLimits {
    /// Comments one client address (an IPv6 /64) may send, on any blog (`--max-comments-per-address`).
    pub per_address: u32,
    /// Comments one blog takes (`--max-comments-per-blog`).
    pub per_blog: u32,
    /// Links one comment may hold (`--max-comment-links`).
    pub max_links: u32,
}

impl Default for CommentLimits {
    fn default() -> CommentLimits {
        CommentLimits {
            per_address: DEFAULT_COMMENTS_PER_ADDRESS,
            per_blog: DEFAULT_COMMENTS_PER_BLOG,
            max_links: DEFAULT_COMMENT_LINKS,
        }
    }
}

/// `--max-webmentions-per-address`'s default.
pub const DEFAULT_WEBMENTIONS_PER_ADDRESS: u32 = 100;
/// `--max-pending-webmentions`'s default.
pub const DEFAULT_PENDING_WEBMENTIONS: u32 = 1_000;

/// What `POST /webmention` takes (issue 31, docs/responses.md "Webmentions").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebmentionLimits {
    /// Webmentions one client address (an IPv6 /64) may send in 24 hours, to any blog
    /// (`--max-webmentions-per-address`).
    pub per_address: u32,
    /// Webmentions waiting for their source to be read, per blog (`--max-pending-webmentions`).
    pub pending_per_blog: u32,
}

impl Default for WebmentionLimits {
    fn default() -> WebmentionLimits {
        WebmentionLimits { per_address: DEFAULT_WEBMENTIONS_PER_ADDRESS, pending_per_blog: DEFAULT_PENDING_WEBMENTIONS }
    }
}

/// What the subscribe form takes (issue 30, docs/email.md "Subscribing"): each counted over the
/// last 24 hours unless named otherwise. One confirmation mail per email address a day is fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubscribeLimits {
    /// Subscribe requests one client address (an IPv6 /64) may make (`--max-subscribes-per-address`).
    pub per_address: u32,
    /// Confirmation mails one blog sends (`--max-subscribes-per-blog`).
    pub per_blog: u32,
    /// Confirmation mails the instance sends in an hour (`--max-confirmation-mails-per-hour`).
    pub confirmations_per_hour: u32,
}

impl Default for SubscribeLimits {
    fn default() -> SubscribeLimits {
        SubscribeLimits {
            per_address: DEFAULT_SUBSCRIBES_PER_ADDRESS,
            per_blog: DEFAULT_SUBSCRIBES_PER_BLOG,
            confirmations_per_hour: DEFAULT_CONFIRMATIONS_PER_HOUR,
        }
    }
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            upload_bytes: DEFAULT_UPLOAD_QUOTA_MB * 1024 * 1024,
            posts_per_day: DEFAULT_POSTS_PER_DAY,
            imports_per_day: DEFAULT_IMPORTS_PER_DAY,
            imported_subscribers_per_day: DEFAULT_IMPORTED_SUBSCRIBERS_PER_DAY,
        }
    }
}

/// How every upload refused by the upload quota begins (an import recognises it, and stops
/// fetching images it could not store).
pub const UPLOAD_QUOTA_REFUSAL: &str = "This blog's uploads are limited to ";

impl Quotas {
    /// The 413 of an upload past the quota, naming it and the blog's current use.
    pub fn upload_refusal(&self, used_bytes: u64) -> String {
        format!(
            "{UPLOAD_QUOTA_REFUSAL}{}, and it uses {} already",
            human_bytes(self.upload_bytes),
            human_bytes(used_bytes)
        )
    }

    /// The 429 of a post past `--max-posts-per-day`.
    pub fn posts_refusal(&self) -> String {
        let posts = if self.posts_per_day == 1 { "post" } else { "posts" };
        format!("A blog can create at most {} {posts} a day; try again tomorrow", self.posts_per_day)
    }

    /// The 429 of an import past `--max-imports-per-day`.
    pub fn imports_refusal(&self) -> String {
        let imports = if self.imports_per_day == 1 { "import" } else { "imports" };
        format!("A blog can start at most {} {imports} a day; try again tomorrow", self.imports_per_day)
    }
}

/// A size as Settings and messages show it: `0 MB`, `900 bytes`, `512 KB`, `12.3 MB`, `1 GB`
/// (units of 1024, one decimal at most).
pub fn human_bytes(bytes: u64) -> String {
    match bytes {
        0 => return "0 MB".to_owned(),
        1..1024 => return format!("{bytes} bytes"),
        _ => {}
    }
    let mut value = bytes as f64 / 1024.0;
    let mut units = ["KB", "MB", "GB", "TB"].into_iter().peekable();
    let mut unit = units.next().expect("a unit");
    // Rounded to one decimal, 1023.96 KB reads 1 MB, not 1024 KB.
    while (value * 10.0).round() / 10.0 >= 1024.0 && units.peek().is_some() {
        value /= 1024.0;
        unit = units.next().expect("peeked");
    }
    let shown = format!("{value:.1}");
    format!("{} {unit}", shown.strip_suffix(".0").unwrap_or(&shown))
}

/// A page the operator wrote (`--terms`, `--privacy`, `--instance-description`): Markdown read
/// once at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorPage {
    /// The file it was read from (for messages).
    pub path: PathBuf,
    /// Its Markdown.
    pub markdown: String,
}

/// The public instance's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicInstance {
    /// Who may create a blog.
    pub signups: SignupMode,
    /// New blogs start `new` (waiting for review) whatever the mode (`--review-new-blogs`).
    pub review_new_blogs: bool,
    /// New blogs ask AI crawlers not to use them (`--ai-crawlers disallow`).
    pub new_blogs_disallow_ai: bool,
    /// Blogs created in 24 hours across the instance, at most.
    pub new_blogs_per_day: u32,
    /// Blogs created in 24 hours from one client address, at most.
    pub new_blogs_per_address: u32,
    /// When not empty, only users whose sign-in email is at one of these domains (lowercase)
    /// may create a blog (`--signup-email-domain`).
    pub email_domains: Vec<String>,
    /// The admins' sign-in emails, lowercase (`--admin`).
    pub admins: Vec<String>,
    /// Terms whose presence in a post raises its blog's risk score (`--review-terms`), lowercase.
    pub review_terms: Vec<String>,
    /// What one blog may use.
    pub quotas: Quotas,
    /// Abuse reports one client address may send in 24 hours (`--max-reports-per-address`).
    pub reports_per_address: u32,
    /// Open abuse reports the queue holds at most; past it the report page asks readers to
    /// write to the contact address (`--max-open-reports`).
    pub max_open_reports: u32,
    /// What the email subscribe form takes.
    pub subscribe_limits: SubscribeLimits,
    /// What the comment form takes.
    pub comment_limits: CommentLimits,
    /// What `POST /webmention` takes.
    pub webmention_limits: WebmentionLimits,
    /// What one API token may do in a minute (Micropub).
    pub token_limits: TokenLimits,
    /// How long after a post is published its email goes out (`--mail-grace`): a post
    /// unpublished or fixed meanwhile sends nothing, or its final form.
    pub mail_grace: std::time::Duration,
    /// Where people write to the operator (`--contact-email`).
    pub contact_email: Option<String>,
    /// The instance's terms, served at /terms (`--terms`).
    pub terms: Option<OperatorPage>,
    /// The instance's privacy policy, served at /privacy (`--privacy`).
    pub privacy: Option<OperatorPage>,
    /// What the instance is, on its landing page (`--instance-description`; issue 33).
    pub description: Option<OperatorPage>,
}

impl Default for PublicInstance {
    fn default() -> PublicInstance {
        PublicInstance {
            signups: SignupMode::Open,
            review_new_blogs: false,
            new_blogs_disallow_ai: false,
            new_blogs_per_day: DEFAULT_NEW_BLOGS_PER_DAY,
            new_blogs_per_address: DEFAULT_NEW_BLOGS_PER_ADDRESS,
            email_domains: Vec::new(),
            admins: Vec::new(),
            review_terms: Vec::new(),
            quotas: Quotas::default(),
            reports_per_address: DEFAULT_REPORTS_PER_ADDRESS,
            max_open_reports: DEFAULT_MAX_OPEN_REPORTS,
            subscribe_limits: SubscribeLimits::default(),
            comment_limits: CommentLimits::default(),
            webmention_limits: WebmentionLimits::default(),
            token_limits: TokenLimits::default(),
            mail_grace: DEFAULT_MAIL_GRACE,
            contact_email: None,
            terms: None,
            privacy: None,
            description: None,
        }
    }
}

impl PublicInstance {
    /// Whether `email` (the sign-in provider's) names an admin.
    pub fn is_admin(&self, email: &str) -> bool {
        let email = email.trim().to_ascii_lowercase();
        !email.is_empty() && self.admins.contains(&email)
    }

    /// Whether a blog created now starts waiting for review.
    pub fn new_blogs_wait_for_review(&self) -> bool {
        self.review_new_blogs || self.signups == SignupMode::Approval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_admin_is_named_by_email_whatever_its_case_and_nobody_is_one_by_default() {
        let instance = PublicInstance { admins: vec!["ops@example.com".into()], ..Default::default() };
        assert!(instance.is_admin("Ops@Example.com"));
        assert!(!instance.is_admin("ops@example.org"));
        assert!(!instance.is_admin(""));
        assert!(!PublicInstance::default().is_admin("ops@example.com"));
    }

    #[test]
    fn sizes_read_as_settings_shows_them() {
        assert_eq!(human_bytes(0), "0 MB");
        assert_eq!(human_bytes(512 * 1024), "512 KB");
        assert_eq!(human_bytes(12_897_485), "12.3 MB");
        assert_eq!(human_bytes(1024 * 1024 * 1024), "1 GB");
        assert_eq!(human_bytes(1024 * 1024 * 1024 - 10), "1 GB");
        assert_eq!(human_bytes(900), "900 bytes");
        let quotas = Quotas::default();
        assert_eq!(
            quotas.upload_refusal(5 * 1024 * 1024),
            "This blog's uploads are limited to 1 GB, and it uses 5 MB already"
        );
        assert!(quotas.upload_refusal(0).starts_with(UPLOAD_QUOTA_REFUSAL));
    }

    #[test]
    fn new_blogs_wait_for_review_under_approval_or_when_asked() {
        let mut instance = PublicInstance::default();
        assert!(!instance.new_blogs_wait_for_review());
        instance.signups = SignupMode::Approval;
        assert!(instance.new_blogs_wait_for_review());
        instance = PublicInstance { signups: SignupMode::Invite, review_new_blogs: true, ..Default::default() };
        assert!(instance.new_blogs_wait_for_review());
        for mode in ["open", "approval", "invite", "closed"] {
            assert_eq!(SignupMode::parse(mode).map(SignupMode::as_str), Some(mode));
        }
        assert_eq!(SignupMode::parse("Open"), None);
    }
}
