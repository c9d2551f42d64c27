-- A blog's custom domain (blogs/domains.rs, docs/custom-domains.md): at most one per blog, and a
-- name belongs to one blog only. `name` is the A-label form; `token` the 32 hex digits the TXT
-- record `_quire.{name}` must carry as `quire-verify={token}`. `state` is waiting_for_dns,
-- verified or error; `error` why the last check failed (or a hint while waiting).
-- `waiting_since` starts the recheck schedule (every minute for an hour, every 10 minutes for a
-- day, hourly, giving up after 7 days); `missing_since` is when a verified name's record was
-- first found missing (7 days missing unverifies it). `next_check_at` is NULL when no
-- automatic check is due. Times are stored like every other time (UTC, ms, Z).
CREATE TABLE custom_domains (
    blog_id        INTEGER NOT NULL UNIQUE REFERENCES blogs(id) ON DELETE CASCADE,
    name           TEXT NOT NULL UNIQUE,
    token          TEXT NOT NULL,
    state          TEXT NOT NULL DEFAULT 'waiting_for_dns' CHECK (state IN ('waiting_for_dns', 'verified', 'error')),
    error          TEXT,
    checked_at     TEXT,
    next_check_at  TEXT,
    verified_at    TEXT,
    waiting_since  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    missing_since  TEXT,
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX custom_domains_next_check ON custom_domains(next_check_at) WHERE next_check_at IS NOT NULL;
