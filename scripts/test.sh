#!/usr/bin/env bash
# Runs every test realdrift has. Installs what the tests need first.
set -euo pipefail
cd "$(dirname "$0")/.."

# A clean machine gains nothing from incremental artifacts; they only cost
# disk (gigabytes for the workspace's test binaries) and write time.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
# A clean run writes about 7 GB (target/ 5.8 GB, the venv 0.8 GB,
# node_modules 0.3 GB; measured 2026-12-01); say so up front rather than
# failing half-way with "No space left on device".
free_kb="$(df -Pk . | awk 'NR==2 {print $4}')"
echo "== disk: $((free_kb / 1024 / 1024)) GB free here"
if ((free_kb < 10 * 1024 * 1024)); then
  echo "warning: less than 10 GB free; the run writes about 7 GB and may run out of disk" >&2
fi

# Each phase's start, in seconds since the run began: CI's budget is read
# from these lines.
phase() { echo "== [${SECONDS}s] $*"; }

phase "rustfmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings

phase "cargo test"
cargo test --workspace --locked

phase "generated knowledge (core/data/generated is what scripts/gen-knowledge.sh produces)"
bash scripts/gen-knowledge.sh --check
(cd scripts && python3 -m unittest -q gen_knowledge.test_guides)
python3 scripts/observe_returned.py --check

phase "emulator suite (moto + Cloud Control endpoint + CDK fixture)"
bash tests/emulator/run.sh

phase "infra (CDK app: assertions, cdk-nag, cfn-lint; deploy into the emulator)"
bash infra/run-tests.sh
phase "done"
