#!/usr/bin/env python3
"""Measures how long after a save a post is found by search: saves a post with a unique
word, then searches until it appears (checking every 5 ms, giving up after 5 s).

Usage: freshness.py PORT HOST [ROUNDS]   (signs in as seeded user 2 with its session cookie)
"""

import json
import statistics
import sys
import time
import urllib.request
import uuid


def call(port, host, method, path, body):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        method=method,
        headers={
            "Host": host,
            "Content-Type": "application/json",
            "Cookie": "session=bench-session-2; csrf_token=bench",
            "CSRF-Token": "bench",
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def main():
    port, host = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    delays = []
    for _ in range(rounds):
        word = "fresh" + uuid.uuid4().hex[:10]
        post = {"body": {"type": "root", "children": [
            {"type": "heading", "value": {"text": f"Freshness probe {word}"}},
            {"type": "paragraph", "value": {"text": f"The word {word} appears only here."}}]}, "draft": False}
        started = time.perf_counter()
        call(port, host, "POST", "/api/my/blogs/2/posts", post)
        while True:
            found = call(port, host, "POST", "/api/my/blogs/2/posts/search", {"query": word})["posts"]
            if found:
                break
            if time.perf_counter() - started > 5:
                sys.exit(f"{word} not searchable after 5 s")
            time.sleep(0.005)
        delays.append((time.perf_counter() - started) * 1000)
    print(f"searchable after save: median {statistics.median(delays):.1f} ms, max {max(delays):.1f} ms ({rounds} saves)")


if __name__ == "__main__":
    main()
