-- Scheduled posts: a post waiting to be published keeps published_at NULL (so every public
-- query still reads "published_at IS NOT NULL") and holds the time in scheduled_at. The
-- server's timer moves it to published_at when it comes (blogs/schedule.rs).
ALTER TABLE posts ADD COLUMN scheduled_at TEXT;
CREATE INDEX posts_scheduled ON posts(scheduled_at) WHERE scheduled_at IS NOT NULL;

-- One secret preview link per unpublished post; only the SHA-256 of its token is stored.
CREATE TABLE preview_links (
    post_id     INTEGER PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
    token_hash  BLOB NOT NULL UNIQUE,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
