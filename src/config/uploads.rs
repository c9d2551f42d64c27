//! `--uploads-url`, `--uploads-public-url`, `--uploads-credentials` and `--uploads-timeout-secs`,
//! checked (docs/replication.md, "Uploads on object storage").

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, ensure};

use crate::cli::UploadsArgs;

/// Where uploaded images live: `None`, the data directory's `uploads/` folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UploadsConfig {
    pub bucket: Option<BucketConfig>,
}

/// An S3-compatible bucket holding the uploads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BucketConfig {
    /// The bucket's name.
    pub bucket: String,
    /// The folder in it, without slashes at its ends; empty for the bucket's root.
    pub prefix: String,
    /// Where readers are sent for an image (ends with `/`); `None`: served by Quire.
    pub public_url: Option<String>,
    /// An AWS credentials file, instead of the environment's variables.
    pub credentials: Option<PathBuf>,
    /// How long one request to the bucket may take, retries included.
    pub timeout: Duration,
}

impl BucketConfig {
    /// `s3://bucket/prefix`, as the operator gave it (for messages).
    pub fn url(&self) -> String {
        match self.prefix.as_str() {
            "" => format!("s3://{}", self.bucket),
            prefix => format!("s3://{}/{prefix}", self.bucket),
        }
    }
}

/// The longest `--uploads-timeout-secs`.
const MAX_TIMEOUT_SECS: u64 = 300;

impl UploadsConfig {
    /// The flags, refusing what cannot work.
    pub fn from_args(args: &UploadsArgs) -> anyhow::Result<UploadsConfig> {
        let Some(url) = args.uploads_url.as_deref().map(str::trim).filter(|url| !url.is_empty()) else {
            return Ok(UploadsConfig::default());
        };
        let (bucket, prefix) = parse_bucket_url(url).map_err(|why| anyhow::anyhow!("--uploads-url {url:?}: {why}"))?;
        let public_url = match args.uploads_public_url.as_deref().map(str::trim).filter(|url| !url.is_empty()) {
            Some(public) => Some(
                parse_public_url(public).map_err(|why| anyhow::anyhow!("--uploads-public-url {public:?}: {why}"))?,
            ),
            None => None,
        };
        let secs = args.uploads_timeout_secs;
        ensure!(
            (1..=MAX_TIMEOUT_SECS).contains(&secs),
            "--uploads-timeout-secs must be from 1 to {MAX_TIMEOUT_SECS}, got {secs}"
        );
        Ok(UploadsConfig {
            bucket: Some(BucketConfig {
                bucket,
                prefix,
                public_url,
                credentials: args.uploads_credentials.clone(),
                timeout: Duration::from_secs(secs),
            }),
        })
    }
}

/// `s3://bucket[/prefix]` into the bucket's name and the prefix.
fn parse_bucket_url(url: &str) -> Result<(String, String), String> {
    let Some(rest) = url.strip_prefix("s3://") else {
        return Err("give an S3 bucket as s3://BUCKET or s3://BUCKET/PREFIX".to_owned());
    };
    if rest.contains(['?', '#']) {
        return Err("a query or fragment has no meaning here; the endpoint and credentials come from AWS_* variables"
            .to_owned());
    }
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.contains('@') || bucket.contains(':') {
        return Err("credentials and endpoints do not go in the URL (they would show in `ps`): \
                    set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_ENDPOINT_URL, or use --uploads-credentials"
            .to_owned());
    }
    let valid_bucket = (3..=63).contains(&bucket.len())
        && bucket.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
        && bucket.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && bucket.bytes().last().is_some_and(|b| b.is_ascii_alphanumeric());
    if !valid_bucket {
        return Err("a bucket's name is 3 to 63 lowercase letters, digits, dots and hyphens".to_owned());
    }
    let prefix = prefix.trim_matches('/');
    let segments: Vec<&str> = prefix.split('/').filter(|segment| !segment.is_empty()).collect();
    if segments.iter().any(|segment| *segment == "." || *segment == "..")
        || prefix.chars().any(|c| c.is_control() || c == '\\')
    {
        return Err("the prefix must be a plain folder path".to_owned());
    }
    Ok((bucket.to_owned(), segments.join("/")))
}

/// An `https://` (or `http://`) base address, ending with `/`.
fn parse_public_url(url: &str) -> Result<String, String> {
    let parsed = url::Url::parse(url).map_err(|err| err.to_string())?;
    if !matches!(parsed.scheme(), "https" | "http") || parsed.host_str().is_none() {
        return Err("give an https:// address".to_owned());
    }
    if parsed.query().is_some() || parsed.fragment().is_some() || !parsed.username().is_empty() {
        return Err("give a plain base address, without a query, fragment or user".to_owned());
    }
    let mut base = parsed.to_string();
    if !base.ends_with('/') {
        base.push('/');
    }
    Ok(base)
}

/// Bails with the reason a bucket URL cannot work (for commands that need one).
pub fn require_bucket(config: &UploadsConfig) -> anyhow::Result<&BucketConfig> {
    match &config.bucket {
        Some(bucket) => Ok(bucket),
        None => bail!("give the bucket to copy to with --uploads-url s3://BUCKET[/PREFIX]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(url: &str) -> UploadsArgs {
        UploadsArgs { uploads_url: Some(url.to_owned()), uploads_timeout_secs: 20, ..UploadsArgs::default() }
    }

    #[test]
    fn bucket_urls_are_checked() {
        let config = UploadsConfig::from_args(&args("s3://quire-media/blog/media/")).unwrap();
        let bucket = config.bucket.unwrap();
        assert_eq!((bucket.bucket.as_str(), bucket.prefix.as_str()), ("quire-media", "blog/media"));
        assert_eq!(bucket.url(), "s3://quire-media/blog/media");
        assert_eq!(UploadsConfig::from_args(&args("s3://media")).unwrap().bucket.unwrap().prefix, "");
        assert_eq!(UploadsConfig::from_args(&UploadsArgs::default()).unwrap(), UploadsConfig::default());
        for (bad, says) in [
            ("https://s3.amazonaws.com/media", "s3://BUCKET"),
            ("s3://KEY:SECRET@media", "would show in `ps`"),
            ("s3://media?region=eu", "query"),
            ("s3://m", "3 to 63"),
            ("s3://Media", "3 to 63"),
            ("s3://media/../other", "plain folder"),
        ] {
            let err = UploadsConfig::from_args(&args(bad)).unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn public_urls_and_timeouts_are_checked() {
        let mut with = args("s3://media");
        with.uploads_public_url = Some("https://cdn.example/media".to_owned());
        let bucket = UploadsConfig::from_args(&with).unwrap().bucket.unwrap();
        assert_eq!(bucket.public_url.as_deref(), Some("https://cdn.example/media/"));
        with.uploads_public_url = Some("javascript:alert(1)".to_owned());
        assert!(UploadsConfig::from_args(&with).unwrap_err().to_string().contains("https://"));
        let mut slow = args("s3://media");
        slow.uploads_timeout_secs = 0;
        assert!(UploadsConfig::from_args(&slow).unwrap_err().to_string().contains("from 1 to 300"));
    }
}
