//! Paragraphs written before they were Markdown: migration 4 escapes their text once, so that
//! what a reader sees does not change (`domain::markdown::escape_plain`).

use rusqlite::{Transaction, params};
use serde_json::Value;

use crate::domain::content::markdown::escape_plain;

/// Escapes the text of every paragraph block of every post, leaving the rest of each body as
/// it was. A body that does not parse (none should) is left alone.
pub fn escape_old_paragraphs(tx: &Transaction) -> rusqlite::Result<()> {
    let mut read = tx.prepare_cached("SELECT id, body FROM posts")?;
    let mut write = tx.prepare_cached("UPDATE posts SET body = ?2 WHERE id = ?1")?;
    let rows = read.query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)))?;
    for row in rows {
        let (id, json) = row?;
        let Ok(mut body) = serde_json::from_str::<Value>(&json) else { continue };
        let mut changed = false;
        if let Some(children) = body.get_mut("children").and_then(Value::as_array_mut) {
            for child in children.iter_mut().filter(|c| c.get("type").and_then(Value::as_str) == Some("paragraph")) {
                let Some(text) = child.pointer_mut("/value/text") else { continue };
                let escaped = match text.as_str() {
                    Some(old) => escape_plain(old),
                    None => continue,
                };
                if text.as_str() != Some(escaped.as_str()) {
                    *text = Value::String(escaped);
                    changed = true;
                }
            }
        }
        if changed {
            write.execute(params![id, body.to_string()])?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::db::{migrate, test_support};
    use crate::domain::content::markdown;

    #[test]
    fn migration_4_escapes_old_paragraphs_so_they_render_as_before() {
        let mut conn = test_support::migrated_before(4); // posts without their blog and user
        let old = "Prices: *only* $5 & up\n1. not a list\n> not a quote <b>";
        let body = json!({ "type": "root", "children": [
            { "type": "heading", "value": { "text": "*Stays*" } },
            { "type": "paragraph", "value": { "text": old } },
            { "type": "image", "value": { "url": "https://i.imgur.com/a.png" } },
        ]});
        conn.execute(
            "INSERT INTO posts (blog_id, short_id, slug, title, body) VALUES (1, 'abcdefgh', 's', 't', ?1)",
            [body.to_string()],
        )
        .unwrap();
        let plain =
            json!({ "type": "root", "children": [{ "type": "paragraph", "value": { "text": "Nothing to escape" } }] });
        conn.execute(
            "INSERT INTO posts (blog_id, short_id, slug, title, body) VALUES (1, 'bcdefghi', 's', 't', ?1)",
            [plain.to_string()],
        )
        .unwrap();

        migrate::migrate(&mut conn).unwrap();

        let stored: String = conn
            .prepare_cached("SELECT body FROM posts WHERE short_id = 'abcdefgh'")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        let stored: serde_json::Value = serde_json::from_str(&stored).unwrap();
        let text = stored["children"][1]["value"]["text"].as_str().unwrap();
        assert_eq!(text, "Prices: \\*only\\* $5 & up\n1\\. not a list\n\\> not a quote \\<b>");
        assert_eq!(
            markdown::to_html(text),
            "<p>Prices: *only* $5 &amp; up<br>1. not a list<br>&gt; not a quote &lt;b&gt;</p>\n"
        );
        assert_eq!(stored["children"][0], body["children"][0], "headings are not Markdown");
        assert_eq!(stored["children"][2], body["children"][2], "other blocks are left as they were");
        let untouched: String = conn
            .prepare_cached("SELECT body FROM posts WHERE short_id = 'bcdefghi'")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert_eq!(untouched, plain.to_string());
    }
}
