//! The Markdown export: one folder per post and page with an `index.md` (YAML front matter,
//! then the blocks as Markdown) and the post's uploaded images beside it, linked by their bare
//! file names. docs/export.md explains the layout and why Hugo, Zola and Jekyll read it:
//!
//! ```text
//! posts/<YYYY-MM-DD>-<slug>-<shortId>/index.md   every post (drafts say `draft: true`, unlisted posts `unlisted: true`)
//! posts/<YYYY-MM-DD>-<slug>-<shortId>/<image>    its uploaded images
//! pages/<slug>/index.md                          every page, `weight` its place in the navigation
//! posts/_index.md, pages/_index.md               the sections' titles (Hugo and Zola lists)
//! README.md                                      how to use it
//! ```

use crate::domain::content::blocks::Block;
use crate::domain::content::dates;

/// A post or page as the export writes it.
pub struct Item<'a> {
    /// Its title (front matter; its first heading is not repeated in the text).
    pub title: &'a str,
    /// Its address: `{slug}-{shortId}` for a post (its Quire permalink), the page's slug.
    pub slug: String,
    /// The date it carries (stored form): published, scheduled, or for a draft its creation.
    pub date: &'a str,
    /// Its tags.
    pub tags: &'a [String],
    /// Not public yet (a draft).
    pub draft: bool,
    /// Reachable by its address but left off every list and feed (docs/unlisted.md).
    pub unlisted: bool,
    /// A page's place in the navigation; `None` for a post.
    pub page_position: Option<i64>,
    /// Its blocks.
    pub blocks: &'a [Block],
}

impl Item<'_> {
    /// Its folder, with the trailing slash.
    pub fn folder(&self) -> String {
        match self.page_position {
            Some(_) => format!("pages/{}/", self.slug),
            None => format!("posts/{}-{}/", dates::day(self.date), self.slug),
        }
    }

    /// `index.md`: front matter and Markdown. `image` names the file beside it for an upload's
    /// URL (other images keep their URL).
    pub fn document(&self, image: impl Fn(&str) -> Option<String>) -> String {
        let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let mut out = String::from("---\n");
        out.push_str(&format!("title: {}\n", quoted(self.title)));
        out.push_str(&format!("date: {}\n", dates::iso(self.date)));
        out.push_str(&format!("slug: {}\n", quoted(&self.slug)));
        if self.page_position.is_none() {
            out.push_str(&format!("tags: [{}]\n", self.tags.iter().map(|t| quoted(t)).collect::<Vec<_>>().join(", ")));
        }
        out.push_str(&format!("draft: {}\n", self.draft));
        if self.unlisted {
            // Hugo's own spelling keeps it off its lists too.
            out.push_str("unlisted: true\nbuild:\n  list: never\n");
        }
        if let Some(position) = self.page_position {
            out.push_str(&format!("weight: {}\n", position + 1));
        }
        out.push_str("---\n");
        let mut skipped_title = false;
        for block in self.blocks {
            if matches!(block, Block::Heading { .. }) && !skipped_title {
                skipped_title = true;
                continue;
            }
            out.push('\n');
            out.push_str(&block_markdown(block, &image));
            out.push('\n');
        }
        out
    }
}

/// One block as Markdown (a heading as `## `); `image` names what to link an image by instead
/// of its URL.
pub fn block_markdown(block: &Block, image: impl Fn(&str) -> Option<String>) -> String {
    match block {
        Block::Heading { text } => format!("## {}", one_line(text)),
        Block::Paragraph { text } => text.trim_end().to_owned(),
        Block::Link { url, title } if title.trim().is_empty() => format!("<{url}>"),
        Block::Link { url, title } => link(title, url),
        Block::Image { url, alt, caption } => {
            let target = image(url).unwrap_or_else(|| url.clone());
            let mut text = format!("![{}]({})", inline(alt), destination(&target));
            if !caption.trim().is_empty() {
                text.push_str(&format!("\n*{}*", inline(caption)));
            }
            text
        }
        Block::Spotify { url } => link("Listen on Spotify", url),
        Block::Tweet { url } => link("A post on X", url),
    }
}

/// The front matter of a section's `_index.md` (Hugo's and Zola's list pages; Jekyll skips
/// files starting with `_`).
pub fn section_index(title: &str) -> String {
    format!("---\ntitle: {}\n---\n", serde_json::to_string(title).unwrap_or_default())
}

