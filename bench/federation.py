"""The issue's delivery figure (bench/federation.sh): one post to 1,000 followers on 100 shared
inboxes on loopback, the time until every inbox has it and the server's memory meanwhile.

The reference, measured in the same run against the same inboxes: curl sending the same number of
POSTs of the same body (the Create as Quire queued it, taken from its queue), 16 at a time as
Quire's worker does, unsigned. It is the floor the fake inboxes and loopback allow; the ratio says
what publishing, queueing, signing and Quire's client add on top.

Fake inboxes: 100 http.server threads on ports BASE..BASE+99 that count POSTs (and check nothing:
the signatures are checked by tests/api/federation.rs). Followers are seeded into the data
directory's SQLite; posts are published through the real API.
"""

import argparse
import http.server
import json
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import soak

LOCK = threading.Lock()
RECEIVED = {}  # port -> POSTs


class Inbox(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        with LOCK:
            RECEIVED[self.server.server_port] = RECEIVED.get(self.server.server_port, 0) + 1
        self.send_response(202)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def start_inboxes(base, count):
    for port in range(base, base + count):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Inbox)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--inbox-base", type=int, default=19000)
    parser.add_argument("--inboxes", type=int, default=100)
    parser.add_argument("--followers", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    host = f"localhost:{args.port}"

    start_inboxes(args.inbox_base, args.inboxes)
    owner, blog = soak.sign_up_with_blog(args.port, host, "bench@example.com", "bench")
    # The blog's key, made when a follower first looks the actor up.
    status, _, _ = owner.request("GET", "/_quire/ap/actor", host=f"bench.{host}")
    if status != 200:
        sys.exit(f"federation: the actor answered {status}")
    db = sqlite3.connect(args.db, timeout=10)
    with db:
        for n in range(args.followers):
            port = args.inbox_base + n % args.inboxes
            db.execute(
                "INSERT INTO followers (blog_id, actor_id, inbox, shared_inbox, handle, follow_id, state)"
                " VALUES (?, ?, ?, ?, ?, ?, 'accepted')",
                (blog, f"http://127.0.0.1:{port}/users/u{n}", f"http://127.0.0.1:{port}/users/u{n}/inbox",
                 f"http://127.0.0.1:{port}/inbox", f"@u{n}@127.0.0.1:{port}", f"http://127.0.0.1:{port}/follows/{n}"),
            )
    db.close()
    print(f"followers: {args.followers} on {args.inboxes} shared inboxes; idle RSS {rss_kb(args.pid) / 1024:.1f} MB")
    print(f"{'run':>4} {'deliveries':>11} {'ms to all':>10} {'peak RSS MB':>12}")
    expected = 0
    times = []
    activity = None
    for run in range(1, args.runs + 1):
        expected += args.inboxes
        body = {"body": {"type": "root", "children": [
            {"type": "heading", "value": {"text": f"Post {run}"}},
            {"type": "paragraph", "value": {"text": "Sourdough " * 200}},
        ]}, "draft": False, "tags": ["bench"]}
        peak = 0
        started = time.monotonic()
        soak.expect(owner.json("POST", f"/api/my/blogs/{blog}/posts", body), 201, "publishing")
        deadline = started + 120
        while True:
            peak = max(peak, rss_kb(args.pid))
            with LOCK:
                total = sum(RECEIVED.values())
                distinct = len(RECEIVED)
            if total >= expected:
                break
            if time.monotonic() > deadline:
                sys.exit(f"federation: only {total} of {expected} deliveries after 120 s")
            time.sleep(0.005)
        elapsed = (time.monotonic() - started) * 1000
        times.append(elapsed)
        print(f"{run:>4} {total:>11} {elapsed:>10.0f} {peak / 1024:>12.1f}")
        if activity is None:
            activity = last_create(owner, host)
    times.sort()
    median = times[len(times) // 2]
    print(f"median {median:.0f} ms to deliver one post to {args.followers} followers "
          f"({args.inboxes} deliveries, {distinct} inboxes reached); RSS after {rss_kb(args.pid) / 1024:.1f} MB")
    reference = curl_reference(args.inbox_base, args.inboxes, activity, args.runs)
    print(f"reference: curl, {args.inboxes} unsigned POSTs of the same {len(activity)}-byte Create to the same "
          f"inboxes, 16 at a time: median {reference:.0f} ms")
    print(f"ratio: Quire {median:.0f} ms / curl {reference:.0f} ms = {median / reference:.2f}")


def last_create(owner, host):
    """The JSON of the newest Create, as the blog's outbox serves it (what the followers got)."""
    status, _, body = owner.request("GET", "/_quire/ap/outbox?page=1", host=f"bench.{host}")
    if status != 200:
        sys.exit(f"federation: the outbox answered {status}")
    return json.dumps(json.loads(body)["orderedItems"][0])


def curl_reference(base, count, body, runs):
    """The median time, over `runs`, for curl to POST `body` to each of the `count` inboxes,
    16 at a time, until every inbox counted it."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(body)
        body_file = file.name
    urls = []
    for port in range(base, base + count):
        urls += ["-H", "Content-Type: application/activity+json", "--data-binary", f"@{body_file}",
                 "-o", "/dev/null", f"http://127.0.0.1:{port}/inbox", "--next"]
    urls = urls[:-1]
    times = []
    for _ in range(runs):
        with LOCK:
            before = sum(RECEIVED.values())
        started = time.monotonic()
        subprocess.run(["curl", "-s", "--parallel", "--parallel-max", "16", *urls], check=True, timeout=120,
                       stderr=subprocess.DEVNULL)
        while True:
            with LOCK:
                if sum(RECEIVED.values()) >= before + count:
                    break
            time.sleep(0.005)
        times.append((time.monotonic() - started) * 1000)
    times.sort()
    return times[len(times) // 2]


if __name__ == "__main__":
    main()
