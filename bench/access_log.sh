#!/usr/bin/env bash
# What the access log costs: the public post page served by Quire and the same bytes served by
# nginx, each with its access log written to a file (combined format) and each with it off,
# in one run. Prints req/s, p50/p99 and CPU per request (user + system time of the server's
# processes over the run, from /proc/PID/stat, divided by the requests) at 32 connections, and
# Quire / nginx ratios for both pairs. Needs Debian's wrk and nginx-light (installed when
# missing), Python 3 and cargo.
#
#   bash bench/access_log.sh
#
# BENCH_PROFILE=release builds with the release profile (fat LTO, about 10 min here); the default
# is loopback-bench (release with thin LTO and debug assertions, which builds faster).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-10s}
PROFILE=${BENCH_PROFILE:-loopback-bench}
OUT=bench/out-access-log
PORT=${BENCH_PORT:-18750}
HOST="localhost:$PORT"
NGINX_PORT=$((PORT + 100))
BLOG_HOST="bench.localhost:$PORT"
POST_PATH="/a-featured-post-for-benchmarks-featured"

if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
  [ "$(id -u)" = 0 ] && s="" || s="sudo"
  $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq wrk nginx-light >/dev/null
fi
source bench/lib.sh

echo "== building ($PROFILE profile)"
cargo build --profile "$PROFILE" --locked -q
BIN=target/$PROFILE/quire
rm -rf "$OUT" && mkdir -p "$OUT"
DATA="$OUT/data"
"$BIN" migrate --data-dir "$DATA" >/dev/null
python3 bench/seed.py "$DATA" 100 10 >/dev/null

SERVER=
trap 'kill $SERVER 2>/dev/null || true; stop_nginx "$OUT/nginx-log"; stop_nginx "$OUT/nginx-off"' EXIT

# Runs Quire with the given access-log flags; prints "req/s p50 p99 cpu_ms non2xx requests".
quire_run() {
  "$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$DATA" "$@" >"$OUT/serve.out" 2>>"$OUT/serve.log" &
  SERVER=$!
  wait_for_quire
  curl -sf -H "Host: $BLOG_HOST" "http://127.0.0.1:$PORT$POST_PATH" -o "$OUT/post.html"
  wrk -t2 -c32 -d2s -H "Host: $BLOG_HOST" "http://127.0.0.1:$PORT$POST_PATH" >/dev/null
  public_run "http://127.0.0.1:$PORT$POST_PATH" "$BLOG_HOST" "$SERVER"
  kill "$SERVER" && wait "$SERVER" 2>/dev/null || true
}

# Runs nginx from the directory $1 with access_log $2; prints what quire_run prints.
nginx_run() {
  start_nginx "$1" "$NGINX_PORT" "$2" "$OUT/post.html"
  wrk -t2 -c32 -d2s "http://127.0.0.1:$NGINX_PORT/post.html" >/dev/null
  public_run "http://127.0.0.1:$NGINX_PORT/post.html" "localhost" $(nginx_pids "$1")
  stop_nginx "$1"
  sleep 0.5
}

echo "== measuring ($DURATION each, the pairs interleaved)"
QLOG="$PWD/$OUT/quire-access.log"
NLOG="$PWD/$OUT/nginx-access.log"
read -r ql_rps ql_p50 ql_p99 ql_cpu ql_bad ql_n < <(quire_run --access-log "$QLOG" --access-log-format combined)
read -r nl_rps nl_p50 nl_p99 nl_cpu nl_bad nl_n < <(nginx_run "$OUT/nginx-log" "$NLOG")
read -r qo_rps qo_p50 qo_p99 qo_cpu qo_bad _ < <(quire_run --access-log off)
read -r no_rps no_p50 no_p99 no_cpu no_bad _ < <(nginx_run "$OUT/nginx-off" off)
# Every request of the warm-up, the page fetch and the measured run has its line: nothing was dropped.
q_lines=$(wc -l <"$QLOG")
n_lines=$(wc -l <"$NLOG")
q_tail=$(tail -n 1 "$QLOG")

ratio() { awk -v q="$1" -v n="$2" 'BEGIN { printf "%.2f", q / n }'; }
met() { awk -v v="$1" -v max="$2" 'BEGIN { print (v <= max) ? "met" : "MISSED" }'; }

cat <<REPORT

Access log cost: public post page ($(stat -c %s "$OUT/post.html") bytes), wrk -t2 -c32 -d$DURATION, $(nproc) cores shared by server and wrk
quire: $BIN; nginx: $(nginx -v 2>&1 | sed 's/^nginx version: //'), worker_processes 2

                           req/s    p50 ms    p99 ms   CPU ms/req   errors   log lines
quire, log to a file  $(printf '%9s  %8s  %8s  %11s  %7s  %10s' "$ql_rps" "$ql_p50" "$ql_p99" "$ql_cpu" "$ql_bad" "$q_lines")
nginx, log to a file  $(printf '%9s  %8s  %8s  %11s  %7s  %10s' "$nl_rps" "$nl_p50" "$nl_p99" "$nl_cpu" "$nl_bad" "$n_lines")
quire, log off        $(printf '%9s  %8s  %8s  %11s  %7s' "$qo_rps" "$qo_p50" "$qo_p99" "$qo_cpu" "$qo_bad")
nginx, log off        $(printf '%9s  %8s  %8s  %11s  %7s' "$no_rps" "$no_p50" "$no_p99" "$no_cpu" "$no_bad")

quire / nginx, logs to files: req/s $(ratio "$ql_rps" "$nl_rps"), CPU per request $(ratio "$ql_cpu" "$nl_cpu") ($(met "$(ratio "$ql_cpu" "$nl_cpu")" 1.0) target <= 1.0)
quire / nginx, logs off:      req/s $(ratio "$qo_rps" "$no_rps"), CPU per request $(ratio "$qo_cpu" "$no_cpu") ($(met "$(ratio "$qo_cpu" "$no_cpu")" 1.0) target <= 1.0)
p99 at 32 connections: quire $ql_p99 ms with its log, $qo_p99 ms without ($(met "$ql_p99" 2)/$(met "$qo_p99" 2) target <= 2 ms)
the log's cost to quire: CPU per request $(ratio "$ql_cpu" "$qo_cpu")x with the log than without; nginx: $(ratio "$nl_cpu" "$no_cpu")x
quire's log has $q_lines lines for the $ql_n measured requests (plus warm-up); its last:
$q_tail
REPORT
