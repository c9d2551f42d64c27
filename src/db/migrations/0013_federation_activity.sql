-- Federation's state (issue 16, docs/federation.md). Times are stored like every other time
-- (UTC, ms, Z), so they compare as text.

-- The owner's "Approve followers" switch: a Follow waits in `followers` as pending.
ALTER TABLE blogs ADD COLUMN approve_followers INTEGER NOT NULL DEFAULT 0;

-- Who follows a blog. `actor_id` is the remote actor's id (a URL), `inbox` its personal inbox,
-- `shared_inbox` its server's (deliveries go there when it has one), `handle` `@bob@example.social`
-- for the owner's list. `follow_id`/`follow_json`: the Follow as received, which the Accept
-- repeats (a pending follower is accepted later). A blog's followers go with the blog.
CREATE TABLE followers (
    id            INTEGER PRIMARY KEY,
    blog_id       INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    actor_id      TEXT NOT NULL,
    inbox         TEXT NOT NULL,
    shared_inbox  TEXT,
    handle        TEXT NOT NULL,
    follow_id     TEXT NOT NULL,
    follow_json   TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('accepted', 'pending')),
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (blog_id, actor_id)
);

-- Remote actors whose keys verified a request: the key cache that survives restarts (refetched
-- after a day, or once after a failed verification). `handle` is `@name@host`, `name` the display
-- name, `url` the profile page.
CREATE TABLE remote_actors (
    actor_id      TEXT PRIMARY KEY,
    key_id        TEXT NOT NULL,
    public_pem    TEXT NOT NULL,
    inbox         TEXT NOT NULL,
    shared_inbox  TEXT,
    handle        TEXT NOT NULL,
    name          TEXT NOT NULL DEFAULT '',
    url           TEXT,
    fetched_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;
CREATE INDEX remote_actors_key ON remote_actors(key_id);

-- The delivery queue. An activity is stored once (`json`, signed at each attempt) with one
-- `deliveries` row per inbox. Both are written in the same transaction as the change they
-- announce (blogs/, the one write path). `object_id` is what the activity is about (a post's or
-- the actor's id), so a Delete can cancel the queued Create/Update of the same object.
-- `blog_id` has no foreign key: the Delete of a deleted account's actor outlives the blog row.
-- A delivery row is deleted when it succeeds; `given_up` rows stay, with `last_error`, for the
-- owner's Fediverse settings, and an activity goes when its last row does.
CREATE TABLE outgoing_activities (
    id          INTEGER PRIMARY KEY,
    blog_id     INTEGER NOT NULL,
    object_id   TEXT NOT NULL,
    json        TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX outgoing_activities_object ON outgoing_activities(blog_id, object_id);
CREATE TABLE deliveries (
    id           INTEGER PRIMARY KEY,
    activity_id  INTEGER NOT NULL REFERENCES outgoing_activities(id) ON DELETE CASCADE,
    inbox        TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    state        TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'given_up')),
    last_error   TEXT,
    UNIQUE (activity_id, inbox)
);
CREATE INDEX deliveries_due ON deliveries(next_at) WHERE state = 'queued';

-- Likes and boosts of a blog's posts. `activity_id` is the Like's or Announce's id (an Undo names
-- it). One of each kind per actor and post.
CREATE TABLE reactions (
    activity_id  TEXT PRIMARY KEY,
    post_id      INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    actor_id     TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('like', 'announce')),
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (post_id, actor_id, kind)
) WITHOUT ROWID;
CREATE INDEX reactions_post ON reactions(post_id, kind);

-- Replies from the fediverse (a Create of a Note whose inReplyTo is one of our posts), held until
-- the owner approves them. `text` is plain text made from the Note's HTML (no remote HTML is ever
-- stored or shown); `author_*` are from the verified actor; `url` is the Note's own page.
CREATE TABLE replies (
    id             INTEGER PRIMARY KEY,
    note_id        TEXT NOT NULL UNIQUE,
    post_id        INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    actor_id       TEXT NOT NULL,
    author_name    TEXT NOT NULL,
    author_handle  TEXT NOT NULL,
    author_url     TEXT NOT NULL,
    url            TEXT,
    text           TEXT NOT NULL,
    published_at   TEXT NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('held', 'approved')),
    received_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX replies_post ON replies(post_id, state, published_at);

-- Domains whose requests are dropped before any work: `blog_id` NULL for the whole instance
-- (`quire federation block`), else one blog's (Settings → Fediverse). A domain blocks its
-- subdomains too. `domain` is lowercase, in its A-label form.
CREATE TABLE blocked_domains (
    blog_id     INTEGER REFERENCES blogs(id) ON DELETE CASCADE,
    domain      TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX blocked_domains_unique ON blocked_domains(coalesce(blog_id, 0), domain);
