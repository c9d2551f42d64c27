# Sourced by scripts/test.sh and scripts/release.sh: puts zig and cargo-zigbuild on PATH, from
# PyPI's ziglang and cargo-zigbuild (prebuilt binaries, nothing compiled), installed once in a
# virtual environment in .cache/zig-tools. They link Quire against glibc 2.28's symbols
# (target x86_64-unknown-linux-gnu.2.28), so the binary runs on Debian 10+, Ubuntu 20.04+, RHEL 8+.
zig_tools=${QUIRE_ZIG_TOOLS:-$PWD/.cache/zig-tools}
if [ ! -x "$zig_tools/bin/cargo-zigbuild" ] || ! "$zig_tools/bin/python" -m ziglang version >/dev/null 2>&1; then
  echo "installing zig and cargo-zigbuild (PyPI ziglang, cargo-zigbuild) in $zig_tools"
  python3 -m venv "$zig_tools" && "$zig_tools/bin/pip" install -q "ziglang==0.17.1" "cargo-zigbuild==0.24.1" \
    || { echo "could not install zig and cargo-zigbuild from PyPI"; exit 1; }
fi
export PATH="$zig_tools/bin:$PATH"
