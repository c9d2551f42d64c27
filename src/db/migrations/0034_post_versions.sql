-- Issue 32 (docs/edit-conflicts.md): a post's version, 1 when created and raised by one by every
-- change of what its editor shows (an update, a scheduled publication). An update that names the
-- version it was based on is refused (409) when the post has moved on, so no edit is lost.
ALTER TABLE posts ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);
