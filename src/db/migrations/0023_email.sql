-- Issue 30 (docs/email.md): readers subscribe to a blog by email, and Quire sends them each
-- new post through the operator's SMTP relay, from a durable queue.

-- The owner's choices: whether the blog sends its posts by email at all, whether replies go to
-- the owner (`Reply-To`), and whether the owner gets the hourly digest of what waits for them.
-- `mail_paused_at` is set when a send's bounces passed 5%: the blog sends nothing until the
-- owner resumes it.
ALTER TABLE blogs ADD COLUMN email_enabled INTEGER NOT NULL DEFAULT 1;
ALTER TABLE blogs ADD COLUMN email_reply_to_owner INTEGER NOT NULL DEFAULT 0;
ALTER TABLE blogs ADD COLUMN notify_owner INTEGER NOT NULL DEFAULT 1;
ALTER TABLE blogs ADD COLUMN mail_paused_at TEXT;

-- One row per blog and address (stored normalized: trimmed, the domain lowercased).
-- `pending` until the reader confirms (its `confirm_hash`, the SHA-256 of the emailed token,
-- expires 7 days after `created_at`); `confirmed`; `bounced` once the relay refused the address
-- for good (no more mail to it). Unsubscribing deletes the row. `unsubscribe_token` is the
-- capability in each message's unsubscribe link (128 random bits, hex); it unsubscribes this
-- row and nothing else.
CREATE TABLE subscribers (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    blog_id            INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    email              TEXT NOT NULL,
    state              TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'confirmed', 'bounced')),
    confirm_hash       BLOB UNIQUE,
    unsubscribe_token  TEXT NOT NULL UNIQUE,
    source             TEXT NOT NULL DEFAULT 'form' CHECK (source IN ('form', 'import')),
    created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    confirmed_at       TEXT,
    last_sent_at       TEXT,
    UNIQUE (blog_id, email)
);
CREATE INDEX subscribers_state ON subscribers(blog_id, state, id);
CREATE INDEX subscribers_pending ON subscribers(created_at) WHERE state = 'pending';

-- What the subscribe form was asked, for its limits (per client address, per blog, per email
-- address: one confirmation mail a day; the instance's hourly cap). `email_hash` is the SHA-256
-- of the normalized address, so the log keeps no address; rows older than a day are pruned.
CREATE TABLE subscribe_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    blog_id     INTEGER NOT NULL,
    client_key  TEXT NOT NULL,
    email_hash  BLOB NOT NULL,
    mailed      INTEGER NOT NULL DEFAULT 0,
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX subscribe_log_client ON subscribe_log(client_key, at);
CREATE INDEX subscribe_log_email ON subscribe_log(email_hash, at);
CREATE INDEX subscribe_log_blog ON subscribe_log(blog_id, at);
CREATE INDEX subscribe_log_at ON subscribe_log(at);

-- A published post waits here for its grace period (`--mail-grace`); when `due_at` comes, the
-- post as it is then (if it is still published) is rendered once and queued for every confirmed
-- subscriber, and the row is deleted.
CREATE TABLE post_mailings (
    post_id  INTEGER PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
    blog_id  INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    due_at   TEXT NOT NULL
);
CREATE INDEX post_mailings_due ON post_mailings(due_at);

-- One rendered message, shared by all its recipients: a post's email, a confirmation, the
-- owner's digest, a notice. `blog_id` is null for the instance's own mail. The counts are kept
-- as the queue's rows go (a sent or failed row is deleted; `bounced_count` counts the failures
-- that were a 5xx for the address); waiting is the rows left.
CREATE TABLE mail_contents (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    blog_id       INTEGER REFERENCES blogs(id) ON DELETE CASCADE,
    post_id       INTEGER REFERENCES posts(id) ON DELETE SET NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('confirm', 'post', 'digest', 'notice')),
    subject       TEXT NOT NULL,
    text_body     TEXT NOT NULL,
    html_body     TEXT NOT NULL DEFAULT '',
    from_name     TEXT NOT NULL DEFAULT '',
    reply_to      TEXT NOT NULL DEFAULT '',
    sent_count    INTEGER NOT NULL DEFAULT 0,
    failed_count  INTEGER NOT NULL DEFAULT 0,
    bounced_count INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX mail_contents_post ON mail_contents(post_id) WHERE post_id IS NOT NULL;
CREATE INDEX mail_contents_blog ON mail_contents(blog_id, id);

-- One message to one address. `queued` until due (`next_at`); `sending` while the relay has it
-- (a row still `sending` at start was in flight at a crash, and is sent again: at most one
-- duplicate per message in flight); deleted once sent or given up, counted on its content.
-- `unsubscribe_url` is the recipient's own link ('' for mail that is not a list's).
CREATE TABLE mail_queue (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    content_id       INTEGER NOT NULL REFERENCES mail_contents(id) ON DELETE CASCADE,
    blog_id          INTEGER REFERENCES blogs(id) ON DELETE CASCADE,
    subscriber_id    INTEGER REFERENCES subscribers(id) ON DELETE CASCADE,
    to_addr          TEXT NOT NULL,
    unsubscribe_url  TEXT NOT NULL DEFAULT '',
    state            TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_error       TEXT
);
CREATE INDEX mail_queue_due ON mail_queue(state, next_at);
CREATE INDEX mail_queue_content ON mail_queue(content_id);
CREATE INDEX mail_queue_blog ON mail_queue(blog_id);

-- Messages a blog sent each UTC day, for its daily cap; rows older than two days are pruned.
CREATE TABLE mail_sent_daily (
    blog_id  INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    day      TEXT NOT NULL,
    sent     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (blog_id, day)
) WITHOUT ROWID;
