"""Issue 28's three outside measurements (bench/hardening.sh runs them; bench/README.md has the figures).

  inbox      50 signed Follows of 200 KB each from one actor, then 3,000 replies of 5,000 characters
             from 20 servers (127.0.0.2-21): how much the database file and its WAL grow, how many Accepts the
             actor gets and how big they are. Needs a binary with --test-only-fetch-loopback (a
             build with debug assertions), because the actor is on 127.0.0.1.
  ghost      a Ghost JSON export of two million empty posts (`{}`, about 6 MB) uploaded by a
             signed-in user: the server's peak resident memory (VmHWM) above its resident memory
             before the upload, when the upload is answered and when the import has ended.
  handshake  a visitor's TLS handshake (from 127.0.0.2) while 500 idle TCP connections from
             127.0.0.1 are open on the HTTPS listener, beside the same handshake with none open.

Each prints its figures as lines; nothing here is a pass/fail check.
"""

import argparse
import base64
import hashlib
import http.client
import http.server
import json
import os
import socket
import sqlite3
import ssl
import sys
import threading
import time
import urllib.parse
from email.utils import formatdate

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

import soak

ACCEPTS = []  # bodies of the POSTs the fake actor's inbox got
LOCK = threading.Lock()


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def disk_bytes(data_dir):
    return sum(os.path.getsize(os.path.join(data_dir, name)) for name in ("quire.db", "quire.db-wal")
               if os.path.exists(os.path.join(data_dir, name)))


class Actor(http.server.BaseHTTPRequestHandler):
    """The remote actor: its document (with the public key) and an inbox that keeps what it gets."""
    protocol_version = "HTTP/1.1"
    pem = ""

    def do_GET(self):
        base = f"http://{self.server.server_address[0]}:{self.server.server_address[1]}"
        actor_id = f"{base}/actor"
        self.answer(200, json.dumps({
            "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
            "id": actor_id, "type": "Person", "preferredUsername": "flood", "inbox": f"{base}/inbox",
            "publicKey": {"id": f"{actor_id}#main-key", "owner": actor_id, "publicKeyPem": Actor.pem},
        }).encode(), "application/activity+json")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with LOCK:
            ACCEPTS.append(body)
        self.answer(202, b"", "text/plain")

    def answer(self, status, body, kind):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def signed_post(port, host, path, key, key_id, activity):
    body = json.dumps(activity).encode()
    digest = "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode()
    date = formatdate(usegmt=True)
    signing = f"(request-target): post {path}\nhost: {host}\ndate: {date}\ndigest: {digest}"
    signature = base64.b64encode(key.sign(signing.encode(), padding.PKCS1v15(), hashes.SHA256())).decode()
    headers = {
        "Host": host, "Date": date, "Digest": digest, "Content-Type": "application/activity+json",
        "Signature": f'keyId="{key_id}",algorithm="rsa-sha256",headers="(request-target) host date digest",'
                     f'signature="{signature}"',
    }
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    client.request("POST", path, body=body, headers=headers)
    resp = client.getresponse()
    resp.read()
    client.close()
    return resp.status


def inbox(args):
    host = f"localhost:{args.port}"
    owner, blog = soak.sign_up_with_blog(args.port, host, "bench@example.com", "bench")
    blog_host = f"bench.{host}"
    post = soak.expect(owner.json("POST", f"/api/my/blogs/{blog}/posts", {"body": {"type": "root", "children": [
        {"type": "heading", "value": {"text": "Flooded"}},
        {"type": "paragraph", "value": {"text": "A post to answer."}}]}, "draft": False, "tags": []}), 201, "publishing")
    status, _, body = owner.request("GET", "/_quire/ap/actor", host=blog_host)
    if status != 200:
        sys.exit(f"inbox: the blog's actor answered {status}")
    ours = json.loads(body)
    inbox_path = urllib.parse.urlsplit(ours["inbox"]).path
    status, _, body = owner.request("GET", "/_quire/ap/outbox?page=1", host=blog_host)
    note = json.loads(body)["orderedItems"][0]["object"]["id"] if status == 200 else None
    if note is None:
        sys.exit(f"inbox: the outbox answered {status}")

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    Actor.pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    # One actor per loopback address (127.0.0.2, 127.0.0.3, ...): as many servers as --servers.
    for n in range(args.servers):
        server = http.server.ThreadingHTTPServer((f"127.0.0.{n + 2}", args.actor_port), Actor)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.2:{args.actor_port}"
    actor_id = f"{base}/actor"

    time.sleep(1)
    before = disk_bytes(args.data_dir)
    statuses = {}
    for n in range(args.follows):
        follow = {"@context": "https://www.w3.org/ns/activitystreams", "id": f"{base}/follows/{n}",
                  "type": "Follow", "actor": actor_id, "object": ours["id"], "padding": "x" * args.follow_bytes}
        status = signed_post(args.port, blog_host, inbox_path, key, f"{actor_id}#main-key", follow)
        statuses[status] = statuses.get(status, 0) + 1
    follows_status = dict(statuses)
    statuses = {}
    for n in range(args.replies):
        base = f"http://127.0.0.{n % args.servers + 2}:{args.actor_port}"
        actor_id = f"{base}/actor"
        reply = {"@context": "https://www.w3.org/ns/activitystreams", "id": f"{base}/notes/{n}/create",
                 "type": "Create", "actor": actor_id, "to": [ours["id"]],
                 "object": {"id": f"{base}/notes/{n}", "type": "Note", "attributedTo": actor_id,
                            "inReplyTo": note, "to": [ours["id"]], "published": "2026-11-27T00:00:00Z",
                            "content": f"<p>{n} " + "reply " * 833 + "</p>"}}
        status = signed_post(args.port, blog_host, inbox_path, key, f"{actor_id}#main-key", reply)
        statuses[status] = statuses.get(status, 0) + 1
    time.sleep(args.settle)
    after = disk_bytes(args.data_dir)
    with LOCK:
        accepts = list(ACCEPTS)
    ids = {json.loads(a).get("id") for a in accepts if a}
    sizes = sorted(len(a) for a in accepts)
    print(f"follows: {args.follows} of {args.follow_bytes // 1000} KB from one actor, answers {follows_status}")
    print(f"replies: {args.replies} of 5,000 characters from {args.servers} servers, answers {statuses}")
    print(f"database + WAL: {before / 1e6:.1f} MB before, {after / 1e6:.1f} MB after "
          f"({settled(after - before)} grown)")
    db = sqlite3.connect(f"file:{os.path.join(args.data_dir, 'quire.db')}?mode=ro", uri=True, timeout=10)
    counts = {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("followers", "replies")}
    db.close()
    print(f"rows kept: {counts['followers']} follower(s), {counts['replies']} replies")
    print(f"accepts delivered: {len(accepts)} ({len(ids)} distinct ids), "
          f"largest {sizes[-1] if sizes else 0} bytes, total {sum(sizes) / 1e6:.2f} MB")


