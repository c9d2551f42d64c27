#!/usr/bin/env python3
"""Conformance checks of the public blog pages, against the real quire binary:
every page type passes the Nu HTML Checker (vnu.jar) with 0 errors, and both feeds parse
cleanly in a real feed parser (feedparser) with the expected entries.

Usage: check.py QUIRE_BIN VNU_JAR     (prints one line per check, then "N passed, N failed")
"""

import base64
import datetime
import http.cookiejar
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import feedparser

XSS = "<script>alert(1)</script><img src=x onerror=alert(2)> \"quotes\" & 'apostrophes'"


# Every Markdown construct a paragraph may hold, and raw HTML that must show as text.
MARKDOWN = """A **bold** word, an _emphasis_, `code`, [a link](https://example.com/a?b=1&c=2), <https://example.com>,
![an image link](https://example.com/i.png) and [a bad link](javascript:alert(1)) on lines kept as written.

- one
- two
  1. nested
  2. ordered

3. starts at three

> a quote
> > nested

# a heading inside a paragraph

---

```rust
let x = 1 < 2;
```

    indented code

<div onclick="alert(1)">raw html block</div>
"""

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """A browser-like client of the owner app: cookies, CSRF header, the local issuer."""

    def __init__(self, port):
        self.port = port
        self.base = f"http://localhost:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def cookie(self, name):
        return next((c.value for c in self.jar if c.name == name), None)

    def call(self, method, path, body=None):
        headers = {"Content-Type": "application/json", "CSRF-Token": self.cookie("csrf_token") or ""}
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        with self.opener.open(request, timeout=10) as response:
            return json.load(response)

    def upload(self, name, data):
        """Uploads an image as the owner app does (multipart field `image`); returns its link."""
        boundary = "quire-conformance-boundary"
        body = (f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="{name}"\r\n'
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "CSRF-Token": self.cookie("csrf_token") or ""}
        request = urllib.request.Request(self.base + "/api/images", data=body, method="POST", headers=headers)
        with self.opener.open(request, timeout=10) as response:
            return json.load(response)["data"]["link"]

    def sign_up(self, email, subdomain):
        self.opener.open(self.base + "/", timeout=10).read()
        nonce = self.call("POST", "/api/auth/nonce", {})["nonce"]
        form = urllib.parse.urlencode({"client_id": "quire-local", "response_type": "id_token", "nonce": nonce,
                                       "redirect_uri": self.base + "/auth/callback", "email": email}).encode()
        try:
            self.opener.open(urllib.request.Request(self.base + "/dev-idp/authorize", data=form), timeout=10)
            raise SystemExit("the local issuer did not redirect")
        except urllib.error.HTTPError as redirect:
            fragment = urllib.parse.urlparse(redirect.headers["Location"]).fragment
        token = urllib.parse.parse_qs(fragment)["id_token"][0]
        self.call("POST", "/api/sessions", {"id_token": token, "signup": True})
        return self.call("POST", "/api/my/blogs", {"subdomain": subdomain})["blog"]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(port, host, path, form=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def block(kind, **value):
    return {"type": kind, "value": value}


# A 4×3 red PNG.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGM4YaMBRww4OQAZ7g4RX8PtlgAAAABJRU5ErkJggg==")


def main():
    quire_bin, vnu_jar = sys.argv[1], sys.argv[2]
    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}", flush=True)

    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([quire_bin, "serve", "--listen", f"127.0.0.1:{port}", "--host", f"localhost:{port}",
                                   "--data-dir", data], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            owner = Client(port)
            blog = owner.sign_up("conformance@example.com", "conform")
            blog_id = blog["id"]
            owner.call("PUT", f"/api/my/blogs/{blog_id}", {"name": f"Conformance {XSS}"})
            for addon in owner.call("GET", f"/api/my/blogs/{blog_id}/addons/uninstalled")["addons"]:
                owner.call("POST", f"/api/my/blogs/{blog_id}/addons/{addon['id']}/installation", {})
            # An uploaded image: its width and height are known, so its <img> carries them.
            uploaded = owner.upload("boat.png", PNG)
            everything = {"type": "root", "children": [
                block("heading", text=f"Every block {XSS}"),
                block("paragraph", text=f"First line {XSS}\nSecond line"),
                block("heading", text="Links & embeds"),
                block("link", url="https://example.com/?a=1&b=2", title=f"Example {XSS}"),
                block("paragraph", text=MARKDOWN),
                block("paragraph", text="> " * 40 + "deep quote\n\n" + "- " * 40 + "deep list\n\n```\nunterminated <b>"),
                block("image", url=f"http://localhost:{port}/media/{'a' * 64}.png", alt=f"An image {XSS}", caption=f"Its caption {XSS}"),
                block("image", url=f"http://localhost:{port}/media/{'b' * 64}.png"),
                block("image", url=uploaded, alt="A red boat", caption="At the quay, 4 by 3"),
                block("spotify", url="https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC"),
                block("tweet", url="https://x.com/quire/status/1234567890"),
            ]}
            post = owner.call("POST", f"/api/my/blogs/{blog_id}/posts",
                              {"body": everything, "draft": False, "tags": ["road-trip", "filler"]})["post"]
            for i in range(11):
                owner.call("POST", f"/api/my/blogs/{blog_id}/posts", {"body": {"type": "root", "children": [
                    block("heading", text=f"Filler {i}"), block("paragraph", text="Words for the search box.")]},
                    "draft": False, "tags": ["filler"]})
            owner.call("POST", f"/api/my/blogs/{blog_id}/posts", {"body": {"type": "root", "children": [
                block("heading", text="About"), block("paragraph", text=f"Who writes here {XSS}")]}, "draft": False, "page": True})
            # A draft shown through its preview link, and a scheduled post: neither is in the feeds.
            draft = owner.call("POST", f"/api/my/blogs/{blog_id}/posts", {"body": dict(everything, children=[
                block("heading", text=f"Draft preview {XSS}"), *everything["children"][1:]]), "draft": True})["post"]
            preview = owner.call("POST", f"/api/my/blogs/{blog_id}/posts/{draft['shortId']}/preview_link", {})["previewLink"]
            later = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
            owner.call("POST", f"/api/my/blogs/{blog_id}/posts", {"body": {"type": "root", "children": [
                block("heading", text="Scheduled for tomorrow")]}, "draft": False, "publish_at": later})
            host = f"conform.localhost:{port}"
            post_path = "/" + post["permalink"].rsplit("/", 1)[1]
            preview_path = "/preview/" + preview["url"].rsplit("/", 1)[1]
            # Comments on: the post shows its form; a hostile comment, approved, shows under it.
            owner.call("PUT", f"/api/my/blogs/{blog_id}/comments", {"mode": "held"})
            _, page = fetch(port, host, post_path)
            token = page.split(b'name="token" value="', 1)[1].split(b'"', 1)[0].decode()
            time.sleep(3.1)
            comment = {"post": post["shortId"], "token": token, "name": f"Reader {XSS}"[:80],
                       "website": "https://reader.example/?a=1&b=2", "text": f"Nice *post* {XSS}\n\n> a quote\n\n- a list"}
            answered, answer_page = fetch(port, host, "/comments", comment)
            problem = answer_page[answer_page.find(b'role="alert"'):][:300].decode(errors="replace")
            check("a comment is answered 200", answered == 200, f"got {answered}: {problem}")
            held = owner.call("GET", f"/api/my/blogs/{blog_id}/responses")["responses"]
            owner.call("POST", f"/api/my/blogs/{blog_id}/responses/{held[0]['id']}/approve", {})
            refused, refused_page = fetch(port, host, "/comments", dict(comment, token="forged"))
            check("a forged comment token is answered 422", refused == 422, f"got {refused}")
            pages = {"front page": "/", "second page": "/?page=2", "post": post_path, "preview link": preview_path,
                     "search results": "/search?q=words", "empty search": "/search", "not found": "/no-such-page",
                     "tag page": "/tags/filler", "second tag page": "/tags/filler?page=2",
                     "tag search": "/search?q=words&tag=filler", "page": "/about"}
            with tempfile.TemporaryDirectory() as out:
                files = {}
                for name, body in (("comment answer", answer_page), ("comment form again", refused_page)):
                    file = os.path.join(out, name.replace(" ", "-") + ".html")
                    with open(file, "wb") as f:
                        f.write(body)
                    files[file] = name
                for name, path in pages.items():
                    status, body = fetch(port, host, path)
                    expected = 404 if name == "not found" else 200
                    check(f"{name} answers {expected}", status == expected, f"got {status}")
                    if name == "post":
                        check("post shows the approved comment, escaped", b"Reader &#60;script&#62;" in body
                              and b"<script>alert" not in body and b'class="comment-form"' in body,
                              body[body.find(b"Responses"):][:400].decode(errors="replace"))
                    if name in ("post", "preview link"):
                        sized = f'<img src="{uploaded}" alt="A red boat" width="4" height="3"'.encode()
                        check(f"{name} gives the uploaded image its size", sized in body,
                              body[body.find(b"A red boat") - 200:][:400].decode(errors="replace"))
                    file = os.path.join(out, name.replace(" ", "-") + ".html")
                    with open(file, "wb") as f:
                        f.write(body)
                    files[file] = name
                report = subprocess.run(["java", "-jar", vnu_jar, "--errors-only", "--format", "json", *files],
                                        capture_output=True, text=True)
                messages = json.loads(report.stderr or report.stdout or '{"messages": []}')["messages"]
                for file, name in files.items():
                    errors = [m for m in messages if m.get("url", "").endswith(os.path.basename(file)) and m["type"] == "error"]
                    detail = "; ".join(f"line {m.get('lastLine')}: {m['message']}" for m in errors[:5])
                    check(f"{name} is valid HTML (Nu HTML Checker)", not errors, detail)
            for path, version in (("/feed.xml", "atom10"), ("/rss.xml", "rss20")):
                status, body = fetch(port, host, path)
                feed = feedparser.parse(body)
                titles = [entry.title for entry in feed.entries]
                check(f"{path} parses as {version}", status == 200 and not feed.bozo and feed.version == version,
                      f"status {status}, bozo {feed.bozo} {feed.get('bozo_exception')}, version {feed.version}")
                check(f"{path} holds the published posts", len(feed.entries) == 12 and f"Every block {XSS}" in titles,
                      f"{len(feed.entries)} entries")
                content = (feed.entries[-1].get("content") or [{"value": feed.entries[-1].get("summary", "")}])[0]["value"]
                check(f"{path} keeps markup in content, escaped", "<p>First line" in content and "<script>" not in content,
                      content[:200])
            status, body = fetch(port, host, "/tags/filler/feed.xml")
            feed = feedparser.parse(body)
            check("/tags/filler/feed.xml parses as atom10", status == 200 and not feed.bozo and feed.version == "atom10",
                  f"status {status}, bozo {feed.bozo} {feed.get('bozo_exception')}, version {feed.version}")
            check("/tags/filler/feed.xml holds the tagged posts, not the page", len(feed.entries) == 12
                  and "About" not in [entry.title for entry in feed.entries], f"{len(feed.entries)} entries")
        finally:
            server.terminate()
            server.wait(timeout=15)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
