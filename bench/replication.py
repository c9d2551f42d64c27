#!/usr/bin/env python3
"""Helpers of bench/replication.sh (issue 36): Quire's write throughput with and without
Litestream replicating beside it, and how long a restore takes. Only Python's standard library.

  replication.py write PORT HOST BLOGS CLIENTS SECONDS
      CLIENTS threads create posts through the owner API (POST /api/my/blogs/{id}/posts, docs/api.md
      8.4) for SECONDS, each on its own keep-alive connection, as the seeded owners of blogs 2..BLOGS
      in turn (session cookie `bench-session-{id}` from seed.py, CSRF token `bench`), so no blog
      nears its 10,000 posts. Prints `key value` lines: the posts acknowledged (201), the rate, p50
      and p99 latency in ms, the errors, when the writing ended (Unix time) and its own CPU time.
  replication.py caught-up DATA_DIR REPLICA_DIR [SINCE]
      Waits (60 s at most; 600 s when the first snapshot is still to be made) until the replica
      holds every transaction Litestream has read from the database: the highest transaction id
      named by the LTX files of the replica (REPLICA_DIR/ltx/LEVEL/MIN-MAX.ltx) equals the highest
      of Litestream's local ones (DATA_DIR/.quire.db-litestream/ltx/...), and neither has changed
      for 3 s (three times Litestream's 1 s sync interval). Prints the transaction id, the seconds
      waited, and with SINCE (a Unix time: when the writes stopped) `lag_s`: from SINCE to the
      first poll (every 20 ms) that saw the replica hold that last transaction; when the first poll
      already saw it, that is only the time this script took to start (a few hundredths).
  replication.py settled REPLICA_DIR TXID SECONDS
      Waits (SECONDS at most) until Litestream's compactions of levels 1, 2 and 3 have reached
      transaction TXID (the first compaction of each level after a snapshot rewrites the whole
      database; later ones only what changed since the one before). Prints the seconds waited
      and, for each level, whether it has (`level_N yes|no`).
  replication.py compactions LOG SINCE UNTIL
      From Litestream's log, the compactions and snapshots it completed between the Unix times
      SINCE and UNTIL: `compacted_bytes`, `compactions`, `snapshot_bytes`.
  replication.py check DB
      Prints `integrity` (PRAGMA integrity_check's first row), `posts` (its count) and `bytes`.
"""

import datetime
import http.client
import json
import os
import random
import re
import sqlite3
import sys
import threading
import time

WORDS = ("harbour lantern morning river window garden letter coffee autumn meadow bread oven "
         "starter crumb flour water salt mountain quiet dawn boats tide gull rope pier").split()
MAX_POSTS_PER_RUN = 1_000_000  # a bound beside the time: no run comes near it


def post_body(rng, title):
    children = [{"type": "heading", "value": {"text": title}}]
    for _ in range(3):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 80))).capitalize() + "."
        children.append({"type": "paragraph", "value": {"text": text}})
    return {"body": {"type": "root", "children": children}, "draft": False, "tags": ["replication"]}


