#!/usr/bin/env bash
# Quire's benchmark: seeds BLOGS blogs x POSTS posts (default 1,000 x 100 = 100k posts), then
# measures owner search and post-list latency over real HTTP on loopback with wrk, search
# freshness after a save, and the server's memory. Prints the figures; nothing else is needed
# but Debian's wrk (installed when missing), Python 3 and cargo.
#
#   bash bench/run.sh [BLOGS] [POSTS_PER_BLOG]
set -euo pipefail
cd "$(dirname "$0")/.."
BLOGS=${1:-1000}
PER_BLOG=${2:-100}
DURATION=${BENCH_DURATION:-10s}
OUT=bench/out
PORT=${BENCH_PORT:-18700}
HOST="localhost:$PORT"

if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
  [ "$(id -u)" = 0 ] && s="" || s="sudo"
  $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq wrk nginx-light >/dev/null
fi

echo "== building the release binary"
cargo build --release --locked -q
BIN=target/release/quire
rm -rf "$OUT" && mkdir -p "$OUT"
DATA="$OUT/data"

echo "== seeding $BLOGS blogs x $PER_BLOG posts"
"$BIN" migrate --data-dir "$DATA" >/dev/null
python3 bench/seed.py "$DATA" "$BLOGS" "$PER_BLOG"
start=$(date +%s.%N)
"$BIN" reindex --data-dir "$DATA" 2>/dev/null
reindex_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
db_mb=$(du -sm "$DATA/quire.db" | cut -f1)
index_mb=$(du -sm "$DATA/index" | cut -f1)

"$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$DATA" >"$OUT/serve.out" 2>"$OUT/serve.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
source bench/lib.sh
wait_for_quire

export BENCH_BLOGS="$BLOGS" BENCH_HOST="$HOST" BENCH_WORDS="$DATA/bench-words.txt"
export BENCH_LIST_PAGES=$(( (PER_BLOG + 9) / 10 ))
echo "== warming up"
wrk -t1 -c4 -d3s -s bench/search.lua "http://127.0.0.1:$PORT" >/dev/null
wrk -t1 -c4 -d3s -s bench/list.lua "http://127.0.0.1:$PORT" >/dev/null

echo "== measuring ($DURATION each)"
read -r s1_p50 s1_p99 s1_rps s1_bad < <(measure bench/search.lua 1)
read -r s8_p50 s8_p99 s8_rps s8_bad < <(measure bench/search.lua 8)
read -r l1_p50 l1_p99 l1_rps l1_bad < <(measure bench/list.lua 1)
read -r l8_p50 l8_p99 l8_rps l8_bad < <(measure bench/list.lua 8)
rss_mb=$(( $(ps -o rss= -p "$SERVER") / 1024 ))

# ---- public post page vs nginx serving the same bytes ----
BLOG_HOST="bench.localhost:$PORT"
POST_PATH="/a-featured-post-for-benchmarks-featured"
NGINX_PORT=$((PORT + 100))
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
start_nginx "$OUT/nginx" "$NGINX_PORT" off "$OUT/post.html"
trap 'kill $SERVER 2>/dev/null || true; stop_nginx "$OUT/nginx"' EXIT

wrk -t2 -c32 -d2s -H "Host: $BLOG_HOST" "http://127.0.0.1:$PORT$POST_PATH" >/dev/null
wrk -t2 -c32 -d2s "http://127.0.0.1:$NGINX_PORT/post.html" >/dev/null
read -r q_rps q_p50 q_p99 q_cpu q_bad _ < <(public_run "http://127.0.0.1:$PORT$POST_PATH" "$BLOG_HOST" "$SERVER")
read -r n_rps n_p50 n_p99 n_cpu n_bad _ < <(public_run "http://127.0.0.1:$NGINX_PORT/post.html" "localhost" $(nginx_pids "$OUT/nginx"))
q_rss=$(( $(ps -o rss= -p "$SERVER") / 1024 ))
n_rss=$(( $(ps -o rss= -p "$(nginx_pids "$OUT/nginx" | tr ' ' ',')" | awk '{ s += $1 } END { print s }') / 1024 ))
ratio=$(awk -v q="$q_rps" -v n="$n_rps" 'BEGIN { printf "%.0f", 100 * q / n }')
echo "== Lighthouse"
lighthouse=$(bash bench/lighthouse.sh "http://$BLOG_HOST$POST_PATH" "$OUT" 2>"$OUT/lighthouse.log" || echo "Lighthouse failed: see $OUT/lighthouse.log")
# Saves last: they open the index writer, which holds its indexing memory until 30 s idle.
fresh=$(python3 bench/freshness.py "$PORT" "$HOST" 20)
rss_writes=$(( $(ps -o rss= -p "$SERVER") / 1024 ))
weight=$(awk -v p="$page_bytes" -v t="$text_bytes" 'BEGIN { printf "%.2f", p / t }')
weight_gz=$(awk -v p="$page_gz_bytes" -v t="$text_bytes" 'BEGIN { printf "%.2f", p / t }')

cat <<REPORT

Quire benchmark: $BLOGS blogs, $((BLOGS * PER_BLOG + 1)) posts (database ${db_mb} MB, index ${index_mb} MB, reindex ${reindex_s} s)
machine: $(nproc) cores, $(uname -m); wrk -t1 over loopback, $DURATION per row; server and wrk share the machine

                              p50 ms    p99 ms     req/s   errors
owner search, 1 connection  $(printf '%8s  %8s  %8s  %7s' "$s1_p50" "$s1_p99" "$s1_rps" "$s1_bad")
owner search, 8 connections $(printf '%8s  %8s  %8s  %7s' "$s8_p50" "$s8_p99" "$s8_rps" "$s8_bad")
post list page, 1 conn.     $(printf '%8s  %8s  %8s  %7s' "$l1_p50" "$l1_p99" "$l1_rps" "$l1_bad")
post list page, 8 conns.    $(printf '%8s  %8s  %8s  %7s' "$l8_p50" "$l8_p99" "$l8_rps" "$l8_bad")

$fresh
server RSS after the owner searches and lists: ${rss_mb} MB; after the 20 saves: ${rss_writes} MB
(the search index writer keeps its indexing memory while posts are being written and closes after 30 s idle)
targets (issue 4): search p50 <= 2 ms and p99 <= 10 ms, list page <= 5 ms, searchable <= 1 s after a save

Public post page ($POST_PATH, ${text_bytes} bytes of text), wrk -t2 -c32 -d$DURATION, no compression asked
                      req/s    p50 ms    p99 ms   CPU ms/req   RSS MB   errors
quire            $(printf '%8s  %8s  %8s  %11s  %7s  %7s' "$q_rps" "$q_p50" "$q_p99" "$q_cpu" "$q_rss" "$q_bad")
nginx (static)   $(printf '%8s  %8s  %8s  %11s  %7s  %7s' "$n_rps" "$n_p50" "$n_p99" "$n_cpu" "$n_rss" "$n_bad")
quire / nginx: ${ratio} % of the requests per second
page weight: ${page_bytes} bytes HTML (${weight}x the text), ${page_gz_bytes} bytes gzipped (${weight_gz}x)
Lighthouse 12 of the post page:
$lighthouse
targets (issue 6): >= 40 % of nginx, <= 0.03 ms CPU per request, p99 <= 5 ms, RSS <= 60 MB, weight <= 1.3x,
Lighthouse 100 in all four categories
REPORT
