#!/usr/bin/env bash
# The infra tests, as scripts/test.sh runs them:
#   1. installs what they use: `npm ci` here, and the pinned Python tools
#      (requirements.txt: cfn-lint, cargo-lambda) into the repository's .venv;
#   2. `npm test`: type check, assertion tests, cdk-nag, cfn-lint, the
#      generated permission data — offline, no AWS credentials;
#   3. the deploy of the whole app into a private local emulator instance
#      (test/emulator, pytest): the README's deploy section, command by
#      command (the release build replaced by the functions `cargo test
#      --workspace` built, zipped by scripts/build-functions.sh --test-build),
#      then the deployed stacks checked.
#
#   infra/run-tests.sh            # all of it
#   infra/run-tests.sh --unit     # steps 1-2
# REALDRIFT_SKIP_INFRA_DEPLOY=1 skips step 3, saying so.
set -euo pipefail
INFRA="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$INFRA/.." && pwd)"
VENV="$ROOT/.venv"
UNIT_ONLY=0
if [[ "${1:-}" == "--unit" ]]; then UNIT_ONLY=1; fi

cd "$INFRA"
t0=$SECONDS
if [[ ! -d node_modules ]] || [[ package-lock.json -nt node_modules ]]; then
  npm ci --no-audit --no-fund --loglevel=error
  touch node_modules
fi
if [[ ! -x "$VENV/bin/python" ]]; then python3 -m venv "$VENV"; fi
want="$(sha256sum requirements.txt | cut -d' ' -f1)"
if [[ "$(cat "$VENV/.infra-requirements.sha256" 2>/dev/null)" != "$want" ]]; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r requirements.txt
  echo "$want" >"$VENV/.infra-requirements.sha256"
fi
echo "infra: install took $((SECONDS - t0)) s"

t0=$SECONDS
CFN_LINT="$VENV/bin/cfn-lint" npm test
echo "infra: npm test took $((SECONDS - t0)) s"
if ((UNIT_ONLY)); then exit 0; fi

if [[ "${REALDRIFT_SKIP_INFRA_DEPLOY:-}" == "1" ]]; then
  echo "infra: SKIPPED the emulator deploy test (the README's deploy): REALDRIFT_SKIP_INFRA_DEPLOY=1"
  exit 0
fi
t0=$SECONDS
# A private emulator (own state dir, any free ports): it never touches one a
# developer or another suite is running. Starting it installs moto and pytest.
export REALDRIFT_EMULATOR_DIR
REALDRIFT_EMULATOR_DIR="$(mktemp -d)"
export REALDRIFT_MOTO_PORT=0 REALDRIFT_CLOUDCONTROL_PORT=0
trap '"$ROOT/scripts/emulator.sh" stop >/dev/null 2>&1 || true; rm -rf "$REALDRIFT_EMULATOR_DIR"' EXIT
eval "$("$ROOT/scripts/emulator.sh" start)"
"$VENV/bin/python" -m pytest -q -rs -s -p no:cacheprovider "$INFRA/test/emulator"
echo "infra: emulator deploy took $((SECONDS - t0)) s"
