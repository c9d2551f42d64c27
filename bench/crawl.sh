#!/usr/bin/env bash
# The crawler's view of an instance (issue 35): pages across every blog, most of them not in the
# page cache, measured against nginx serving the same bytes as files in the same run.
#
#   bash bench/crawl.sh [SCALE] [--profile]
#
# SCALE: 100k (default: 100,000 posts in 1,000 blogs of 100), 1m (1,000,000 posts in 10,000
# blogs) or a number of posts. It seeds a fresh data directory (bench/seed.py, then one to three
# tags per published post), builds the search index, starts `quire serve`, picks CRAWL_REQUESTS
# (default 20,000) random requests across every blog (70% post pages, 10% home pages, 10% tag pages,
# 5% blog feeds, 5% tag feeds), fetches each distinct page once to write nginx's copy, restarts
# Quire (so its page cache starts empty), then runs `wrk -t2 -c32` for BENCH_DURATION (default 20s)
# over those requests, first against nginx, then against Quire, with no compression asked, and
# prints requests per second, p50 and p99, the CPU per request of each server (user + system, from
# /proc) and their ratios, the page cache's hit rate (from Quire's log) and Quire's memory.
# With --profile, `perf record -g` samples Quire during its run and the top entries are printed
# (the whole report in bench/out/crawl-SCALE/perf.txt).
#
# Needs Debian's wrk and nginx-light (installed when missing), perf for --profile, Python 3 and
# cargo. QUIRE_BIN names a quire binary to measure instead of building the release one (a build
# with symbols, `cargo build --profile profiling`, for --profile). BENCH_PORT (default 18800).
# CRAWL_SERVE_FLAGS: more flags for `quire serve` (for example `--page-cache-mb 64`).
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=100k
PROFILE=0
for arg in "$@"; do
  case "$arg" in
    --profile) PROFILE=1 ;;
    -*) echo "bench/crawl.sh: unknown option $arg (usage: bash bench/crawl.sh [SCALE] [--profile])" >&2; exit 2 ;;
    *) SCALE=$arg ;;
  esac
done
case "${SCALE,,}" in
  *k) POSTS=$(( ${SCALE%[kK]} * 1000 )) ;;
  *m) POSTS=$(( ${SCALE%[mM]} * 1000000 )) ;;
  *[!0-9]* | "") echo "bench/crawl.sh: '$SCALE' is not a scale (100k, 1m or a number of posts)" >&2; exit 2 ;;
  *) POSTS=$SCALE ;;
esac
[ "$POSTS" -ge 200 ] || { echo "bench/crawl.sh: at least 200 posts (two blogs of 100)" >&2; exit 2; }
DURATION=${BENCH_DURATION:-20s}
REQUESTS=${CRAWL_REQUESTS:-20000}
PORT=${BENCH_PORT:-18800}
NGINX_PORT=$((PORT + 1))
HOST="localhost:$PORT"

need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || need+=(nginx-light)
if [ "$PROFILE" = 1 ] && ! command -v perf >/dev/null; then need+=(linux-perf); fi
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && s="" || s="sudo"
  $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq "${need[@]}" >/dev/null
fi
source bench/lib.sh
quire_binary
OUT="bench/out/crawl-$SCALE"
DATA="$OUT/data"
rm -rf "$OUT" && mkdir -p "$OUT"

trap stop_everything EXIT

# wrk is one client standing for many crawlers: the per-client limit on uncached renders
# (issue 35) is lifted for the run, where the binary has it.
LIFTED=()
if "$BIN" serve --help | grep -q -- --uncached-renders-per-minute; then
  LIFTED=(--uncached-renders-per-minute 100000000 --uncached-renders-burst 1000000)
fi
start_quire() {
  RUST_LOG="info,quire::http::blog::cache=debug" "$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" \
    --data-dir "$DATA" --access-log off ${CRAWL_SERVE_FLAGS:-} "${LIFTED[@]}" >>"$OUT/serve.log" 2>&1 &
  SERVER=$!
  wait_for_quire
}
stop_quire() {
  kill "$SERVER" 2>/dev/null || true
  while kill -0 "$SERVER" 2>/dev/null; do sleep 0.05; done
  SERVER=
}

echo "== seeding $POSTS posts in blogs of 100"
"$BIN" migrate --data-dir "$DATA" >/dev/null
python3 bench/seed.py "$DATA" "$POSTS" 100
python3 bench/crawl.py tags "$DATA"
echo "== building the search index"
"$BIN" reindex --data-dir "$DATA" 2>/dev/null
python3 bench/crawl.py urls "$DATA" "$REQUESTS" "$HOST" "$OUT/requests.tsv"

