-- Issue 32 (docs/revisions.md): every save of a post records the version it replaced, in the
-- save's transaction; the newest 100 of a post are kept, older ones thinned to one a day. `kind`
-- is the write that replaced the version (a save, an autosave, a restore). Tags are a JSON list.
CREATE TABLE post_revisions (
    id            INTEGER PRIMARY KEY,
    post_id       INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    user_id       INTEGER REFERENCES users(id) ON DELETE SET NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('save', 'autosave', 'restore')),
    title         TEXT NOT NULL,
    slug          TEXT NOT NULL,
    body          TEXT NOT NULL,
    tags          TEXT NOT NULL DEFAULT '[]',
    published_at  TEXT,
    scheduled_at  TEXT,
    unlisted      INTEGER NOT NULL DEFAULT 0 CHECK (unlisted IN (0, 1)),
    page          INTEGER NOT NULL DEFAULT 0 CHECK (page IN (0, 1)),
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX post_revisions_post ON post_revisions(post_id, created_at DESC, id DESC);

-- A deleted post kept for 30 days: its content and state (`post`, JSON) and its revisions
-- (`revisions`, a JSON list), restorable until the periodic sweep removes it. The blog's (and so
-- the account's) deletion removes it at once.
CREATE TABLE trash (
    id          INTEGER PRIMARY KEY,
    blog_id     INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    title       TEXT NOT NULL,
    post        TEXT NOT NULL,
    revisions   TEXT NOT NULL DEFAULT '[]',
    deleted_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX trash_blog ON trash(blog_id, deleted_at DESC, id DESC);
CREATE INDEX trash_deleted ON trash(deleted_at);
