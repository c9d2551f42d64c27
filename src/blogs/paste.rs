//! A paste into one of the editor's paragraphs made blocks (issue 33, docs/api.md "Convert a
//! paste"): Markdown, or the HTML a clipboard holds, goes through the import's own converter
//! (`portable::convert`) and rules (`portable::normalize::pasted_blocks`), so a `## Morning`
//! line becomes the heading block an import would make of it. Nothing is stored and nothing is
//! fetched: an image of another site becomes a link to it, as an import keeps an image it could
//! not download, and the owner is told so; an image already uploaded here stays an image.

use super::Blogs;
use crate::domain::content::blocks::Block;
use crate::error::{Error, Result};
use crate::portable::convert::{Base, html, markdown};
use crate::portable::normalize::{link_or_text, pasted_blocks};

/// What was pasted.
pub enum Pasted {
    /// Plain text, read as Markdown.
    Markdown(String),
    /// The clipboard's HTML.
    Html(String),
}

/// A paste as blocks, with what could not be carried over or was changed, one sentence each.
pub struct PastedBlocks {
    /// The blocks, each following the post's block rules.
    pub blocks: Vec<Block>,
    /// What the owner should know (an image kept as a link, a paragraph split...).
    pub notes: Vec<String>,
}

impl Blogs {
    /// Converts a paste to blocks by the import's rules; a 422 on its field when nothing of it
    /// makes a block.
    pub async fn convert_paste(&self, pasted: Pasted) -> Result<PastedBlocks> {
        let prefix = self.rules.image_prefix.clone();
        let field = match pasted {
            Pasted::Markdown(_) => "markdown",
            Pasted::Html(_) => "html",
        };
        let converted = tokio::task::spawn_blocking(move || convert(pasted, &prefix))
            .await
            .map_err(|err| Error::Internal(err.into()))?;
        if converted.blocks.is_empty() {
            return Err(Error::invalid(field, "Nothing in it makes a block"));
        }
        if let Some(problem) = converted.blocks.iter().find_map(|block| block.problem(&self.rules)) {
            return Err(Error::invalid(field, problem));
        }
        Ok(converted)
    }
}

/// The blocks of `pasted`; images not uploaded here (`prefix`) become links.
fn convert(pasted: Pasted, prefix: &str) -> PastedBlocks {
    let converted = match &pasted {
        Pasted::Markdown(source) => markdown::to_blocks(source, &Base::none()),
        Pasted::Html(source) => html::to_blocks(source, &Base::none()),
    };
    let mut notes = converted.notes;
    let mut blocks = Vec::with_capacity(converted.blocks.len());
    for block in converted.blocks {
        match block {
            Block::Image { url, alt, caption } if !url.starts_with(prefix) => {
                let described = [alt.as_str(), caption.as_str()].into_iter().find(|t| !t.trim().is_empty());
                let title = described.unwrap_or("Image");
                if let Some(link) = link_or_text(&url, title) {
                    notes.push(format!("The image at {url} is kept as a link: upload it to show it here"));
                    blocks.push(link);
                }
            }
            block => blocks.push(block),
        }
    }
    let (blocks, changes) = pasted_blocks(blocks);
    notes.extend(changes);
    PastedBlocks { blocks, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PREFIX: &str = "http://localhost:8080/media/";

    #[test]
    fn markdown_becomes_the_blocks_an_import_makes_of_it() {
        let source = "## Morning\n\nFirst.\n\n- a\n- b\n\n> Quoted\n\n```\ncode < 1\n```\n\n![A boat](https://elsewhere.example/boat.png)\n\n![Ours](http://localhost:8080/media/abc.png)";
        let PastedBlocks { blocks, notes } = convert(Pasted::Markdown(source.to_owned()), PREFIX);
        assert_eq!(blocks[0], Block::Heading { text: "Morning".into() });
        let text: Vec<String> = blocks
            .iter()
            .filter_map(|b| match b {
                Block::Paragraph { text } => Some(text.clone()),
                _ => None,
            })
            .collect();
        assert!(text.iter().any(|t| t.contains("First.")), "{blocks:?}");
        assert!(text.iter().any(|t| t.contains("- a\n- b")), "{blocks:?}");
        assert!(text.iter().any(|t| t.contains("> Quoted")), "{blocks:?}");
        assert!(text.iter().any(|t| t.contains("```\ncode < 1\n```")), "{blocks:?}");
        assert!(
            blocks.contains(&Block::Link { url: "https://elsewhere.example/boat.png".into(), title: "A boat".into() })
        );
        assert!(blocks.contains(&Block::Image {
            url: "http://localhost:8080/media/abc.png".into(),
            alt: "Ours".into(),
            caption: String::new()
        }));
        assert_eq!(
            notes,
            ["The image at https://elsewhere.example/boat.png is kept as a link: upload it to show it here"]
        );
    }

    #[test]
    fn hostile_html_keeps_its_text_and_none_of_its_script() {
        let html = "<h2 onclick=alert(1)>Evening</h2><script>alert(2)</script><p>Safe <img src=x onerror=alert(3)> text</p><iframe src=javascript:alert(4)></iframe>";
        let PastedBlocks { blocks, .. } = convert(Pasted::Html(html.to_owned()), PREFIX);
        assert_eq!(blocks[0], Block::Heading { text: "Evening".into() });
        let all = format!("{blocks:?}");
        assert!(!all.contains("alert"), "{all}");
        assert!(all.contains("Safe") && all.contains("text"), "{all}");
    }
}
