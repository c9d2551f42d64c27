#!/usr/bin/env bash
# The mail benchmark (issue 30): one post sent to N confirmed subscribers (default 10,000)
# through a real SMTP server on loopback (tests/support/smtp_sink.py, Debian's python3-aiosmtpd,
# which writes each message to a file), with the per-minute and per-blog caps lifted. Prints the
# time from publishing to the last message stored, messages per second, and quire's resident
# memory before, during (sampled every 200 ms) and at its high-water mark; beside them, in the
# same run against the same server, a reference: Python's smtplib sending as many messages of
# the same size, one connection each (as quire does), so the ratio says what quire's queue,
# rendering and bookkeeping cost over the SMTP exchange itself.
#
#   bash bench/mail.sh                                             # 10,000, release build
#   QUIRE_BIN=target/debug/quire bash bench/mail.sh --subscribers 2000   # any binary, smaller
#
# Flags: --subscribers N (default 10000). QUIRE_BIN picks the binary; without it the script
# builds the release binary. MAIL_PORT (default 18870) and MAIL_SMTP_PORT (default 18871) pick
# the ports; everything stays on 127.0.0.1. Needs Python 3, curl and python3-aiosmtpd (installed
# with apt-get when missing). Files go to bench/out/mail/.
set -euo pipefail
cd "$(dirname "$0")/.."

N=10000
while [ $# -gt 0 ]; do
  case "$1" in
    --subscribers) N=${2:-}; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "mail.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ "$N" =~ ^[1-9][0-9]*$ ]]; then
  echo "mail.sh: --subscribers needs a positive whole number, got '$N'" >&2
  exit 2
fi

source bench/lib.sh
missing=()
command -v curl >/dev/null || missing+=(curl)
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null || missing+=(python3-aiosmtpd)
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && s="" || s="sudo"
  $s apt-get update -qq && DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq "${missing[@]}" >/dev/null
fi

quire_binary
OUT=bench/out/mail
PORT=${MAIL_PORT:-18870}
SMTP_PORT=${MAIL_SMTP_PORT:-18871}
HOST="localhost:$PORT"
export RUST_LOG=${RUST_LOG:-warn}
rm -rf "$OUT" && mkdir -p "$OUT/mailbox" "$OUT/data"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

/usr/bin/python3 tests/support/smtp_sink.py "$OUT/mailbox" "$SMTP_PORT" >"$OUT/sink.out" 2>"$OUT/sink.log" &
SINK=$!
"$BIN" serve --listen "127.0.0.1:$PORT" --host "$HOST" --data-dir "$OUT/data" \
  --smtp-url "smtp://127.0.0.1:$SMTP_PORT" --mail-from "Quire <noreply@localhost>" --mail-grace 1s \
  --mail-per-minute 100000000 --mail-per-blog-per-day 100000000 >"$OUT/serve.out" 2>"$OUT/serve.log" &
SERVER=$!
trap 'kill $SERVER $SINK 2>/dev/null || true' EXIT
wait_for_quire
kill -0 $SERVER 2>/dev/null || { echo "mail.sh: quire serve exited; see $OUT/serve.log" >&2; exit 1; }
grep -q ready "$OUT/sink.out" || sleep 1

echo "== one post to $N subscribers"
(cd bench && /usr/bin/python3 mail.py "$PORT" "$HOST" "../$OUT/data" "../$OUT/mailbox" "$SMTP_PORT" "$SERVER" "$N") \
  | tee "$OUT/figures.txt"
fig() { awk -v k="$1" '$1 == k { print $2 }' "$OUT/figures.txt"; }

echo
echo "Mail benchmark: one post to $N subscribers ($BIN), $(date -u +%F)"
echo "machine: $(nproc) cores, $(uname -m); load average at the start: $LOAD, at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-52s %9s %9s\n' "" "wall s" "msg/s"
printf '%-52s %9s %9s\n' "quire: publish to the last message stored" "$(fig quire_seconds)" "$(fig quire_per_second)"
printf '%-52s %9s %9s\n' "reference: smtplib, same size, one connection each" "$(fig reference_seconds)" "$(fig reference_per_second)"
awk -v q="$(fig quire_per_second)" -v r="$(fig reference_per_second)" \
  'BEGIN { printf "quire / reference, messages per second: %.2f\n", q / r }'
echo "message size: $(fig message_bytes) bytes; quire RSS: $(fig rss_before_mb) MB before, $(fig rss_peak_during_mb) MB at most while sending (sampled), high-water $(fig rss_high_water_mb) MB"
