//! A blog's custom stylesheet (issue 32): read by a real CSS tokenizer (`cssparser`, Servo's),
//! and refused, never rewritten, when it could load anything but the blog's own images or run
//! anything at all.
//!
//! Refused, each with a message naming its line: more than the size limit; `</style` in any
//! case anywhere (comments and strings too); `@import`; a URL (`url()`, `src()`, a string in
//! `image-set()`, `image()` or `cross-fade()`) other than one of this instance's uploads
//! (`{app}/media/<sha256>.<ext>`); `expression(`, `behavior`, `-moz-binding`; an escape in a
//! function or at-rule name (`\75 rl(` is `url(`), or in a word that spells one of the above; a
//! comment written inside a word (`exp/**/ression`: old browsers read the word whole); a bad
//! string or URL token, a stray closing bracket, a block left open; a NUL. Which uploads are the
//! blog's own is the write path's question (`media` lists them with their lines). Accepted CSS
//! is kept and served byte for byte as given.

use cssparser::{Parser, Token};

use super::image::ImageType;

/// The default largest custom stylesheet, in bytes (`--max-custom-css-bytes`).
pub const DEFAULT_MAX_BYTES: usize = 16 * 1024;

/// Functions whose arguments are URLs (strings included): only uploads of this instance.
const URL_FUNCTIONS: [&str; 7] =
    ["url", "src", "image-set", "-webkit-image-set", "image", "cross-fade", "-webkit-cross-fade"];

/// How deep blocks may nest: far past any real stylesheet, short of the parser's stack.
const MAX_DEPTH: usize = 64;

/// Why a stylesheet was refused: its line (from 1) and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The line, counted from 1.
    pub line: u32,
    /// What is wrong there.
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Line {}: {}", self.line, self.reason)
    }
}

/// An image of this instance the stylesheet uses: its stored file name and its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaUse {
    /// The stored file name (`<sha256>.<ext>`).
    pub name: String,
    /// The line it is named on.
    pub line: u32,
}

/// A custom stylesheet that passed every check, exactly as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomCss {
    text: String,
    media: Vec<MediaUse>,
}

impl CustomCss {
    /// Checks `text`: at most `max_bytes`, its URLs only under `media_prefix`
    /// (`http://host/media/`).
    pub fn parse(text: &str, media_prefix: &str, max_bytes: usize) -> Result<CustomCss, Refusal> {
        if text.len() > max_bytes {
            let line = line_at(text, max_bytes);
            return Err(Refusal {
                line,
                reason: format!(
                    "the stylesheet is longer than {} KB ({max_bytes} bytes) from here on",
                    max_bytes / 1024
                ),
            });
        }
        if let Some(at) = text.find('\0') {
            return Err(Refusal { line: line_at(text, at), reason: "a NUL character is not allowed".to_owned() });
        }
        if let Some(at) = text.to_ascii_lowercase().find("</style") {
            return Err(Refusal { line: line_at(text, at), reason: "`</style` is not allowed".to_owned() });
        }
        let mut checker = Checker { text, media_prefix, media: Vec::new() };
        let mut parser = Parser::new(text);
        checker.block(&mut parser, None, 0, false)?;
        Ok(CustomCss { text: text.to_owned(), media: checker.media })
    }

    /// The stylesheet as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// This instance's uploads it names, in order.
    pub fn media(&self) -> &[MediaUse] {
        &self.media
    }
}

/// The content hash a stylesheet is served under (`/custom-{hash}.css`): 16 hex digits of its
/// SHA-256.
pub fn content_hash(css: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(css.as_bytes())[..8])
}

