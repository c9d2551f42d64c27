-- Issue 29 (docs/public-instance.md, "Admins and the review queue"): what the review queue
-- shows and the command line's requests to a running server.
--
-- A blog's risk score (0-100) and what it is made of, recomputed by every post write while the
-- blog is `new` or in its first 30 days (blogs/review.rs). `link_hosts` holds the outbound link
-- hosts its published posts use with their counts, most frequent first, as JSON
-- `[["shop.example", 12], ...]`; `approved_link_hosts` the same list as it stood when an admin
-- last approved the blog (the trigger below), the baseline of the rule that flags an approved
-- blog whose posts take up many new hosts in its first 30 days.
ALTER TABLE blogs ADD COLUMN risk_score INTEGER NOT NULL DEFAULT 0;
ALTER TABLE blogs ADD COLUMN risk_explanation TEXT NOT NULL DEFAULT '';
ALTER TABLE blogs ADD COLUMN link_hosts TEXT NOT NULL DEFAULT '[]';
ALTER TABLE blogs ADD COLUMN approved_link_hosts TEXT NOT NULL DEFAULT '[]';

-- Approving (the one statement that sets `state`, db::blogs::set_state) takes the hosts the
-- blog uses now as the baseline.
CREATE TRIGGER blogs_approved_link_hosts AFTER UPDATE OF state ON blogs
WHEN NEW.state = 'approved'
BEGIN
    UPDATE blogs SET approved_link_hosts = NEW.link_hosts WHERE id = NEW.id;
END;

-- `quire blogs approve|silence|suspend|unsuspend|delete` while `quire serve` runs: the command
-- writes a row and waits; the server performs it through the one write path and records the
-- outcome (`ok` 1 or 0, `outcome` the line the command prints).
CREATE TABLE admin_requests (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    action     TEXT NOT NULL,
    subdomain  TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    requested  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    done       TEXT,
    ok         INTEGER,
    outcome    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX admin_requests_waiting ON admin_requests(id) WHERE done IS NULL;
