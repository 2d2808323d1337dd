#!/usr/bin/env bash
# The demo (detect, alert, revert against a local AWS emulator) arrives with
# the AWS adapters and the emulator. Until then it replays the golden corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "realdrift demo: the AWS-emulator demo arrives with the AWS adapters."
echo "Meanwhile, replaying the golden corpus through the engine:"
cargo run --quiet --locked -p realdrift-cli -- corpus replay "${REALDRIFT_CORPUS_DIR:-../shared/corpus/cases}" --format summary
