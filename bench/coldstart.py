#!/usr/bin/env python3
"""Starts `quire serve` and measures how long it takes from the exec to its first answers:
`/healthz` on the app host, then a public post page (which reads the database and renders).
Polls with a fresh connection every millisecond (each poll times out after 1 s), for 60 s at
most. Leaves the server running and writes its pid to PID_FILE; prints "healthz_ms page_ms".

With --drop-caches, the kernel's page cache is dropped first (root only: `sync` and
/proc/sys/vm/drop_caches), so the database and the index are read from disk: a cold start.
With --memory-cap MB, the server runs in a memory cgroup of its own (root only; cgroup v2's
memory.max, or v1's memory.limit_in_bytes) named quire-bench: everything it uses counts,
its heap and the page cache of the files it reads (charged to it when it first reads them,
so use it with --drop-caches), and the kernel reclaims that page cache to stay under the cap.

Usage: coldstart.py [--drop-caches] [--memory-cap MB] PID_FILE LOG_FILE APP_HOST BLOG_HOST PATH -- QUIRE_COMMAND...
"""

import os
import socket
import subprocess
import sys
import time


def answers(port, host, path):
    """Whether GET path with Host: host answers 200 (a fresh connection, 1 s at most)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            return conn.recv(16).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def memory_cgroup(megabytes):
    """Makes (or empties) the cgroup quire-bench with a memory cap; returns its cgroup.procs."""
    unified = "/sys/fs/cgroup"
    if os.path.exists(f"{unified}/cgroup.controllers") and "memory" in open(f"{unified}/cgroup.controllers").read():
        group, limit = f"{unified}/quire-bench", "memory.max"
    elif os.path.isdir(f"{unified}/memory"):
        group, limit = f"{unified}/memory/quire-bench", "memory.limit_in_bytes"
    else:
        sys.exit("--memory-cap: no memory cgroup controller here")
    os.makedirs(group, exist_ok=True)
    with open(f"{group}/{limit}", "w") as out:
        out.write(str(megabytes * 1024 * 1024))
    return f"{group}/cgroup.procs"


def main():
    args = sys.argv[1:]
    drop = args[:1] == ["--drop-caches"]
    if drop:
        args = args[1:]
    procs = None
    if args[:1] == ["--memory-cap"]:
        procs = memory_cgroup(int(args[1]))
        args = args[2:]
    split = args.index("--")
    pid_file, log_file, app_host, blog_host, path = args[:split]
    command = args[split + 1:]
    port = int(app_host.rsplit(":", 1)[1])
    if drop:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as caches:
            caches.write("3\n")
    with open(log_file, "ab") as log:
        started = time.perf_counter()
        join = None
        if procs:
            def join():
                with open(procs, "w") as out:
                    out.write(str(os.getpid()))
        server = subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True, preexec_fn=join)
    with open(pid_file, "w") as out:
        out.write(str(server.pid))
    deadline = started + 60
    first = {}
    for name, host, target in (("healthz", app_host, "/healthz"), ("page", blog_host, path)):
        while not answers(port, host, target):
            if server.poll() is not None:
                sys.exit(f"quire exited with {server.returncode} before answering; see {log_file}")
            if time.perf_counter() > deadline:
                sys.exit(f"quire did not answer {target} within 60 s; see {log_file}")
            time.sleep(0.001)
        first[name] = (time.perf_counter() - started) * 1000
    print(f"{first['healthz']:.0f} {first['page']:.0f}")


if __name__ == "__main__":
    main()
