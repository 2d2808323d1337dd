#!/usr/bin/env bash
# Load of the hub's delivery through the hub function, on a private emulator
# (not a test): synthetic member transitions from several accounts put on
# the findings bus at a set rate, the hub's rule and queue, the realdrift-hub
# binary in the local Lambda runtime, the hub topic's inbox read
# (scripts/bench_hub_delivery.py, tests/emulator/hub_bench.py).
#
#   scripts/bench-hub-delivery.sh                              # 1000 events at 50/s
#   BENCH_EVENTS=50 BENCH_RATE=25 scripts/bench-hub-delivery.sh
#   REALDRIFT_FUNCTIONS_DIR=/path/to/binaries scripts/bench-hub-delivery.sh   # no cargo build
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/realdrift-hub-bench.XXXXXX")"
export REALDRIFT_EMULATOR_DIR="$WORK/emulator" REALDRIFT_MOTO_PORT=0 REALDRIFT_CLOUDCONTROL_PORT=0
export BENCH_LOG_DIR="${BENCH_LOG_DIR:-$WORK}"
trap 'scripts/emulator.sh stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
eval "$(scripts/emulator.sh start)"
.venv/bin/python scripts/bench_hub_delivery.py
