#!/usr/bin/env python3
"""Soak driver for a running `quire serve` on loopback (started by bench/soak.sh).

Signs up a few owners through the local issuer, creates their blogs (with the Search box addon)
and seeds posts through the API, warms up, then runs a mix of public reads (index, post, feeds),
public and owner searches, owner writes (create, update, delete) and image uploads from a fixed
number of worker threads (readers and writers apart) until the time or the request budget runs out. Every answer is checked
against the status its request must get; anything else (a 5xx, a refused connection, a 404 where
a page must exist) is an error.

Prints requests and latency by kind, the errors, and the server's resident memory at the start
(after seeding and warm-up) and at the end of the soak (medians of samples taken under load). Exits 1 when there was any error or the memory grew by more than --max-growth
percent. Only Python's standard library is used.

Usage: soak.py --port PORT --host HOST --pid SERVER_PID [--minutes N] [--readers N] [--writers N]
"""

import argparse
import http.client
import json
import random
import re
import struct
import sys
import threading
import time
import urllib.parse
import zlib
from collections import defaultdict

WORDS = ("sourdough starter bubbles rye oven crumb crust levain proof knead flour water salt "
         "autumn garden river mountain coffee morning letter window harbor lantern meadow").split()


class Stop(Exception):
    """The run is over (time, budget, or the server is gone)."""


class Client:
    """One keep-alive connection to the server with its own cookies (a browser, or a reader)."""

    def __init__(self, port, host):
        self.port, self.host, self.cookies = port, host, {}
        self.conn = None

    def request(self, method, path, body=None, headers=None, host=None):
        headers = dict(headers or {})
        headers["Host"] = host or self.host
        if self.cookies and host is None:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.cookies.get("csrf_token") and host is None and method != "GET":
            headers["CSRF-Token"] = self.cookies["csrf_token"]
        for attempt in (1, 2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                self.conn.request(method, path, body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                break
            except (http.client.HTTPException, OSError) as err:
                if self.conn is not None:
                    self.conn.close()
                self.conn = None
                # A keep-alive connection the server closed is retried once on a new one.
                if attempt == 2 or not isinstance(err, (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)):
                    return None, {}, str(err).encode()
        for value in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return resp.status, resp.headers, data

    def json(self, method, path, payload):
        return self.request(method, path, json.dumps(payload).encode(), {"Content-Type": "application/json"})


def expect(result, status, what):
    got, _, data = result
    if got != status:
        sys.exit(f"soak: {what} answered {got}, not {status}: {data[:300]!r}")
    return json.loads(data) if data and data[:1] in b"{[" else None


def sign_up_with_blog(port, host, email, subdomain):
    """The owner app's sign-in through the local issuer, then a blog with the Search box."""
    owner = Client(port, host)
    expect(owner.request("GET", "/"), 200, "the app page")
    nonce = expect(owner.json("POST", "/api/auth/nonce", {}), 200, "POST /api/auth/nonce")["nonce"]
    form = urllib.parse.urlencode({
        "client_id": "quire-local", "response_type": "id_token", "nonce": nonce, "email": email,
        "redirect_uri": f"http://{host}/auth/callback",
    }).encode()
    status, headers, data = owner.request("POST", "/dev-idp/authorize", form, {"Content-Type": "application/x-www-form-urlencoded"})
    if status != 303:
        sys.exit(f"soak: the local issuer answered {status}: {data[:300]!r}")
    token = urllib.parse.parse_qs(headers["Location"].split("#", 1)[1])["id_token"][0]
    expect(owner.json("POST", "/api/sessions", {"id_token": token, "signup": True}), 200, "POST /api/sessions")
    blog = expect(owner.json("POST", "/api/my/blogs", {"subdomain": subdomain}), 201, "POST /api/my/blogs")["blog"]
    expect(owner.json("POST", f"/api/my/blogs/{blog['id']}/addons/7/installation", {}), 200, "installing the Search box")
    return owner, blog["id"]


def post_body(rng, n_paragraphs=3):
    title = " ".join(rng.choice(WORDS) for _ in range(4)).capitalize()
    children = [{"type": "heading", "value": {"text": title}}]
    for _ in range(n_paragraphs):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 80))).capitalize() + "."
        children.append({"type": "paragraph", "value": {"text": text}})
    children.append({"type": "link", "value": {"url": "https://example.com/" + rng.choice(WORDS), "title": rng.choice(WORDS)}})
    return {"type": "root", "children": children}


