-- Issue 37 (docs/api.md "IndieAuth"): the codes the owner's approval of an app's sign-in gives,
-- until the app redeems them. Nothing is stored before the owner approves (the request travels
-- in the consent screen's address). Only a code's SHA-256 is kept; a code lives 10 minutes and
-- is redeemed once (`used_at`); the row stays a day, so that a code presented again is known
-- and the tokens it gave are revoked.
CREATE TABLE indieauth_codes (
    id              INTEGER PRIMARY KEY,
    code_hash       BLOB NOT NULL UNIQUE,
    blog_id         INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    client_id       TEXT NOT NULL,
    client_name     TEXT NOT NULL,
    redirect_uri    TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    scopes          TEXT NOT NULL,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    used_at         TEXT
);
CREATE INDEX indieauth_codes_created ON indieauth_codes(created_at);
-- The code a token was issued for: revoked with it if the code is presented again.
ALTER TABLE api_tokens ADD COLUMN code_id INTEGER REFERENCES indieauth_codes(id) ON DELETE SET NULL;
