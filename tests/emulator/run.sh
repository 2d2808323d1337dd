#!/usr/bin/env bash
# Runs the emulator test suite: installs the venv, starts the emulator (and
# stops it on exit when it started it), runs pytest, exits with pytest's status.
#   tests/emulator/run.sh           # everything, incl. the CDK template check and cdk deploy
#   tests/emulator/run.sh --fast    # without the npm/CDK tests (about 20 s)
# Extra arguments after the flags go to pytest.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EMU="$ROOT/scripts/emulator.sh"

export REALDRIFT_CDK_TESTS=1
if [[ "${1:-}" == "--fast" ]]; then
  REALDRIFT_CDK_TESTS=0
  shift
fi

started=0
if ! "$EMU" status >/dev/null 2>&1; then
  started=1
fi
cleanup() { if ((started)); then "$EMU" stop >/dev/null 2>&1 || true; fi; }
trap cleanup EXIT
eval "$("$EMU" start)"
"$EMU" reset

status=0
"$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/tests/emulator" "$@" || status=$?
exit "$status"