def png(seed):
    """A valid 1x1 PNG whose pixel depends on `seed` (so there are a few distinct files)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    pixel = bytes([0, seed % 256, (seed * 7) % 256, (seed * 13) % 256, 255])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(pixel)) + chunk(b"IEND", b""))


def multipart(image):
    boundary = "soak" + "%016x" % random.getrandbits(64)
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nfile\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.png\"\r\n"
            "Content-Type: image/png\r\n\r\n").encode() + image + f"\r\n--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


class Soak:
    """The shared state of one run: blogs, what was sent and what came back."""

    # kind: (weight, status it must get). Readers and owners are separate workers, so reads keep
    # flowing while a write waits for its fsyncs, as on a real blog.
    READS = {
        "public index": (30, 200), "public post": (30, 200), "public feed": (14, 200),
        "public search": (13, 200), "owner search": (13, 200),
    }
    WRITES = {
        "owner list": (15, 200), "create post": (30, 201), "update post": (30, 200), "delete post": (15, 200),
        "image upload": (10, 200),
    }
    MIX = {**READS, **WRITES}

    def __init__(self, args, blogs):
        self.args, self.blogs = args, blogs
        self.lock = threading.Lock()
        self.counts, self.latencies = defaultdict(int), defaultdict(list)
        self.errors = []
        self.total = 0
        self.deadline = 0.0
        self.kinds = list(self.MIX)

    def run(self, seconds, record=True):
        """Runs the mix for `seconds`; while recording, samples the server's memory every 2 s."""
        began = time.monotonic()
        self.deadline = began + seconds
        self.recording = record
        self.samples = []  # (seconds since the start, memory)
        roles = [self.READS] * self.args.readers + [self.WRITES] * self.args.writers
        threads = [threading.Thread(target=self.worker, args=(i, role), daemon=True) for i, role in enumerate(roles)]
        for thread in threads:
            thread.start()
        while record and any(thread.is_alive() for thread in threads) and server_alive(self.args.pid):
            self.samples.append((time.monotonic() - began, memory(self.args.pid)))
            time.sleep(2)
        for thread in threads:
            thread.join()

    def worker(self, index, mix):
        rng = random.Random(index * 7919 + int(time.time()))
        kinds, weights = list(mix), [mix[kind][0] for kind in mix]
        reader = Client(self.args.port, self.args.host)
        owners = {blog["id"]: Client(self.args.port, self.args.host) for blog in self.blogs}
        for blog in self.blogs:
            owners[blog["id"]].cookies = dict(blog["owner"].cookies)  # same session, own connection
        mine = defaultdict(list)  # this worker's own posts, per blog: only it updates or deletes them
        try:
            while True:
                kind = rng.choices(kinds, weights)[0]
                blog = rng.choice(self.blogs)
                self.one(kind, blog, reader, owners[blog["id"]], mine[blog["id"]], rng)
        except Stop:
            pass

    def one(self, kind, blog, reader, owner, mine, rng):
        blog_host, blog_id = f"{blog['subdomain']}.{self.args.host}", blog["id"]
        if kind == "update post" and not mine or kind == "delete post" and len(mine) < 3:
            kind = "create post"
        if kind == "create post" and len(mine) >= 25:
            kind = "delete post"
        started = time.monotonic()
        if kind == "public index":
            path = "/" if rng.random() < 0.7 else "/?page=2"
            result = reader.request("GET", path, headers={"Accept-Encoding": "gzip"}, host=blog_host)
        elif kind == "public post":
            path = rng.choice(blog["paths"])
            result = reader.request("GET", path, headers={"Accept-Encoding": "gzip"}, host=blog_host)
        elif kind == "public feed":
            path = rng.choice(["/feed.xml", "/rss.xml", "/sitemap.xml"])
            result = reader.request("GET", path, host=blog_host)
        elif kind == "public search":
            path = "/search?q=" + urllib.parse.quote(" ".join(rng.sample(WORDS, rng.randint(1, 2))))
            result = reader.request("GET", path, host=blog_host)
        elif kind == "owner search":
            path = f"/api/my/blogs/{blog_id}/posts/search"
            result = owner.json("POST", path, {"query": " ".join(rng.sample(WORDS, rng.randint(1, 3)))})
        elif kind == "owner list":
            path = f"/api/my/blogs/{blog_id}/posts?page={rng.randint(1, 2)}&page_size=10"  # 20 seeded posts stay
            result = owner.request("GET", path)
        elif kind == "create post":
            path = f"/api/my/blogs/{blog_id}/posts"
            result = owner.json("POST", path, {"body": post_body(rng), "draft": rng.random() < 0.2})
            if result[0] == 201:
                mine.append(json.loads(result[2])["post"]["shortId"])
        elif kind == "update post":
            path = f"/api/my/blogs/{blog_id}/posts/{rng.choice(mine)}"
            result = owner.json("PUT", path, {"body": post_body(rng), "draft": rng.random() < 0.5})
        elif kind == "delete post":
            short_id = mine.pop(rng.randrange(len(mine)))
            path = f"/api/my/blogs/{blog_id}/posts/{short_id}"
            result = owner.request("DELETE", path, b"{}", {"Content-Type": "application/json"})
        else:  # image upload
            path = "/api/images"
            body, headers = multipart(png(rng.randrange(50)))
            result = owner.request("POST", path, body, headers)
        elapsed = time.monotonic() - started
        self.note(kind, path, result, elapsed)

    def note(self, kind, path, result, elapsed):
        status = result[0]
        with self.lock:
            if self.recording:
                self.counts[kind] += 1
                self.latencies[kind].append(elapsed)
                self.total += 1
            if status != self.MIX[kind][1]:
                self.errors.append((kind, path, status, result[2][:200]))
            over = time.monotonic() >= self.deadline or self.total >= self.args.max_requests
        if status is None and not server_alive(self.args.pid):
            raise Stop()
        if over:
            raise Stop()


