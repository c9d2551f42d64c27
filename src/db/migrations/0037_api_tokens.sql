-- Issue 37 (docs/api.md "API tokens"): tokens that let an app write to one blog (Micropub), made
-- in Settings or issued through IndieAuth (then `client_id` names the app). Only the SHA-256 of
-- a token is kept, with its last 4 characters to recognize it; revoking deletes the row.
CREATE TABLE api_tokens (
    id            INTEGER PRIMARY KEY,
    blog_id       INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    scopes        TEXT NOT NULL,
    token_hash    BLOB NOT NULL UNIQUE,
    last4         TEXT NOT NULL,
    client_id     TEXT,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at    TEXT,
    last_used_at  TEXT
);
CREATE INDEX api_tokens_blog ON api_tokens(blog_id, id);
