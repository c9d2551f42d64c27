-- Background jobs of a blog: exports now, imports later (blogs/jobs.rs runs them). A job is
-- queued, then running, then done or failed; `attempt` counts its runs, so the updates of a run
-- that a restart abandoned change nothing. A finished job's file (under exports/) and its row
-- are removed once `expires_at` has passed.
CREATE TABLE jobs (
    id              INTEGER PRIMARY KEY,
    blog_id         INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,                    -- 'export' (later 'import')
    format          TEXT NOT NULL,                    -- export: 'archive', 'markdown', 'site'
    state           TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempt         INTEGER NOT NULL DEFAULT 0,
    progress_done   INTEGER NOT NULL DEFAULT 0,
    progress_total  INTEGER NOT NULL DEFAULT 0,
    input_file      TEXT,                             -- an import's uploaded file, under exports/
    result_file     TEXT,                             -- an export's file, under exports/
    result_size     INTEGER,
    error           TEXT,                             -- why it failed, for the owner
    report          TEXT,                             -- an import's report (JSON)
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    started_at      TEXT,
    finished_at     TEXT,
    expires_at      TEXT
);
CREATE INDEX jobs_blog ON jobs(blog_id, id);
CREATE INDEX jobs_state ON jobs(state);
