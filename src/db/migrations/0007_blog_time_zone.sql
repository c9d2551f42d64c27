-- The time zone a blog's public pages show dates in: an IANA name, checked by the server.
-- Blogs made before it show UTC dates, as they did.
ALTER TABLE blogs ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