/// `css` with each upload URL written `from` + a stored name whose name `keep` accepts pointed
/// at `to` (`to` + name). `from` is `/media/` for the uploads of any Quire
/// (`http(s)://host/media/<name>`), or a bare prefix such as an archive's `images/`. A moved
/// blog's stylesheet goes to its archive and to its new server this way, and the static site's
/// to its `media/` folder; nothing else changes.
pub fn rebase_media(css: &str, from: &str, to: &str, keep: impl Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(css.len());
    let mut copied = 0;
    let mut next = 0;
    while let Some(found) = css[next..].find(from) {
        let at = next + found;
        next = at + from.len();
        let name_end =
            css[next..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '.')).map_or(css.len(), |end| next + end);
        let name = &css[next..name_end];
        let start = css[copied..at].rfind(['(', '"', '\'', ' ', '\n', '\t']).map_or(copied, |i| copied + i + 1);
        let origin = &css[start..at];
        let origin_fits = match from.starts_with('/') {
            true => ["http://", "https://"]
                .iter()
                .any(|scheme| origin.strip_prefix(scheme).is_some_and(|host| !host.is_empty() && !host.contains('/'))),
            false => origin.is_empty(),
        };
        if origin_fits && ImageType::of_stored_name(name).is_some() && keep(name) {
            out.push_str(&css[copied..start]);
            out.push_str(to);
            out.push_str(name);
            copied = name_end;
            next = name_end;
        }
    }
    out.push_str(&css[copied..]);
    out
}

/// The line (from 1) of byte `at` of `text`.
fn line_at(text: &str, at: usize) -> u32 {
    let at = at.min(text.len());
    1 + text.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() as u32
}

struct Checker<'t> {
    text: &'t str,
    media_prefix: &'t str,
    media: Vec<MediaUse>,
}

/// What the token before this one was, for comments written inside words.
#[derive(Clone, Copy, PartialEq)]
enum Before {
    Word,
    Other,
}

