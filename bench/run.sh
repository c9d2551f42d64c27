#!/usr/bin/env bash
# Quire's benchmark at one or more scales. For each scale (a number of posts, in blogs of 100
# posts), it seeds a fresh data directory, builds the index, starts the server cold, then
# measures over real HTTP on loopback: owner search and post-list latency (wrk), the public
# post page against nginx serving the same bytes, Lighthouse, search freshness after a save,
# and the server's memory. Then it prints each scale's figures and how each grew from the
# smallest scale to the largest. Nothing is needed but Debian's wrk and nginx-light (installed
# when missing), Python 3, cargo, Node.js with npm (Lighthouse) and /usr/bin/chromium.
#
#   bash bench/run.sh [SCALE ...]     SCALE: 10k, 100k, 1m, or a number of posts
#                                     (default: 10k 100k 1m; about 25 minutes in all)
#   bash bench/run.sh 2k              a quick smoke run
#
# Environment: BENCH_DURATION (wrk time per row, default 10s), BENCH_WARMUP (searches before the
# measurements, default 15s), BENCH_PER_BLOG (posts per blog,
# default 100), BENCH_CAP_MB (the memory cap of the capped run, default 60), BENCH_LIGHTHOUSE=0
# (skip Lighthouse), BENCH_PORT (default 18700),
# QUIRE_BIN (a quire binary to measure instead of building the release one).
set -euo pipefail
cd "$(dirname "$0")/.."
SCALES=("$@")
[ ${#SCALES[@]} -gt 0 ] || SCALES=(10k 100k 1m)
DURATION=${BENCH_DURATION:-10s}
WARMUP=${BENCH_WARMUP:-15s}
PER_BLOG=${BENCH_PER_BLOG:-100}
PORT=${BENCH_PORT:-18700}
HOST="localhost:$PORT"
OUT_ROOT=bench/out

posts_of() {
  case "${1,,}" in
    *k) echo $(( ${1%[kK]} * 1000 )) ;;
    *m) echo $(( ${1%[mM]} * 1000000 )) ;;
    *[!0-9]* | "") echo "bench/run.sh: '$1' is not a scale (10k, 100k, 1m or a number of posts)" >&2; exit 2 ;;
    *) echo "$1" ;;
  esac
}
for scale in "${SCALES[@]}"; do
  # Two blogs at least: the saves of the freshness probe go to blog 2.
  if [ "$(posts_of "$scale")" -lt $((2 * PER_BLOG)) ]; then
    echo "bench/run.sh: '$scale' is too small: at least $((2 * PER_BLOG)) posts (two blogs of $PER_BLOG)" >&2
    exit 2
  fi
done

if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
  [ "$(id -u)" = 0 ] && s="" || s="sudo"
  $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq wrk nginx-light >/dev/null
fi
source bench/lib.sh
quire_binary
rm -rf "$OUT_ROOT" && mkdir -p "$OUT_ROOT"
SUMMARY="$OUT_ROOT/summary.tsv"
# The root's page cache can be dropped for a cold start; elsewhere the start is only a restart.
DROP=""
[ -w /proc/sys/vm/drop_caches ] && DROP="--drop-caches"

trap stop_everything EXIT

# RSS of the server in MB, with its anonymous and file-backed parts: "rss anon file".
rss_parts() {
  awk '/^VmRSS/ { r = $2 } /^RssAnon/ { a = $2 } /^RssFile/ { f = $2 }
       END { printf "%.1f %.1f %.1f\n", r / 1024, a / 1024, f / 1024 }' "/proc/$1/status"
}
peak_rss() { awk '/^VmHWM/ { printf "%.1f\n", $2 / 1024 }' "/proc/$1/status"; }

# Starts the server through coldstart.py, which times its first answers; sets SERVER and
# STARTED ("healthz_ms page_ms"). $1: --drop-caches, or nothing.
start_server() {
  python3 bench/coldstart.py $1 "$OUT/server.pid" "$OUT/serve.log" "$HOST" "$BLOG_HOST" "$POST_PATH" -- \
    "$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$DATA" --access-log off >"$OUT/start.txt" || return 1
  SERVER=$(cat "$OUT/server.pid")
  STARTED=$(cat "$OUT/start.txt")
}

