-- Limits on what other fediverse servers may make a blog store (issue 28, docs/federation.md
-- "Limits on remote servers"). `actor_host` is the sending actor's host, lowercase, without
-- port (what `blocked_domains` holds): the caps per remote host count by it, and blocking a
-- domain removes by it. Rows stored before this migration get it from their actor id here.
ALTER TABLE replies ADD COLUMN actor_host TEXT NOT NULL DEFAULT '';
ALTER TABLE reactions ADD COLUMN actor_host TEXT NOT NULL DEFAULT '';
ALTER TABLE followers ADD COLUMN actor_host TEXT NOT NULL DEFAULT '';
ALTER TABLE remote_actors ADD COLUMN actor_host TEXT NOT NULL DEFAULT '';

UPDATE replies SET actor_host = substr(actor_id, instr(actor_id, '://') + 3);
UPDATE reactions SET actor_host = substr(actor_id, instr(actor_id, '://') + 3);
UPDATE followers SET actor_host = substr(actor_id, instr(actor_id, '://') + 3);
UPDATE remote_actors SET actor_host = substr(actor_id, instr(actor_id, '://') + 3);
UPDATE replies SET actor_host = substr(actor_host, 1, instr(actor_host, '/') - 1) WHERE instr(actor_host, '/') > 0;
UPDATE reactions SET actor_host = substr(actor_host, 1, instr(actor_host, '/') - 1) WHERE instr(actor_host, '/') > 0;
UPDATE followers SET actor_host = substr(actor_host, 1, instr(actor_host, '/') - 1) WHERE instr(actor_host, '/') > 0;
UPDATE remote_actors SET actor_host = substr(actor_host, 1, instr(actor_host, '/') - 1)
    WHERE instr(actor_host, '/') > 0;
UPDATE replies SET actor_host = substr(actor_host, 1, instr(actor_host, ':') - 1)
    WHERE instr(actor_host, ':') > 0 AND actor_host NOT LIKE '[%';
UPDATE reactions SET actor_host = substr(actor_host, 1, instr(actor_host, ':') - 1)
    WHERE instr(actor_host, ':') > 0 AND actor_host NOT LIKE '[%';
UPDATE followers SET actor_host = substr(actor_host, 1, instr(actor_host, ':') - 1)
    WHERE instr(actor_host, ':') > 0 AND actor_host NOT LIKE '[%';
UPDATE remote_actors SET actor_host = substr(actor_host, 1, instr(actor_host, ':') - 1)
    WHERE instr(actor_host, ':') > 0 AND actor_host NOT LIKE '[%';
UPDATE replies SET actor_host = substr(actor_host, 2, instr(actor_host, ']') - 2)
    WHERE actor_host LIKE '[%' AND instr(actor_host, ']') > 0;
UPDATE reactions SET actor_host = substr(actor_host, 2, instr(actor_host, ']') - 2)
    WHERE actor_host LIKE '[%' AND instr(actor_host, ']') > 0;
UPDATE followers SET actor_host = substr(actor_host, 2, instr(actor_host, ']') - 2)
    WHERE actor_host LIKE '[%' AND instr(actor_host, ']') > 0;
UPDATE remote_actors SET actor_host = substr(actor_host, 2, instr(actor_host, ']') - 2)
    WHERE actor_host LIKE '[%' AND instr(actor_host, ']') > 0;
UPDATE replies SET actor_host = lower(rtrim(actor_host, '.'));
UPDATE reactions SET actor_host = lower(rtrim(actor_host, '.'));
UPDATE followers SET actor_host = lower(rtrim(actor_host, '.'));
UPDATE remote_actors SET actor_host = lower(rtrim(actor_host, '.'));

CREATE INDEX replies_host ON replies(actor_host, state);
CREATE INDEX replies_held_since ON replies(state, received_at);
CREATE INDEX reactions_host ON reactions(actor_host);
CREATE INDEX followers_host ON followers(blog_id, state, actor_host);
CREATE INDEX remote_actors_host ON remote_actors(actor_host, fetched_at);

-- What the caps refused, per blog and kind (`reply`, `pending_follower`, `follower`, `reaction`):
-- how many, and the
-- last host refused and when. The owner's Fediverse settings show it; the log names each one.
CREATE TABLE remote_refusals (
    blog_id    INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('reply', 'pending_follower', 'follower', 'reaction')),
    count      INTEGER NOT NULL DEFAULT 0,
    last_host  TEXT NOT NULL,
    last_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (blog_id, kind)
) WITHOUT ROWID;

-- An actor's rows by its id: a Delete of the actor, and whether a cached actor is still referred to.
CREATE INDEX replies_actor ON replies(actor_id);
CREATE INDEX reactions_actor ON reactions(actor_id);
CREATE INDEX followers_actor ON followers(actor_id);
