#!/usr/bin/env bash
# Start time to the first GET /healthz 200, wall and CPU (the server process's user + system seconds then), for a new
# data folder with a cold tsx cache ("first") and the same folder again ("restart"); and how long a start on a busy port
# takes to fail. Variants, run back to back each round: this tree from source (tsx), this tree compiled (dist/, run
# `npm run build` first) and, with a baseline checkout given, that checkout from source.
#   bash bench/start-time.sh [ROUNDS=2] [BASELINE_DIR]        (docs/performance.md, "Start time")
set -uo pipefail
rounds="${1:-2}"
baseline="${2:-}"
here="$(cd "$(dirname "$0")/.." && pwd)"
port="${START_TIME_PORT:-18191}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
tck="$(getconf CLK_TCK)"

measure() { # dir label kind args...
  local dir=$1 label=$2 kind=$3
  shift 3
  local start end pid cpu
  start=$(date +%s.%N)
  (cd "$dir" && exec env "$@") >"$scratch/out.txt" 2>&1 &
  pid=$!
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "localhost:$port/healthz")" = "200" ]; do
    kill -0 "$pid" 2>/dev/null || { echo "$label $kind: exited"; tail -3 "$scratch/out.txt"; return; }
    sleep 0.05
  done
  end=$(date +%s.%N)
  cpu=$(awk -v t="$tck" '{print ($14+$15+$16+$17)/t}' "/proc/$pid/stat")
  printf "%-14s %-8s wall %6.1f s  cpu %5.1f s  load %s\n" "$label" "$kind" "$(echo "$end - $start" | bc)" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)"
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null
}

variants=(source compiled)
[ -n "$baseline" ] && variants=(baseline "${variants[@]}")
for round in $(seq 1 "$rounds"); do
  for variant in "${variants[@]}"; do
    data="$scratch/data-$variant-$round" tsxcache="$scratch/tsx-$variant-$round"
    mkdir -p "$data" "$tsxcache"
    case $variant in
      baseline) dir=$baseline entry=(--import tsx server/main.ts) ;;
      source) dir=$here entry=(--import tsx server/main.ts) ;;
      compiled) dir=$here entry=(dist/server/main.js) ;;
    esac
    envs=(TMPDIR="$tsxcache" PORT="$port" DATABASE_URL="pglite:$data/pglite" LOG_LEVEL=warn SCHEDULER_INTERVAL_MS=0)
    measure "$dir" "$variant" first "${envs[@]}" node "${entry[@]}"
    measure "$dir" "$variant" restart "${envs[@]}" node "${entry[@]}"
  done
done

node -e "require('net').createServer().listen($port, () => setTimeout(() => process.exit(0), 60000))" &
blocker=$!
sleep 1
for variant in "${variants[@]}"; do
  case $variant in
    baseline) dir=$baseline entry=(--import tsx server/main.ts) ;;
    source) dir=$here entry=(--import tsx server/main.ts) ;;
    compiled) dir=$here entry=(dist/server/main.js) ;;
  esac
  start=$(date +%s.%N)
  (cd "$dir" && env PORT="$port" DATABASE_URL="pglite:$scratch/data-$variant-1/pglite" node "${entry[@]}" >/dev/null 2>&1)
  printf "%-14s busy port: failed after %5.1f s  load %s\n" "$variant" "$(echo "$(date +%s.%N) - $start" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
done
kill "$blocker"
