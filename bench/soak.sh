#!/usr/bin/env bash
# Quire's soak test: builds the release binary, starts `quire serve` on loopback with a fresh
# data directory, seeds a few blogs and posts through the real API (signing in with the local
# issuer), then for DURATION runs a mix of public reads (index, post, feeds), public and owner
# searches, owner writes (create, update, delete) and image uploads with a fixed number of
# workers and a request budget (bench/soak.py). It prints requests by kind, the errors (any
# answer but the expected one, 5xx included) and the server's RSS after warm-up and at the end,
# and exits non-zero when there was an error or the RSS grew by more than 10 %.
#
#   bash bench/soak.sh                  # 30 minutes (plus about a minute of seeding and warm-up)
#   bash bench/soak.sh --minutes 3      # a short run
#
# Extra flags go to soak.py (--readers N, --writers N, --blogs N, --posts N, --warmup SECONDS,
# --max-requests N, --max-growth PERCENT). Needs what `cargo build` needs (Node.js for the owner
# app, or SKIP_UI_BUILD=1) and Python 3 (installed with apt-get when missing). SOAK_PORT picks
# the port (default 18800); everything stays on 127.0.0.1. The server logs at RUST_LOG=warn
# unless RUST_LOG is set (one line per request would fill the disk).
set -euo pipefail
cd "$(dirname "$0")/.."

MINUTES=30
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) MINUTES=${2:-}; shift 2 ;;
    --minutes=*) MINUTES=${1#--minutes=}; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) EXTRA+=("$1"); shift ;;
  esac
done
if ! [[ "$MINUTES" =~ ^[0-9]+([.][0-9]+)?$ ]] || [ "$MINUTES" = 0 ]; then
  echo "soak.sh: --minutes needs a positive number, got '$MINUTES'" >&2
  exit 2
fi

if ! command -v python3 >/dev/null; then
  [ "$(id -u)" = 0 ] && s="" || s="sudo"
  $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq python3 >/dev/null
fi

echo "== building the release binary"
cargo build --release --locked -q
BIN=target/release/quire
OUT=bench/out/soak
PORT=${SOAK_PORT:-18800}
HOST="localhost:$PORT"
rm -rf "$OUT" && mkdir -p "$OUT"

RUST_LOG=${RUST_LOG:-warn} "$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$OUT/data" >"$OUT/serve.out" 2>"$OUT/serve.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  python3 -c "import http.client as h, sys; c = h.HTTPConnection('127.0.0.1', $PORT, timeout=1); \
c.request('GET', '/healthz', headers={'Host': '$HOST'}); sys.exit(c.getresponse().status != 200)" 2>/dev/null && break
  kill -0 $SERVER 2>/dev/null || { echo "soak.sh: quire serve exited; see $OUT/serve.log" >&2; exit 1; }
  sleep 0.1
done

echo "== soaking quire (pid $SERVER) on 127.0.0.1:$PORT; server log in $OUT/serve.log"
# The soak itself is bounded twice: by time (--minutes) and by its request budget.
timeout $(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 + 600 }') \
  python3 bench/soak.py --port "$PORT" --host "$HOST" --pid "$SERVER" --minutes "$MINUTES" "${EXTRA[@]}"
