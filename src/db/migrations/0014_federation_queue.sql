-- The delivery queue, hardened (issue 28). Times are stored like every other time.
--
-- Row ids are never reused (finding 0). Migration 13 made them `INTEGER PRIMARY KEY`, which
-- SQLite reuses once the highest row is deleted: a Delete queued while the cancelled Update of
-- the same post was in flight took the Update's ids, so the worker skipped it as in flight and
-- the Update's outcome then settled the Delete's row. With AUTOINCREMENT a row id names one
-- delivery for ever. Both tables are rebuilt, their queued rows kept; the rows go through
-- temporary tables because dropping `outgoing_activities` would cascade to the deliveries
-- (foreign keys are on while migrations run). The seed (`db::deliveries::migrate_queue`) then
-- fills `deliveries.host`, folds the given-up rows into `given_up_hosts` and drops the
-- temporary tables.
CREATE TEMP TABLE old_activities AS SELECT * FROM outgoing_activities;
CREATE TEMP TABLE old_deliveries AS SELECT * FROM deliveries;
DROP TABLE deliveries;
DROP TABLE outgoing_activities;

CREATE TABLE outgoing_activities (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    blog_id     INTEGER NOT NULL,
    object_id   TEXT NOT NULL,
    json        TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX outgoing_activities_object ON outgoing_activities(blog_id, object_id);

-- Every row is queued: a delivery that succeeds or is given up is deleted (finding 1: an inbox
-- that answers 404 no longer keeps its row, and its activity, for 30 days). `host` is the
-- inbox's `host[:port]`, the circuit breaker's key (`delay_host` reads it through its index
-- instead of scanning the queue while holding the writer).
CREATE TABLE deliveries (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    activity_id  INTEGER NOT NULL REFERENCES outgoing_activities(id) ON DELETE CASCADE,
    inbox        TEXT NOT NULL,
    host         TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_error   TEXT,
    UNIQUE (activity_id, inbox)
);
CREATE INDEX deliveries_due ON deliveries(next_at);
CREATE INDEX deliveries_host ON deliveries(host, next_at);

-- What the owner sees of given-up deliveries (Settings → Fediverse): one row per blog and inbox
-- host, with how many were given up and the last error, forgotten 30 days after the last.
CREATE TABLE given_up_hosts (
    blog_id      INTEGER NOT NULL,
    host         TEXT NOT NULL,
    deliveries   INTEGER NOT NULL,
    last_error   TEXT NOT NULL,
    given_up_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (blog_id, host)
) WITHOUT ROWID;
CREATE INDEX given_up_hosts_at ON given_up_hosts(given_up_at);

INSERT INTO outgoing_activities (id, blog_id, object_id, json, created_at)
    SELECT id, blog_id, object_id, json, created_at FROM old_activities
    WHERE id IN (SELECT activity_id FROM old_deliveries WHERE state = 'queued');
INSERT INTO deliveries (id, activity_id, inbox, host, attempts, next_at, last_error)
    SELECT id, activity_id, inbox, '', attempts, next_at, last_error FROM old_deliveries WHERE state = 'queued';

-- Of a Follow only its id (and the follower's actor, already a column) is kept (finding 1): the
-- body as received, up to 256 KiB, is dropped, and an Accept or Reject names the Follow by its
-- id, type, actor and object. `accept_queued_at`: when the last Accept of this follower was
-- queued, so a repeated Follow queues at most one Accept an hour.
ALTER TABLE followers DROP COLUMN follow_json;
ALTER TABLE followers ADD COLUMN accept_queued_at TEXT;
