#!/usr/bin/env bash
# Measurements of `realdrift check` against the local emulator (not a test):
#   1. AWS calls per resource in the fixture scan, by operation and type;
#   2. wall time of a check of a synthetic stack of N resources (queues, log
#      groups and topics created by one CreateStack) at --concurrency 1 and 16;
#   3. peak memory (max RSS) of each check.
#
#   scripts/bench-emulator.sh             # N=320
#   BENCH_RESOURCES=500 scripts/bench-emulator.sh
#   REALDRIFT_BIN=target/release/realdrift scripts/bench-emulator.sh
#
# The emulator is private (own state directory, free ports) and stopped on exit.
# The emulator's own cost dominates: moto answers each GetResource in about
# 0.1 s of Python, so these figures bound realdrift's overhead from above.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
N="${BENCH_RESOURCES:-320}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/realdrift-bench.XXXXXX")"
export REALDRIFT_EMULATOR_DIR="$WORK/emulator" REALDRIFT_MOTO_PORT=0 REALDRIFT_CLOUDCONTROL_PORT=0
trap 'scripts/emulator.sh stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

if [[ -z "${REALDRIFT_BIN:-}" ]]; then
  cargo build --quiet --locked -p realdrift-cli
  REALDRIFT_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/realdrift"
fi
eval "$(scripts/emulator.sh start)"
PY=.venv/bin/python

# Runs a check, prints "<seconds> <max RSS KiB>" and keeps the JSON report.
timed_check() {
  local out="$1"
  shift
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f '%e %M' -o "$WORK/time" "$REALDRIFT_BIN" check --json "$@" >"$out" || true
    cat "$WORK/time"
  else
    local t0 t1
    t0=$(date +%s.%N)
    "$REALDRIFT_BIN" check --json "$@" >"$out" || true
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc) n/a"
  fi
}

echo "== 1. fixture scan: AWS calls per resource"
$PY tests/emulator/deploy_fixture.py BenchFixture >/dev/null
timed_check "$WORK/fixture.json" BenchFixture >/dev/null
$PY - "$WORK/fixture.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
stack = doc["stacks"][0]
calls = stack["awsCalls"]["byOperation"]
cov = stack["coverage"]
read = cov["checked"]
print(f"resources: {cov['total']} in the template, {read} read, {cov['skipped']} skipped (emulator gaps)")
print(f"AWS calls for the stack: {stack['awsCalls']['total']} (+{doc['awsCalls']['total'] - stack['awsCalls']['total']} for discovery)")
for op, n in sorted(calls.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"  {op:45} {n}")
gets = calls.get("cloudcontrol:GetResource", 0)
print(f"cloudcontrol:GetResource per Cloud Control resource: {gets} / 8 = {gets / 8:.2f}")
PY

echo
echo "== 2. synthetic stack of $N resources"
$PY - "$N" "$WORK/synthetic.json" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
kinds = [
    ("Queue", "AWS::SQS::Queue", lambda i: {"VisibilityTimeout": 30 + i % 5}),
    ("Logs", "AWS::Logs::LogGroup", lambda i: {"RetentionInDays": 7}),
    ("Topic", "AWS::SNS::Topic", lambda i: {"DisplayName": f"topic {i}"}),
]
resources = {}
for i in range(n):
    name, rtype, props = kinds[i % len(kinds)]
    resources[f"{name}{i:04d}"] = {"Type": rtype, "Properties": props(i)}
json.dump({"AWSTemplateFormatVersion": "2010-09-09", "Resources": resources}, open(path, "w"))
PY
t0=$(date +%s)
$PY - "$WORK/synthetic.json" <<'PY'
import json, os, sys, time
sys.path.insert(0, "tests/emulator")
from cloudcontrol.aws import Aws
aws = Aws(os.environ["AWS_ENDPOINT_URL"])
aws.cloudformation.create_stack(StackName="Synthetic", TemplateBody=open(sys.argv[1]).read())
deadline = time.monotonic() + 600
while True:
    s = aws.cloudformation.describe_stacks(StackName="Synthetic")["Stacks"][0]["StackStatus"]
    if s == "CREATE_COMPLETE":
        break
    if not s.endswith("IN_PROGRESS") or time.monotonic() > deadline:
        sys.exit(f"Synthetic ended in {s}")
    time.sleep(0.5)
PY
echo "CreateStack of $N resources: $(($(date +%s) - t0)) s"
for c in 1 16; do
  read -r secs kib < <(timed_check "$WORK/synthetic-$c.json" Synthetic --concurrency "$c")
  $PY - "$WORK/synthetic-$c.json" "$c" "$secs" "$kib" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
s = doc["stacks"][0]
calls = s["awsCalls"]["byOperation"]
kib = sys.argv[4]
mem = f"{int(kib) / 1024:.1f} MiB" if kib.isdigit() else kib
print(f"--concurrency {sys.argv[2]:>2}: {sys.argv[3]} s wall, peak RSS {mem}, "
      f"{s['coverage']['checked']}/{s['coverage']['total']} checked, status {s['status']}, "
      f"drift {s['drift']}, potential {s['potentialDrift']}, "
      f"GetResource {calls.get('cloudcontrol:GetResource', 0)}, AWS calls {s['awsCalls']['total']}")
PY
done
