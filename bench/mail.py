"""The mail benchmark's driver (bench/mail.sh): one post to N confirmed subscribers.

Against a quire already serving on 127.0.0.1:PORT with --smtp-url pointing at the SMTP sink
(tests/support/smtp_sink.py) writing into MAILBOX: signs up, makes the blog `mailbench`, adds N
confirmed subscribers straight into the database (the subscribe form's limits are per client and
would take days), publishes one post and times until the sink holds N messages of it, sampling
quire's resident memory. Then the reference, in the same run against the same sink: Python's
smtplib sends the same number of messages of the same size, one connection each, as quire does.

Usage: mail.py PORT HOST DATA_DIR MAILBOX SMTP_PORT PID N
"""

import os
import smtplib
import sqlite3
import sys
import time
from email.message import EmailMessage

import soak

TITLE = "The benchmark's post"
TIMEOUT = 1800


def rss_mb(pid):
    """The process's resident set and its peak, in MB, from /proc."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def messages(mailbox):
    return sorted(name for name in os.listdir(mailbox) if name.endswith(".eml"))


def main():
    port, host, data_dir, mailbox, smtp_port, pid, n = sys.argv[1:8]
    port, smtp_port, pid, n = int(port), int(smtp_port), int(pid), int(n)
    owner, blog_id = soak.sign_up_with_blog(port, host, "owner@example.com", "mailbench")
    db = sqlite3.connect(os.path.join(data_dir, "quire.db"), timeout=30)
    with db:
        db.executemany(
            "INSERT INTO subscribers (blog_id, email, state, unsubscribe_token, confirmed_at)"
            " VALUES (?, ?, 'confirmed', ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
            ((blog_id, f"reader{i}@example.org", f"{i:032x}") for i in range(n)),
        )
    db.close()
    before_rss, _ = rss_mb(pid)
    body = {"type": "root", "children": [
        {"type": "heading", "value": {"text": TITLE}},
        {"type": "paragraph", "value": {"text": "Some words of a post, *with* Markdown, sent to every reader. " * 8}},
    ]}
    soak.expect(owner.json("POST", f"/api/my/blogs/{blog_id}/posts", {"body": body, "draft": False}), 201, "publishing")
    started = time.monotonic()
    peak_seen = before_rss
    while len(messages(mailbox)) < n:
        if time.monotonic() - started > TIMEOUT:
            sys.exit(f"mail.py: only {len(messages(mailbox))} of {n} messages in {TIMEOUT} s")
        rss, _ = rss_mb(pid)
        peak_seen = max(peak_seen, rss)
        time.sleep(0.2)
    took = time.monotonic() - started
    _, hwm = rss_mb(pid)
    sizes = [os.path.getsize(os.path.join(mailbox, name)) for name in messages(mailbox)[-10:]]
    size = sum(sizes) // len(sizes)

    # The reference: the same number of messages of the same size, one connection each.
    message = EmailMessage()
    message["From"] = "Bench <noreply@localhost>"
    message["Subject"] = TITLE
    message.set_content("x" * max(size - 400, 100))
    ref_started = time.monotonic()
    for i in range(n):
        message.replace_header("Subject", f"{TITLE} {i}")
        with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
            smtp.send_message(message, to_addrs=[f"ref{i}@example.org"])
    ref_took = time.monotonic() - ref_started

    print(f"messages {n}")
    print(f"message_bytes {size}")
    print(f"quire_seconds {took:.2f}")
    print(f"quire_per_second {n / took:.0f}")
    print(f"rss_before_mb {before_rss:.1f}")
    print(f"rss_peak_during_mb {peak_seen:.1f}")
    print(f"rss_high_water_mb {hwm:.1f}")
    print(f"reference_seconds {ref_took:.2f}")
    print(f"reference_per_second {n / ref_took:.0f}")


if __name__ == "__main__":
    main()
