#!/usr/bin/env bash
# Issue 28's measurements from outside (bench/hardening.py says what each does; the figures are in
# bench/README.md, "Hardening"): the database's growth under an inbox flood, the server's peak memory
# for a Ghost upload of two million empty posts, and a visitor's TLS handshake while 500 idle
# connections are open.
#
#   bash bench/hardening.sh                       # all three
#   bash bench/hardening.sh ghost handshake       # some of them
#
# The inbox flood needs --test-only-fetch-loopback (the fake actor is on 127.0.0.1), which only a
# build with debug assertions has: QUIRE_DEBUG_BIN (default target/debug/quire, built now when
# missing). The other two use QUIRE_BIN (default: the release build, built now). Ports 18860-18871;
# everything stays on 127.0.0.1. Needs Python 3 with `cryptography`, openssl and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

WHAT=("$@")
[ ${#WHAT[@]} -gt 0 ] || WHAT=(inbox ghost handshake)
OUT=bench/out/hardening
rm -rf "$OUT" && mkdir -p "$OUT"
export RUST_LOG=${RUST_LOG:-warn}
python3 -c 'import cryptography' 2>/dev/null || pip install -q cryptography
SERVER=
trap '[ -z "$SERVER" ] || kill $SERVER 2>/dev/null || true' EXIT

start() { # $1: binary, $2: data dir, the rest: serve's flags
  local bin=$1 dir=$2
  shift 2
  "$bin" serve --data-dir "$dir" "$@" >"$dir.out" 2>"$dir.log" &
  SERVER=$!
}

stop() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  SERVER=
}

echo "Hardening measurements, $(date -u +%F), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for what in "${WHAT[@]}"; do
  case "$what" in
    inbox)
      DEBUG_BIN=${QUIRE_DEBUG_BIN:-target/debug/quire}
      [ -n "${QUIRE_DEBUG_BIN:-}" ] || [ -x "$DEBUG_BIN" ] || cargo build --locked -q
      PORT=18860 HOST=localhost:18860
      start "$DEBUG_BIN" "$OUT/inbox" --listen 127.0.0.1:$PORT --host $HOST --test-only-fetch-loopback
      wait_for_quire
      echo "== inbox flood ($DEBUG_BIN)"
      (cd bench && python3 hardening.py inbox --port $PORT --data-dir "../$OUT/inbox")
      stop
      ;;
    ghost)
      quire_binary
      PORT=18861 HOST=localhost:18861
      start "$BIN" "$OUT/ghost" --listen 127.0.0.1:$PORT --host $HOST
      wait_for_quire
      echo "== Ghost upload ($BIN)"
      (cd bench && python3 hardening.py ghost --port $PORT --pid "$SERVER")
      stop
      # A binary with --import-max-items refuses the two million posts at once; raised past
      # them, the same upload measures the reader itself.
      if "$BIN" serve --help | grep -q -- --import-max-items; then
        rm -rf "$OUT/ghost"
        start "$BIN" "$OUT/ghost" --listen 127.0.0.1:$PORT --host $HOST --import-max-items 3000000
        wait_for_quire
        echo "== Ghost upload, --import-max-items 3000000 ($BIN)"
        (cd bench && python3 hardening.py ghost --port $PORT --pid "$SERVER")
        stop
      fi
      ;;
    handshake)
      quire_binary
      openssl req -x509 -newkey rsa:2048 -nodes -keyout "$OUT/key.pem" -out "$OUT/cert.pem" -days 2 \
        -subj /CN=localhost -addext "subjectAltName=DNS:localhost,DNS:*.localhost" 2>/dev/null
      mkdir -p "$OUT/tls"
      start "$BIN" "$OUT/tls" --host localhost --tls-cert "$OUT/cert.pem" --tls-key "$OUT/key.pem" \
        --https-listen 127.0.0.1:18862 --http-listen 127.0.0.1:18863
      for _ in $(seq 1 100); do
        curl -sk --resolve localhost:18862:127.0.0.1 -o /dev/null https://localhost:18862/ && break
        sleep 0.1
      done
      echo "== TLS handshakes ($BIN)"
      (cd bench && python3 hardening.py handshake --port 18862)
      stop
      ;;
    *) echo "hardening.sh: unknown measurement $what (inbox, ghost or handshake)" >&2; exit 2 ;;
  esac
done
