-- Issue 30 (docs/email.md, "The owner's side"): subscribers an owner imported from another
-- service's CSV, for the daily cap (`--max-imported-subscribers-per-day`). One row per import,
-- with how many it added; rows older than a day are pruned. Removing the subscribers later does
-- not give the day's allowance back.
CREATE TABLE subscriber_imports (
    id       INTEGER PRIMARY KEY,
    blog_id  INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    added    INTEGER NOT NULL,
    at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX subscriber_imports_blog ON subscriber_imports(blog_id, at);

-- The owner's list: newest first, searched by address.
CREATE INDEX subscribers_blog_newest ON subscribers(blog_id, id);