stop_server() {
  kill "$SERVER" 2>/dev/null || true
  while kill -0 "$SERVER" 2>/dev/null; do sleep 0.05; done
  SERVER=
}

# Seconds since the `date +%s.%N` reading $1, to a tenth.
elapsed_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

run_scale() {
  local scale=$1 posts blogs
  posts=$(posts_of "$scale")
  OUT="$OUT_ROOT/$scale"
  DATA="$OUT/data"
  mkdir -p "$OUT"
  BLOG_HOST="bench.localhost:$PORT"
  POST_PATH="/a-featured-post-for-benchmarks-featured"

  echo "== $scale: seeding $posts posts in blogs of $PER_BLOG"
  "$BIN" migrate --data-dir "$DATA" >/dev/null
  local start seed_s reindex_s
  start=$(date +%s.%N)
  python3 bench/seed.py "$DATA" "$posts" "$PER_BLOG"
  seed_s=$(elapsed_since "$start")
  blogs=$(( posts / PER_BLOG ))
  echo "== $scale: building the search index (quire reindex)"
  start=$(date +%s.%N)
  "$BIN" reindex --data-dir "$DATA" 2>/dev/null
  reindex_s=$(elapsed_since "$start")
  local db_mb index_mb
  db_mb=$(du -sm "$DATA/quire.db" | cut -f1)
  index_mb=$(du -sm "$DATA/index" | cut -f1)

  echo "== $scale: starting cold, then 5 restarts"
  local cold_health cold_page restarts=()
  start_server "$DROP"
  read -r cold_health cold_page <<<"$STARTED"
  for _ in 1 2 3 4 5; do
    stop_server
    start_server ""
    restarts+=("$STARTED")
  done
  local warm_health warm_page
  warm_health=$(printf '%s\n' "${restarts[@]}" | cut -d' ' -f1 | median)
  warm_page=$(printf '%s\n' "${restarts[@]}" | cut -d' ' -f2 | median)
  sleep 1
  local idle
  idle=$(rss_parts "$SERVER")

  export BENCH_BLOGS="$blogs" BENCH_HOST="$HOST" BENCH_WORDS="$DATA/bench-words.txt"
  export BENCH_LIST_PAGES=$(( (PER_BLOG + 9) / 10 ))
  # Until the index's pages searches touch are mapped (read from disk after the cold start, a
  # 4 KB fault at a time: the index is mapped for random reads): about 100 MB at 1M posts, where
  # 3 s left the 1-connection search's p99 at 4.2 ms against 1.9 ms once warm.
  echo "== $scale: warming up ($WARMUP of searches, 3 s of lists)"
  wrk -t1 -c8 -d"$WARMUP" -s bench/search.lua "http://127.0.0.1:$PORT" >/dev/null
  wrk -t1 -c4 -d3s -s bench/list.lua "http://127.0.0.1:$PORT" >/dev/null
  echo "== $scale: measuring ($DURATION each)"
  local s1 s8 l1 l8 loaded
  s1=$(measure bench/search.lua 1)
  s8=$(measure bench/search.lua 8)
  l1=$(measure bench/list.lua 1)
  l8=$(measure bench/list.lua 8)
  loaded=$(rss_parts "$SERVER")

  # ---- public post page vs nginx serving the same bytes ----
  local page_bytes page_gz_bytes text_bytes
  curl -sf -H "Host: $BLOG_HOST" "http://127.0.0.1:$PORT$POST_PATH" -o "$OUT/post.html"
  curl -sf -H "Host: $BLOG_HOST" -H "Accept-Encoding: gzip" "http://127.0.0.1:$PORT$POST_PATH" -o "$OUT/post.html.gz"
  page_bytes=$(stat -c %s "$OUT/post.html")
  page_gz_bytes=$(stat -c %s "$OUT/post.html.gz")
  text_bytes=$(python3 - "$DATA/quire.db" <<'PY'
import json, sqlite3, sys
body = sqlite3.connect(sys.argv[1]).execute("SELECT body FROM posts WHERE short_id = 'featured'").fetchone()[0]
print(sum(len(c["value"].get("text", "").encode()) for c in json.loads(body)["children"]))
PY
)
  NGINX_DIR="$OUT/nginx"
  start_nginx "$NGINX_DIR" $((PORT + 100)) off "$OUT/post.html"
  wrk -t2 -c32 -d2s -H "Host: $BLOG_HOST" "http://127.0.0.1:$PORT$POST_PATH" >/dev/null
  wrk -t2 -c32 -d2s "http://127.0.0.1:$((PORT + 100))/post.html" >/dev/null
  local q n
  q=$(public_run "http://127.0.0.1:$PORT$POST_PATH" "$BLOG_HOST" "$SERVER")
  n=$(public_run "http://127.0.0.1:$((PORT + 100))/post.html" "localhost" $(nginx_pids "$NGINX_DIR"))
  stop_nginx "$NGINX_DIR"
  NGINX_DIR=
  local public_loaded peak
  public_loaded=$(rss_parts "$SERVER")

  local lighthouse="skipped (BENCH_LIGHTHOUSE=0)"
  if [ "${BENCH_LIGHTHOUSE:-1}" != 0 ]; then
    echo "== $scale: Lighthouse"
    lighthouse=$(bash bench/lighthouse.sh "http://$BLOG_HOST$POST_PATH" "$OUT" 2>"$OUT/lighthouse.log" \
      || echo "Lighthouse failed: see $OUT/lighthouse.log")
  fi
  # Saves last: they open the index writer, which holds its indexing memory until 30 s idle.
  local fresh
  fresh=$(python3 bench/freshness.py "$PORT" "$HOST" 20)
  local writes
  writes=$(rss_parts "$SERVER")
  peak=$(peak_rss "$SERVER")
  stop_server

  # The same owner searches and lists with the server in a memory cgroup capped at CAP MB (its
  # heap and the page cache of the files it reads both count; the kernel reclaims the cache to
  # stay under the cap), started cold: what RSS cannot tell, whether it serves in that memory.
  local cap_s1_p50=0 cap=${BENCH_CAP_MB:-60} capped="not measured: needs root with a memory cgroup and a writable drop_caches"
  if [ -n "$DROP" ] && start_server "--drop-caches --memory-cap $cap" 2>/dev/null; then
    echo "== $scale: capped at $cap MB"
    wrk -t1 -c4 -d3s -s bench/search.lua "http://127.0.0.1:$PORT" >/dev/null
    local c_s1 c_s8 c_l1
    c_s1=$(measure bench/search.lua 1)
    c_s8=$(measure bench/search.lua 8)
    c_l1=$(measure bench/list.lua 1)
    capped=$(printf '                              p50 ms    p99 ms     req/s   errors
owner search, 1 connection  %8s  %8s  %8s  %7s
owner search, 8 connections %8s  %8s  %8s  %7s
post list page, 1 conn.     %8s  %8s  %8s  %7s
RSS at the end: %s MB (anonymous %s, file-backed %s)' $c_s1 $c_s8 $c_l1 $(rss_parts "$SERVER"))
    read -r cap_s1_p50 _ <<<"$c_s1"
    stop_server
  fi

  local cold_label="cold (page cache dropped)"
  [ -n "$DROP" ] || cold_label="first start (caches kept)"
  local weight weight_gz
  weight=$(awk -v p="$page_bytes" -v t="$text_bytes" 'BEGIN { printf "%.2f", p / t }')
  weight_gz=$(awk -v p="$page_gz_bytes" -v t="$text_bytes" 'BEGIN { printf "%.2f", p / t }')
  read -r s1_p50 s1_p99 s1_rps s1_bad <<<"$s1"
  read -r s8_p50 s8_p99 s8_rps s8_bad <<<"$s8"
  read -r l1_p50 l1_p99 l1_rps l1_bad <<<"$l1"
  read -r l8_p50 l8_p99 l8_rps l8_bad <<<"$l8"
  read -r q_rps q_p50 q_p99 q_cpu q_bad _ <<<"$q"
  read -r n_rps n_p50 n_p99 n_cpu n_bad _ <<<"$n"
  read -r idle_rss idle_anon idle_file <<<"$idle"
  read -r loaded_rss loaded_anon loaded_file <<<"$loaded"
  read -r public_rss _ _ <<<"$public_loaded"
  read -r writes_rss writes_anon writes_file <<<"$writes"
  local ratio cpu_ratio
  ratio=$(awk -v q="$q_rps" -v n="$n_rps" 'BEGIN { printf "%.2f", q / n }')
  cpu_ratio=$(awk -v q="$q_cpu" -v n="$n_cpu" 'BEGIN { printf "%.2f", q / n }')
  local total=$(( blogs * PER_BLOG + 1 ))

  tee "$OUT/report.txt" <<REPORT

Quire at $scale: $blogs blogs, $total posts (seeded in ${seed_s} s; database ${db_mb} MB, index ${index_mb} MB, reindex ${reindex_s} s)
machine: $(nproc) cores, $(uname -m); wrk over loopback, $DURATION per row; server and wrk share the machine

start to first answer       /healthz    post page
$(printf '%-26s %8s ms  %8s ms' "$cold_label" "$cold_health" "$cold_page")
$(printf '%-26s %8s ms  %8s ms' "restart (median of 5)" "$warm_health" "$warm_page")

                              p50 ms    p99 ms     req/s   errors
owner search, 1 connection  $(printf '%8s  %8s  %8s  %7s' "$s1_p50" "$s1_p99" "$s1_rps" "$s1_bad")
owner search, 8 connections $(printf '%8s  %8s  %8s  %7s' "$s8_p50" "$s8_p99" "$s8_rps" "$s8_bad")
post list page, 1 conn.     $(printf '%8s  %8s  %8s  %7s' "$l1_p50" "$l1_p99" "$l1_rps" "$l1_bad")
post list page, 8 conns.    $(printf '%8s  %8s  %8s  %7s' "$l8_p50" "$l8_p99" "$l8_rps" "$l8_bad")

Public post page ($POST_PATH, ${text_bytes} bytes of text), wrk -t2 -c32 -d$DURATION, no compression asked
                      req/s    p50 ms    p99 ms   CPU ms/req   errors
quire            $(printf '%8s  %8s  %8s  %11s  %7s' "$q_rps" "$q_p50" "$q_p99" "$q_cpu" "$q_bad")
nginx (static)   $(printf '%8s  %8s  %8s  %11s  %7s' "$n_rps" "$n_p50" "$n_p99" "$n_cpu" "$n_bad")
quire / nginx: ${ratio}x the requests per second at ${cpu_ratio}x the CPU per request
page weight: ${page_bytes} bytes HTML (${weight}x the text), ${page_gz_bytes} bytes gzipped (${weight_gz}x)

server RSS (MB)                          total   anonymous   file-backed
idle, after the first answers          $(printf '%7s  %10s  %12s' "$idle_rss" "$idle_anon" "$idle_file")
after the owner searches and lists     $(printf '%7s  %10s  %12s' "$loaded_rss" "$loaded_anon" "$loaded_file")
after the public page runs             $(printf '%7s' "$public_rss")
after 20 saves (index writer open)     $(printf '%7s  %10s  %12s' "$writes_rss" "$writes_anon" "$writes_file")
peak (VmHWM)                           $(printf '%7s' "$peak")
$fresh

Under a ${cap} MB memory cap (cgroup), started cold:
$capped

Lighthouse 12 of the post page:
$lighthouse
REPORT
  [ -s "$SUMMARY" ] || printf 'scale\tposts\tsearch_p50\tsearch_p99\tsearch8_p50\tsearch8_p99\tlist_p50\tlist_p99\tlist8_p50\tlist8_p99\tpublic_rps\tpublic_vs_nginx\tcpu_vs_nginx\tcold_ms\trestart_ms\tidle_rss\tloaded_rss\tpeak_rss\treindex_s\tdb_mb\tindex_mb\tcapped_search_p50\n' >"$SUMMARY"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$scale" "$total" "$s1_p50" "$s1_p99" "$s8_p50" "$s8_p99" "$l1_p50" "$l1_p99" "$l8_p50" "$l8_p99" \
    "$q_rps" "$ratio" "$cpu_ratio" "$cold_page" "$warm_page" "$idle_rss" "$loaded_rss" "$peak" \
    "$reindex_s" "$db_mb" "$index_mb" "$cap_s1_p50" >>"$SUMMARY"
}

for scale in "${SCALES[@]}"; do
  run_scale "$scale"
done

echo
echo "== Summary (bench/out/summary.tsv)"
python3 bench/summary.py "$SUMMARY"
