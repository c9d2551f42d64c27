#!/usr/bin/env bash
# The import benchmark (issue 14): generates a WordPress export of POSTS posts (bench/gen_wxr.py:
# 1-6 KB of HTML each, categories and tags, drafts, scheduled posts and pages, no images),
# creates a blog in a fresh data directory (through `quire serve` and the API, signing in with
# the local issuer, then stops the server), and runs `quire import` on it under
# `/usr/bin/time -v`. It prints the posts imported, the wall time, posts per second and the
# peak resident memory (Maximum resident set size), beside the same figures, in the same run,
# for a reference import of REFERENCE posts (the first ones of the same export): with memory
# bounded, the large import's peak stays close to the small one's. Then it times
# `quire export --format archive` of the imported blog.
#
#   bash bench/import.sh                                          # 10,000 posts, release build
#   QUIRE_BIN=target/debug/quire bash bench/import.sh --posts 2000   # any binary, smaller
#
# Flags: --posts N (default 10000), --reference N (default 100). QUIRE_BIN picks the binary;
# without it the script builds the release binary (`cargo build --release`). IMPORT_PORT picks
# the port the server uses while the blogs are made (default 18850); everything stays on
# 127.0.0.1. Needs Python 3, curl and GNU time (`/usr/bin/time`; each installed with apt-get when
# missing).
# Files go to bench/out/import/.
set -euo pipefail
cd "$(dirname "$0")/.."

POSTS=10000
REFERENCE=100
while [ $# -gt 0 ]; do
  case "$1" in
    --posts) POSTS=${2:-}; shift 2 ;;
    --reference) REFERENCE=${2:-}; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "import.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$POSTS" "$REFERENCE"; do
  if ! [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
    echo "import.sh: --posts and --reference need a positive whole number, got '$n'" >&2
    exit 2
  fi
done

source bench/lib.sh
missing=()
command -v python3 >/dev/null || missing+=(python3)
command -v curl >/dev/null || missing+=(curl)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && s="" || s="sudo"
  $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq "${missing[@]}" >/dev/null
fi

quire_binary
OUT=bench/out/import
PORT=${IMPORT_PORT:-18850}
HOST="localhost:$PORT"
export RUST_LOG=${RUST_LOG:-warn}
rm -rf "$OUT" && mkdir -p "$OUT"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

echo "== generating WordPress exports of $POSTS and $REFERENCE posts"
python3 bench/gen_wxr.py --posts "$POSTS" --out "$OUT/large.xml"
python3 bench/gen_wxr.py --posts "$REFERENCE" --out "$OUT/reference.xml"

# A data directory with the blog `bench`, made through the API; the server stopped again.
make_blog() {
  local dir=$1
  "$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$dir" >"$dir.serve.out" 2>"$dir.serve.log" &
  local server=$!
  wait_for_quire
  kill -0 $server 2>/dev/null || { echo "import.sh: quire serve exited; see $dir.serve.log" >&2; exit 1; }
  (cd bench && python3 -c "import soak; soak.sign_up_with_blog($PORT, '$HOST', 'bench@example.com', 'bench')")
  kill -TERM $server
  wait $server
}

# Runs quire under GNU time; $1 names the run, the rest is quire's arguments.
timed() {
  local name=$1
  shift
  /usr/bin/time -v -o "$OUT/$name.time" "$BIN" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" || {
    echo "import.sh: quire $1 failed; see $OUT/$name.err" >&2
    exit 1
  }
}

# "<wall seconds> <peak RSS MB>" of a run.
figures() {
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
    /Maximum resident set size/ { rss = $2 / 1024 }
    END { printf "%.2f %.1f\n", s, rss }' "$OUT/$1.time"
}

# The posts and pages a run imported, from its report.
imported() {
  awk -F', ' '/^posts: / { split($1, p, ": "); split($2, q, ": "); print p[2] + q[2] }' "$OUT/$1.out"
}

for run in large reference; do
  make_blog "$OUT/$run-data"
  echo "== importing $OUT/$run.xml"
  timed "import-$run" import --data-dir "$OUT/$run-data" --host "$HOST" --blog bench "$OUT/$run.xml"
done
echo "== exporting the imported blog as an archive"
timed export export --data-dir "$OUT/large-data" --host "$HOST" --blog bench --format archive "$OUT/large.quire.zip"

read -r large_s large_mb <<<"$(figures import-large)"
read -r ref_s ref_mb <<<"$(figures import-reference)"
read -r export_s export_mb <<<"$(figures export)"
large_n=$(imported import-large)
ref_n=$(imported import-reference)
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }

echo
echo "Import benchmark: quire import of a WordPress export ($BIN), $(date -u +%F)"
echo "machine: $(nproc) cores, $(uname -m); load average at the start: $LOAD, at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-40s %8s %9s %9s %14s\n' "" "items" "wall s" "items/s" "peak RSS MB"
printf '%-40s %8s %9s %9s %14s\n' "import, $POSTS-item export ($(mb "$OUT/large.xml") MB)" "$large_n" "$large_s" \
  "$(awk -v n="$large_n" -v s="$large_s" 'BEGIN { printf "%.0f", n / (s > 0 ? s : 0.01) }')" "$large_mb"
printf '%-40s %8s %9s %9s %14s\n' "reference: $REFERENCE-item export" "$ref_n" "$ref_s" \
  "$(awk -v n="$ref_n" -v s="$ref_s" 'BEGIN { printf "%.0f", n / (s > 0 ? s : 0.01) }')" "$ref_mb"
printf '%-40s %8s %9s %9s %14s\n' "archive export of the large blog" "$large_n" "$export_s" \
  "$(awk -v n="$large_n" -v s="$export_s" 'BEGIN { printf "%.0f", n / (s > 0 ? s : 0.01) }')" "$export_mb"
awk -v a="$large_mb" -v b="$ref_mb" -v n="$POSTS" -v r="$REFERENCE" \
  'BEGIN { printf "peak RSS, %d items / %d items: %.2fx (for %.0fx the items)\n", n, r, a / b, n / r }'
echo "archive: $(mb "$OUT/large.quire.zip") MB; reports in $OUT/import-*.out"
if [ "$large_n" != "$POSTS" ]; then
  echo "import.sh: $large_n of $POSTS items were imported; see $OUT/import-large.out" >&2
  exit 1
fi
