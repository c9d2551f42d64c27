//! The flags of `quire serve` for an instance open to the public (issue 29;
//! docs/public-instance.md): signups, review, quotas, reports and the operator's pages.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;

use crate::domain::blog::ai_crawlers::AiCrawlers;
use crate::domain::public_instance::{
    CommentLimits, DEFAULT_COMMENT_LINKS, DEFAULT_COMMENTS_PER_ADDRESS, DEFAULT_COMMENTS_PER_BLOG,
    DEFAULT_CONFIRMATIONS_PER_HOUR, DEFAULT_IMPORTED_SUBSCRIBERS_PER_DAY, DEFAULT_IMPORTS_PER_DAY,
    DEFAULT_MAX_OPEN_REPORTS, DEFAULT_NEW_BLOGS_PER_ADDRESS, DEFAULT_NEW_BLOGS_PER_DAY, DEFAULT_PENDING_WEBMENTIONS,
    DEFAULT_POSTS_PER_DAY, DEFAULT_REPORTS_PER_ADDRESS, DEFAULT_SUBSCRIBES_PER_ADDRESS, DEFAULT_SUBSCRIBES_PER_BLOG,
    DEFAULT_TOKEN_READS_PER_MINUTE, DEFAULT_TOKEN_WRITES_PER_MINUTE, DEFAULT_UPLOAD_QUOTA_MB,
    DEFAULT_WEBMENTIONS_PER_ADDRESS, OperatorPage, PublicInstance, Quotas, SignupMode, SubscribeLimits, TokenLimits,
    WebmentionLimits,
};

/// Largest `--terms`, `--privacy` or `--review-terms` file Quire reads.
const MAX_OPERATOR_FILE: u64 = 1024 * 1024;

/// Largest `--instance-description` file Quire reads (it is sent with every landing page).
const MAX_DESCRIPTION_FILE: u64 = 64 * 1024;

/// Flags of a public instance, of `serve`.
#[derive(Debug, Clone, Args)]
pub struct PublicInstanceArgs {
    /// Who may create a blog: open (anyone), approval (anyone, and the blog waits for an
    /// admin's review), invite (with a code from `quire invites create`) or closed (nobody;
    /// existing owners sign in as before).
    #[arg(long, env = "QUIRE_SIGNUPS", default_value = "open", value_name = "open|approval|invite|closed")]
    pub signups: String,

    /// New blogs wait for an admin's review whatever --signups says (under approval they always do).
    #[arg(long, env = "QUIRE_REVIEW_NEW_BLOGS")]
    pub review_new_blogs: bool,

    /// Whether new blogs ask AI crawlers not to use them (robots.txt rules for the AI companies'
    /// published crawlers, and the noai directives on every page): allow (the default) or
    /// disallow. Each owner changes it in Settings; existing blogs keep theirs.
    #[arg(long, env = "QUIRE_AI_CRAWLERS", default_value = "allow", value_name = "allow|disallow")]
    pub ai_crawlers: String,

    /// Blogs created in 24 hours across the instance, at most.
    #[arg(long, env = "QUIRE_MAX_NEW_BLOGS_PER_DAY", default_value_t = DEFAULT_NEW_BLOGS_PER_DAY, value_name = "N")]
    pub max_new_blogs_per_day: u32,

    /// Blogs created in 24 hours from one client address (an IPv6 /64), at most.
    #[arg(long, env = "QUIRE_MAX_NEW_BLOGS_PER_ADDRESS", default_value_t = DEFAULT_NEW_BLOGS_PER_ADDRESS, value_name = "N")]
    pub max_new_blogs_per_address: u32,

