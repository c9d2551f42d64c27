-- Federation (issue 16, docs/architecture.md). A blog's key pair (db/federation_keys.rs,
-- fetch/signed.rs): one RSA key per blog, made on first use and kept here so that it is in
-- backups and a restore keeps the blog's identity. `private_pkcs8` is the PKCS#8 DER private
-- key, `public_pem` its SPKI PEM (the actor's publicKeyPem). `retired_at` is set when the blog
-- is gone but its key must still sign the actor's Delete; a retired key is never handed out
-- for a live blog. No foreign key, so that a retired key can outlive its blog row; until the
-- account deletion federates, deleting an account deletes its key (db/blogs.rs).
CREATE TABLE blog_keys (
    blog_id        INTEGER PRIMARY KEY,
    private_pkcs8  BLOB NOT NULL,
    public_pem     TEXT NOT NULL,
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    retired_at     TEXT
);
