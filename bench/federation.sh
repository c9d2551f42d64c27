#!/usr/bin/env bash
# The issue's delivery figure: one post to 1,000 followers on 100 shared inboxes, on loopback;
# the time until every inbox has it, and the server's RSS meanwhile (bench/README.md).
#
#   bash bench/federation.sh                  # 5 posts, debug build
#   RUNS=10 bash bench/federation.sh
#
# Delivering to 127.0.0.1 needs --test-only-fetch-loopback, which exists only in debug builds
# (a release build refuses loopback targets and has no such flag): the figure is a debug build's.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

BIN=${QUIRE_BIN:-target/debug/quire}
if [ -z "${QUIRE_BIN:-}" ]; then
  echo "== building the debug binary"
  cargo build -q
fi
OUT=bench/out/federation
PORT=${FEDERATION_PORT:-18870}
HOST="localhost:$PORT"
export RUST_LOG=${RUST_LOG:-warn}
rm -rf "$OUT" && mkdir -p "$OUT"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

"$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$OUT/data" --test-only-fetch-loopback \
  >"$OUT/serve.out" 2>"$OUT/serve.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
wait_for_quire
kill -0 $SERVER 2>/dev/null || { echo "federation.sh: quire serve exited; see $OUT/serve.log" >&2; exit 1; }

echo "Federation delivery benchmark ($BIN), $(date -u +%F)"
echo "machine: $(nproc) cores, $(uname -m); load average at the start: $LOAD"
(cd bench && python3 federation.py --port "$PORT" --pid "$SERVER" --db "../$OUT/data/quire.db" --runs "${RUNS:-5}")
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
