#!/usr/bin/env bash
# Measures the scan function for docs/functions.md:
#   1. the release zip (cargo lambda build --release --x86-64, as infra/ deploys it);
#   2. peak memory of the release binary scanning one N-resource stack (default
#      300 SQS queues) through the local Lambda runtime against the emulator:
#      a first scan (inventory), then every queue changed out of band and a
#      second scan (N findings, one notice rendered and published).
#
#   scripts/measure-scan.sh [N]
#
# Starts its own emulator (scripts/emulator.sh) and cargo lambda watch, and
# stops both on exit. Prints `zip_bytes=... peak_rss_kib=...`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
N="${1:-300}"
STACK=MeasureBig
BIN=realdrift-scan
VENV="${REALDRIFT_VENV:-$ROOT/.venv}"
WORK="$(mktemp -d)"
export REALDRIFT_EMULATOR_DIR="$WORK/emulator" REALDRIFT_MOTO_PORT=0 REALDRIFT_CLOUDCONTROL_PORT=0
WATCH_PID=""

cleanup() {
  # Only what this script started: the watch process group, the emulator.
  [[ -n "$WATCH_PID" ]] && kill -- "-$WATCH_PID" 2>/dev/null || true
  scripts/emulator.sh stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

eval "$(scripts/emulator.sh start)"
if [[ ! -x "$VENV/bin/cargo-lambda" ]]; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r infra/requirements.txt
fi
export PATH="$VENV/bin:$PATH"

echo "== release zip" >&2
cargo lambda build --release --x86-64 --bin "$BIN" --output-format zip --lambda-dir "$WORK/zips" >&2
ZIP_BYTES=$(stat -c %s "$WORK/zips/$BIN/bootstrap.zip")

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
set -m
cargo lambda watch --release --bin "$BIN" --ignore-changes -A 127.0.0.1 -P "$PORT" \
  --env-file "$WORK/around.env" >"$WORK/watch.log" 2>&1 &
WATCH_PID=$!
set +m
for _ in $(seq 300); do
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
  sleep 0.2
done

invoke() {
  echo '{"stacks": ["'"$STACK"'"]}' >"$WORK/event.json"
  cargo lambda invoke -A 127.0.0.1 -P "$PORT" --data-file "$WORK/event.json" "$BIN" >"$WORK/out.json" \
    || { cat "$WORK/watch.log" >&2; exit 1; }
}

echo "== first scan (inventory; builds the release binary on first use)" >&2
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

# The function process this script's watch started (watchexec gives it its
# own process group): the one whose runtime API is this watch's port.
FN_PID=""
for p in $(pgrep -x "$BIN" || true); do
  tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -q "^AWS_LAMBDA_RUNTIME_API=.*:$PORT" && FN_PID=$p
done
[[ -n "$FN_PID" ]] || { echo "function process not found" >&2; exit 1; }
PEAK_KIB=$(awk '/^VmHWM:/ {print $2}' "/proc/$FN_PID/status")
echo "resources=$N findings_and_announced=\"$FINDINGS\" zip_bytes=$ZIP_BYTES peak_rss_kib=$PEAK_KIB"