/// The export's README: what is where, and how each generator reads it.
pub fn readme(blog_name: &str) -> String {
    format!(
        "# {blog_name}\n\n\
         Exported from Quire as Markdown. Every post is a folder under `posts/` and every page a\n\
         folder under `pages/`, each holding `index.md` (YAML front matter: title, date, slug,\n\
         tags, draft) and its images, linked by their file names.\n\n\
         - Hugo: copy `posts/` and `pages/` into your site's `content/` folder.\n\
         - Zola: copy them into `content/`. Zola ignores a top-level `tags:`; to keep the tags,\n  \
           declare `taxonomies = [{{name = \"tags\"}}]` in config.toml and move each `tags: [...]`\n  \
           line under `taxonomies:` (`taxonomies:` / `  tags: [...]`).\n\
         - Jekyll: copy them into your site; each post is built at its folder's address with its\n  \
           images beside it (to list them as Jekyll posts, move each `index.md` to\n  \
           `_posts/<folder name>.md`).\n\n\
         Paragraphs are CommonMark, as Quire stored them. Drafts say `draft: true`; a scheduled\n\
         post carries its publication date; an unlisted post says `unlisted: true` (and Hugo's\n\
         `build: list: never`, which keeps it off Hugo's lists).\n"
    )
}

/// `[text](url)`.
fn link(text: &str, url: &str) -> String {
    format!("[{}]({})", inline(text), destination(url))
}

/// A link destination, in angle brackets when it holds what would end it.
fn destination(url: &str) -> String {
    if url.contains([' ', '(', ')', '<', '>']) { format!("<{}>", url.replace(['<', '>'], "")) } else { url.to_owned() }
}

/// Text inside a link, an image's alt text or a caption: the characters Markdown would read as
/// markup are escaped, line breaks become spaces.
fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in one_line(text).chars() {
        if matches!(c, '\\' | '[' | ']' | '*' | '_' | '`' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_post_becomes_front_matter_and_markdown_with_its_images_beside_it() {
        let blocks = vec![
            Block::Heading { text: "Hello \"world\"".into() },
            Block::Paragraph { text: "Some *text*.\n\nMore.".into() },
            Block::Heading { text: "Part two".into() },
            Block::Link { url: "https://example.com/a".into(), title: "A [site]".into() },
            Block::Image { url: "http://h/media/abc.png".into(), alt: "A cat".into(), caption: "My cat".into() },
            Block::Spotify { url: "https://open.spotify.com/track/1".into() },
            Block::Tweet { url: "https://x.com/a/status/1".into() },
        ];
        let tags = vec!["rust".to_owned(), "road-trip".to_owned()];
        let item = Item {
            title: "Hello \"world\"",
            slug: "hello-world-abcd1234".into(),
            date: "2026-11-22T05:07:01.123Z",
            tags: &tags,
            draft: false,
            unlisted: false,
            page_position: None,
            blocks: &blocks,
        };
        assert_eq!(item.folder(), "posts/2026-11-22-hello-world-abcd1234/");
        let doc = item.document(|url| url.strip_prefix("http://h/media/").map(str::to_owned));
        assert_eq!(
            doc,
            "---\ntitle: \"Hello \\\"world\\\"\"\ndate: 2026-11-22T05:07:01Z\nslug: \"hello-world-abcd1234\"\n\
             tags: [\"rust\", \"road-trip\"]\ndraft: false\n---\n\nSome *text*.\n\nMore.\n\n## Part two\n\n\
             [A \\[site\\]](https://example.com/a)\n\n![A cat](abc.png)\n*My cat*\n\n\
             [Listen on Spotify](https://open.spotify.com/track/1)\n\n[A post on X](https://x.com/a/status/1)\n"
        );
    }

    #[test]
    fn a_page_has_its_own_folder_a_weight_and_no_tags() {
        let blocks = vec![Block::Heading { text: "About".into() }];
        let item = Item {
            title: "About",
            slug: "about".into(),
            date: "2026-01-02T00:00:00Z",
            tags: &[],
            draft: true,
            unlisted: false,
            page_position: Some(0),
            blocks: &blocks,
        };
        assert_eq!(item.folder(), "pages/about/");
        assert_eq!(
            item.document(|_| None),
            "---\ntitle: \"About\"\ndate: 2026-01-02T00:00:00Z\nslug: \"about\"\ndraft: true\nweight: 1\n---\n"
        );
    }

    #[test]
    fn an_unlisted_post_says_so_in_its_own_words_and_hugos() {
        let blocks = vec![Block::Heading { text: "For a few".into() }];
        let item = Item {
            title: "For a few",
            slug: "for-a-few-abcd1234".into(),
            date: "2026-01-02T00:00:00Z",
            tags: &[],
            draft: false,
            unlisted: true,
            page_position: None,
            blocks: &blocks,
        };
        assert_eq!(
            item.document(|_| None),
            "---\ntitle: \"For a few\"\ndate: 2026-01-02T00:00:00Z\nslug: \"for-a-few-abcd1234\"\ntags: []\n\
             draft: false\nunlisted: true\nbuild:\n  list: never\n---\n"
        );
    }
}
