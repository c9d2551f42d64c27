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
# Each of the four runs BENCH_ROUNDS times (default 3), the four interleaved in every round, and the
# report gives each figure's median over the rounds and the CPU ratio of every round: on two cores
# shared by the server and wrk one 10 s run moves the ratio by up to ±15 %.
#
# BENCH_PROFILE=release builds the shipped profile (fat LTO, about 10 min here); the default is
# profiling (release with thin LTO, which builds in a few minutes; no debug assertions).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-10s}
PROFILE=${BENCH_PROFILE:-profiling}
ROUNDS=${BENCH_ROUNDS:-3}
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

echo "== measuring ($DURATION each, $ROUNDS rounds of the four, interleaved)"
NLOG="$PWD/$OUT/nginx-access.log"
ROWS="$OUT/rows.txt"
: >"$ROWS"
for round in $(seq 1 "$ROUNDS"); do
  # Every request of the warm-up, the page fetch and the measured run has its line: nothing was dropped.
  QLOG="$PWD/$OUT/quire-access-$round.log"
  read -r rps p50 p99 cpu bad n < <(quire_run --access-log "$QLOG" --access-log-format combined)
  echo "quire-log $round $rps $p50 $p99 $cpu $bad $n $(wc -l <"$QLOG")" >>"$ROWS"
  read -r rps p50 p99 cpu bad n < <(nginx_run "$OUT/nginx-log" "$NLOG")
  echo "nginx-log $round $rps $p50 $p99 $cpu $bad $n $(wc -l <"$NLOG")" >>"$ROWS"
  read -r rps p50 p99 cpu bad n < <(quire_run --access-log off)
  echo "quire-off $round $rps $p50 $p99 $cpu $bad $n -" >>"$ROWS"
  read -r rps p50 p99 cpu bad n < <(nginx_run "$OUT/nginx-off" off)
  echo "nginx-off $round $rps $p50 $p99 $cpu $bad $n -" >>"$ROWS"
  rm -f "$NLOG"
  echo "   round $round of $ROUNDS done"
done

echo
echo "Access log cost: public post page ($(stat -c %s "$OUT/post.html") bytes), wrk -t2 -c32 -d$DURATION, $(nproc) cores shared by server and wrk"
echo "quire: $BIN; nginx: $(nginx -v 2>&1 | sed 's/^nginx version: //'), worker_processes 2"
python3 - "$ROWS" "$(tail -n 1 "$OUT/quire-access-$ROUNDS.log")" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, rnd, rps, p50, p99, cpu, bad, n, lines = line.split()
    rows.setdefault(name, []).append(dict(rps=float(rps), p50=float(p50), p99=float(p99), cpu=float(cpu), bad=int(bad), n=int(n), lines=lines))
med = lambda name, key: statistics.median(r[key] for r in rows[name])
labels = {"quire-log": "quire, log to a file", "nginx-log": "nginx, log to a file", "quire-off": "quire, log off", "nginx-off": "nginx, log off"}
rounds = len(rows["quire-log"])
print(f"\nmedians of {rounds} rounds      req/s    p50 ms    p99 ms   CPU ms/req   errors (all rounds)")
for name, label in labels.items():
    print(f"{label:22} {med(name, 'rps'):9.0f}  {med(name, 'p50'):8.3f}  {med(name, 'p99'):8.3f}  {med(name, 'cpu'):11.4f}  {sum(r['bad'] for r in rows[name]):7d}")
def verdict(value, limit):
    return "met" if value <= limit else "MISSED"
print()
for pair, q, n in (("logs to files", "quire-log", "nginx-log"), ("logs off", "quire-off", "nginx-off")):
    per_round = [a["cpu"] / b["cpu"] for a, b in zip(rows[q], rows[n])]
    ratio = med(q, "cpu") / med(n, "cpu")
    print(f"quire / nginx, {pair + ':':15} req/s {med(q, 'rps') / med(n, 'rps'):.2f}, CPU per request {ratio:.2f} "
          f"({verdict(ratio, 1.0)} target <= 1.0); per round {' '.join(f'{r:.2f}' for r in per_round)}")
ql, qo = med("quire-log", "p99"), med("quire-off", "p99")
print(f"p99 at 32 connections: quire {ql:.3f} ms with its log, {qo:.3f} ms without ({verdict(ql, 2)}/{verdict(qo, 2)} target <= 2 ms); "
      f"nginx {med('nginx-log', 'p99'):.3f} / {med('nginx-off', 'p99'):.3f} ms")
print(f"the log's cost: quire {med('quire-log', 'cpu') / med('quire-off', 'cpu'):.2f}x CPU per request with the log than without; "
      f"nginx {med('nginx-log', 'cpu') / med('nginx-off', 'cpu'):.2f}x")
last = rows["quire-log"][-1]
print(f"quire's log of the last round has {last['lines']} lines for its {last['n']} measured requests (plus warm-up); its last:")
print(sys.argv[2])
PY
