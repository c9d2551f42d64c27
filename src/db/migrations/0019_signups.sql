-- Issue 29 (docs/public-instance.md, "Who may sign up"): invite codes and the log the
-- limits on blog creation count.
--
-- An invite code is 128 random bits shown once (`quire invites create`); only its SHA-256 is
-- kept, with its first characters (`prefix`) so a list can tell codes apart. It may be used
-- `max_uses` times, until `expires_at` (none: no end), unless revoked.
CREATE TABLE invites (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    code_hash   BLOB NOT NULL UNIQUE,
    prefix      TEXT NOT NULL,
    max_uses    INTEGER NOT NULL CHECK (max_uses >= 1),
    expires_at  TEXT,
    note        TEXT NOT NULL DEFAULT '',
    revoked_at  TEXT,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Each use of an invite, with the blog it created (kept, with its subdomain, when the blog is
-- deleted: a use is spent for good).
CREATE TABLE invite_uses (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    invite_id  INTEGER NOT NULL REFERENCES invites(id),
    blog_id    INTEGER NOT NULL,
    subdomain  TEXT NOT NULL,
    at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX invite_uses_invite ON invite_uses(invite_id);

-- The blog creations (`created` 1) and refused invite codes (0) of the last day, by client
-- address (an IPv4 address or an IPv6 /64; NULL when unknown): `--max-new-blogs-per-day`
-- counts the creations, `--max-new-blogs-per-address` both. Rows older than a day are pruned.
CREATE TABLE signup_log (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    address  TEXT,
    created  INTEGER NOT NULL CHECK (created IN (0, 1)),
    at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX signup_log_at ON signup_log(at);
CREATE INDEX signup_log_address ON signup_log(address, at);
