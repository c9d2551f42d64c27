//! Paragraphs written before they were Markdown: migration 5 escapes their text once, so that
//! what a reader sees does not change (`domain::markdown::escape_plain`).

use rusqlite::{Transaction, params};
use serde_json::Value;

use crate::domain::markdown::escape_plain;

/// Escapes the text of every paragraph block of every post, leaving the rest of each body as
/// it was. A body that does not parse (none should) is left alone.
pub fn escape_old_paragraphs(tx: &Transaction) -> rusqlite::Result<()> {
    let mut read = tx.prepare("SELECT id, body FROM posts")?;
    let mut write = tx.prepare("UPDATE posts SET body = ?2 WHERE id = ?1")?;
    let rows = read.query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)))?;
    for row in rows {
        let (id, json) = row?;
        let Ok(mut body) = serde_json::from_str::<Value>(&json) else { continue };
        let mut changed = false;
        if let Some(children) = body.get_mut("children").and_then(Value::as_array_mut) {
            for child in children.iter_mut().filter(|c| c.get("type").and_then(Value::as_str) == Some("paragraph")) {
                if let Some(text) = child.pointer_mut("/value/text") {
                    if let Some(old) = text.as_str() {
                        let escaped = escape_plain(old);
                        if escaped != old {
                            *text = Value::String(escaped);
                            changed = true;
                        }
                    }
                }
            }
        }
        if changed {
            write.execute(params![id, body.to_string()])?;
        }
    }
    Ok(())
}
