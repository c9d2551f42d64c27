-- Issue 31 (docs/responses.md, "Sending webmentions"): the pages a public post links to, each to
-- be told by a webmention (when the page names an endpoint). `linked` is whether the post
-- still links to it: a target it stopped linking to (or every target of a post no longer
-- public) is told once more, so it can remove the mention, then forgotten. `state` is `queued`
-- until sent (or given up), then `sent`; `next_at` and `attempts` retry a target that could
-- not be reached.
CREATE TABLE outgoing_webmentions (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    post_id   INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    target    TEXT NOT NULL,
    linked    INTEGER NOT NULL DEFAULT 1,
    state     TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent')),
    attempts  INTEGER NOT NULL DEFAULT 0,
    next_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (post_id, target)
);
CREATE INDEX outgoing_webmentions_due ON outgoing_webmentions(state, next_at);
