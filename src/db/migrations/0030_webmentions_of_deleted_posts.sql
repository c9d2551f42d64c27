-- Issue 31 (docs/responses.md, "A deleted post"): a deleted post's links are told once more, so
-- the pages it linked to re-read it (now gone) and drop its mention. The post's row is gone by
-- then, so a webmention to send keeps its blog and, once its post is deleted, the address the
-- post had (`source`); `post_id` becomes NULL with the post instead of taking the row with it.
CREATE TABLE outgoing_webmentions_new (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    blog_id   INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    post_id   INTEGER REFERENCES posts(id) ON DELETE SET NULL,
    source    TEXT NOT NULL DEFAULT '',
    target    TEXT NOT NULL,
    linked    INTEGER NOT NULL DEFAULT 1,
    state     TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent')),
    attempts  INTEGER NOT NULL DEFAULT 0,
    next_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (post_id, target)
);
INSERT INTO outgoing_webmentions_new (id, blog_id, post_id, target, linked, state, attempts, next_at)
    SELECT o.id, p.blog_id, o.post_id, o.target, o.linked, o.state, o.attempts, o.next_at
    FROM outgoing_webmentions o JOIN posts p ON p.id = o.post_id;
DROP TABLE outgoing_webmentions;
ALTER TABLE outgoing_webmentions_new RENAME TO outgoing_webmentions;
CREATE INDEX outgoing_webmentions_due ON outgoing_webmentions(state, next_at);
CREATE INDEX outgoing_webmentions_blog ON outgoing_webmentions(blog_id);
