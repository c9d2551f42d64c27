#!/usr/bin/env bash
# What a signed-in blogger's browser downloads to reach the post list (/d/posts), asked of a running server:
# the page, its stylesheet, its script and every chunk that script imports statically (chunks behind
# `import()` load only on the screens that need them), each fetched with curl three times: with
# `Accept-Encoding: br, gzip` (what browsers send), `gzip` and none. Prints bytes on the wire per file and
# the sums, and of the JavaScript alone, with a line saying whether it meets the 100 KB target (brotli).
#   bash bench/app_size.sh [BASE_URL]          default http://localhost:18700 (a `quire serve` on loopback)
set -euo pipefail
base=${1:-http://localhost:18700}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# size ENCODING PATH: bytes of PATH's body as sent with that Accept-Encoding (undecoded), and its encoding.
size() {
  curl -sf -o "$work/body" -D "$work/head" ${1:+-H "Accept-Encoding: $1"} "$base$2" || { echo "could not GET $base$2" >&2; exit 1; }
  local coding
  coding=$(tr -d '\r' <"$work/head" | awk -F': ' 'tolower($1) == "content-encoding" { print $2 }')
  echo "$(wc -c <"$work/body") ${coding:-identity}"
}

curl -sf "$base/d/posts" -o "$work/index.html" || { echo "no answer from $base/d/posts: is quire serving there?" >&2; exit 1; }
mapfile -t files < <(grep -o '/assets/[^"]*\.\(js\|css\)' "$work/index.html")
# The static imports of each script, found in the plain script (`from"./chunk-X.js"`, `import"./chunk-X.js"`).
queue=()
for f in "${files[@]}"; do [[ $f == *.js ]] && queue+=("$f"); done
while [ ${#queue[@]} -gt 0 ]; do
  script=${queue[0]}; queue=("${queue[@]:1}")
  curl -sf "$base$script" -o "$work/script.js"
  while read -r chunk; do
    path="/assets/${chunk#./}"
    if ! printf '%s\n' "${files[@]}" | grep -qxF "$path"; then files+=("$path"); queue+=("$path"); fi
  done < <(grep -o '\(from\|import\) *"\./[^"]*\.js"' "$work/script.js" | grep -o '\./[^"]*\.js')
done

printf '%-28s %10s %10s %10s\n' "file" "br, gzip" "gzip" "identity"
total=(0 0 0); js=(0 0 0)
row() {
  local path=$1 shown=$2 i=0 cells=() n coding
  for enc in "br, gzip" "gzip" ""; do
    read -r n coding < <(size "$enc" "$path")
    cells+=("$n $coding")
    total[i]=$((total[i] + n))
    [[ $path == *.js ]] && js[i]=$((js[i] + n))
    i=$((i + 1))
  done
  printf '%-28s %10s %10s %10s   (%s / %s / %s)\n' "$shown" "${cells[0]% *}" "${cells[1]% *}" "${cells[2]% *}" \
    "${cells[0]#* }" "${cells[1]#* }" "${cells[2]#* }"
}
row /d/posts "/d/posts (page)"
for f in "${files[@]}"; do row "$f" "${f#/assets/}"; done
printf '%-28s %10s %10s %10s\n' "all" "${total[0]}" "${total[1]}" "${total[2]}"
printf '%-28s %10s %10s %10s\n' "JavaScript" "${js[0]}" "${js[1]}" "${js[2]}"
# Issue 17's target: at most 100 KB (100,000 bytes) of JavaScript on the wire, as a browser asks for it.
verdict=$([ "${js[0]}" -le 100000 ] && echo met || echo MISSED)
echo "JavaScript to the post list with brotli: ${js[0]} bytes ($verdict target <= 100 KB)"
