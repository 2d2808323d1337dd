#!/usr/bin/env bash
# Regenerates core/data/generated/ (known defaults and compare rules mined from
# general sources) with the scripts/gen_knowledge/ package. Deterministic: the same
# pinned packages give identical bytes.
#
#   scripts/gen-knowledge.sh            # fetch the pinned packages once into
#                                       # .knowledge-cache/ (npm, PyPI), then
#                                       # regenerate offline
#   scripts/gen-knowledge.sh --check    # regenerate into a temp dir and compare
#                                       # with the committed files
#
# Once .knowledge-cache/ holds the two packages, no network is used.
set -euo pipefail

SERVICE_SPEC_VERSION=0.1.216   # npm @aws-cdk/aws-service-spec
BOTOCORE_VERSION=1.44.8        # PyPI botocore

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${KNOWLEDGE_CACHE:-$ROOT/.knowledge-cache}"
DEST="$ROOT/core/data/generated"
CHECK=0
if [[ "${1:-}" == "--check" ]]; then CHECK=1; fi

mkdir -p "$CACHE"
SPEC_TGZ="$CACHE/aws-cdk-aws-service-spec-$SERVICE_SPEC_VERSION.tgz"
SPEC_DIR="$CACHE/aws-service-spec-$SERVICE_SPEC_VERSION"
WHEEL="$CACHE/botocore-$BOTOCORE_VERSION-py3-none-any.whl"
if [[ ! -f "$SPEC_TGZ" ]]; then
  (cd "$CACHE" && npm pack --silent "@aws-cdk/aws-service-spec@$SERVICE_SPEC_VERSION" >/dev/null)
fi
if [[ ! -f "$SPEC_DIR/package/db.json.gz" ]]; then
  mkdir -p "$SPEC_DIR" && tar -xzf "$SPEC_TGZ" -C "$SPEC_DIR"
fi
if [[ ! -f "$WHEEL" ]]; then
  python3 -m pip download --quiet --disable-pip-version-check --no-deps -d "$CACHE" "botocore==$BOTOCORE_VERSION"
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
OUT="$DEST"
if [[ $CHECK -eq 1 ]]; then OUT="$WORK/out"; fi
PYTHONPATH="$ROOT/scripts${PYTHONPATH:+:$PYTHONPATH}" python3 -m gen_knowledge \
  --service-spec "$SPEC_DIR/package/db.json.gz" --service-spec-version "$SERVICE_SPEC_VERSION" \
  --botocore "$WHEEL" --botocore-version "$BOTOCORE_VERSION" \
  --snapshot "$ROOT/core/data/schemas/registry-schemas.bin" \
  --out "$OUT"

if [[ $CHECK -eq 1 ]]; then
  for f in defaults.json type-rules.json coverage.json refuted.json MANIFEST.json; do
    if ! cmp -s "$OUT/$f" "$DEST/$f"; then
      echo "core/data/generated/$f differs from what the generator produces" >&2
      exit 1
    fi
  done
  echo "core/data/generated is up to date"
fi
