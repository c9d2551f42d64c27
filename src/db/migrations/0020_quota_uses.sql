-- Issue 29 (docs/public-instance.md, "Quotas"): what a blog did in the last day that a daily
-- quota counts (`--max-posts-per-day`, `--max-imports-per-day`). One row per post created or
-- import started, kept for a day, so deleting a post or an import does not give its place back.
CREATE TABLE quota_uses (
    id       INTEGER PRIMARY KEY,
    blog_id  INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    kind     TEXT NOT NULL CHECK (kind IN ('post', 'import')),
    at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX quota_uses_blog ON quota_uses(blog_id, kind, at);
