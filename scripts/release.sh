#!/usr/bin/env bash
# Builds Quire's release files, for a VPS that has no compiler:
#
#   dist/quire-VERSION-x86_64-linux.tar.gz   the binary, README.md, LICENSE, NOTICE, quire.service
#                                            (ExecStart=/usr/local/bin/quire) and quire.env
#   dist/quire_VERSION_amd64.deb             /usr/bin/quire, the hardened quire.service, the conffile
#                                            /etc/quire/quire.env (every setting commented), man pages
#   dist/SHA256SUMS
#
# The binary runs on glibc 2.28 or newer (Debian 10+, Ubuntu 20.04+, RHEL 8+): it is linked by zig
# against glibc 2.28's symbols (cargo-zigbuild, target x86_64-unknown-linux-gnu.2.28), both from
# PyPI (scripts/zig_tools.sh installs them in .cache/zig-tools), with the release profile (fat LTO).
# The script checks what it wrote: the binary's highest glibc symbol, `quire --version`.
#
# Usage: bash scripts/release.sh VERSION [--small-machine] [--binary PATH] [--out DIR]
#   VERSION          Cargo.toml's version, which `quire --version` prints with the commit
#   --small-machine  build with the small-machine profile, one job at a time: a lower peak of memory
#                    (2.0 GB against 2.4 GB; bench/README.md has both measured), slower to build
#   --binary PATH    package this binary instead of building one (the test command packages the
#                    glibc-2.28 build its tests ran on); it must pass the same checks
#   --out DIR        write there instead of dist/
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "release: $*" >&2; exit 1; }

version="" small=0 binary="" out="dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --small-machine) small=1 ;;
    --binary) binary=${2:?--binary needs a PATH}; shift ;;
    --out) out=${2:?--out needs a DIR}; shift ;;
    -*) die "unknown option $1 (usage: scripts/release.sh VERSION [--small-machine] [--binary PATH] [--out DIR])" ;;
    *) [ -z "$version" ] || die "one VERSION only"; version=$1 ;;
  esac
  shift
done
[ -n "$version" ] || die "usage: scripts/release.sh VERSION [--small-machine] [--binary PATH] [--out DIR]"
cargo_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ "$version" = "$cargo_version" ] || die "VERSION $version is not Cargo.toml's version ($cargo_version): set it there first"

commit=$(git rev-parse --short=12 HEAD 2>/dev/null) || die "not a git checkout: the version names the commit"
target=x86_64-unknown-linux-gnu
max_glibc=2.28
# The package's Maintainer field (and its changelog's signature).
# Set QUIRE_DEB_MAINTAINER to the name and address of whoever publishes the package.
maintainer=${QUIRE_DEB_MAINTAINER:-Quire maintainers <quire@example.org>}

if [ -z "$binary" ]; then
  source scripts/zig_tools.sh
  profile=release
  jobs=()
  if [ "$small" = 1 ]; then profile=small-machine; jobs=(-j 1); fi
  echo "building quire $version ($commit) with the $profile profile for glibc $max_glibc"
  QUIRE_COMMIT=$commit cargo zigbuild --locked --profile "$profile" "${jobs[@]}" --target "$target.$max_glibc" --bin quire
  binary=target/$target/$profile/quire
fi
[ -x "$binary" ] || die "$binary is not an executable"

# The checks of what is shipped.
highest=$(objdump -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)
[ -n "$highest" ] || die "$binary names no glibc symbol version (objdump -T): is it a glibc binary?"
if [ "$(printf '%s\n%s\n' "$highest" "$max_glibc" | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)" != "$max_glibc" ]; then
  die "$binary needs glibc $highest, newer than $max_glibc: build it with cargo zigbuild --target $target.$max_glibc"
fi
echo "glibc: the highest symbol version $binary needs is GLIBC_$highest (at most $max_glibc)"
printed=$("$binary" --version)
case "$printed" in
  "quire $version (commit "*")") ;;
  *) die "$binary --version prints \"$printed\", not \"quire $version (commit ...)\" (build it with QUIRE_COMMIT set)" ;;
esac
echo "version: $printed"

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Files carry the commit's time, so the archives depend only on what is in them.
epoch=$(git log -1 --format=%ct)
export SOURCE_DATE_EPOCH=$epoch

