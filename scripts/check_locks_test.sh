#!/usr/bin/env bash
# Tests scripts/check_locks.sh on copies of bench/'s package.json and package-lock.json in a temporary
# directory: the copy as committed passes; a lock missing the entry `npm ci` once refused on a fresh machine
# (third-party-web under @paulirish/trace_engine) fails and names it; a package.json asking for another
# version than the lock holds fails. Prints "N passed, N failed" and exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0; failed=0

# copy NAME: bench/'s package.json and package-lock.json in $work/NAME
copy() { mkdir -p "$work/$1" && cp bench/package.json bench/package-lock.json "$work/$1/"; }

# expect NAME STATUS TEXT: check_locks.sh on $work/NAME exits STATUS and prints TEXT
expect() {
  local name=$1 want=$2 text=$3 out status
  out=$(bash scripts/check_locks.sh "$work/$name" 2>&1)
  status=$?
  if [ "$status" -eq "$want" ] && grep -qF -- "$text" <<<"$out"; then
    echo "ok   $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name: wanted exit $want and \"$text\", got exit $status:"
    printf '%s\n' "$out" | sed 's/^/  /'
    failed=$((failed + 1))
  fi
}

copy in-sync
expect in-sync 0 "ok $work/in-sync"

copy missing-entry
node -e '
  const fs = require("fs"), f = process.argv[1], lock = JSON.parse(fs.readFileSync(f, "utf8"));
  const key = "node_modules/@paulirish/trace_engine/node_modules/third-party-web";
  if (!lock.packages[key]) { console.error("bench/package-lock.json has no " + key); process.exit(1); }
  delete lock.packages[key];
  fs.writeFileSync(f, JSON.stringify(lock, null, 2) + "\n");
' "$work/missing-entry/package-lock.json" || failed=$((failed + 1))
expect missing-entry 1 "Missing: third-party-web@"

copy other-version
node -e '
  const fs = require("fs"), f = process.argv[1], pkg = JSON.parse(fs.readFileSync(f, "utf8"));
  pkg.devDependencies.lighthouse = "12.8.1";
  fs.writeFileSync(f, JSON.stringify(pkg, null, 2) + "\n");
' "$work/other-version/package.json"
expect other-version 1 "DRIFT $work/other-version"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
