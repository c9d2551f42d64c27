#!/usr/bin/env python3
"""Seeds a Quire data directory for benchmarks, straight into SQLite.

Writes BLOGS users, each with a blog `blog{i}` and POSTS_PER_BLOG posts of generated text
(about 1.5 KB each, 90% published), plus one featured post of about 9.5 KB of text in blog
`bench` for page benchmarks, and a session per user whose cookie token is `bench-session-{i}`.
Run `quire migrate --data-dir DIR` first; the search index is built afterwards by
`quire reindex` (or by `quire serve` at start).

Usage: seed.py DATA_DIR [BLOGS] [POSTS_PER_BLOG]
"""

import hashlib
import json
import random
import sqlite3
import sys

SYLLABLES = ["ka", "lo", "mi", "ra", "te", "su", "vin", "dor", "el", "an", "qui", "re", "po", "lis", "mar",
             "to", "ne", "sa", "bel", "cor", "di", "fa", "gu", "ho", "ja", "ken", "lu", "mo", "nu", "or"]


def vocabulary(rng, size=6000):
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def sentence(rng, words, weights):
    picked = rng.choices(words, weights=weights, k=rng.randint(8, 18))
    return " ".join(picked).capitalize() + "."


def paragraph(rng, words, weights, sentences):
    return " ".join(sentence(rng, words, weights) for _ in range(sentences))


def block(kind, **value):
    return {"type": kind, "value": value}


def short_id(rng):
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(8))


def main():
    data_dir = sys.argv[1]
    blogs = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    per_blog = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    rng = random.Random(42)
    words = vocabulary(rng)
    weights = [1.0 / (rank + 1) for rank in range(len(words))]  # Zipf-like, as in real text

    db = sqlite3.connect(f"{data_dir}/quire.db")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    if db.execute("SELECT count(*) FROM posts").fetchone()[0]:
        sys.exit(f"{data_dir} already has posts; seed an empty data directory")
    used_ids = set()
    with db:
        for i in range(1, blogs + 1):
            subdomain = "bench" if i == 1 else f"blog{i}"
            db.execute("INSERT INTO users (id, email, name) VALUES (?, ?, ?)", (i, f"user{i}@bench.example", f"User {i}"))
            db.execute("INSERT INTO blogs (id, user_id, subdomain, name, theme_id, favicon_id) VALUES (?, ?, ?, ?, 1, 1)",
                       (i, i, subdomain, f"Blog number {i}"))
            token = f"bench-session-{i}"
            db.execute("INSERT INTO sessions (user_id, token_hash, expires_at) VALUES (?, ?, '2999-01-01T00:00:00.000Z')",
                       (i, hashlib.sha256(token.encode()).digest()))
            rows = []
            for n in range(per_blog):
                title = " ".join(rng.choices(words, weights=weights, k=rng.randint(3, 7))).capitalize()
                children = [block("heading", text=title)]
                for _ in range(rng.randint(2, 4)):
                    children.append(block("paragraph", text=paragraph(rng, words, weights, rng.randint(2, 5))))
                if n % 7 == 0:
                    children.append(block("link", url="https://example.com/" + rng.choice(words), title=rng.choice(words)))
                body = json.dumps({"type": "root", "children": children}, separators=(",", ":"))
                sid = short_id(rng)
                while sid in used_ids:
                    sid = short_id(rng)
                used_ids.add(sid)
                slug = "-".join(title.lower().split())[:60].rstrip("-")
                published = None if n % 10 == 9 else f"2026-{1 + n % 11:02d}-{1 + n % 27:02d}T10:00:{n % 60:02d}.000Z"
                created = f"2026-{1 + n % 11:02d}-{1 + n % 27:02d}T09:00:{n % 60:02d}.{n % 1000:03d}Z"
                rows.append((i, sid, slug, title, body, published, created, created))
            db.executemany("INSERT INTO posts (blog_id, short_id, slug, title, body, published_at, created_at, updated_at)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        featured = [block("heading", text="A featured post for benchmarks")]
        while sum(len(c["value"]["text"]) for c in featured) < 9500:
            featured.append(block("paragraph", text=paragraph(rng, words, weights, 5)))
        body = json.dumps({"type": "root", "children": featured}, separators=(",", ":"))
        db.execute("INSERT INTO posts (blog_id, short_id, slug, title, body, published_at) VALUES (1, 'featured', "
                   "'a-featured-post-for-benchmarks', 'A featured post for benchmarks', ?, '2026-11-01T12:00:00.000Z')", (body,))
        db.execute("UPDATE search_state SET posts_seq = posts_seq + 1")
    total = db.execute("SELECT count(*) FROM posts").fetchone()[0]
    print(f"seeded {blogs} blogs and {total} posts in {data_dir}/quire.db")
    with open(f"{data_dir}/bench-words.txt", "w") as out:
        out.write("\n".join(words[:2000]))


if __name__ == "__main__":
    main()
