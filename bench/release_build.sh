#!/usr/bin/env bash
# How long a release build takes and how much memory it needs, from nothing: scripts/release.sh's
# build (cargo-zigbuild for glibc 2.28) with the release profile (fat LTO, one codegen unit, as many
# jobs as cores) and with --small-machine's profile (no cross-crate LTO, one job), each in a fresh
# target directory. Prints each build's wall time, CPU time and peak memory: the largest resident
# set of any one process of the build (GNU time's "Maximum resident set size"; with one job it is
# the build's peak, with several, jobs compiling different crates at once add up to more while the
# dependencies build, but the final link with fat LTO is one process alone).
#
# Usage: bash bench/release_build.sh [release|small-machine|both] [--side-by-side]
#   --side-by-side  build both at once (the small-machine build takes one core): faster to measure,
#                   the peak memory is each build's own, the times are longer than alone.
# Needs GNU time (/usr/bin/time, Debian's time package). Takes 15 to 40 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-both}
side_by_side=0
[ "${2:-}" = --side-by-side ] && side_by_side=1
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time"; exit 1; }
source scripts/zig_tools.sh
out=bench/out/release-build
mkdir -p "$out"

build() {
  local profile=$1; shift
  local dir=$out/target-$profile
  rm -rf "$dir"
  echo "building with the $profile profile in $dir $*"
  CARGO_TARGET_DIR=$dir QUIRE_COMMIT=$(git rev-parse --short=12 HEAD) /usr/bin/time -v -o "$out/$profile.time" \
    cargo-zigbuild build --locked --profile "$profile" "$@" --target x86_64-unknown-linux-gnu.2.28 --bin quire \
    > "$out/$profile.log" 2>&1
  ls -l "$dir/x86_64-unknown-linux-gnu/$profile/quire" > "$out/$profile.size"
}

report() {
  local profile=$1 wall user sys peak size
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/$profile.time")
  user=$(sed -n 's/.*User time (seconds): //p' "$out/$profile.time")
  sys=$(sed -n 's/.*System time (seconds): //p' "$out/$profile.time")
  peak=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/$profile.time")
  size=$(awk '{ print $5 }' "$out/$profile.size")
  awk -v p="$profile" -v w="$wall" -v u="$user" -v s="$sys" -v m="$peak" -v b="$size" 'BEGIN {
    printf "%-14s wall %8s  cpu %6.0f s  peak memory %5.0f MB  binary %5.1f MB\n", p, w, u + s, m / 1024, b / 1048576
  }'
}

case "$which" in
  release) build release ;;
  small-machine) build small-machine -j 1 ;;
  both)
    if [ "$side_by_side" = 1 ]; then
      build small-machine -j 1 &
      small=$!
      build release
      wait "$small"
    else
      build release
      build small-machine -j 1
    fi
    ;;
  *) echo "usage: bench/release_build.sh [release|small-machine|both] [--side-by-side]"; exit 1 ;;
esac
echo
for profile in release small-machine; do
  [ -f "$out/$profile.time" ] && report "$profile"
done
