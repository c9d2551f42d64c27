-- Issue 28 (docs/custom-domains.md, docs/tls.md).
--
-- A custom domain's name is unique among verified names only: several blogs may claim a name
-- while none has proved it, the first to prove its TXT record takes it and the other claims are
-- dropped (blogs/domains.rs), and an unverified claim expires (`--custom-domain-claim-days`,
-- counted from `waiting_since`). SQLite cannot drop a UNIQUE constraint, so the table is rebuilt.
CREATE TABLE custom_domains_new (
    blog_id        INTEGER NOT NULL UNIQUE REFERENCES blogs(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
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
INSERT INTO custom_domains_new
    SELECT blog_id, name, token, state, error, checked_at, next_check_at, verified_at, waiting_since, missing_since,
           created_at
    FROM custom_domains;
DROP TABLE custom_domains;
ALTER TABLE custom_domains_new RENAME TO custom_domains;
CREATE INDEX custom_domains_next_check ON custom_domains(next_check_at) WHERE next_check_at IS NOT NULL;
CREATE UNIQUE INDEX custom_domains_verified_name ON custom_domains(name) WHERE state = 'verified';
CREATE INDEX custom_domains_name ON custom_domains(name);
CREATE INDEX custom_domains_claims ON custom_domains(waiting_since) WHERE state <> 'verified';

-- Each new name a blog sets (docs/custom-domains.md): at most `--custom-domain-changes-per-day`
-- in 24 hours, since each verified name costs a certificate. Rows older than a day are deleted
-- as new ones come.
CREATE TABLE custom_domain_changes (
    blog_id     INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    changed_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX custom_domain_changes_blog ON custom_domain_changes(blog_id, changed_at);

-- The pause of new certificate orders per registered domain (public suffix list: every name
-- under example.co.uk shares one), after failed orders or a CA's 429 naming the domain
-- (tls/new_orders.rs, docs/tls.md). Kept when a name is no longer served, so removing and
-- adding a name again does not clear it. `retry_at` is unix seconds.
CREATE TABLE acme_backoffs (
    registered_domain  TEXT PRIMARY KEY,
    failures           INTEGER NOT NULL,
    retry_at           INTEGER NOT NULL,
    error              TEXT NOT NULL
);
-- New certificate orders (not renewals), for `--acme-new-certificates-per-day`; rows older than
-- a day are deleted as new ones come. `started_at` is unix seconds.
CREATE TABLE acme_new_orders (
    name        TEXT NOT NULL,
    started_at  INTEGER NOT NULL
);
