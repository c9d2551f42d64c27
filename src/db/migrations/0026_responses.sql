-- Issue 31 (docs/responses.md): readers answer a post without a fediverse account, by a comment
-- on the blog's own page or by a webmention from their own blog; every response waits for the
-- owner in one queue (fediverse replies stay in `replies`, shown in the same queue).

-- The owner's choices: comments off (the default), held for approval, or held except from
-- commenters the owner approved before (`trusted`); words that send a comment to Spam (a JSON
-- list, lowercase).
ALTER TABLE blogs ADD COLUMN comments_mode TEXT NOT NULL DEFAULT 'off' CHECK (comments_mode IN ('off', 'held', 'trusted'));
ALTER TABLE blogs ADD COLUMN blocked_words TEXT NOT NULL DEFAULT '[]';
-- A post whose comments the owner closed.
ALTER TABLE posts ADD COLUMN comments_closed INTEGER NOT NULL DEFAULT 0;

-- A comment or a webmention. `held` until the owner approves it (or marks it spam); only
-- `approved` ones show under the post. A comment's `text` is its Markdown, shown through the one
-- renderer; a webmention's is the plain excerpt read from its source, whose page it links to.
-- `client_key` is the commenter's address (an IPv4 address or an IPv6 /64), for the limits and
-- the blog's blocked addresses; `commenter` the random id in the commenter's signed cookie on
-- the blog's host, which makes them trusted once the owner approves one of their comments;
-- `edit_hash` the SHA-256 of the secret link that edits or deletes the comment for 15 minutes.
CREATE TABLE responses (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    blog_id      INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    post_id      INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('comment', 'webmention')),
    state        TEXT NOT NULL CHECK (state IN ('held', 'approved', 'spam')),
    author_name  TEXT NOT NULL,
    author_url   TEXT NOT NULL DEFAULT '',
    source_url   TEXT,
    title        TEXT NOT NULL DEFAULT '',
    text         TEXT NOT NULL,
    text_hash    BLOB,
    client_key   TEXT NOT NULL DEFAULT '',
    commenter    TEXT NOT NULL DEFAULT '',
    edit_hash    BLOB UNIQUE,
    owner_reply  TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (post_id, source_url)
);
CREATE INDEX responses_queue ON responses(blog_id, state, id);
CREATE INDEX responses_post ON responses(post_id, state, id);
CREATE INDEX responses_client ON responses(client_key, created_at) WHERE kind = 'comment';
CREATE INDEX responses_duplicate ON responses(post_id, text_hash) WHERE kind = 'comment';

-- Commenters the owner approved before (`trusted` mode), by their cookie's id.
CREATE TABLE trusted_commenters (
    blog_id    INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    commenter  TEXT NOT NULL,
    PRIMARY KEY (blog_id, commenter)
) WITHOUT ROWID;

-- Addresses whose comments the owner blocked (an IPv4 address or an IPv6 /64): their comments
-- go to Spam.
CREATE TABLE blocked_commenters (
    blog_id     INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    client_key  TEXT NOT NULL,
    PRIMARY KEY (blog_id, client_key)
) WITHOUT ROWID;