# The tarball.
name=quire-$version-x86_64-linux
tree=$work/$name
mkdir -p "$tree"
install -m 0755 "$binary" "$tree/quire"
# Debug symbols are not shipped (the release profile strips them already; a --binary may have some).
strip --strip-unneeded "$tree/quire"
install -m 0644 README.md LICENSE NOTICE "$tree/"
sed 's|/usr/bin/quire|/usr/local/bin/quire|g' packaging/quire.service > "$tree/quire.service"
"$binary" generate env-file "$tree/quire.env"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$work" -cf - "$name" \
  | gzip -9n > "$out/$name.tar.gz"

# The Debian package.
root=$work/deb
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/etc/quire" \
  "$root/usr/share/man/man1" "$root/usr/share/doc/quire"
install -m 0755 "$tree/quire" "$root/usr/bin/quire"
install -m 0644 packaging/quire.service "$root/lib/systemd/system/quire.service"
"$binary" generate env-file "$root/etc/quire/quire.env"
chmod 0600 "$root/etc/quire/quire.env"
# The settings may hold secrets (an SMTP URL with its password): root only. systemd reads the file
# as root before it starts quire, so the service needs no more.
mkdir -p "$root/usr/share/lintian/overrides"
printf '%s\n' "quire: non-standard-file-perm 0600 != 0644 [etc/quire/quire.env]" \
  > "$root/usr/share/lintian/overrides/quire"
"$binary" generate man "$work/man"
for page in "$work"/man/*.1; do
  gzip -9n < "$page" > "$root/usr/share/man/man1/$(basename "$page").gz"
done
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: quire"
  echo
  echo "Files: *"
  echo "Copyright: Quire's contributors"
  echo "License: Expat"
  sed 's/^$/./; s/^/ /' LICENSE | tail -n +3
  echo
  echo "Comment: the binary carries third-party material, named with its licenses in NOTICE:"
  sed 's/^$/./; s/^/ /' NOTICE
} > "$root/usr/share/doc/quire/copyright"
date_rfc2822=$(date -u -R -d "@$epoch")
printf 'quire (%s) unstable; urgency=medium\n\n  * Release %s, commit %s.\n\n -- %s  %s\n' \
  "$version" "$version" "$commit" "$maintainer" "$date_rfc2822" | gzip -9n > "$root/usr/share/doc/quire/changelog.gz"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: quire
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $size
Depends: libc6 (>= $max_glibc)
Section: web
Priority: optional
Description: blogging platform in one binary
 Quire serves an owner app, a JSON API and every public blog from one process
 and one SQLite file: bloggers sign in with OpenID Connect, get one blog on
 their own subdomain and write posts made of typed blocks; readers follow by
 feed, email or from Mastodon. It can get its own certificates (ACME).
 .
 Set /etc/quire/quire.env, check it with
 "sudo quire doctor --env-file /etc/quire/quire.env", then
 "sudo systemctl enable --now quire".
EOF
echo /etc/quire/quire.env > "$root/DEBIAN/conffiles"
cat > "$root/DEBIAN/postinst" <<'EOF'
#!/bin/sh
# Reloads systemd; on an upgrade restarts a running quire, which backs up its database before
# migrating it (README.md, "Upgrading").
set -e
if [ -d /run/systemd/system ]; then
  systemctl --system daemon-reload >/dev/null || true
  if [ "$1" = configure ] && [ -n "$2" ]; then
    deb-systemd-invoke try-restart quire.service >/dev/null || true
  fi
fi
if [ "$1" = configure ] && [ -z "$2" ]; then
  echo "Quire is installed. Set /etc/quire/quire.env, check it with"
  echo "  sudo quire doctor --env-file /etc/quire/quire.env"
  echo "then start it: sudo systemctl enable --now quire"
fi
exit 0
EOF
cat > "$root/DEBIAN/prerm" <<'EOF'
#!/bin/sh
# Stops quire before its files are removed (not on an upgrade: postinst restarts it).
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
  deb-systemd-invoke stop quire.service >/dev/null || true
fi
exit 0
EOF
cat > "$root/DEBIAN/postrm" <<'EOF'
#!/bin/sh
# The data in /var/lib/quire is kept, even on purge: remove it by hand once it is backed up.
set -e
if [ -d /run/systemd/system ]; then
  systemctl --system daemon-reload >/dev/null || true
fi
exit 0
EOF
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
find "$root" -exec touch -h -d "@$epoch" {} +
deb=$out/quire_${version}_amd64.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null

(cd "$out" && sha256sum "$name.tar.gz" "quire_${version}_amd64.deb" > SHA256SUMS)
echo "wrote:"
ls -l "$out"