impl Checker<'_> {
    /// Reads tokens until the end of the block (or the input). `closer` is the block's closing
    /// character, `in_url` whether strings here are URLs.
    fn block(&mut self, p: &mut Parser<'_>, closer: Option<char>, depth: usize, in_url: bool) -> Result<(), Refusal> {
        if depth > MAX_DEPTH {
            return Err(self.refuse(p, "blocks nest too deeply"));
        }
        let mut before = Before::Other;
        let mut comment_after_word = false;
        loop {
            let start = p.position();
            let line = p.current_source_location().line + 1;
            let token = match p.next_including_whitespace_and_comments() {
                Ok(token) => token.clone(),
                Err(_) => break,
            };
            let raw = p.slice_from(start);
            let refuse = |reason: String| Refusal { line, reason };
            let is_word = matches!(
                token,
                Token::Ident(_)
                    | Token::Function(_)
                    | Token::AtKeyword(_)
                    | Token::Number { .. }
                    | Token::Dimension { .. }
            );
            if comment_after_word && is_word {
                return Err(refuse("a comment inside a word is not allowed (write the word whole)".to_owned()));
            }
            comment_after_word = matches!(token, Token::Comment(_)) && before == Before::Word;
            before = if is_word || matches!(token, Token::Hash(_) | Token::IDHash(_)) {
                Before::Word
            } else {
                Before::Other
            };
            match &token {
                Token::AtKeyword(name) => {
                    self.name(name, raw, line, "@")?;
                    if name.eq_ignore_ascii_case("import") {
                        return Err(refuse("`@import` is not allowed".to_owned()));
                    }
                }
                Token::Ident(word) => self.word(word, raw, line)?,
                Token::Function(name) => {
                    self.name(name, raw, line, "")?;
                    let lower = name.to_ascii_lowercase();
                    if lower.contains("expression") {
                        return Err(refuse("`expression(` is not allowed".to_owned()));
                    }
                    let urls = in_url || URL_FUNCTIONS.contains(&lower.as_str());
                    self.nested(p, ')', depth, urls)?;
                    before = Before::Other;
                }
                Token::ParenthesisBlock => self.nested(p, ')', depth, in_url)?,
                Token::SquareBracketBlock => self.nested(p, ']', depth, in_url)?,
                Token::CurlyBracketBlock => self.nested(p, '}', depth, false)?,
                Token::UnquotedUrl(url) => {
                    // The tokenizer reads `\75 rl(x)` as `url(x)` too: the name must be written plainly.
                    if !raw.get(..4).is_some_and(|name| name.eq_ignore_ascii_case("url(")) {
                        return Err(refuse("an escape in the name `url` is not allowed (write it plainly)".to_owned()));
                    }
                    self.url(url, line)?
                }
                Token::QuotedString(value) if in_url => self.url(value, line)?,
                Token::BadUrl(_) => return Err(refuse("this `url(` cannot be read".to_owned())),
                Token::BadString(_) => return Err(refuse("a string is not closed on its line".to_owned())),
                Token::CloseParenthesis | Token::CloseSquareBracket | Token::CloseCurlyBracket => {
                    return Err(refuse(format!("`{raw}` closes nothing")));
                }
                _ => {}
            }
        }
        // A nested block stops before its closer; one that reached the end of the text has none.
        if let Some(closer) = closer
            && p.position().byte_index() >= self.text.len()
        {
            return Err(self.refuse(p, &format!("a block is never closed (`{closer}` missing)")));
        }
        Ok(())
    }

    /// Reads the block just opened, which must close with `closer`.
    fn nested(&mut self, p: &mut Parser<'_>, closer: char, depth: usize, in_url: bool) -> Result<(), Refusal> {
        // The parser turns a block left half read into its own error: the refusal is kept aside.
        let mut refused = None;
        let read = p.parse_nested_block(|inner| match self.block(inner, Some(closer), depth + 1, in_url) {
            Ok(()) => Ok(()),
            Err(refusal) => {
                refused = Some(refusal);
                Err(inner.new_error_for_next_token::<()>())
            }
        });
        match (refused, read) {
            (Some(refusal), _) => Err(refusal),
            (None, Ok(())) => Ok(()),
            (None, Err(_)) => Err(self.refuse(p, "this block cannot be read")),
        }
    }

    /// A function or at-rule name: written without escapes.
    fn name(&self, name: &str, raw: &str, line: u32, sigil: &str) -> Result<(), Refusal> {
        let bare = raw.trim_start_matches('@').trim_end_matches('(');
        if bare != name {
            return Err(Refusal {
                line,
                reason: format!("an escape in the name `{sigil}{name}` is not allowed (write it plainly)"),
            });
        }
        Ok(())
    }

    /// A word: none of the behaviours old browsers ran from CSS (`expression` only runs as a
    /// function, checked with the names).
    fn word(&self, word: &str, raw: &str, line: u32) -> Result<(), Refusal> {
        let lower = word.to_ascii_lowercase();
        let refused = lower == "behavior" || lower.ends_with("-behavior") || lower.ends_with("-binding");
        if refused {
            return Err(Refusal { line, reason: format!("`{word}` is not allowed") });
        }
        let spells_a_checked_name = URL_FUNCTIONS.contains(&lower.as_str()) || lower == "import";
        if raw != word && spells_a_checked_name {
            return Err(Refusal { line, reason: format!("an escape in `{word}` is not allowed (write it plainly)") });
        }
        Ok(())
    }

    /// A URL: one of this instance's uploads, by its stored name.
    fn url(&mut self, url: &str, line: u32) -> Result<(), Refusal> {
        let name = url.strip_prefix(self.media_prefix).filter(|name| ImageType::of_stored_name(name).is_some());
        match name {
            Some(name) => {
                self.media.push(MediaUse { name: name.to_owned(), line });
                Ok(())
            }
            None => Err(Refusal {
                line,
                reason: format!(
                    "`{}` is not one of this blog's images (only {}… of your uploads)",
                    shorten(url),
                    self.media_prefix
                ),
            }),
        }
    }

    fn refuse(&self, p: &Parser<'_>, reason: &str) -> Refusal {
        Refusal { line: p.current_source_location().line + 1, reason: reason.to_owned() }
    }
}

/// At most 80 characters of a URL, for a message.
fn shorten(url: &str) -> String {
    match url.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &url[..at]),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests;
