# Sourced by the benchmark scripts.

# Waits (10 s at most) until quire on 127.0.0.1:$PORT answers /healthz for $HOST.
wait_for_quire() {
  for _ in $(seq 1 100); do
    curl -sf -H "Host: $HOST" "http://127.0.0.1:$PORT/healthz" >/dev/null && return
    sleep 0.1
  done
}

# One wrk run of the Lua script $1 with $2 connections against
# quire on 127.0.0.1:$PORT for $DURATION (wrk's output kept in $OUT/wrk.txt); prints
# "p50 p99 req/s non2xx" with latencies in ms.
measure() {
  local script=$1 conns=$2
  wrk -t1 -c"$conns" -d"$DURATION" --latency -s "$script" "http://127.0.0.1:$PORT" >"$OUT/wrk.txt"
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
    $1 == "Requests/sec:" { rps = $2 } /Non-2xx/ { bad = $NF }
    END { printf "%.3f %.3f %d %d\n", p50, p99, rps, bad + 0 }' "$OUT/wrk.txt"
}
