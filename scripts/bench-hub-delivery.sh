#!/usr/bin/env bash
# Load of the hub's delivery on a private emulator (not a test): N synthetic
# member transitions put on the findings bus at a set rate, deliveries
# counted, put -> delivery latency (scripts/bench_hub_delivery.py).
#
#   scripts/bench-hub-delivery.sh                              # 2000 events at 100/s
#   BENCH_EVENTS=500 BENCH_RATE=50 scripts/bench-hub-delivery.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/realdrift-hub-bench.XXXXXX")"
export REALDRIFT_EMULATOR_DIR="$WORK/emulator" REALDRIFT_MOTO_PORT=0 REALDRIFT_CLOUDCONTROL_PORT=0
trap 'scripts/emulator.sh stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
eval "$(scripts/emulator.sh start)"
.venv/bin/python scripts/bench_hub_delivery.py
