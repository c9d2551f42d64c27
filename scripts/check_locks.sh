#!/usr/bin/env bash
# Fails when a package-lock.json has drifted from its package.json, the way `npm ci` on a fresh machine
# would refuse it ("can only install packages when your package.json and package-lock.json ... are in
# sync", e.g. "Missing: third-party-web@0.30.0 from lock file").
#   bash scripts/check_locks.sh          every package-lock.json git tracks (ui/, bench/, tests/*)
#   bash scripts/check_locks.sh DIR...   the package.json + package-lock.json in each DIR
# Each pair is copied to a temporary directory and checked there with `npm ci --dry-run`, so nothing is
# installed or changed; with the packages in npm's cache it needs no network (about 1 s per lock file).
# Prints one line per lock file, "ok DIR" or "DRIFT DIR" with npm's reason, and exits 1 on any drift.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
  dirs=("$@")
else
  mapfile -t dirs < <(git ls-files -- '*package-lock.json' ':!:**/node_modules/**' | xargs -r -n1 dirname)
fi
[ ${#dirs[@]} -gt 0 ] || { echo "no package-lock.json found"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
drift=0
for dir in "${dirs[@]}"; do
  if [ ! -f "$dir/package.json" ] || [ ! -f "$dir/package-lock.json" ]; then
    echo "DRIFT $dir: package.json or package-lock.json is missing"
    drift=1
    continue
  fi
  copy="$work/$(printf '%s' "$dir" | tr '/' '_')"
  mkdir -p "$copy"
  cp "$dir/package.json" "$dir/package-lock.json" "$copy/"
  if (cd "$copy" && npm ci --dry-run --ignore-scripts --prefer-offline --no-audit --no-fund >"$copy.out" 2>&1); then
    echo "ok $dir"
  else
    # npm's reason: its "Missing: ..." / "Invalid: ..." lines, or its first error line (no network, ...).
    reason=$(grep -E '^npm error (Missing|Invalid): ' "$copy.out" | sed 's/^npm error //' | head -5)
    [ -n "$reason" ] || reason=$(grep -m1 '^npm error' "$copy.out" | sed 's/^npm error //')
    echo "DRIFT $dir: \`npm ci\` refuses its package-lock.json; update it with \`npm install --package-lock-only\` there"
    printf '%s\n' "$reason" | sed 's/^/  /'
    drift=1
  fi
done
exit "$drift"
