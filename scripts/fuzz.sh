#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz + libFuzzer, with AddressSanitizer) of the parsers an
# attacker reaches: the post body (block_body), subdomains (subdomain), the Host header
# (host_classify), search queries on a small index (search_query), backups given to
# `quire restore` (tar_restore), custom domains (custom_domain), DNS answers (dns_answer),
# remote servers' HTTP signature headers (ap_signature) and activities (inbound), and Ghost
# exports a signed-in user uploads (ghost_export). The targets live in fuzz/, a crate of
# its own that the normal build and `cargo test` never touch.
#
#   bash scripts/fuzz.sh                     # every target, 60 s each
#   bash scripts/fuzz.sh tar_restore 600     # one target, 10 minutes
#
# Needs rustup and cargo. cargo-fuzz is installed from crates.io when missing. It needs a
# nightly toolchain (for -Zsanitizer); when none is installed and `rustup toolchain install
# nightly` fails, the stable toolchain is used with RUSTC_BOOTSTRAP=1 (cargo-fuzz's own
# documented fallback). The corpus grows in fuzz/corpus/<target>/ (seeded from fuzz/seeds/
# and, for tar_restore, from a real `quire backup`); a crashing input is saved in
# fuzz/artifacts/<target>/ and reproduced with
# `cargo +nightly fuzz run <target> fuzz/artifacts/<target>/<file>`. Each run's libFuzzer
# output is in fuzz/artifacts/<target>.log. Exits non-zero when any target found a crash.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(block_body subdomain host_classify search_query tar_restore custom_domain dns_answer ap_signature inbound ghost_export comment_form webmention)
want=${1:-all}
seconds=${2:-60}
if [ "$want" != all ] && [[ ! " ${TARGETS[*]} " =~ " $want " ]]; then
  echo "fuzz.sh: unknown target '$want'; pick one of: ${TARGETS[*]}" >&2
  exit 2
fi
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: seconds must be a whole number, got '$seconds'" >&2; exit 2; }

toolchain=()
if rustup toolchain list | grep -q '^nightly'; then
  toolchain=(+nightly)
elif rustup toolchain install nightly --profile minimal >/dev/null 2>&1; then
  toolchain=(+nightly)
else
  echo "== no nightly toolchain: using stable with RUSTC_BOOTSTRAP=1"
  export RUSTC_BOOTSTRAP=1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi
export SKIP_UI_BUILD=1 # the targets use the library only; the owner app bundle is not needed

mkdir -p fuzz/artifacts
if [ "$want" = all ] || [ "$want" = tar_restore ]; then
  if [ -z "$(ls -A fuzz/corpus/tar_restore 2>/dev/null)" ]; then
    echo "== seeding tar_restore with a real backup"
    cargo build -q --bin quire
    seed=$(mktemp -d)
    trap 'rm -rf "$seed"' EXIT
    target/debug/quire migrate --data-dir "$seed/data" >/dev/null
    printf '\x89PNG seed' >"$seed/data/uploads/seed.png"
    mkdir -p fuzz/corpus/tar_restore
    target/debug/quire backup --data-dir "$seed/data" fuzz/corpus/tar_restore/backup.tar >/dev/null 2>&1
  fi
fi

failed=()
for target in "${TARGETS[@]}"; do
  [ "$want" = all ] || [ "$want" = "$target" ] || continue
  echo "== $target for ${seconds}s"
  mkdir -p "fuzz/corpus/$target"
  seeds=()
  [ -d "fuzz/seeds/$target" ] && seeds=("fuzz/seeds/$target")
  log="fuzz/artifacts/$target.log"
  rm -rf fuzz/target/restore-* fuzz/target/search-index-* # the targets' work folders of earlier runs
  # One process (the machine is small); stdout closed, since restore prints progress.
  if cargo "${toolchain[@]}" fuzz run "$target" "fuzz/corpus/$target" "${seeds[@]}" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=1 >"$log" 2>&1; then
    runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1 | awk '{ print $2 }')
    stats=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+' || true)
    echo "   no crash: ${runs:-?} runs in ${seconds}s ($stats)"
  else
    echo "   CRASH or build failure; the end of $log:"
    tail -n 30 "$log" | sed 's/^/   /'
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: failures in ${failed[*]} (inputs in fuzz/artifacts/)" >&2
  exit 1
fi