echo "== writing nginx's copy of every page"
start_quire
python3 bench/crawl.py mirror "$OUT/requests.tsv" "$PORT" "$OUT/www"
stop_quire

NGINX_DIR="$OUT/nginx"
# Each page at www/HOST/PATH/__page, the host without its port ($host), so one tree holds every blog.
run_nginx "$NGINX_DIR" off "server {
    listen 127.0.0.1:$NGINX_PORT;
    root $PWD/$OUT/www/\$host;
    default_type text/html;
    location / { try_files \$uri/__page =404; }
  }"

export CRAWL_URLS="$OUT/requests.tsv"
# One wrk run over the requests against 127.0.0.1:$1 (lib.sh's cpu_run), the CPU counted of the
# pids given after.
crawl_run() {
  local port=$1; shift
  WRK_ARGS=(-s bench/crawl.lua "http://127.0.0.1:$port")
  cpu_run "$@"
}

echo "== nginx: $DURATION of wrk -t2 -c32 over the requests"
wrk -t2 -c32 -d2s -s bench/crawl.lua "http://127.0.0.1:$NGINX_PORT" >/dev/null
read -r n_rps n_p50 n_p99 n_cpu n_bad n_req <<<"$(crawl_run "$NGINX_PORT" $(nginx_pids "$NGINX_DIR"))"
stop_nginx "$NGINX_DIR"
NGINX_DIR=

echo "== quire: $DURATION of wrk -t2 -c32 over the requests, from an empty page cache"
start_quire
idle_rss=$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status")
log_mark=$(wc -l <"$OUT/serve.log")
if [ "$PROFILE" = 1 ]; then
  perf record -F 999 -g -o "$OUT/perf.data" -p "$SERVER" 2>"$OUT/perf-record.log" &
  PERF=$!
  sleep 0.5
fi
read -r q_rps q_p50 q_p99 q_cpu q_bad q_req <<<"$(crawl_run "$PORT" "$SERVER")"
if [ "$PROFILE" = 1 ]; then
  kill -INT "$PERF"
  wait "$PERF" || true
fi
# The cache reports its hits and misses every 10 s: wait for the report covering the run's end.
sleep 11
loaded_rss=$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status")
peak_rss=$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status")
# Pages of files mapped (the binary, and the database where its readers map it) count in the
# resident size but are the kernel's page cache, given back under memory pressure.
loaded_anon=$(awk '/^RssAnon/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status")
# The cache's hits and misses of the run: the server's "page cache" lines (debug, every 10 s).
stop_quire
hits=$(tail -n +"$((log_mark + 1))" "$OUT/serve.log" | sed -n 's/.*page cache.* hits=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
misses=$(tail -n +"$((log_mark + 1))" "$OUT/serve.log" | sed -n 's/.*page cache.* misses=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
hit_rate=$(awk -v h="$hits" -v m="$misses" 'BEGIN { if (h + m) printf "%.1f%%", 100 * h / (h + m); else print "not reported" }')
distinct=$(sort -u "$OUT/requests.tsv" | wc -l)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
REPORT="$OUT/report.txt"
cat >"$REPORT" <<REPORT
crawl.sh at $SCALE ($POSTS posts, $((POSTS / 100)) blogs): $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $BIN
$REQUESTS random requests ($distinct distinct pages: 70% posts, 10% home pages, 10% tag pages, 5% feeds,
5% tag feeds), wrk -t2 -c32 -d$DURATION on loopback, no compression asked, no access logs

                  req/s   p50 ms   p99 ms  CPU ms/req  non-2xx
nginx (files)  $(printf '%8s %8s %8s %11s %8s' "$n_rps" "$n_p50" "$n_p99" "$n_cpu" "$n_bad")
quire          $(printf '%8s %8s %8s %11s %8s' "$q_rps" "$q_p50" "$q_p99" "$q_cpu" "$q_bad")
quire / nginx: $(ratio "$q_rps" "$n_rps")x the requests per second at $(ratio "$q_cpu" "$n_cpu")x the CPU per request
page cache: $hit_rate hits ($hits hits, $misses renders)
quire's memory: $idle_rss MB idle, $loaded_rss MB after the run ($loaded_anon MB its own, the rest mapped files), $peak_rss MB at its peak
REPORT
cat "$REPORT"
if [ "$PROFILE" = 1 ]; then
  perf report -i "$OUT/perf.data" --no-children --percent-limit 0.5 --stdio -g none 2>/dev/null >"$OUT/perf.txt" || true
  echo
  echo "perf: the top entries (self time; the whole report in $OUT/perf.txt)"
  grep -E '^ +[0-9.]+%' "$OUT/perf.txt" | head -25
fi
