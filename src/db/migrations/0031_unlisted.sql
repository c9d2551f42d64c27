-- Issue 32 (docs/unlisted.md): a post's visibility beside draft and published. An unlisted post
-- is reachable by its permalink (noindex) and left out of every public list, feed, search, the
-- ActivityPub outbox and deliveries, and email sends. Pages are always public.
ALTER TABLE posts ADD COLUMN unlisted INTEGER NOT NULL DEFAULT 0 CHECK (unlisted IN (0, 1));
