#!/usr/bin/env bash
# The first `npm start` on a fresh clone, timed until /readyz and /docs both answer 200 (issue 38: budget 10 s, the
# console and the docs portal built by that start). `npm ci` is replaced by a link to this checkout's node_modules
# (same lock file), as test/helpers/fresh-clone.ts does. Usage: bash bench/fresh-clone-start.sh [runs] [checkout]: the
# checkout cloned (default this one), so two checkouts can be timed in one session, alternating.
set -euo pipefail
root="$(cd "${2:-$(dirname "$0")/..}" && pwd)"
runs="${1:-1}"
for run in $(seq 1 "$runs"); do
  parent="$(mktemp -d "${TMPDIR:-/tmp}/coinplane-clone-XXXXXX")"
  git clone --quiet "$root" "$parent/coinplane"
  for folder in . sdk console; do
    if [ -d "$root/$folder/node_modules" ]; then ln -s "$root/$folder/node_modules" "$parent/coinplane/$folder/node_modules"; fi
  done
  port="$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  cd "$parent/coinplane"
  start=$(date +%s.%N)
  PORT="$port" HOST=127.0.0.1 setsid npm start >"$parent/start.log" 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && curl -sf -o /dev/null "http://127.0.0.1:$port/docs"; do
    if ! kill -0 "$pid" 2>/dev/null; then cat "$parent/start.log"; exit 1; fi
    sleep 0.1
  done
  end=$(date +%s.%N)
  echo "run $run: first start on a fresh clone, /readyz and /docs 200 after $(echo "$end - $start" | bc) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  grep -E "^(console|docs portal|coinplane):" "$parent/start.log" || true
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  cd "$root"
  rm -rf "$parent"
done
