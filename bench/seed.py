#!/usr/bin/env python3
"""Seeds a Quire data directory for benchmarks, straight into SQLite.

Writes POSTS posts of generated text (about 1.5 KB each, 90% published) in blogs of
POSTS_PER_BLOG posts (default 100, so 1,000,000 posts make 10,000 blogs), one user per blog,
plus one featured post of about 9.5 KB of text in blog 1 (`bench`) for page benchmarks, and
a session per user whose cookie token is `bench-session-{i}`. Run `quire migrate --data-dir
DIR` first; the search index is built afterwards by `quire reindex` (or by `quire serve` at
start).

The text is Zipf-distributed words from a 6,000-word vocabulary, as before; to seed a million
posts in well under a minute, each post's paragraphs are drawn from a pool of 100,000 generated
paragraphs (titles are generated for every post), and each body's JSON is assembled from
pre-encoded blocks. Every scale uses the same generator with the same seed, so figures at
10k and at 1M posts compare like with like.

Usage: seed.py DATA_DIR [POSTS] [POSTS_PER_BLOG]
"""

import hashlib
import itertools
import json
import os
import random
import sqlite3
import sys
import time

SYLLABLES = ["ka", "lo", "mi", "ra", "te", "su", "vin", "dor", "el", "an", "qui", "re", "po", "lis", "mar",
             "to", "ne", "sa", "bel", "cor", "di", "fa", "gu", "ho", "ja", "ken", "lu", "mo", "nu", "or"]
PARAGRAPH_POOL = 100_000
BATCH = 20_000
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"


def vocabulary(rng, size=6000):
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def sentence(rng, words, weights):
    picked = rng.choices(words, cum_weights=weights, k=rng.randint(8, 18))
    return " ".join(picked).capitalize() + "."


def paragraph(rng, words, weights, sentences):
    return " ".join(sentence(rng, words, weights) for _ in range(sentences))


def block(kind, **value):
    return {"type": kind, "value": value}


def block_json(kind, **value):
    return json.dumps(block(kind, **value), separators=(",", ":"))


def short_id(n):
    """The n-th short id: 8 base-36 characters, distinct for every n below 36**8 (the
    multiplier is coprime with 36**8), scattered so neighbours do not look alike."""
    value = (n * 2654435761) % (36 ** 8)
    chars = []
    for _ in range(8):
        value, digit = divmod(value, 36)
        chars.append(ALPHABET[digit])
    return "".join(chars)


def post_rows(rng, words, weights, pool, blogs, per_blog):
    """The posts' rows, blog by blog, as (blog_id, short_id, slug, title, body, published, created, updated)."""
    n = 0
    for i in range(1, blogs + 1):
        for k in range(per_blog):
            n += 1
            title = " ".join(rng.choices(words, cum_weights=weights, k=rng.randint(3, 7))).capitalize()
            children = [block_json("heading", text=title)]
            children.extend(rng.choices(pool, k=rng.randint(2, 4)))
            if k % 7 == 0:
                children.append(block_json("link", url="https://example.com/" + rng.choice(words), title=rng.choice(words)))
            body = '{"type":"root","children":[' + ",".join(children) + "]}"
            slug = "-".join(title.lower().split())[:60].rstrip("-")
            published = None if k % 10 == 9 else f"2026-{1 + k % 11:02d}-{1 + k % 27:02d}T10:00:{k % 60:02d}.000Z"
            created = f"2026-{1 + k % 11:02d}-{1 + k % 27:02d}T09:00:{k % 60:02d}.{k % 1000:03d}Z"
            yield (i, short_id(n), slug, title, body, published, created, created)


def batches(rows, size):
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def main():
    data_dir = sys.argv[1]
    try:
        posts = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
        per_blog = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    except ValueError:
        sys.exit("usage: seed.py DATA_DIR [POSTS] [POSTS_PER_BLOG] (whole numbers)")
    if posts < 1 or per_blog < 1:
        sys.exit("POSTS and POSTS_PER_BLOG must be at least 1")
    per_blog = min(per_blog, posts)
    blogs = posts // per_blog
    started = time.monotonic()
    rng = random.Random(42)
    words = vocabulary(rng)
    # Zipf-like, as in real text; cumulative, so each draw does not sum 6,000 weights again.
    weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(words))))
    pool = [block_json("paragraph", text=paragraph(rng, words, weights, rng.randint(2, 5))) for _ in range(PARAGRAPH_POOL)]

    if not os.path.isfile(f"{data_dir}/quire.db"):
        sys.exit(f"{data_dir}/quire.db does not exist: run `quire migrate --data-dir {data_dir}` first")
    db = sqlite3.connect(f"{data_dir}/quire.db")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -262144")  # 256 MiB while seeding: the indexes stay in memory
    if db.execute("SELECT count(*) FROM posts").fetchone()[0]:
        sys.exit(f"{data_dir} already has posts; seed an empty data directory")
    with db:
        db.executemany("INSERT INTO users (id, email, name) VALUES (?, ?, ?)",
                       ((i, f"user{i}@bench.example", f"User {i}") for i in range(1, blogs + 1)))
        db.executemany("INSERT INTO blogs (id, user_id, subdomain, name, theme_id, favicon_id) VALUES (?, ?, ?, ?, 1, 1)",
                       ((i, i, "bench" if i == 1 else f"blog{i}", f"Blog number {i}") for i in range(1, blogs + 1)))
        db.executemany("INSERT INTO sessions (user_id, token_hash, expires_at) VALUES (?, ?, '2999-01-01T00:00:00.000Z')",
                       ((i, hashlib.sha256(f"bench-session-{i}".encode()).digest()) for i in range(1, blogs + 1)))
    for batch in batches(post_rows(rng, words, weights, pool, blogs, per_blog), BATCH):
        with db:
            db.executemany("INSERT INTO posts (blog_id, short_id, slug, title, body, published_at, created_at, updated_at)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", batch)
    with db:
        featured = [block("heading", text="A featured post for benchmarks")]
        while sum(len(c["value"]["text"]) for c in featured) < 9500:
            featured.append(block("paragraph", text=paragraph(rng, words, weights, 5)))
        body = json.dumps({"type": "root", "children": featured}, separators=(",", ":"))
        db.execute("INSERT INTO posts (blog_id, short_id, slug, title, body, published_at) VALUES (1, 'featured', "
                   "'a-featured-post-for-benchmarks', 'A featured post for benchmarks', ?, '2026-11-01T12:00:00.000Z')", (body,))
        db.execute("UPDATE search_state SET posts_seq = posts_seq + 1")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    total = db.execute("SELECT count(*) FROM posts").fetchone()[0]
    db.close()
    print(f"seeded {blogs} blogs and {total} posts in {data_dir}/quire.db in {time.monotonic() - started:.1f} s")
    with open(f"{data_dir}/bench-words.txt", "w") as out:
        out.write("\n".join(words[:2000]))


if __name__ == "__main__":
    main()
