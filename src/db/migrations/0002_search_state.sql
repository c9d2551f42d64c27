-- The post change counter. Every post write bumps it in its own transaction; the search
-- index records the value it was committed at, so a stale index is detected at start.
CREATE TABLE search_state (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    posts_seq  INTEGER NOT NULL
);
INSERT INTO search_state (id, posts_seq) VALUES (1, 0);
