#!/usr/bin/env bash
# Lighthouse 12 scores of one URL, mobile and desktop, in Debian's chromium.
#   bash bench/lighthouse.sh URL OUT_DIR     (prints two lines of scores)
set -euo pipefail
url=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$here/node_modules/.bin/lighthouse" ]; then
  (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
fi
flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
for form in mobile desktop; do
  preset=()
  [ "$form" = desktop ] && preset=(--preset=desktop)
  CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium} "$here/node_modules/.bin/lighthouse" "$url" "${preset[@]}" \
    --chrome-flags="$flags" --output=json --output-path="$out/lighthouse-$form.json" --quiet
  node -e '
    const r = require(require("path").resolve(process.argv[1]));
    const s = (k) => Math.round(r.categories[k].score * 100);
    console.log(`${process.argv[2].padEnd(8)} performance ${s("performance")}, accessibility ${s("accessibility")}, best practices ${s("best-practices")}, SEO ${s("seo")}`);
  ' "$out/lighthouse-$form.json" "$form"
done
