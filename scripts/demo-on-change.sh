#!/usr/bin/env bash
# The on-change part of the demo: a console-style change plus its CloudTrail
# event go through the on-change function (in a local Lambda runtime), and
# the SNS document and Slack message it produced are shown.
#
#   scripts/demo-on-change.sh STACK WORKDIR
#
# Called by scripts/demo.sh with the emulator running (AWS_* exported) and
# STACK deployed from the fixture. Starts `cargo lambda watch` (cargo-lambda
# from .venv, installed from infra/requirements.txt when missing) and a local
# Slack webhook receiver; stops both (by their process ids) on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
STACK="$1"
WORK="$2"
PY=.venv/bin/python
ACCOUNT=123456789012
REVERT_ROLE="arn:aws:iam::$ACCOUNT:role/realdrift-revert"

step() {
  if [[ -t 2 ]]; then printf '\n\033[1m== %s\033[0m\n' "$*" >&2; else printf '\n== %s\n' "$*" >&2; fi
}

PIDS=()
stop_started() {
  for pid in "${PIDS[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
}
trap stop_started EXIT

[[ -x .venv/bin/cargo-lambda ]] || .venv/bin/pip install --quiet --disable-pip-version-check -r infra/requirements.txt >&2

free_port() { $PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

step "a local Slack webhook receiver, and the realdrift bucket, topic (with a queue subscribed) and Slack secret"
mkdir -p "$WORK/slack"
SLACK_PORT="$(free_port)"
setsid $PY - "$SLACK_PORT" "$WORK/slack" >/dev/null 2>&1 <<'PY' &
import http.server, os, sys
port, out = int(sys.argv[1]), sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        n = len(os.listdir(out))
        open(os.path.join(out, f"{n:03}.json"), "wb").write(body)
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
PY
PIDS+=($!)
AROUND="$($PY tests/e2e/scan_world.py setup "http://127.0.0.1:$SLACK_PORT/services/T000/B000/demo")"
field() { $PY -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$AROUND" "$1"; }
BUCKET="$(field bucket)"; TOPIC="$(field topic)"; ALERTS="$(field alerts)"; SECRET="$(field secret)"

step "the scan and on-change functions in a local Lambda runtime (cargo lambda watch; the first invoke builds them)"
LAMBDA_PORT="$(free_port)"
env | grep -E '^AWS_' >"$WORK/lambda.env"
cat >>"$WORK/lambda.env" <<ENV
REALDRIFT_BUCKET=$BUCKET
REALDRIFT_TOPIC_ARN=$TOPIC
REALDRIFT_SLACK_SECRET_ID=$SECRET
REALDRIFT_REVERT_ROLE_ARN=$REVERT_ROLE
RUST_LOG=warn
ENV
PATH="$ROOT/.venv/bin:$PATH" setsid cargo lambda watch --invoke-address 127.0.0.1 --invoke-port "$LAMBDA_PORT" \
  --ignore-changes --env-file "$WORK/lambda.env" >"$WORK/lambda.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 150); do
  (exec 3<>"/dev/tcp/127.0.0.1/$LAMBDA_PORT") 2>/dev/null && break
  sleep 0.2
done
invoke() { # FUNCTION FILE
  PATH="$ROOT/.venv/bin:$PATH" cargo lambda invoke --invoke-address 127.0.0.1 --invoke-port "$LAMBDA_PORT" \
    --output-format json --data-file "$2" "$1"
}

step "a scan of $STACK writes its state and the resource index on-change looks events up in"
echo "{\"stacks\": [\"$STACK\"]}" >"$WORK/scan.json"
invoke realdrift-scan "$WORK/scan.json" >/dev/null
$PY tests/e2e/scan_world.py alerts "$ALERTS" >/dev/null # what the scan announced: not this part's subject
rm -f "$WORK"/slack/*

step "a console-style change: a second principal trusted by the worker role, and its CloudTrail event"
ROLE="$($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(next(r["physicalId"] for r in d["resources"] if r["logicalId"]=="WorkerRole8DD27D41"))' "$WORK/deploy.json")"
# A real record (stratus-red-team's role trust backdoor) with the fixture's names swapped in.
$PY - "$ROLE" "$ACCOUNT" "$WORK" <<'PY'
import datetime, json, sys
role, account, work = sys.argv[1:4]
records = json.load(open("../shared/cloudtrail/datadog_stratus-red-team_detonation-logs.json"))
r = next(x for x in records if x["eventName"] == "UpdateAssumeRolePolicy")
r["requestParameters"]["roleName"] = role
r["userIdentity"]["accountId"] = r["recipientAccountId"] = account
r["userIdentity"]["arn"] = f"arn:aws:iam::{account}:user/christophe"
r["awsRegion"] = "us-east-1"
r["eventTime"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
event = {"version": "0", "id": "demo", "detail-type": "AWS API Call via CloudTrail", "source": "aws.iam",
         "account": account, "time": r["eventTime"], "region": "us-east-1", "resources": [], "detail": r}
sqs = {"Records": [{"messageId": "demo-1", "receiptHandle": "h", "body": json.dumps(event), "attributes": {},
                    "messageAttributes": {}, "eventSource": "aws:sqs", "awsRegion": "us-east-1",
                    "eventSourceARN": f"arn:aws:sqs:us-east-1:{account}:realdrift-changes"}]}
json.dump(sqs, open(f"{work}/sqs-event.json", "w"))
open(f"{work}/policy.json", "w").write(r["requestParameters"]["policyDocument"])
PY
$PY tests/e2e/mutate.py "$($PY -c 'import json,sys; print(json.dumps([["trust-policy", sys.argv[1], open(sys.argv[2]).read()]]))' "$ROLE" "$WORK/policy.json")"
echo "  iam update-assume-role-policy   $ROLE  (+ arn:aws:iam::193672423079:root), by user/christophe" >&2

step "on-change handles the SQS message wrapping that event"
invoke realdrift-on-change "$WORK/sqs-event.json"
echo >&2

step "the SNS document it published (read from a queue subscribed to the topic)"
$PY tests/e2e/scan_world.py alerts "$ALERTS" | $PY -c 'import json,sys
for n in json.load(sys.stdin):
    print("subject:", n.get("Subject"))
    print(json.dumps(json.loads(n["Message"]), indent=2))'

step "the Slack message it posted (Block Kit, as the webhook received it)"
for f in "$WORK"/slack/*; do $PY -m json.tool "$f"; done
