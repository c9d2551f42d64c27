-- The delivery queue's row ids are never reused (issue 28, finding 0). Migration 13 made them
-- `INTEGER PRIMARY KEY`, which SQLite reuses once the highest row is deleted: a Delete queued
-- while the cancelled Update of the same post was in flight took the Update's ids, so the worker
-- skipped it as in flight and the Update's outcome then settled the Delete's row. With
-- AUTOINCREMENT a row id names one delivery for ever. Both tables are rebuilt, their rows kept;
-- the rows go through temporary tables because dropping `outgoing_activities` would cascade
-- to the deliveries (foreign keys are on while migrations run).
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
CREATE TABLE deliveries (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    activity_id  INTEGER NOT NULL REFERENCES outgoing_activities(id) ON DELETE CASCADE,
    inbox        TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    state        TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'given_up')),
    last_error   TEXT,
    UNIQUE (activity_id, inbox)
);
CREATE INDEX deliveries_due ON deliveries(next_at) WHERE state = 'queued';

INSERT INTO outgoing_activities (id, blog_id, object_id, json, created_at)
    SELECT id, blog_id, object_id, json, created_at FROM old_activities;
INSERT INTO deliveries (id, activity_id, inbox, attempts, next_at, state, last_error)
    SELECT id, activity_id, inbox, attempts, next_at, state, last_error FROM old_deliveries;
DROP TABLE old_activities;
DROP TABLE old_deliveries;
