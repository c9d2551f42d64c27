-- Issue 31 (docs/responses.md, "Webmentions"): a webmention received (`POST /webmention` on a
-- blog's host) waits here until the verifier has read its source through the guarded fetcher:
-- a source that links to the post becomes (or updates) a held response; one that no longer
-- does, or is gone (404, 410), removes the response it made. A second webmention for the same
-- source and post is one row (read again). `client_key` is the sender's address, for its
-- limit; `attempts` and `next_at` retry a source that could not be read.
CREATE TABLE incoming_webmentions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    blog_id      INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    post_id      INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    source       TEXT NOT NULL,
    target       TEXT NOT NULL,
    client_key   TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    received_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (post_id, source)
);
CREATE INDEX incoming_webmentions_due ON incoming_webmentions(next_at);
CREATE INDEX incoming_webmentions_blog ON incoming_webmentions(blog_id);
-- What each address sent, for its daily limit (kept a day).
CREATE TABLE webmention_log (
    id          INTEGER PRIMARY KEY,
    client_key  TEXT NOT NULL,
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX webmention_log_client ON webmention_log(client_key, at);
