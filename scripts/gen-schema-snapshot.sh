#!/usr/bin/env bash
# Regenerates the bundled registry-schema snapshot in core/data/schemas/ from
# the schemas cfn-lint ships (PyPI, pinned below). Deterministic: re-running
# with the same cfn-lint version gives identical bytes.
#
#   scripts/gen-schema-snapshot.sh            # regenerate (needs PyPI access)
#   scripts/gen-schema-snapshot.sh --check    # regenerate into a temp dir and
#                                             # compare with the committed files
#   CFNLINT_SCHEMAS_DIR=/path/to/cfnlint/data/schemas scripts/gen-schema-snapshot.sh
#                                             # offline: use an installed copy
#                                             # (must be cfn-lint $CFN_LINT_VERSION)
#
# The Rust tests (core/tests/schema_snapshot.rs) check the committed files
# against MANIFEST.json without the network.
set -euo pipefail

CFN_LINT_VERSION=1.58.0
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/core/data/schemas"
CHECK=0
if [[ "${1:-}" == "--check" ]]; then CHECK=1; fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

SCHEMAS="${CFNLINT_SCHEMAS_DIR:-}"
if [[ -z "$SCHEMAS" ]]; then
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/pip" install --quiet --disable-pip-version-check "cfn-lint==$CFN_LINT_VERSION"
  SCHEMAS="$("$WORK/venv/bin/python" -c 'import cfnlint, os; print(os.path.join(os.path.dirname(cfnlint.__file__), "data", "schemas"))')"
fi

OUT="$DEST"
if [[ $CHECK -eq 1 ]]; then OUT="$WORK/out"; fi
python3 "$ROOT/scripts/gen_schema_snapshot.py" \
  --schemas-dir "$SCHEMAS" --out "$OUT" --cfn-lint-version "$CFN_LINT_VERSION"

if [[ $CHECK -eq 1 ]]; then
  for f in registry-schemas.bin doc-defaults.json MANIFEST.json; do
    if ! cmp -s "$OUT/$f" "$DEST/$f"; then
      echo "core/data/schemas/$f differs from what the generator produces" >&2
      exit 1
    fi
  done
  echo "core/data/schemas is up to date"
fi
