//! What a site's own settings file says (Jekyll's `_config.yml`, Hugo's `hugo.toml` or
//! `config.toml`, Zola's `config.toml`): where the site sits in the zip, which generator wrote
//! it, its time zone, its permalink patterns and its address.

use std::io::{Read, Seek};

use super::front_matter::{self, FrontMatter};
use crate::domain::blog::time_zone::TimeZone;
use crate::portable::Options;
use crate::portable::read::safe_zip::SafeZip;

/// What the site's own settings file says (Jekyll's `_config.yml`, Hugo's `hugo.toml` or
/// `config.toml`, Zola's `config.toml`), and where it sits.
#[derive(Default)]
pub(super) struct Site {
    /// The folder holding the settings file (`harbour-notes/`), empty at the zip's root.
    pub(super) root: String,
    pub(super) jekyll: bool,
    pub(super) zone: Option<TimeZone>,
    /// Jekyll's `permalink`.
    pub(super) permalink: Option<String>,
    /// Hugo's `[permalinks]`, by section.
    pub(super) permalinks: FrontMatter,
    pub(super) url: Option<url::Url>,
}

impl Site {
    pub(super) fn read<R: Read + Seek>(zip: &mut SafeZip<R>, options: &Options) -> Site {
        const CONFIGS: [(&str, bool); 6] = [
            ("_config.yml", false),
            ("hugo.toml", true),
            ("config.toml", true),
            ("hugo.yaml", false),
            ("config.yaml", false),
            ("config.yml", false),
        ];
        let found = zip
            .names()
            .iter()
            .filter_map(|name| {
                let (dir, file) = name.rsplit_once('/').map_or(("", name.as_str()), |(d, f)| (d, f));
                let depth = if dir.is_empty() { 0 } else { dir.split('/').count() };
                CONFIGS
                    .iter()
                    .find(|(config, _)| *config == file)
                    .filter(|_| depth <= 1)
                    .map(|(config, toml)| (name.clone(), dir.to_owned(), *config, *toml))
            })
            .min_by_key(|(name, ..)| name.len());
        let mut site = Site { url: options.site_url.clone(), ..Site::default() };
        let zone_name = |fm: &FrontMatter| fm.text("timezone").or_else(|| fm.text("time_zone"));
        if let Some((name, dir, file, toml)) = found {
            site.root = if dir.is_empty() { dir } else { format!("{dir}/") };
            site.jekyll = file == "_config.yml";
            let settings = zip
                .read(&name, 256 * 1024)
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok())
                .and_then(|text| front_matter::config(&text, toml).ok())
                .unwrap_or_default();
            site.zone = zone_name(&settings).and_then(|z| TimeZone::parse(&z).ok());
            site.permalink = settings.text("permalink");
            site.permalinks = settings.table("permalinks");
        }
        if !site.jekyll {
            site.jekyll = zip.names().iter().any(|n| n.contains("_posts/"));
        }
        if site.zone.is_none() {
            site.zone = options.time_zone.as_deref().and_then(|z| TimeZone::parse(z).ok());
        }
        site
    }
}
