-- Issue 31 (docs/responses.md): the owner's one queue of responses has Held, Approved and Spam;
-- a fediverse reply can be put in Spam too (out of sight, kept until deleted, never expired as a
-- held one is). SQLite cannot change a CHECK constraint, so the table is rebuilt.
CREATE TABLE replies_new (
    id             INTEGER PRIMARY KEY,
    note_id        TEXT NOT NULL UNIQUE,
    post_id        INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    actor_id       TEXT NOT NULL,
    author_name    TEXT NOT NULL,
    author_handle  TEXT NOT NULL,
    author_url     TEXT NOT NULL,
    url            TEXT,
    text           TEXT NOT NULL,
    published_at   TEXT NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('held', 'approved', 'spam')),
    received_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    actor_host     TEXT NOT NULL DEFAULT ''
);
INSERT INTO replies_new
    SELECT id, note_id, post_id, actor_id, author_name, author_handle, author_url, url, text, published_at, state,
           received_at, actor_host
    FROM replies;
DROP TABLE replies;
ALTER TABLE replies_new RENAME TO replies;
CREATE INDEX replies_post ON replies(post_id, state, published_at);
CREATE INDEX replies_host ON replies(actor_host, state);
CREATE INDEX replies_held_since ON replies(state, received_at);
CREATE INDEX replies_actor ON replies(actor_id);
