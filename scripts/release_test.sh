#!/usr/bin/env bash
# Checks what scripts/release.sh writes, packaging BINARY (a Quire built for glibc 2.28 with
# QUIRE_COMMIT set: scripts/test.sh passes the build its tests ran on) into a temporary dist/:
# the tarball's files, the binary's highest glibc symbol (objdump -T), the .deb (dpkg-deb --info
# and --contents, its conffile, lintian), the unit (systemd-analyze verify), that the tarball's
# binary starts from an empty directory and answers, and that its `quire doctor` passes there;
# and that release.sh refuses a binary needing a newer glibc and a VERSION other than Cargo.toml's.
#
# Usage: bash scripts/release_test.sh BINARY. Ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: scripts/release_test.sh BINARY}
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
tmp=$(mktemp -d)
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0 failed=0

# check WHAT COMMAND...: runs COMMAND, prints "ok WHAT" or "FAIL WHAT" with its output.
check() {
  local what=$1; shift
  if "$@" > "$tmp/check.log" 2>&1; then
    echo "ok $what"; passed=$((passed + 1))
  else
    echo "FAIL $what"; sed 's/^/    /' "$tmp/check.log"; failed=$((failed + 1))
  fi
}

dist=$tmp/dist
tarball=$dist/quire-$version-x86_64-linux.tar.gz
deb=$dist/quire_${version}_amd64.deb

check "release.sh packages $binary into $dist" bash scripts/release.sh "$version" --binary "$binary" --out "$dist"

sums_match() {
  [ "$(cd "$dist" && ls | sort | tr '\n' ' ')" = "SHA256SUMS quire-$version-x86_64-linux.tar.gz quire_${version}_amd64.deb " ] \
    || { echo "dist holds: $(ls "$dist")"; return 1; }
  (cd "$dist" && sha256sum -c SHA256SUMS)
}
check "dist/ holds the tarball, the .deb and SHA256SUMS, whose sums match" sums_match

tarball_files() {
  local listed expected
  listed=$(tar -tzf "$tarball" | sort | tr '\n' ' ')
  expected=""
  for f in "" LICENSE NOTICE README.md quire quire.env quire.service; do
    expected+="quire-$version-x86_64-linux/$f "
  done
  [ "$listed" = "$expected" ] || { echo "the tarball holds: $listed"; echo "expected: $expected"; return 1; }
  tar -xzf "$tarball" -C "$tmp"
  grep -q '^ExecStart=/usr/local/bin/quire serve$' "$tmp/quire-$version-x86_64-linux/quire.service"
}
check "the tarball holds the binary, README.md, LICENSE, NOTICE, quire.service (/usr/local/bin) and quire.env" tarball_files
unpacked=$tmp/quire-$version-x86_64-linux/quire