def server_alive(pid):
    try:
        with open(f"/proc/{pid}/status"):
            return True
    except OSError:
        return False


def memory(pid):
    """VmRSS, RssAnon, RssFile and VmHWM of the server, in KiB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                values[key] = int(rest.split()[0])
    return values


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000 if ordered else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=None, help="seconds (default: 60, or a sixth of a short run)")
    parser.add_argument("--readers", type=int, default=4, help="workers sending public reads and searches")
    parser.add_argument("--writers", type=int, default=2, help="workers sending owner writes, lists and uploads")
    parser.add_argument("--blogs", type=int, default=4)
    parser.add_argument("--posts", type=int, default=20, help="seeded posts per blog")
    parser.add_argument("--max-requests", type=int, default=None, help="request budget (default: 200,000 a minute)")
    parser.add_argument("--max-growth", type=float, default=10.0, help="allowed RSS growth in percent")
    args = parser.parse_args()
    # One side may be 0 (--readers 0: writes only), to tell which side memory grows with.
    if (args.minutes <= 0 or not 0 <= args.readers <= 64 or not 0 <= args.writers <= 64
            or args.readers + args.writers == 0 or not 1 <= args.blogs <= 8):
        sys.exit("soak: --minutes must be positive, --readers and --writers 0 to 64 (not both 0), --blogs 1 to 8 "
                 "(sign-in is rate limited)")
    args.max_requests = args.max_requests or int(args.minutes * 200_000)
    warmup = args.warmup if args.warmup is not None else min(60.0, args.minutes * 10)

    rng = random.Random(42)
    started = time.monotonic()
    blogs = []
    for i in range(args.blogs):
        owner, blog_id = sign_up_with_blog(args.port, args.host, f"soak{i}@example.com", f"soak{i}")
        paths = []
        for _ in range(args.posts):
            post = expect(owner.json("POST", f"/api/my/blogs/{blog_id}/posts", {"body": post_body(rng), "draft": False}),
                          201, "seeding a post")["post"]
            paths.append(re.sub(r"^https?://[^/]+", "", post["permalink"]))
        blogs.append({"id": blog_id, "subdomain": f"soak{i}", "owner": owner, "paths": paths})
    print(f"seeded {args.blogs} blogs x {args.posts} posts through the API in {time.monotonic() - started:.1f} s", flush=True)

    soak = Soak(args, blogs)
    print(f"warming up for {warmup:.0f} s with {args.readers} readers and {args.writers} writers", flush=True)
    soak.run(warmup, record=False)
    warm_errors = len(soak.errors)
    print(f"soaking for {args.minutes:g} min (budget {args.max_requests} requests)", flush=True)
    began = time.monotonic()
    soak.run(args.minutes * 60)
    elapsed = time.monotonic() - began
    alive = server_alive(args.pid)

    print(f"\nQuire soak: {args.minutes:g} min, {args.readers} readers and {args.writers} writers, {args.blogs} blogs, loopback")
    print(f"{'kind':<16}{'requests':>10}{'p50 ms':>10}{'p99 ms':>10}")
    for kind in soak.kinds:
        print(f"{kind:<16}{soak.counts[kind]:>10}{percentile(soak.latencies[kind], 0.5):>10.2f}{percentile(soak.latencies[kind], 0.99):>10.2f}")
    print(f"{'total':<16}{soak.total:>10}   ({soak.total / max(elapsed, 1e-9):.0f} requests/s over {elapsed:.0f} s)")
    errors = soak.errors
    print(f"errors: {len(errors)} ({warm_errors} during warm-up)")
    by_kind = defaultdict(int)
    for kind, path, status, _ in errors:
        by_kind[(kind, status)] += 1
    for (kind, status), n in sorted(by_kind.items(), key=lambda item: -item[1]):
        example = next(e for e in errors if e[0] == kind and e[2] == status)
        print(f"  {n} x {kind} answered {status} (e.g. {example[1]}: {example[3]!r})")
    failed = bool(errors) or not alive
    if not alive:
        print("the server is gone")
    else:
        # Memory is sampled under load; its level at the start and the end is the median of the
        # samples of the first and the last minute (a sixth of shorter runs), so one spike
        # (a segment merge, a burst of uploads) does not decide the result.
        window = min(60.0, elapsed / 6)
        first = [m for t, m in soak.samples if t <= window]
        last = [m for t, m in soak.samples if t >= elapsed - window]
        level = lambda samples, key: sorted(m[key] for m in samples)[len(samples) // 2]
        mb = lambda kib: f"{kib / 1024:.1f} MB"
        for name, samples in (("first", first), ("last", last)):
            print(f"server RSS, {name} {window:.0f} s of the soak (median of {len(samples)} samples): "
                  f"{mb(level(samples, 'VmRSS'))} (anonymous {mb(level(samples, 'RssAnon'))}, "
                  f"files {mb(level(samples, 'RssFile'))}; {mb(min(m['VmRSS'] for m in samples))} to "
                  f"{mb(max(m['VmRSS'] for m in samples))})")
        # The curve in between tells a leak (steady climb) from caches filling up (a plateau).
        tenth = elapsed / 10
        curve = []
        for i in range(10):
            part = [m for t, m in soak.samples if i * tenth <= t < (i + 1) * tenth]
            if part:
                curve.append(f"{(i + 1) * tenth / 60:.1f} min {level(part, 'VmRSS') / 1024:.0f}")
        print("server RSS over the soak (median per tenth, MB): " + ", ".join(curve))
        print(f"server peak RSS (VmHWM): {mb(memory(args.pid)['VmHWM'])}")
        growth = 100.0 * (level(last, "VmRSS") - level(first, "VmRSS")) / level(first, "VmRSS")
        print(f"RSS growth: {growth:+.1f} % (allowed {args.max_growth:g} %)")
        failed = failed or growth > args.max_growth
    print("RESULT: " + ("FAIL" if failed else "PASS"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
