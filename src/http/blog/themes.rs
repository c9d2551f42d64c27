//! The theme stylesheets: each theme's variables before the shared base rules, served at a
//! content-addressed path so browsers may keep them for a year; and the path of a blog's custom
//! stylesheet (issue 32), content-addressed the same way and linked after its theme's.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

/// One theme's stylesheet.
pub struct Theme {
    /// The CSS.
    pub css: String,
    /// Its content-addressed path on every blog, e.g. `/theme-default-1a2b3c4d5e.css`.
    pub path: String,
}

const BASE_CSS: &str = include_str!("../../../assets/themes/base.css");
const THEMES: [(&str, &str); 4] = [
    ("default", include_str!("../../../assets/themes/default.css")),
    ("serif", include_str!("../../../assets/themes/serif.css")),
    ("mono", include_str!("../../../assets/themes/mono.css")),
    ("dark", include_str!("../../../assets/themes/dark.css")),
];

/// The path of a blog's custom stylesheet, `/custom-{hash}.css`; None for none ('').
pub fn custom_path(css: &str) -> Option<String> {
    (!css.is_empty()).then(|| format!("/custom-{}.css", crate::domain::content::custom_css::content_hash(css)))
}

/// Every theme, by its slug.
pub struct Themes(HashMap<&'static str, Theme>);

impl Default for Themes {
    fn default() -> Self {
        let themes = THEMES
            .iter()
            .map(|(slug, vars)| {
                let css = format!("{}{}", vars.trim(), BASE_CSS.trim());
                let path = format!("/theme-{slug}-{}.css", &hex::encode(Sha256::digest(css.as_bytes()))[..10]);
                (*slug, Theme { css, path })
            })
            .collect();
        Themes(themes)
    }
}

impl Themes {
    /// The theme `slug`, or the default one for a slug we do not know.
    pub fn by_slug(&self, slug: &str) -> &Theme {
        self.0.get(slug).unwrap_or_else(|| &self.0["default"])
    }

    /// The theme served at `path`.
    pub fn at_path(&self, path: &str) -> Option<&Theme> {
        self.0.values().find(|theme| theme.path == path)
    }
}
