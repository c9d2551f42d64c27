#!/usr/bin/env python3
"""Helpers of bench/crawl.sh: the crawler's view of an instance.

  crawl.py tags DATA_DIR          gives every published post of a seeded data directory one to
                                  three tags from a set of 12 (so blogs have tag pages and feeds)
  crawl.py urls DATA_DIR COUNT HOST_SUFFIX OUT
                                  writes COUNT requests, one "host<TAB>path" line each, picked at
                                  random across every blog: 70% post pages, 10% home pages, 10% tag
                                  pages, 5% blog feeds, 5% tag feeds (the mix a crawler walking
                                  sitemaps and feeds makes)
  crawl.py mirror URLS PORT WWW   fetches each distinct request from Quire on 127.0.0.1:PORT and
                                  writes its body to WWW/<host without port><path>/__page, the tree
                                  nginx serves the same bytes from; every answer must be a 200
"""

import concurrent.futures
import http.client
import os
import random
import sqlite3
import sys

TAGS = ["notes", "travel", "cooking", "books", "music", "garden", "code", "photos", "walks", "letters", "film", "daily"]


def tags(data_dir):
    db = sqlite3.connect(f"{data_dir}/quire.db")
    db.execute("PRAGMA synchronous = OFF")
    rng = random.Random(7)
    rows = db.execute("SELECT id, blog_id FROM posts WHERE published_at IS NOT NULL ORDER BY id").fetchall()
    with db:
        db.executemany(
            "INSERT OR IGNORE INTO post_tags (post_id, blog_id, tag, position) VALUES (?, ?, ?, ?)",
            ((post, blog, tag, position)
             for post, blog in rows
             for position, tag in enumerate(rng.sample(TAGS, rng.randint(1, 3)))),
        )
        db.execute("UPDATE search_state SET posts_seq = posts_seq + 1")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    count = db.execute("SELECT count(*) FROM post_tags").fetchone()[0]
    db.close()
    print(f"tagged {len(rows)} published posts ({count} tags)")


def urls(data_dir, count, host_suffix, out):
    db = sqlite3.connect(f"file:{data_dir}/quire.db?mode=ro", uri=True)
    blogs = dict(db.execute("SELECT id, subdomain FROM blogs").fetchall())
    posts = db.execute(
        "SELECT blog_id, slug || '-' || short_id FROM posts WHERE published_at IS NOT NULL AND NOT unlisted"
        " AND NOT EXISTS (SELECT 1 FROM post_pages WHERE post_id = posts.id)").fetchall()
    blog_tags = db.execute("SELECT DISTINCT blog_id, tag FROM post_tags").fetchall()
    db.close()
    rng = random.Random(11)
    blog_ids = list(blogs)
    lines = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.70:
            blog, slug = rng.choice(posts)
            path = f"/{slug}"
        elif roll < 0.80:
            blog, path = rng.choice(blog_ids), "/"
        elif roll < 0.95:
            blog, tag = rng.choice(blog_tags)
            path = f"/tags/{tag}" if roll < 0.90 else f"/tags/{tag}/feed.xml"
        else:
            blog, path = rng.choice(blog_ids), "/feed.xml"
        lines.append(f"{blogs[blog]}.{host_suffix}\t{path}\n")
    with open(out, "w") as file:
        file.writelines(lines)
    print(f"{count} requests ({len(set(lines))} distinct pages) written to {out}")


def mirror(url_file, port, www):
    with open(url_file) as file:
        wanted = sorted({tuple(line.rstrip("\n").split("\t")) for line in file if line.strip()})

    def fetch(item):
        host, path = item
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        body = response.read()
        conn.close()
        if response.status != 200:
            return f"{response.status} for http://{host}{path}"
        target = os.path.join(www, host.split(":")[0], path.lstrip("/"), "__page")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as out:
            out.write(body)
        return len(body)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = list(pool.map(fetch, wanted))
    failed = [r for r in results if isinstance(r, str)]
    if failed:
        sys.exit(f"{len(failed)} pages did not answer 200, the first: {failed[0]}")
    sizes = sorted(results)
    print(f"mirrored {len(sizes)} pages ({sum(sizes) // 1024 // 1024} MB, median {sizes[len(sizes) // 2]} bytes) into {www}")


def main():
    args = sys.argv[1:]
    if args[:1] == ["tags"] and len(args) == 2:
        tags(args[1])
    elif args[:1] == ["urls"] and len(args) == 5:
        urls(args[1], int(args[2]), args[3], args[4])
    elif args[:1] == ["mirror"] and len(args) == 4:
        mirror(args[1], int(args[2]), args[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
