-- The instance actor's key pair (issue 28, finding 8; docs/federation.md "The instance actor"):
-- it signs the key fetches no blog makes (the shared inbox's). One row at most, made on first
-- use, kept with the data so that backups carry it.
CREATE TABLE instance_key (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    private_pkcs8 BLOB NOT NULL,
    public_pem TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
