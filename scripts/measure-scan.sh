#!/usr/bin/env bash
# Measures the scan function for docs/functions.md:
#   1. the zip infra/ deploys (scripts/build-functions.sh --x86-64, lambda profile);
#   2. peak memory of the zip's own `bootstrap` scanning one N-resource stack
#      (default 300 SQS queues) through the local Lambda runtime against the
#      emulator: a first scan (inventory), then every queue changed out of
#      band and a second scan (N findings, one notice rendered and published);
#   3. each scan's duration as the function logs it (`ScanDuration`, the
#      emulator's answer times, not AWS's) and the CPU time it used.
#
#   scripts/measure-scan.sh [N] [LAMBDA_DIR]
#
# LAMBDA_DIR: zips already built by scripts/build-functions.sh (skips the
# build). Starts its own emulator (scripts/emulator.sh), the runtime API
# (cargo lambda watch --only-lambda-apis) and the function, and stops them on
# exit. Prints `zip_bytes=... peak_rss_kib=... scan_ms=... cpu_ms=...`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
N="${1:-300}"
ZIPS="${2:-}"
STACK=MeasureBig
BIN=realdrift-scan
VENV="${REALDRIFT_VENV:-$ROOT/.venv}"
WORK="$(mktemp -d)"
export REALDRIFT_EMULATOR_DIR="$WORK/emulator" REALDRIFT_MOTO_PORT=0 REALDRIFT_CLOUDCONTROL_PORT=0
WATCH_PID=""
FN_PID=""

cleanup() {
  # Only what this script started: the function, the watch, the emulator.
  [[ -n "$FN_PID" ]] && kill "$FN_PID" 2>/dev/null || true
  [[ -n "$WATCH_PID" ]] && kill "$WATCH_PID" 2>/dev/null || true
  scripts/emulator.sh stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

eval "$(scripts/emulator.sh start)"
if [[ ! -x "$VENV/bin/cargo-lambda" ]]; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r infra/requirements.txt
fi
export PATH="$VENV/bin:$PATH"

if [[ -z "$ZIPS" ]]; then
  echo "== function zips (scripts/build-functions.sh --x86-64)" >&2
  ZIPS="$WORK/zips"
  scripts/build-functions.sh --x86-64 --lambda-dir "$ZIPS" >/dev/null
fi
ZIP_BYTES=$(stat -c %s "$ZIPS/$BIN/bootstrap.zip")
"$VENV/bin/python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("bootstrap", sys.argv[2])' \
  "$ZIPS/$BIN/bootstrap.zip" "$WORK"
chmod +x "$WORK/bootstrap"

echo "== $N-resource stack on the emulator" >&2
"$VENV/bin/python" - "$N" "$WORK/big.json" <<'PY'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
resources = {
    f"Queue{i:03d}": {
        "Type": "AWS::SQS::Queue",
        "Properties": {"QueueName": f"measure-q{i:03d}", "VisibilityTimeout": 30, "DelaySeconds": 5},
    }
    for i in range(n)
}
json.dump({"Resources": resources}, open(out, "w"))
PY
"$VENV/bin/python" tests/emulator/deploy_fixture.py "$STACK" --template "$WORK/big.json" >/dev/null
"$VENV/bin/python" - <<'PY' >"$WORK/around.env"
import boto3, os
s = boto3.session.Session(region_name=os.environ.get("AWS_REGION", "us-east-1"))
ep = os.environ["AWS_ENDPOINT_URL"]
s.client("s3", endpoint_url=ep).create_bucket(Bucket="realdrift-measure")
topic = s.client("sns", endpoint_url=ep).create_topic(Name="realdrift-measure")["TopicArn"]
print(f"REALDRIFT_BUCKET=realdrift-measure\nREALDRIFT_TOPIC_ARN={topic}\nRUST_LOG=warn")
PY
env | grep -E '^AWS_' >>"$WORK/around.env"

PORT=$("$VENV/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cargo lambda watch --only-lambda-apis -A 127.0.0.1 -P "$PORT" >"$WORK/watch.log" 2>&1 &
WATCH_PID=$!
for _ in $(seq 300); do
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
  sleep 0.2
done
# The zip's binary, as Lambda would run it, polling this runtime API.
(
  set -a
  # shellcheck disable=SC1091
  . "$WORK/around.env"
  exec env AWS_LAMBDA_FUNCTION_NAME="$BIN" AWS_LAMBDA_FUNCTION_VERSION=1 \
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE=512 AWS_LAMBDA_RUNTIME_API="http://127.0.0.1:$PORT/.rt" \
    "$WORK/bootstrap"
) >>"$WORK/watch.log" 2>&1 &
FN_PID=$!

# CPU seconds (user + system, in clock ticks) the function process has used.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$FN_PID/stat"; }
TICK_MS=$((1000 / $(getconf CLK_TCK)))
CPU_MS=()
invoke() {
  echo '{"stacks": ["'"$STACK"'"]}' >"$WORK/event.json"
  local before
  before=$(cpu_ticks)
  cargo lambda invoke -A 127.0.0.1 -P "$PORT" --data-file "$WORK/event.json" _ >"$WORK/out.json" \
    || { cat "$WORK/watch.log" >&2; exit 1; }
  CPU_MS+=($(( ($(cpu_ticks) - before) * TICK_MS )))
}

echo "== first scan (inventory)" >&2
invoke
echo "== every queue changed out of band, second scan" >&2
"$VENV/bin/python" - "$N" <<'PY'
import boto3, os, sys
sqs = boto3.client("sqs", region_name=os.environ.get("AWS_REGION", "us-east-1"), endpoint_url=os.environ["AWS_ENDPOINT_URL"])
for i in range(int(sys.argv[1])):
    url = sqs.get_queue_url(QueueName=f"measure-q{i:03d}")["QueueUrl"]
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": "60"})
PY
invoke
FINDINGS=$("$VENV/bin/python" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["stacks"][0]["findings"]), " ".join(d["announced"]["'"$STACK"'"]))' "$WORK/out.json")

PEAK_KIB=$(awk '/^VmHWM:/ {print $2}' "/proc/$FN_PID/status")
# The function's own per-stack duration log field, first scan then second.
SCAN_MS=$("$VENV/bin/python" -c '
import json, sys
ms = []
for line in open(sys.argv[1], errors="replace"):
    try:
        d = json.loads(line[line.index("{"):])
    except ValueError:
        continue
    if isinstance(d, dict) and "ScanDuration" in d:
        ms.append(str(d["ScanDuration"]))
print(",".join(ms))' "$WORK/watch.log")
echo "resources=$N findings_and_announced=\"$FINDINGS\" zip_bytes=$ZIP_BYTES peak_rss_kib=$PEAK_KIB scan_ms=$SCAN_MS cpu_ms=$(IFS=,; echo "${CPU_MS[*]}")"
