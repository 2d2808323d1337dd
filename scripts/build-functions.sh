#!/usr/bin/env bash
# Builds realdrift's three Lambda functions (scan, on-change, revert) as the
# zips the CDK app in infra/ deploys, with cargo-lambda:
#
#   scripts/build-functions.sh [--arm64 | --x86-64] [--debug] [--lambda-dir DIR]
#
#   --arm64       (default) Graviton; needs the aarch64-unknown-linux-gnu
#                 standard library: rustup target add aarch64-unknown-linux-gnu
#   --x86-64      matches -c architecture=x86_64 in infra/
#   --debug       unoptimised, quicker to build (the emulator deploy test);
#                 otherwise the `lambda` profile (size-optimised, fat LTO)
#   --lambda-dir  where <binary>/bootstrap.zip go; default
#                 ${CARGO_TARGET_DIR:-target}/lambda, which is infra's default
#                 context lambdaAssets
#
# Prints the lambda directory on stdout (for cdk -c lambdaAssets=DIR).
# cargo-lambda comes from PATH or the repository's .venv
# (.venv/bin/pip install -r infra/requirements.txt installs it with zig).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ARCH="--arm64"
# The lambda profile (Cargo.toml): optimised for size, zips under 10 MB.
PROFILE=(--profile lambda)
LAMBDA_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/lambda"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --arm64 | --x86-64) ARCH="$1" ;;
    --debug) PROFILE=() ;;
    --lambda-dir) LAMBDA_DIR="$2"; shift ;;
    *) echo "usage: $0 [--arm64|--x86-64] [--debug] [--lambda-dir DIR]" >&2; exit 2 ;;
  esac
  shift
done

if [[ -d "$ROOT/.venv/bin" ]]; then PATH="$ROOT/.venv/bin:$PATH"; fi
if ! command -v cargo-lambda >/dev/null; then
  echo "cargo-lambda not found: python3 -m venv .venv && .venv/bin/pip install -r infra/requirements.txt" >&2
  exit 1
fi
if [[ "$ARCH" == "--arm64" ]] && command -v rustup >/dev/null &&
  ! rustup target list --installed | grep -qx aarch64-unknown-linux-gnu; then
  echo "the arm64 build needs: rustup target add aarch64-unknown-linux-gnu (or build --x86-64 and deploy with -c architecture=x86_64)" >&2
  exit 1
fi

cd "$ROOT"
# Only the function packages: a workspace-wide build would also zip the CLI.
cargo lambda build "${PROFILE[@]}" "$ARCH" --output-format zip --locked --lambda-dir "$LAMBDA_DIR" \
  -p realdrift-fn-scan -p realdrift-fn-on-change -p realdrift-fn-revert >&2
for bin in realdrift-scan realdrift-on-change realdrift-revert; do
  if [[ ! -f "$LAMBDA_DIR/$bin/bootstrap.zip" ]]; then
    echo "cargo lambda build did not write $LAMBDA_DIR/$bin/bootstrap.zip" >&2
    exit 1
  fi
done
echo "$LAMBDA_DIR"
