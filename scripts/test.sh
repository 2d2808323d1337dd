#!/usr/bin/env bash
# Runs every test realdrift has. Installs what the tests need first.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== rustfmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== cargo test"
cargo test --workspace --locked

echo "== emulator suite (moto + Cloud Control endpoint + CDK fixture)"
bash tests/emulator/run.sh

echo "== infra (CDK app: assertions, cdk-nag, cfn-lint; deploy into the emulator)"
bash infra/run-tests.sh
