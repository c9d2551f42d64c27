#!/usr/bin/env python3
"""Revision storage driver (issue 32, docs/revisions.md) for a running `quire serve` on loopback
(started by bench/revisions.sh).

Signs up through the local issuer, creates a blog and one realistic post (a heading and 19
paragraphs, about 1,500 words), then saves it SAVES times through the API, each save changing a
few words of one paragraph (as an author's small edits do). Prints `key value` lines: the saves,
their time, the revision rows kept, their bytes (title, slug, body and tags summed with length())
and the database file's size before and after (after a WAL checkpoint). Only Python's standard
library and sqlite3 are used.

Usage: revisions.py PORT HOST DATA_DIR SAVES
"""

import os
import random
import sqlite3
import sys
import time

import soak

WORDS = ("harbour lantern morning river window garden letter coffee autumn meadow bread oven "
         "starter crumb flour water salt mountain quiet dawn boats tide gull rope pier").split()


def paragraph(rng, words=78):
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def body(title, paragraphs):
    children = [{"type": "heading", "value": {"text": title}}]
    children += [{"type": "paragraph", "value": {"text": text}} for text in paragraphs]
    return {"type": "root", "children": children}


def db_bytes(data_dir):
    db = os.path.join(data_dir, "quire.db")
    with sqlite3.connect(db, timeout=10) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return os.path.getsize(db)


def main():
    port, host, data_dir, saves = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    owner, blog = soak.sign_up_with_blog(port, host, "bench@example.com", "bench")
    rng = random.Random(32)
    paragraphs = [paragraph(rng) for _ in range(19)]
    title = "A long post about the harbour"
    created = soak.expect(owner.json("POST", f"/api/my/blogs/{blog}/posts",
                                     {"body": body(title, paragraphs), "draft": False, "tags": ["harbour", "notes"]}),
                          201, "creating the post")["post"]
    words = sum(len(p.split()) for p in paragraphs) + len(title.split())
    print(f"post_words {words}")
    print(f"post_blocks {len(paragraphs) + 1}")
    print(f"post_body_bytes {len(str(body(title, paragraphs)).encode())}")
    before = db_bytes(data_dir)
    path = f"/api/my/blogs/{blog}/posts/{created['shortId']}"
    start = time.monotonic()
    for n in range(saves):
        # A small edit: three words of one paragraph changed.
        i = rng.randrange(len(paragraphs))
        text = paragraphs[i].split()
        for _ in range(3):
            text[rng.randrange(len(text))] = rng.choice(WORDS)
        paragraphs[i] = " ".join(text)
        soak.expect(owner.json("PUT", path, {"body": body(title, paragraphs), "draft": False,
                                             "tags": ["harbour", "notes"]}), 200, f"save {n + 1}")
    seconds = time.monotonic() - start
    after = db_bytes(data_dir)
    with sqlite3.connect(os.path.join(data_dir, "quire.db"), timeout=10) as conn:
        rows, kept = conn.execute(
            "SELECT count(*), coalesce(sum(length(title) + length(slug) + length(body) + length(tags)), 0) FROM post_revisions"
        ).fetchone()
        try:
            pages = conn.execute("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'post_revisions%'").fetchone()[0]
        except sqlite3.OperationalError:
            pages = -1  # this sqlite3 has no dbstat
    print(f"saves {saves}")
    print(f"save_seconds {seconds:.1f}")
    print(f"saves_per_second {saves / seconds:.0f}")
    print(f"revision_rows {rows}")
    print(f"revision_content_bytes {kept}")
    print(f"revision_table_and_index_bytes {pages}")
    print(f"db_bytes_before {before}")
    print(f"db_bytes_after {after}")


if __name__ == "__main__":
    main()
