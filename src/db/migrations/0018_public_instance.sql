-- Issue 29 (docs/public-instance.md): what an operator needs to open signups.
--
-- A blog's trust state: `new` waits for an admin's review, `silenced` is served but hidden
-- from search engines and its federation dropped, `suspended` answers 410 everywhere. Existing
-- blogs are approved. `state_reason` is what the admin told the owner; `flagged_at` is set
-- when an approved blog goes back to the review queue (it stays served meanwhile);
-- `state_before_suspension` is what unsuspending restores.
ALTER TABLE blogs ADD COLUMN state TEXT NOT NULL DEFAULT 'approved'
    CHECK (state IN ('new', 'approved', 'silenced', 'suspended'));
ALTER TABLE blogs ADD COLUMN state_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE blogs ADD COLUMN state_changed_at TEXT;
ALTER TABLE blogs ADD COLUMN flagged_at TEXT;
ALTER TABLE blogs ADD COLUMN state_before_suspension TEXT;
CREATE INDEX blogs_state ON blogs(state, created_at);

-- Every admin action, from the Admin screen or the command line: who, when, what, why. Kept
-- when the blog is deleted (its subdomain is kept in the row).
CREATE TABLE admin_actions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    admin      TEXT NOT NULL,
    blog_id    INTEGER,
    subdomain  TEXT NOT NULL,
    action     TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX admin_actions_blog ON admin_actions(blog_id, id);
