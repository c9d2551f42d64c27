-- Issue 29 (docs/public-instance.md, "Abuse reports"): what readers report from a blog's
-- "Report" link, for the Admin screen's queue. `client_key` is the sender's address (IPv4, or
-- IPv6 /64), kept one day for the per-address limit and then erased. `blog_id` is cleared when
-- the blog is deleted; `subdomain` keeps naming it.
CREATE TABLE reports (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    blog_id        INTEGER REFERENCES blogs(id) ON DELETE SET NULL,
    subdomain      TEXT NOT NULL,
    post_url       TEXT NOT NULL DEFAULT '',
    reason         TEXT NOT NULL CHECK (reason IN ('spam', 'phishing', 'illegal', 'harassment', 'other')),
    details        TEXT NOT NULL DEFAULT '',
    contact_email  TEXT NOT NULL DEFAULT '',
    client_key     TEXT NOT NULL DEFAULT '',
    state          TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved', 'dismissed')),
    handled_by     TEXT,
    handled_at     TEXT,
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX reports_state ON reports(state, id);
CREATE INDEX reports_client ON reports(client_key, created_at) WHERE client_key <> '';
CREATE INDEX reports_blog ON reports(blog_id);
