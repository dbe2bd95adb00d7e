#!/usr/bin/env bash
# Quick pairing beside table play, side by side (docs/server.md, "Quick
# pairing"): the server's p99 per action under `loadgen` alone (A), and
# under the same load with `pairing_bench`'s 500 people pressing "Play now"
# over 60 s at the same time (B), alternating A B A B A B, each run on a
# fresh release server and database on loopback with the per-address
# bounds lifted (every simulated client asks from one address). Prints one
# line per run and each B run's pairing report. Build first:
#   cargo build --release -p cli
#   cargo build --release -p server --example loadgen --example pairing_bench
# Usage: bash scripts/bench-pairing.sh [RUNS] (default 3 of each).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${CARGO_TARGET_DIR:-target}/release
runs=${1:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {
  local name=$1 with=$2 dir port pid lg
  dir=$(mktemp -d)
  port=$((20000 + RANDOM % 20000))
  "$bin/ratrace" serve --addr "127.0.0.1:$port" --db "$dir/db" --revolution-window-ms 0 \
    --rate-limit 100000 --rate-close 100000 --create-burst 100000 --join-burst 100000 \
    --max-live-tables-per-ip 100000 --pairing-tickets-per-ip 1000 --pairing-pool-size 1000 \
    --pairing-tickets 10000 --record-burst 100000 --log-level warn >"$dir/serve.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/api/games" && break
    sleep 0.1
  done
  "$bin/examples/loadgen" --url "http://127.0.0.1:$port" --tables 300 --seconds 45 --json \
    >"$out/$name-load.json" 2>"$out/$name-load.err" &
  lg=$!
  if [ "$with" = yes ]; then
    # after loadgen's tables are set up: its whole window has people pairing
    sleep 8
    "$bin/examples/pairing_bench" --url "http://127.0.0.1:$port" --people 500 --seconds 60 \
      >"$out/$name-pair.txt" 2>&1
  fi
  # its exit code says whether its own goals (500 tables) were met: not
  # this comparison's
  wait "$lg" || true
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  python3 - "$out/$name-load.json" "$name" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
l = d["latency_ms"]
print(f"{sys.argv[2]}: {d['actions_per_second']:.0f} actions/s, p50 {l['p50']:.2f} ms, p99 {l['p99']:.2f} ms, max {l['max']:.1f} ms, errors {d['errors']}")
PY
  if [ "$with" = yes ]; then sed 's/^/    /' "$out/$name-pair.txt"; fi
}
for i in $(seq 1 "$runs"); do
  run "A$i (table play alone)" no
  run "B$i (with pairing)" yes
done
