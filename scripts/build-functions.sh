#!/usr/bin/env bash
# Builds realdrift's three Lambda functions (scan, on-change, revert) as the
# zips the CDK app in infra/ deploys, with cargo-lambda:
#
#   scripts/build-functions.sh [--x86-64 | --arm64] [--debug] [--lambda-dir DIR]
#   scripts/build-functions.sh --test-build [--lambda-dir DIR]
#
#   --x86-64      (default) matches infra's default architecture, the one the
#                 project builds and tests
#   --arm64       Graviton, for -c architecture=arm64; needs the
#                 aarch64-unknown-linux-gnu standard library:
#                 rustup target add aarch64-unknown-linux-gnu
#   --debug       unoptimised, quicker to build (the emulator deploy test);
#                 otherwise the `lambda` profile (size-optimised, fat LTO)
#   --test-build  no cargo-lambda: zips the host binaries `cargo test
#                 --workspace --no-run` leaves (so nothing is compiled after
#                 scripts/test.sh's test build). They are unoptimised and
#                 linked against this machine's glibc: good for the emulator
#                 deploy test, which never runs them; never deploy them to AWS.
#                 The architecture is the host's (uname -m).
#   --lambda-dir  where <binary>/bootstrap.zip go; default
#                 ${CARGO_TARGET_DIR:-target}/lambda/<x86_64|arm64>, one
#                 directory per architecture, which is infra's default context
#                 lambdaAssets for that architecture (synth refuses a zip whose
#                 binary is for another machine)
#
# Prints the lambda directory on stdout (for cdk -c lambdaAssets=DIR).
# cargo-lambda comes from PATH or the repository's .venv
# (.venv/bin/pip install -r infra/requirements.txt installs it with zig).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ARCH="--x86-64"
TEST_BUILD=0
# The lambda profile (Cargo.toml): optimised for size, zips under 10 MB.
PROFILE=(--profile lambda)
LAMBDA_DIR=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --arm64 | --x86-64) ARCH="$1" ;;
    --debug) PROFILE=() ;;
    --test-build) TEST_BUILD=1 ;;
    --lambda-dir) LAMBDA_DIR="$2"; shift ;;
    *) echo "usage: $0 [--arm64|--x86-64] [--debug] [--lambda-dir DIR] | --test-build [--lambda-dir DIR]" >&2; exit 2 ;;
  esac
  shift
done

if ((TEST_BUILD)); then
  case "$(uname -m)" in aarch64 | arm64) ARCH="--arm64" ;; *) ARCH="--x86-64" ;; esac
fi
ARCH_DIR="x86_64"
if [[ "$ARCH" == "--arm64" ]]; then ARCH_DIR="arm64"; fi
LAMBDA_DIR="${LAMBDA_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}/lambda/$ARCH_DIR}"
BINS=(realdrift-scan realdrift-on-change realdrift-revert realdrift-hub)

# Each binary as <dir>/<binary>/bootstrap.zip holding one executable
# `bootstrap`, the layout cargo-lambda writes.
zip_bootstraps() {
  python3 - "$1" "$2" "${BINS[@]}" <<'PY'
import os, sys, zipfile
src, dest, bins = sys.argv[1], sys.argv[2], sys.argv[3:]
for b in bins:
    exe = os.path.join(src, b)
    if not os.path.isfile(exe):
        sys.exit(f"{exe} does not exist: did cargo build it?")
    os.makedirs(os.path.join(dest, b), exist_ok=True)
    info = zipfile.ZipInfo("bootstrap", date_time=(1980, 1, 1, 0, 0, 0))
    info.external_attr = 0o100755 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    tmp = os.path.join(dest, b, "bootstrap.zip.tmp")
    # Level 1: these zips are uploaded once to a local emulator.
    with open(exe, "rb") as f, zipfile.ZipFile(tmp, "w", compresslevel=1) as z:
        z.writestr(info, f.read())
    os.replace(tmp, os.path.join(dest, b, "bootstrap.zip"))
PY
}

cd "$ROOT"
if ((TEST_BUILD)); then
  # The same invocation as scripts/test.sh and the e2e tests: features are
  # resolved with dev-dependencies, so this rebuilds nothing after them.
  cargo test --workspace --locked --no-run >&2
  target="$(cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
  zip_bootstraps "$target/debug" "$LAMBDA_DIR"
  echo "$LAMBDA_DIR"
  exit 0
fi

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

# Only the function packages: a workspace-wide build would also zip the CLI.
cargo lambda build "${PROFILE[@]}" "$ARCH" --output-format zip --locked --lambda-dir "$LAMBDA_DIR" \
  -p realdrift-fn-scan -p realdrift-fn-on-change -p realdrift-fn-revert -p realdrift-fn-hub >&2
for bin in "${BINS[@]}"; do
  if [[ ! -f "$LAMBDA_DIR/$bin/bootstrap.zip" ]]; then
    echo "cargo lambda build did not write $LAMBDA_DIR/$bin/bootstrap.zip" >&2
    exit 1
  fi
done
echo "$LAMBDA_DIR"
