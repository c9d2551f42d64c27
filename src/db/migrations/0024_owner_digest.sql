-- Issue 30 (docs/email.md, "The owner's digest"): when the owner's last digest went out, so that
-- at most one goes an hour and each tells only what came since.
ALTER TABLE blogs ADD COLUMN digest_sent_at TEXT;