def write(port, host, blogs, clients, seconds):
    if blogs < 2:
        sys.exit("replication.py write: needs at least two blogs (blog 1 is left alone)")
    lock = threading.Lock()
    state = {"next": 0, "latencies": [], "errors": 0, "first_error": None}
    deadline = time.monotonic() + seconds

    def claim():
        with lock:
            n = state["next"]
            if n >= MAX_POSTS_PER_RUN:
                return None
            state["next"] = n + 1
            return n

    def worker(index):
        rng = random.Random(1000 + index)
        conn = None
        latencies = []
        while time.monotonic() < deadline:
            n = claim()
            if n is None:
                break
            blog = 2 + n % (blogs - 1)
            payload = json.dumps(post_body(rng, f"Replication bench post {index} {n} {rng.random():.6f}")).encode()
            headers = {
                "Host": host,
                "Content-Type": "application/json",
                "Cookie": f"session=bench-session-{blog}; csrf_token=bench",
                "CSRF-Token": "bench",
            }
            started = time.perf_counter()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("POST", f"/api/my/blogs/{blog}/posts", body=payload, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                status = resp.status
            except (http.client.HTTPException, OSError) as err:
                if conn is not None:
                    conn.close()
                conn = None
                status, data = None, str(err).encode()
            elapsed = time.perf_counter() - started
            if status == 201:
                latencies.append(elapsed)
            else:
                with lock:
                    state["errors"] += 1
                    state["first_error"] = state["first_error"] or f"{status}: {data[:200]!r}"
                    if state["errors"] > 50:
                        break
        if conn is not None:
            conn.close()
        with lock:
            state["latencies"].extend(latencies)

    started = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    took = time.monotonic() - started
    ended = time.time()
    latencies = sorted(state["latencies"])
    posts = len(latencies)

    def pct(p):
        return latencies[min(posts - 1, int(p * posts))] * 1000 if posts else 0.0

    print(f"clients {clients}")
    print(f"posts {posts}")
    print(f"seconds {took:.2f}")
    print(f"posts_per_s {posts / took:.1f}")
    print(f"p50_ms {pct(0.50):.2f}")
    print(f"p99_ms {pct(0.99):.2f}")
    print(f"errors {state['errors']}")
    print(f"ended {ended:.3f}")
    print(f"cpu_s {time.process_time():.3f}")
    if state["first_error"]:
        print(f"replication.py write: {state['errors']} errors, the first: {state['first_error']}", file=sys.stderr)


def newest_txid(root, levels=None):
    """The highest transaction id named by the LTX files under ROOT/ltx/LEVEL/ (0 when none), of
    every level or of the levels given."""
    best = 0
    if levels is None:
        try:
            levels = os.listdir(os.path.join(root, "ltx"))
        except FileNotFoundError:
            return 0
    for level in levels:
        try:
            names = os.listdir(os.path.join(root, "ltx", level))
        except FileNotFoundError:
            continue  # removed by compaction meanwhile
        for name in names:
            if name.endswith(".ltx") and "-" in name:
                try:
                    best = max(best, int(name[:-4].split("-")[1], 16))
                except ValueError:
                    pass
    return best


def caught_up(data_dir, replica_dir, since=None):
    local_dir = os.path.join(data_dir, ".quire.db-litestream")
    started = time.monotonic()
    stable_for = 3.0
    last = None
    changed = time.monotonic()
    reached = {}  # replica txid -> the Unix time it was first seen
    while True:
        now = time.monotonic()
        local, replica = newest_txid(local_dir), newest_txid(replica_dir)
        reached.setdefault(replica, time.time())
        if (local, replica) != last:
            last, changed = (local, replica), now
        if local and replica >= local and now - changed >= stable_for:
            break
        # The first snapshot of a large database takes a while; after that, seconds.
        if now - started > (600 if replica == 0 else 60):
            sys.exit(f"replication.py caught-up: the replica did not catch up (local {local:x}, replica {replica:x})")
        time.sleep(0.02)
    print(f"txid {replica:x}")
    print(f"waited_s {time.monotonic() - started:.2f}")
    print(f"reached_at {reached[replica]:.3f}")
    if since is not None:
        print(f"lag_s {max(0.0, reached[replica] - since):.2f}")


def settled(replica_dir, txid, seconds):
    started = time.monotonic()
    levels = ("1", "2", "3")
    while True:
        done = {level: newest_txid(replica_dir, [level]) >= txid for level in levels}
        if all(done.values()) or time.monotonic() - started > seconds:
            break
        time.sleep(0.2)
    print(f"waited_s {time.monotonic() - started:.2f}")
    for level in levels:
        print(f"level_{level} {'yes' if done[level] else 'no'}")


LOG_LINE = re.compile(r'^time=(\S+) .*msg="(compaction|snapshot) complete".* size=(\d+)')


def compactions(log, since, until):
    compacted = count = snapshots = 0
    with open(log, errors="replace") as lines:
        for line in lines:
            match = LOG_LINE.match(line)
            if not match:
                continue
            at = datetime.datetime.fromisoformat(match.group(1).replace("Z", "+00:00")).timestamp()
            if since <= at <= until:
                if match.group(2) == "compaction":
                    compacted += int(match.group(3))
                    count += 1
                else:
                    snapshots += int(match.group(3))
    print(f"compacted_bytes {compacted}")
    print(f"compactions {count}")
    print(f"snapshot_bytes {snapshots}")


def check(db):
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    posts = conn.execute("SELECT count(*) FROM posts").fetchone()[0]
    conn.close()
    print(f"integrity {integrity}")
    print(f"posts {posts}")
    print(f"bytes {os.path.getsize(db)}")


def main():
    command, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if command == "write" and len(args) == 5:
        write(int(args[0]), args[1], int(args[2]), int(args[3]), float(args[4]))
    elif command == "caught-up" and len(args) in (2, 3):
        caught_up(args[0], args[1], float(args[2]) if len(args) == 3 else None)
    elif command == "settled" and len(args) == 3:
        settled(args[0], int(args[1], 16), float(args[2]))
    elif command == "compactions" and len(args) == 3:
        compactions(args[0], float(args[1]), float(args[2]))
    elif command == "check" and len(args) == 1:
        check(args[0])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
