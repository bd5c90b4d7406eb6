#!/usr/bin/env bash
# build.sh OUT_DIR: builds the review page (Vite) into OUT_DIR and gzips its assets next to
# them (the web plugin serves the .gz copy to browsers that accept it). Installs the locked npm
# packages first when node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
out=$1
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # npm 11 leaves other platforms' optional packages out of a lockfile it writes, and `npm ci`
  # then refuses it; `npm install` keeps the locked versions.
  npm ci --no-audit --no-fund --loglevel=error 2>/dev/null || npm install --no-audit --no-fund --loglevel=error
fi
./node_modules/.bin/tsc --noEmit
LOUPE_WEB_OUT_DIR="$out" ./node_modules/.bin/vite build --logLevel warn
for file in "$out"/assets/*.js "$out"/assets/*.css; do
  [ -f "$file" ] && gzip -9 -n -k -f "$file"
done