    /// Only users whose sign-in email is at this domain may create a blog (repeat the flag, or
    /// separate with commas; any domain when not given).
    #[arg(
        long = "signup-email-domain",
        env = "QUIRE_SIGNUP_EMAIL_DOMAIN",
        value_delimiter = ',',
        value_name = "DOMAIN"
    )]
    pub signup_email_domains: Vec<String>,

    /// An admin, by the email the sign-in provider gives (repeat the flag, or separate with
    /// commas): their owner area has the Admin screen.
    #[arg(long = "admin", env = "QUIRE_ADMIN", value_delimiter = ',', value_name = "EMAIL")]
    pub admins: Vec<String>,

    /// A file of terms, one a line, whose presence in a post raises its blog's risk score in
    /// the review queue (read at start).
    #[arg(long, env = "QUIRE_REVIEW_TERMS", value_name = "FILE")]
    pub review_terms: Option<PathBuf>,

    /// Uploads one blog may store in all, in MB; an upload past it is refused with a 413.
    #[arg(long, env = "QUIRE_UPLOAD_QUOTA_MB", default_value_t = DEFAULT_UPLOAD_QUOTA_MB, value_name = "MB")]
    pub upload_quota_mb: u64,

    /// Posts one blog may create in 24 hours.
    #[arg(long, env = "QUIRE_MAX_POSTS_PER_DAY", default_value_t = DEFAULT_POSTS_PER_DAY, value_name = "N")]
    pub max_posts_per_day: u32,

    /// Writes (Micropub creates, updates, deletes and uploads) one API token may make in a
    /// minute; past it they are refused with a 429.
    #[arg(long, env = "QUIRE_MAX_TOKEN_WRITES_PER_MINUTE", default_value_t = DEFAULT_TOKEN_WRITES_PER_MINUTE, value_name = "N")]
    pub max_token_writes_per_minute: u32,

    /// Reads (Micropub's queries) one API token may make in a minute; past it they are refused
    /// with a 429.
    #[arg(long, env = "QUIRE_MAX_TOKEN_READS_PER_MINUTE", default_value_t = DEFAULT_TOKEN_READS_PER_MINUTE, value_name = "N")]
    pub max_token_reads_per_minute: u32,

    /// Imports one blog may start in 24 hours.
    #[arg(long, env = "QUIRE_MAX_IMPORTS_PER_DAY", default_value_t = DEFAULT_IMPORTS_PER_DAY, value_name = "N")]
    pub max_imports_per_day: u32,

    /// Email subscribers one blog may import from another service's CSV (Substack, Ghost,
    /// Buttondown) in 24 hours.
    #[arg(long, env = "QUIRE_MAX_IMPORTED_SUBSCRIBERS_PER_DAY", default_value_t = DEFAULT_IMPORTED_SUBSCRIBERS_PER_DAY, value_name = "N")]
    pub max_imported_subscribers_per_day: u32,

    /// Abuse reports one client address (an IPv6 /64) may send in 24 hours.
    #[arg(long, env = "QUIRE_MAX_REPORTS_PER_ADDRESS", default_value_t = DEFAULT_REPORTS_PER_ADDRESS, value_name = "N")]
    pub max_reports_per_address: u32,

    /// Open abuse reports the Admin screen's queue holds at most; past it the report page asks
    /// readers to write to --contact-email instead.
    #[arg(long, env = "QUIRE_MAX_OPEN_REPORTS", default_value_t = DEFAULT_MAX_OPEN_REPORTS, value_name = "N")]
    pub max_open_reports: u32,

    /// Email subscribe requests one client address (an IPv6 /64) may make in 24 hours.
    #[arg(long, env = "QUIRE_MAX_SUBSCRIBES_PER_ADDRESS", default_value_t = DEFAULT_SUBSCRIBES_PER_ADDRESS, value_name = "N")]
    pub max_subscribes_per_address: u32,

    /// Subscription confirmation mails one blog sends in 24 hours (new subscribers a day).
    #[arg(long, env = "QUIRE_MAX_SUBSCRIBES_PER_BLOG", default_value_t = DEFAULT_SUBSCRIBES_PER_BLOG, value_name = "N")]
    pub max_subscribes_per_blog: u32,

    /// Subscription confirmation mails the instance sends in an hour, at most.
    #[arg(long, env = "QUIRE_MAX_CONFIRMATION_MAILS_PER_HOUR", default_value_t = DEFAULT_CONFIRMATIONS_PER_HOUR, value_name = "N")]
    pub max_confirmation_mails_per_hour: u32,

    /// Comments one client address (an IPv6 /64) may send in 24 hours, on any blog.
    #[arg(long, env = "QUIRE_MAX_COMMENTS_PER_ADDRESS", default_value_t = DEFAULT_COMMENTS_PER_ADDRESS, value_name = "N")]
    pub max_comments_per_address: u32,

    /// Comments one blog takes in 24 hours.
    #[arg(long, env = "QUIRE_MAX_COMMENTS_PER_BLOG", default_value_t = DEFAULT_COMMENTS_PER_BLOG, value_name = "N")]
    pub max_comments_per_blog: u32,

    /// Links one comment may hold (Markdown links and bare web addresses).
    #[arg(long, env = "QUIRE_MAX_COMMENT_LINKS", default_value_t = DEFAULT_COMMENT_LINKS, value_name = "N")]
    pub max_comment_links: u32,

    /// Webmentions one client address (an IPv6 /64) may send in 24 hours, to any blog.
    #[arg(long, env = "QUIRE_MAX_WEBMENTIONS_PER_ADDRESS", default_value_t = DEFAULT_WEBMENTIONS_PER_ADDRESS, value_name = "N")]
    pub max_webmentions_per_address: u32,

    /// Webmentions waiting for their source to be read, per blog; past it a blog answers 429.
    #[arg(long, env = "QUIRE_MAX_PENDING_WEBMENTIONS", default_value_t = DEFAULT_PENDING_WEBMENTIONS, value_name = "N")]
    pub max_pending_webmentions: u32,

    /// How long after a post is published its email goes to the blog's subscribers (30m, 1h...):
    /// a post unpublished or fixed meanwhile sends nothing, or its final form.
    #[arg(long, env = "QUIRE_MAIL_GRACE", default_value = "10m", value_name = "DURATION")]
    pub mail_grace: String,

    /// Where people write to the operator: shown on the landing page and the report page.
    #[arg(long, env = "QUIRE_CONTACT_EMAIL", value_name = "EMAIL")]
    pub contact_email: Option<String>,

    /// The instance's terms (Markdown, read at start), served at /terms and linked from the
    /// landing page, the signup dialog and the report page.
    #[arg(long, env = "QUIRE_TERMS", value_name = "FILE")]
    pub terms: Option<PathBuf>,

    /// The instance's privacy policy (Markdown, read at start), served at /privacy and linked
    /// as --terms is.
    #[arg(long, env = "QUIRE_PRIVACY", value_name = "FILE")]
    pub privacy: Option<PathBuf>,

    /// What the instance is, for its landing page (Markdown, read at start, at most 64 KiB),
    /// shown below the sign-in buttons.
    #[arg(long, env = "QUIRE_INSTANCE_DESCRIPTION", value_name = "FILE")]
    pub instance_description: Option<PathBuf>,
}

