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
# The Rust SDK tests that need a running emulator (and a deployed stack) are
# #[ignore]d in `cargo test`; they run here, so CI runs them too. Selected
# with --workspace (not -p realdrift-aws): the same feature set as `cargo test
# --workspace`, so nothing is rebuilt (-p alone rebuilt the SDK crates).
if ((status == 0)); then
  "$EMU" reset
  "$ROOT/.venv/bin/python" "$ROOT/tests/emulator/deploy_fixture.py" SmokeApp >/dev/null || status=$?
  (cd "$ROOT" && REALDRIFT_SMOKE_STACK=SmokeApp cargo test --locked -q --workspace \
    --test aws_s3_store --test aws_emulator_smoke -- --ignored) || status=$?
fi
exit "$status"
