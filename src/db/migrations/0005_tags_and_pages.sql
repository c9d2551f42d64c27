-- A post's tags (at most 10, checked by the write path), written in the post's transaction.
-- blog_id is the post's, copied so a blog's tag pages read one index.
CREATE TABLE post_tags (
    post_id   INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    blog_id   INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    tag       TEXT NOT NULL,
    position  INTEGER NOT NULL,
    PRIMARY KEY (post_id, tag)
) WITHOUT ROWID;
CREATE INDEX post_tags_blog_tag ON post_tags(blog_id, tag);

-- Posts that are pages (About, Now, ...): shown at /{slug}, listed in the blog's navigation
-- in `position` order, never in the index, the feeds or the tag pages.
CREATE TABLE post_pages (
    post_id   INTEGER PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
    blog_id   INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    slug      TEXT NOT NULL,
    position  INTEGER NOT NULL,
    UNIQUE (blog_id, slug)
);