def settled(delta):
    return f"{delta / 1e6:.1f} MB"


def ghost(args):
    host = f"localhost:{args.port}"
    owner, blog = soak.sign_up_with_blog(args.port, host, "ghost@example.com", "ghost")
    body = (b'{"db":[{"meta":{"exported_on":1700000000000,"version":"5.0.0"},"data":{"posts":['
            + b",".join([b"{}"] * args.posts) + b"]}}]}")
    rss = status_kb(args.pid, "VmRSS")
    hwm_before = status_kb(args.pid, "VmHWM")
    owner.request("GET", "/")
    started = time.monotonic()
    status, _, data = owner.request("POST", f"/api/my/blogs/{blog}/imports?fileName=ghost.json", body,
                                    {"Content-Type": "application/octet-stream"})
    answered = time.monotonic() - started
    hwm_answer = status_kb(args.pid, "VmHWM")
    print(f"upload: {len(body) / 1e6:.1f} MB, {args.posts:,} posts; answered {status} in {answered:.1f} s: "
          f"{data[:160].decode(errors='replace')}")
    print(f"resident before: {rss / 1024:.0f} MB (peak so far {hwm_before / 1024:.0f} MB)")
    print(f"peak growth by the answer: {(hwm_answer - rss) / 1024:.0f} MB")
    if status == 202:
        import_id = json.loads(data)["import"]["id"]
        deadline = time.monotonic() + args.wait
        state = "queued"
        while time.monotonic() < deadline:
            got, _, data = owner.request("GET", f"/api/my/blogs/{blog}/imports/{import_id}")
            if got != 200:
                break
            state = json.loads(data)["import"]["state"]
            if state in ("done", "failed"):
                break
            time.sleep(0.5)
        print(f"import: {state} after {time.monotonic() - started:.0f} s; "
              f"peak growth by then: {(status_kb(args.pid, 'VmHWM') - rss) / 1024:.0f} MB")


def handshake_ms(port, name):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(60)
    sock.bind(("127.0.0.2", 0))
    started = time.monotonic()
    sock.connect(("127.0.0.1", port))
    with context.wrap_socket(sock, server_hostname=name):
        return (time.monotonic() - started) * 1000


def handshake(args):
    alone = sorted(handshake_ms(args.port, args.name) for _ in range(5))
    print(f"visitor's handshake, no idle connections: median {alone[2]:.1f} ms")
    busy = []
    for _ in range(5):
        # A fresh set each time: the server may close idle connections after a while, and the
        # visitor is to meet all of them open.
        idle = []
        for _ in range(args.idle):
            # Non-blocking: a listener that stops accepting leaves SYNs in its backlog, which is
            # part of what is measured, not a reason to stop.
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", args.port))
            idle.append(sock)
        time.sleep(0.5)
        busy.append(handshake_ms(args.port, args.name))
        for sock in idle:
            sock.close()
        time.sleep(0.5)
    print(f"visitor's handshake, {args.idle} idle connections open: "
          + ", ".join(f"{ms:.0f}" for ms in busy) + f" ms (median {sorted(busy)[2]:.0f} ms)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["inbox", "ghost", "handshake"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int)
    parser.add_argument("--data-dir")
    parser.add_argument("--actor-port", type=int, default=18871)
    parser.add_argument("--follows", type=int, default=50)
    parser.add_argument("--follow-bytes", type=int, default=200_000)
    parser.add_argument("--replies", type=int, default=3000)
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--settle", type=float, default=5)
    parser.add_argument("--posts", type=int, default=2_000_000)
    parser.add_argument("--wait", type=float, default=120)
    parser.add_argument("--idle", type=int, default=500)
    parser.add_argument("--name", default="localhost")
    args = parser.parse_args()
    {"inbox": inbox, "ghost": ghost, "handshake": handshake}[args.what](args)


if __name__ == "__main__":
    main()