glibc_at_most_2_28() {
  local highest
  highest=$(objdump -T "$unpacked" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
  echo "highest glibc symbol version: $highest"
  [ -n "$highest" ] && [ "$(printf '%s\n2.28\n' "$highest" | sort -V | tail -n 1)" = 2.28 ]
}
check "the tarball's binary needs glibc 2.28 at most (objdump -T)" glibc_at_most_2_28

version_names_commit() {
  "$unpacked" --version | tee /dev/stderr | grep -Eq "^quire $version \(commit [0-9a-f]{7,}\)$"
}
check "quire --version prints the version and the commit" version_names_commit

deb_info() {
  dpkg-deb --info "$deb" > "$tmp/info"
  cat "$tmp/info"
  grep -q '^ Package: quire$' "$tmp/info" && grep -q "^ Version: $version$" "$tmp/info" \
    && grep -q '^ Architecture: amd64$' "$tmp/info" && grep -q '^ Depends: libc6 (>= 2.28)$' "$tmp/info"
}
check ".deb: dpkg-deb --info names quire $version, amd64, libc6 (>= 2.28)" deb_info

deb_contents() {
  dpkg-deb --contents "$deb" > "$tmp/contents"
  cat "$tmp/contents"
  grep -Eq '^-rwxr-xr-x root/root .* \./usr/bin/quire$' "$tmp/contents" \
    && grep -Eq '^-rw-r--r-- root/root .* \./lib/systemd/system/quire\.service$' "$tmp/contents" \
    && grep -Eq '^-rw------- root/root .* \./etc/quire/quire\.env$' "$tmp/contents" \
    && grep -Eq '\./usr/share/man/man1/quire\.1\.gz$' "$tmp/contents" \
    && grep -Eq '\./usr/share/man/man1/quire-serve\.1\.gz$' "$tmp/contents" \
    && grep -Eq '\./usr/share/man/man1/quire-doctor\.1\.gz$' "$tmp/contents" \
    && ! grep -q 'quire-generate' "$tmp/contents" \
    && [ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)" = /etc/quire/quire.env ]
}
check ".deb: /usr/bin/quire, quire.service, the conffile /etc/quire/quire.env (0600) and the man pages" deb_contents

env_file_commented() {
  dpkg-deb -x "$deb" "$tmp/root"
  local env=$tmp/root/etc/quire/quire.env
  grep -q '^#QUIRE_HOST=localhost:8080$' "$env" && grep -q '^#QUIRE_ACME_EMAIL=$' "$env" \
    && ! grep -v '^#' "$env" | grep -q .
}
check "/etc/quire/quire.env names every setting, all commented out" env_file_commented

unit_verifies() {
  grep -q '^DynamicUser=yes$' "$tmp/root/lib/systemd/system/quire.service" || return 1
  grep -q '^StateDirectory=quire$' "$tmp/root/lib/systemd/system/quire.service" || return 1
  grep -q '^AmbientCapabilities=CAP_NET_BIND_SERVICE$' "$tmp/root/lib/systemd/system/quire.service" || return 1
  grep -q '^ProtectSystem=strict$' "$tmp/root/lib/systemd/system/quire.service" || return 1
  grep -q '^NoNewPrivileges=yes$' "$tmp/root/lib/systemd/system/quire.service" || return 1
  # The unit as installed, but for ExecStart naming the unpacked package's binary (this machine has
  # no /usr/bin/quire); any warning (an unknown key, a bad value) fails the check too.
  mkdir -p "$tmp/unit"
  sed "s|/usr/bin/quire|$tmp/root/usr/bin/quire|" "$tmp/root/lib/systemd/system/quire.service" > "$tmp/unit/quire.service"
  SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no "$tmp/unit/quire.service" 2>&1 | tee "$tmp/verify"
  [ "${PIPESTATUS[0]}" -eq 0 ] && ! grep -q . "$tmp/verify"
}
check "systemd-analyze verify accepts quire.service, which is hardened" unit_verifies

lintian_clean() {
  lintian --fail-on error,warning "$deb"
}
if command -v lintian >/dev/null; then
  check "lintian finds no error or warning in the .deb" lintian_clean
fi

serves_from_empty() {
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir "$tmp/empty"
  (cd "$tmp/empty" && exec "$unpacked" serve --listen "127.0.0.1:$port" --host "localhost:$port" > "$tmp/serve.out" 2>"$tmp/serve.err") &
  server=$!
  for _ in $(seq 1 100); do
    grep -q "Quire is running at http://localhost:$port/" "$tmp/serve.out" && break
    sleep 0.1
  done
  curl -sf -H "Host: localhost:$port" "http://127.0.0.1:$port/" > "$tmp/page" || { cat "$tmp/serve.err"; return 1; }
  grep -q '<title>Quire</title>' "$tmp/page" && [ -f "$tmp/empty/data/quire.db" ] || return 1
  kill "$server"; wait "$server" 2>/dev/null; server=""
  (cd "$tmp/empty" && "$unpacked" doctor --listen "127.0.0.1:$port" --host "localhost:$port")
}
check "the tarball's binary serves from an empty directory, and its quire doctor passes there" serves_from_empty

refuses_newer_glibc() {
  ! bash scripts/release.sh "$version" --binary /bin/ls --out "$tmp/refused" 2> "$tmp/refused.err" \
    && grep -q 'needs glibc 2\.[0-9]*, newer than 2\.28' "$tmp/refused.err" && [ ! -e "$tmp/refused" ]
}
check "release.sh refuses a binary that needs a newer glibc, and writes nothing" refuses_newer_glibc

refuses_other_version() {
  ! bash scripts/release.sh "9.9.9-not-$version" --binary "$binary" --out "$tmp/other" 2> "$tmp/other.err" \
    && grep -q "is not Cargo.toml's version" "$tmp/other.err" && [ ! -e "$tmp/other" ]
}
check "release.sh refuses a VERSION other than Cargo.toml's" refuses_other_version

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
