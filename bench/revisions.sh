#!/usr/bin/env bash
# Revision storage (issue 32, docs/revisions.md): one realistic post (about 1,500 words, 20 blocks)
# saved N times (default 1,000) through the API, each save a small edit, against a fresh data
# directory. Prints the revision rows and bytes kept (the content's length() sum, and the table's
# and its index's pages from dbstat) and the database file's size before and after the saves.
#
#   bash bench/revisions.sh                                          # 1,000 saves, release build
#   QUIRE_BIN=target/debug/quire bash bench/revisions.sh --saves 300  # any binary, fewer saves
#
# Flags: --saves N (default 1000). QUIRE_BIN picks the binary; without it the script builds the
# release binary. REVISIONS_PORT (default 18880) picks the port; everything stays on 127.0.0.1.
# Needs Python 3 and curl. Files go to bench/out/revisions/.
set -euo pipefail
cd "$(dirname "$0")/.."

N=1000
while [ $# -gt 0 ]; do
  case "$1" in
    --saves) N=${2:-}; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "revisions.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ "$N" =~ ^[1-9][0-9]*$ ]] || [ "$N" -gt 100000 ]; then
  echo "revisions.sh: --saves needs a whole number from 1 to 100000, got '$N'" >&2
  exit 2
fi

source bench/lib.sh
quire_binary
OUT=bench/out/revisions
PORT=${REVISIONS_PORT:-18880}
HOST="localhost:$PORT"
export RUST_LOG=${RUST_LOG:-warn}
rm -rf "$OUT" && mkdir -p "$OUT/data"

"$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$OUT/data" >"$OUT/serve.out" 2>"$OUT/serve.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
wait_for_quire
kill -0 $SERVER 2>/dev/null || { echo "revisions.sh: quire serve exited; see $OUT/serve.log" >&2; exit 1; }

echo "== one post saved $N times"
(cd bench && timeout 3600 /usr/bin/python3 revisions.py "$PORT" "$HOST" "../$OUT/data" "$N") | tee "$OUT/figures.txt"
fig() { awk -v k="$1" '$1 == k { print $2 }' "$OUT/figures.txt"; }

echo
echo "Revision storage: one post of $(fig post_words) words and $(fig post_blocks) blocks saved $N times ($BIN), $(date -u +%F)"
echo "revision rows kept: $(fig revision_rows) (the newest 100, older ones thinned to one a day)"
echo "their content: $(fig revision_content_bytes) bytes; the table and its index: $(fig revision_table_and_index_bytes) bytes"
echo "database file: $(fig db_bytes_before) bytes before the saves, $(fig db_bytes_after) after"
echo "saves: $(fig save_seconds) s, $(fig saves_per_second) a second"
