#!/usr/bin/env bash
# Fuzzes every parser of untrusted input with cargo-fuzz (libFuzzer).
#
#   scripts/fuzz.sh [RUNS] [TARGET...]     RUNS defaults to 1000000 per target
#
# Stable toolchain: cargo-fuzz needs nightly flags, which RUSTC_BOOTSTRAP=1
# allows. Installs cargo-fuzz from crates.io when missing. Each target starts
# from the repository's real files of its kind (fuzz/seeds/ lists where) and
# keeps what it learns in fuzz/corpus/TARGET (not committed). A crash, a
# timeout (-timeout, seconds per input) or an allocation over -rss_limit_mb /
# -malloc_limit_mb stops the run non-zero and leaves the input in
# fuzz/artifacts/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${1:-1000000}"
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(template_json template_yaml cloudcontrol_model baseline_file ignore_file cloudtrail_event)
fi

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
# Its own target directory: sanitizer builds must not mix with the workspace's.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/fuzz/target}"

seeds() {
  case "$1" in
    template_json) echo core/tests/fixtures/templates tests/fixtures/app/RealdriftFixture.template.json ;;
    template_yaml) echo core/tests/fixtures/templates tests/fixtures/templates ;;
    cloudcontrol_model) echo fuzz/seeds/cloudcontrol_model ;;
    baseline_file) echo core/tests/fixtures/baselines/CdkRealDriftIntegS3NotifRich.111111111111.us-east-1.json core/tests/fixtures/baselines/legacy-v1.json ;;
    ignore_file) echo fuzz/seeds/ignore_file ;;
    cloudtrail_event) echo fuzz/seeds/cloudtrail_event ;;
  esac
}

for t in "${TARGETS[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  # libFuzzer takes seed directories; single seed files are copied in.
  dirs=("fuzz/corpus/$t")
  for s in $(seeds "$t"); do
    if [ -d "$s" ]; then dirs+=("$s"); else cp "$s" "fuzz/corpus/$t/"; fi
  done
  echo "== $t: $RUNS runs"
  start=$(date +%s)
  log="fuzz/corpus/$t.log"
  status=0
  (cd fuzz && cargo fuzz run -O "$t" "${dirs[@]/#/../}" -- \
      -runs="$RUNS" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
      -print_final_stats=1) >"$log" 2>&1 || status=$?
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done )|ERROR|panicked|SUMMARY" "$log" || true
  echo "== $t: exit $status after $(( $(date +%s) - start )) s (log: $log)"
  [ "$status" -eq 0 ] || { tail -40 "$log"; exit "$status"; }
done
