-- Quire's whole schema (docs/architecture.md describes it). Times are UTC RFC 3339 text.
PRAGMA application_id = 1364543826; -- 0x51554952, "QUIR"

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    email       TEXT NOT NULL,
    name        TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- An account at an OpenID Connect provider; (issuer, subject) names one person there.
CREATE TABLE social_accounts (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider    TEXT NOT NULL,
    issuer      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    email       TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (issuer, subject)
);
CREATE INDEX social_accounts_user ON social_accounts(user_id);

-- Only the SHA-256 of the session cookie is stored.
CREATE TABLE sessions (
    id            INTEGER PRIMARY KEY,
    user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash    BLOB NOT NULL UNIQUE,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_seen_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at    TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Nonces handed to a browser for one sign-in popup (bound by an HttpOnly cookie); used once.
CREATE TABLE auth_nonces (
    nonce_hash  BLOB PRIMARY KEY,
    expires_at  TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE themes (
    id        INTEGER PRIMARY KEY,
    slug      TEXT NOT NULL UNIQUE,
    name      TEXT NOT NULL UNIQUE,
    position  INTEGER NOT NULL
);

-- The Unicode emoji set; ids follow Unicode's order, code is the twemoji file name.
CREATE TABLE favicons (
    id          INTEGER PRIMARY KEY,
    code        TEXT NOT NULL UNIQUE,
    emoji       TEXT NOT NULL,
    name        TEXT NOT NULL,
    emoji_group TEXT NOT NULL
);

CREATE TABLE blogs (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
    subdomain   TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    theme_id    INTEGER NOT NULL REFERENCES themes(id),
    favicon_id  INTEGER NOT NULL REFERENCES favicons(id),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A deleted blog's subdomain is never handed out again.
CREATE TABLE retired_subdomains (
    subdomain   TEXT PRIMARY KEY,
    retired_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;

-- body is the JSON root {"type":"root","children":[...]}; title and slug are derived from it.
CREATE TABLE posts (
    id            INTEGER PRIMARY KEY,
    blog_id       INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    short_id      TEXT NOT NULL UNIQUE,
    slug          TEXT NOT NULL,
    title         TEXT NOT NULL,
    body          TEXT NOT NULL,
    published_at  TEXT,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX posts_blog_created ON posts(blog_id, created_at DESC, id DESC);
CREATE INDEX posts_blog_published ON posts(blog_id, published_at DESC, id DESC) WHERE published_at IS NOT NULL;

-- Cookie-less daily view counts: no address, no identifier, only a number.
CREATE TABLE page_views (
    post_id  INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    day      TEXT NOT NULL,
    views    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (post_id, day)
) WITHOUT ROWID;

CREATE TABLE addons (
    id           INTEGER PRIMARY KEY,
    slug         TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    description  TEXT NOT NULL,
    position     INTEGER NOT NULL
);

CREATE TABLE installations (
    blog_id     INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    addon_id    INTEGER NOT NULL REFERENCES addons(id),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (blog_id, addon_id)
) WITHOUT ROWID;

-- Uploaded images; the file is uploads/<hash>.<ext>, shared by everyone who uploaded the same bytes.
CREATE TABLE images (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    hash        TEXT NOT NULL,
    mime        TEXT NOT NULL,
    size        INTEGER NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (user_id, hash)
);
CREATE INDEX images_hash ON images(hash);

INSERT INTO themes (id, slug, name, position) VALUES
    (1, 'default', 'Default', 1),
    (2, 'serif',   'Serif',   2),
    (3, 'mono',    'Mono',    3),
    (4, 'dark',    'Dark',    4);

INSERT INTO addons (id, slug, name, description, position) VALUES
    (1, 'reading-time', 'Reading time',
        'Shows an estimate of the minutes it takes to read each post.', 1),
    (2, 'table-of-contents', 'Table of contents',
        'Lists a post''s headings at its top, each linking to its section.', 2),
    (3, 'subscribe-links', 'Subscribe links',
        'Adds links to the blog''s Atom and RSS feeds in the footer of every page.', 3),
    (4, 'page-views', 'Page views',
        'Counts how often each post is read, without cookies or personal data, and shows the counts in your post list.', 4),
    (5, 'share-buttons', 'Share buttons',
        'Adds buttons under each post to share it on social networks or by e-mail.', 5),
    (6, 'rich-tweet-embeds', 'Rich tweet embeds',
        'Shows tweets as rich cards by loading the platform''s widget script; without it a tweet is a plain quote link.', 6),
    (7, 'search-box', 'Search box',
        'Adds a search box so readers can search the blog''s posts.', 7);