impl PublicInstanceArgs {
    /// The settings the flags give, reading the files they name; one clear line for a value
    /// that cannot work or a file that cannot be read.
    pub fn public_instance(&self) -> anyhow::Result<PublicInstance> {
        let Some(signups) = SignupMode::parse(self.signups.trim()) else {
            bail!("--signups must be open, approval, invite or closed, got {:?}", self.signups);
        };
        let Some(new_blogs_ai_crawlers) = AiCrawlers::parse(self.ai_crawlers.trim()) else {
            bail!("--ai-crawlers must be allow or disallow, got {:?}", self.ai_crawlers);
        };
        if self.max_new_blogs_per_day == 0 || self.max_new_blogs_per_address == 0 {
            bail!("--max-new-blogs-per-day and --max-new-blogs-per-address must be at least 1 (use --signups closed)");
        }
        if self.max_posts_per_day == 0
            || self.max_imports_per_day == 0
            || self.max_reports_per_address == 0
            || self.max_open_reports == 0
        {
            bail!(
                "--max-posts-per-day, --max-imports-per-day, --max-reports-per-address and --max-open-reports must be at least 1"
            );
        }
        if self.max_token_writes_per_minute == 0 || self.max_token_reads_per_minute == 0 {
            bail!(
                "--max-token-writes-per-minute and --max-token-reads-per-minute must be at least 1 (revoke tokens to stop apps)"
            );
        }
        if self.max_comments_per_address == 0 || self.max_comments_per_blog == 0 {
            bail!(
                "--max-comments-per-address and --max-comments-per-blog must be at least 1 (comments are off until an owner turns them on)"
            );
        }
        if self.max_subscribes_per_address == 0
            || self.max_subscribes_per_blog == 0
            || self.max_imported_subscribers_per_day == 0
            || self.max_confirmation_mails_per_hour == 0
        {
            bail!(
                "--max-subscribes-per-address, --max-subscribes-per-blog, --max-imported-subscribers-per-day and --max-confirmation-mails-per-hour must be at least 1"
            );
        }
        let upload_bytes = self
            .upload_quota_mb
            .checked_mul(1024 * 1024)
            .with_context(|| format!("--upload-quota-mb {} is too large", self.upload_quota_mb))?;
        let email_domains = lowercase_list("--signup-email-domain", &self.signup_email_domains, |domain| {
            !domain.contains('@') && domain.contains('.')
        })?;
        let admins = lowercase_list("--admin", &self.admins, |email| {
            email.split_once('@').is_some_and(|(user, host)| !user.is_empty() && !host.is_empty())
        })?;
        if let Some(email) = &self.contact_email
            && !email.trim().contains('@')
        {
            bail!("--contact-email must be an email address, got {email:?}");
        }
        let review_terms = match &self.review_terms {
            None => Vec::new(),
            Some(path) => read_operator_file("--review-terms", path, MAX_OPERATOR_FILE)?
                .lines()
                .map(|line| line.trim().to_lowercase())
                .filter(|term| !term.is_empty() && !term.starts_with('#'))
                .collect(),
        };
        let page = |flag: &str, path: &Option<PathBuf>| -> anyhow::Result<Option<OperatorPage>> {
            path.as_ref()
                .map(|path| {
                    Ok(OperatorPage {
                        path: path.clone(),
                        markdown: read_operator_file(flag, path, MAX_OPERATOR_FILE)?,
                    })
                })
                .transpose()
        };
        Ok(PublicInstance {
            signups,
            review_new_blogs: self.review_new_blogs,
            new_blogs_disallow_ai: new_blogs_ai_crawlers.disallowed(),
            new_blogs_per_day: self.max_new_blogs_per_day,
            new_blogs_per_address: self.max_new_blogs_per_address,
            email_domains,
            admins,
            review_terms,
            quotas: Quotas {
                upload_bytes,
                posts_per_day: self.max_posts_per_day,
                imports_per_day: self.max_imports_per_day,
                imported_subscribers_per_day: self.max_imported_subscribers_per_day,
            },
            reports_per_address: self.max_reports_per_address,
            max_open_reports: self.max_open_reports,
            subscribe_limits: SubscribeLimits {
                per_address: self.max_subscribes_per_address,
                per_blog: self.max_subscribes_per_blog,
                confirmations_per_hour: self.max_confirmation_mails_per_hour,
            },
            comment_limits: CommentLimits {
                per_address: self.max_comments_per_address,
                per_blog: self.max_comments_per_blog,
                max_links: self.max_comment_links,
            },
            token_limits: TokenLimits {
                writes_per_minute: self.max_token_writes_per_minute,
                reads_per_minute: self.max_token_reads_per_minute,
            },
            webmention_limits: WebmentionLimits {
                per_address: self.max_webmentions_per_address,
                pending_per_blog: self.max_pending_webmentions,
            },
            mail_grace: crate::domain::duration::parse(&self.mail_grace)
                .map_err(|message| anyhow::anyhow!("--mail-grace: {message}"))?,
            contact_email: self.contact_email.as_ref().map(|email| email.trim().to_owned()),
            terms: page("--terms", &self.terms)?,
            privacy: page("--privacy", &self.privacy)?,
            description: match &self.instance_description {
                None => None,
                Some(path) => Some(OperatorPage {
                    path: path.clone(),
                    markdown: read_operator_file("--instance-description", path, MAX_DESCRIPTION_FILE)?,
                }),
            },
        })
    }
}

/// The values of a repeatable flag, trimmed and lowercased, each checked by `valid`.
fn lowercase_list(flag: &str, values: &[String], valid: impl Fn(&str) -> bool) -> anyhow::Result<Vec<String>> {
    let mut list = Vec::new();
    for value in values {
        let value = value.trim().trim_start_matches('@').to_ascii_lowercase();
        if value.is_empty() {
            continue;
        }
        if !valid(&value) {
            bail!("{flag} {value:?} is not what it takes (see `quire serve --help`)");
        }
        list.push(value);
    }
    Ok(list)
}

/// The UTF-8 text of an operator's file, refusing a missing, unreadable or oversized (past
/// `max` bytes) one.
fn read_operator_file(flag: &str, path: &Path, max: u64) -> anyhow::Result<String> {
    let size = std::fs::metadata(path).with_context(|| format!("{flag} {}: cannot read it", path.display()))?.len();
    if size > max {
        let shown = crate::domain::public_instance::human_bytes(max);
        bail!("{flag} {}: {size} bytes, more than the {shown} Quire reads", path.display());
    }
    std::fs::read_to_string(path).with_context(|| format!("{flag} {}: cannot read it as UTF-8 text", path.display()))
}
