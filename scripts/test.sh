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

phase "rustfmt"
cargo fmt --all -- --check

# Clippy's lints (warnings are errors) run inside the test build itself:
# clippy-driver is rustc plus the lints, and as cargo's workspace wrapper it
# compiles our crates once, linted, while the dependencies are compiled once.
# A separate `cargo clippy` would type-check every dependency a second time
# (the AWS SDK crates: minutes on a fresh machine). The variables stay
# exported, so the suites below that call `cargo test --workspace --no-run`
# for the function binaries reuse this build. (A plain `cargo test` after
# this script recompiles our crates, not the dependencies.)
phase "clippy + cargo test build"
if driver="$(rustup which clippy-driver 2>/dev/null)" && [[ -x "$driver" ]]; then
  export RUSTC_WORKSPACE_WRAPPER="$driver"
  # cargo-clippy's own way of handing arguments to the driver.
  export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
  cargo test --workspace --locked --no-run
  cargo test --workspace --locked --benches --no-run
else
  cargo clippy --workspace --all-targets --locked -- -D warnings
fi

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
