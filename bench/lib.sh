# Sourced by the benchmark scripts.

# Sets BIN to the quire binary to measure: $QUIRE_BIN when set, else the release build (built now).
quire_binary() {
  if [ -n "${QUIRE_BIN:-}" ]; then
    BIN=$QUIRE_BIN
  else
    echo "== building the release binary"
    cargo build --release --locked -q
    BIN=target/release/quire
  fi
}

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

# Starts nginx (2 workers) from $1 (its directory, relative to the repository) with access_log $2
# ("off", or a file's path, written in combined format and not buffered: nginx's default) and the
# server block $3.
run_nginx() {
  local dir=$1 log=$2 server=$3
  mkdir -p "$dir/tmp"
  [ "$log" = off ] || log="$log combined"
  cat >"$dir/nginx.conf" <<NGINX
worker_processes 2;
pid $PWD/$dir/nginx.pid;
error_log $PWD/$dir/error.log warn;
events { worker_connections 1024; }
http {
  access_log $log;
  client_body_temp_path $PWD/$dir/tmp; proxy_temp_path $PWD/$dir/tmp;
  fastcgi_temp_path $PWD/$dir/tmp; uwsgi_temp_path $PWD/$dir/tmp; scgi_temp_path $PWD/$dir/tmp;
  $server
}
NGINX
  nginx -c "$PWD/$dir/nginx.conf" >/dev/null
  sleep 0.5
}

# Starts nginx from $1 (its directory) on 127.0.0.1:$2 serving the file $4 as /post.html, with
# access_log $3 (see run_nginx).
start_nginx() {
  local dir=$1 port=$2 log=$3 page=$4
  mkdir -p "$dir/www"
  cp "$page" "$dir/www/post.html"
  run_nginx "$dir" "$log" "server { listen 127.0.0.1:$port; root $PWD/$dir/www; default_type text/html; }"
}

# The EXIT trap of a benchmark: stops the server $SERVER and the nginx of $NGINX_DIR, when set.
SERVER=
NGINX_DIR=
stop_everything() {
  [ -z "$SERVER" ] || kill "$SERVER" 2>/dev/null || true
  [ -z "$NGINX_DIR" ] || stop_nginx "$NGINX_DIR"
}

# The pids of nginx started from $1: the master and its workers.
nginx_pids() {
  local master
  master=$(cat "$1/nginx.pid")
  echo "$master" $(pgrep -P "$master")
}

stop_nginx() {
  kill "$(cat "$1/nginx.pid" 2>/dev/null)" 2>/dev/null || true
}

# CPU seconds (user + system) used so far by the given processes.
cpu_seconds() {
  local total=0 pid ticks
  for pid in "$@"; do
    ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
    total=$((total + ticks))
  done
  awk -v t="$total" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f", t / hz }'
}

# One run of wrk -t2 -c32 --latency for $DURATION with the arguments of the array WRK_ARGS, the
# CPU counted of the processes given; prints "req/s p50 p99 cpu_ms_per_request non2xx requests".
cpu_run() {
  local before after
  before=$(cpu_seconds "$@")
  wrk -t2 -c32 -d"$DURATION" --latency "${WRK_ARGS[@]}" >"$OUT/wrk-public.txt"
  after=$(cpu_seconds "$@")
  awk -v cpu="$(awk -v a="$before" -v b="$after" 'BEGIN { print b - a }')" '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
    /requests in/ { requests = $1 } $1 == "Requests/sec:" { rps = $2 } /Non-2xx/ { bad = $NF }
    END { printf "%d %.3f %.3f %.4f %d %d\n", rps, p50, p99, cpu * 1000 / requests, bad + 0, requests }' "$OUT/wrk-public.txt"
}

# One public-page run (cpu_run) against the URL $1 with Host $2, the CPU counted of the processes
# given after.
public_run() {
  local url=$1 host=$2; shift 2
  WRK_ARGS=(-H "Host: $host" "$url")
  cpu_run "$@"
}
