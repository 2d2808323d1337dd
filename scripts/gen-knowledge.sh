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
#
# The archived AWS guides (source `guide`) are read from
# ../shared/knowledge/aws-guides beside the checkout, where the corpus tests
# find ../shared/corpus too; a worktree elsewhere sets KNOWLEDGE_GUIDES. Their
# content is pinned by hash: a different copy stops the run.
set -euo pipefail

SERVICE_SPEC_VERSION=0.1.216   # npm @aws-cdk/aws-service-spec
BOTOCORE_VERSION=1.44.8        # PyPI botocore
# sha256 of `sha256sum repos.tsv *.jsonl` (C collation) in aws-guides/.
GUIDES_SHA256=f07f4c63363f471fde556d06d3d289c01457aadc367ff20a1eec02da292d53aa

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

GUIDES="${KNOWLEDGE_GUIDES:-$ROOT/../shared/knowledge/aws-guides}"
if [[ ! -f "$GUIDES/repos.tsv" ]]; then
  echo "aws-guides not found at $GUIDES (set KNOWLEDGE_GUIDES to its directory)" >&2
  exit 1
fi
GOT="$(cd "$GUIDES" && export LC_ALL=C && sha256sum repos.tsv *.jsonl | sha256sum | cut -d' ' -f1)"
if [[ "$GOT" != "$GUIDES_SHA256" ]]; then
  echo "aws-guides at $GUIDES is not the pinned content (sha256 $GOT, pinned $GUIDES_SHA256)" >&2
  exit 1
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
OUT="$DEST"
if [[ $CHECK -eq 1 ]]; then OUT="$WORK/out"; fi
PYTHONPATH="$ROOT/scripts${PYTHONPATH:+:$PYTHONPATH}" python3 -m gen_knowledge \
  --service-spec "$SPEC_DIR/package/db.json.gz" --service-spec-version "$SERVICE_SPEC_VERSION" \
  --botocore "$WHEEL" --botocore-version "$BOTOCORE_VERSION" \
  --snapshot "$ROOT/core/data/schemas/registry-schemas.bin" \
  --guides "$GUIDES" --guides-sha256 "$GUIDES_SHA256" \
  --out "$OUT"

if [[ $CHECK -eq 1 ]]; then
  for f in defaults.json type-rules.json coverage.json refuted.json guide-disagreements.json MANIFEST.json; do
    if ! cmp -s "$OUT/$f" "$DEST/$f"; then
      echo "core/data/generated/$f differs from what the generator produces" >&2
      exit 1
    fi
  done
  echo "core/data/generated is up to date"
fi
