-- Imports (blogs/imports.rs).
--
-- Each item an import wrote, under the key of the export item it came from (system, old
-- site, source id), so importing the same file again, or again after a crash, skips it. A
-- deleted post takes its row with it, so it can be imported again.
CREATE TABLE imported_items (
    blog_id     INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    source_key  TEXT NOT NULL,
    post_id     INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (blog_id, source_key)
) WITHOUT ROWID;
CREATE INDEX imported_items_post ON imported_items(post_id);

-- The addresses an imported post had on its old site, answered with a 301 to the post when
-- the blog has no page of its own there. `path` is the key domain::old_paths makes
-- (percent-encoding normalized, no trailing slash, only `?p=` and `?page_id=` of a query).
CREATE TABLE redirects (
    blog_id  INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    path     TEXT NOT NULL,
    post_id  INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    PRIMARY KEY (blog_id, path)
) WITHOUT ROWID;
CREATE INDEX redirects_post ON redirects(post_id);
