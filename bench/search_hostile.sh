#!/usr/bin/env bash
# A hostile search query against a plain one (issue 11): seeds BLOGS blogs x POSTS posts (as
# run.sh does; default 1,000 x 100 = 100k posts) once into bench/out-hostile/data, then for each
# quire binary given (default the release build) starts `quire serve` on loopback and measures
# owner search with wrk: random one- or two-word queries (search.lua), and a fixed query of 25
# field-range clauses. Before issue 11 the ranges ran over every blog's terms; now they are
# plain words.
#
#   bash bench/search_hostile.sh [BLOGS] [POSTS_PER_BLOG] [QUIRE_BIN...]
set -euo pipefail
cd "$(dirname "$0")/.."
BLOGS=${1:-1000}
PER_BLOG=${2:-100}
shift $(( $# < 2 ? $# : 2 ))
BINS=("$@")
DURATION=${BENCH_DURATION:-10s}
OUT=bench/out-hostile
PORT=${BENCH_PORT:-18750}
HOST="localhost:$PORT"
HOSTILE=$(for i in $(seq 0 24); do case $((i % 3)) in 0) printf 'body:[a TO z] ';; 1) printf 'title:>a ';; 2) printf 'body:{b TO y} ';; esac; done)

command -v wrk >/dev/null || { [ "$(id -u)" = 0 ] && s="" || s="sudo"; $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq wrk >/dev/null; }
if [ ${#BINS[@]} = 0 ]; then
  cargo build --release --locked -q
  BINS=(target/release/quire)
fi
DATA="$OUT/data"
if [ ! -f "$OUT/seeded-$BLOGS-$PER_BLOG" ]; then
  echo "== seeding $BLOGS blogs x $PER_BLOG posts"
  rm -rf "$OUT" && mkdir -p "$OUT"
  "${BINS[0]}" migrate --data-dir "$DATA" >/dev/null
  python3 bench/seed.py "$DATA" $((BLOGS * PER_BLOG)) "$PER_BLOG"
  "${BINS[0]}" reindex --data-dir "$DATA" 2>/dev/null >/dev/null
  touch "$OUT/seeded-$BLOGS-$PER_BLOG"
fi

export BENCH_BLOGS="$BLOGS" BENCH_HOST="$HOST" BENCH_WORDS="$DATA/bench-words.txt"
source bench/lib.sh
# One row: p50, p99, req/s and errors of search.lua with $1 connections.
row() {
  read -r p50 p99 rps bad < <(measure bench/search.lua "$1")
  printf '%8s  %8s  %8s  %7s' "$p50" "$p99" "$rps" "$bad"
}

echo "Owner search, $BLOGS blogs x $PER_BLOG posts, wrk -t1, $DURATION per row, on $(nproc) cores"
echo "hostile query (${#HOSTILE} characters): $HOSTILE"
for bin in "${BINS[@]}"; do
  "$bin" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$DATA" >/dev/null 2>"$OUT/serve.log" &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  wait_for_quire
  wrk -t1 -c4 -d3s -s bench/search.lua "http://127.0.0.1:$PORT" >/dev/null
  echo
  echo "$bin"
  echo "                              p50 ms    p99 ms     req/s   errors"
  export BENCH_QUERY=""
  echo "plain words, 1 connection   $(row 1)"
  echo "plain words, 8 connections  $(row 8)"
  export BENCH_QUERY="$HOSTILE"
  echo "hostile, 1 connection       $(row 1)"
  echo "hostile, 8 connections      $(row 8)"
  kill "$server"
  wait "$server" 2>/dev/null || true
done
